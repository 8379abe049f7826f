#include "deploymentlink.h"

#include "comparisonlink.h"
#include "timeline/timelineviewport.h"

#include <cmath>

namespace lmct {

DeploymentLink::DeploymentLink(QObject *parent) : QObject(parent) {}

void DeploymentLink::setTraces(const TraceSet &set, const QList<ViewState *> &states) {
    for (const QPointer<ViewState> &s : std::as_const(m_states)) {
        if (s) {
            disconnect(s, nullptr, this, nullptr);
        }
    }
    for (const QPointer<TimelineViewport> &v : std::as_const(m_views)) {
        if (v) {
            disconnect(v, nullptr, this, nullptr);
        }
    }
    m_set = set;
    m_states.clear();
    m_views.clear();
    for (int t = 0; t < states.size(); ++t) {
        ViewState *s = states[t];
        m_states.append(s);
        m_views.append(nullptr);
        if (!s) {
            continue;
        }
        connect(s, &ViewState::timeRangeChanged, this, [this, t] { onTimeRange(t); });
        connect(s, &ViewState::selectedRecordChanged, this,
                [this, t](int record) { onSelection(t, record); });
    }
    m_current = states.isEmpty() ? -1 : 0;
}

void DeploymentLink::setSet(const TraceSet &set) {
    m_set = set;
    const int from = m_current >= 0 ? m_current : 0;
    if (from < count()) {
        onTimeRange(from);
        alignWindows(from);
    }
    emit mappingChanged();
}

ViewState *DeploymentLink::state(int t) const {
    return t >= 0 && t < count() ? m_states[t].data() : nullptr;
}

int DeploymentLink::traceOf(const ViewState *state) const {
    for (int t = 0; t < count(); ++t) {
        if (m_states[t] == state) {
            return t;
        }
    }
    return -1;
}

double DeploymentLink::origin() const {
    double o = qQNaN();
    for (int t = 0; t < m_set.size(); ++t) {
        const double w = ComparisonLink::wallStart(m_set.document(t)) + m_set.offset(t);
        if (std::isfinite(w) && !(w >= o)) {
            o = w;
        }
    }
    return o;
}

double DeploymentLink::base(int t) const {
    if (t < 0 || t >= m_set.size()) {
        return 0.0;
    }
    const double b = ComparisonLink::wallStart(m_set.document(t)) + m_set.offset(t) - origin();
    return std::isfinite(b) ? b : 0.0;
}

void DeploymentLink::linkViewport(int t, TimelineViewport *viewport) {
    if (t < 0 || t >= count()) {
        return;
    }
    if (m_views[t]) {
        disconnect(m_views[t], nullptr, this, nullptr);
    }
    m_views[t] = viewport;
    if (viewport) {
        connect(viewport, &TimelineViewport::windowChanged, this,
                [this, t](double lower, double upper) { onWindow(t, lower, upper); });
    }
}

void DeploymentLink::alignWindows(int from) {
    if (from >= 0 && from < count() && m_views[from]) {
        const TimelineViewport::Range w = m_views[from]->window();
        onWindow(from, w.lower, w.upper);
    }
}

void DeploymentLink::onTimeRange(int from) {
    ViewState *src = state(from);
    if (m_syncing || !src) {
        return;
    }
    const std::optional<ViewState::TimeRange> range = src->timeRange();
    m_syncing = true;
    for (int t = 0; t < count(); ++t) {
        if (t == from || !m_states[t]) {
            continue;
        }
        std::optional<ViewState::TimeRange> mapped;
        if (range) {
            mapped = ViewState::TimeRange{map(from, t, range->from), map(from, t, range->to)};
        }
        m_states[t]->setTimeRange(mapped);
    }
    m_syncing = false;
}

void DeploymentLink::onSelection(int from, int record) {
    if (m_syncing || record < 0) {
        return;
    }
    m_syncing = true;
    for (int t = 0; t < count(); ++t) {
        if (t != from && m_states[t]) {
            m_states[t]->setSelectedRecord(-1);
        }
    }
    m_syncing = false;
    if (m_current != from) {
        m_current = from;
        emit currentTraceChanged(from);
    }
}

void DeploymentLink::setCurrentTrace(int t) {
    if (t >= 0 && t < count() && t != m_current) {
        m_current = t;
        emit currentTraceChanged(t);
    }
}

void DeploymentLink::onWindow(int from, double lower, double upper) {
    if (m_syncing) {
        return;
    }
    m_syncing = true;
    for (int t = 0; t < count(); ++t) {
        if (t != from && m_views[t]) {
            m_views[t]->showWindow(map(from, t, lower), map(from, t, upper));
        }
    }
    m_syncing = false;
}

}  // namespace lmct
