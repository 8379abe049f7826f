#include "comparisonlink.h"

#include "timeline/timelineviewport.h"
#include "trace/recordstore.h"

#include <cmath>

namespace lmct {

ComparisonLink::ComparisonLink(ViewState *a, ViewState *b, QObject *parent)
    : QObject(parent), m_a(a), m_b(b) {
    for (const Side s : {Side::A, Side::B}) {
        ViewState *v = s == Side::A ? a : b;
        if (!v) {
            continue;
        }
        connect(v, &ViewState::filterTextChanged, this, [this, s] { onFilterText(s); });
        connect(v, &ViewState::timeRangeChanged, this, [this, s] { onTimeRange(s); });
        connect(v, &ViewState::selectedRecordChanged, this,
                [this, s](int record) { onSelection(s, record); });
    }
}

void ComparisonLink::setAlignment(Alignment alignment) {
    if (alignment == m_alignment) {
        return;
    }
    m_alignment = alignment;
    remap();
}

void ComparisonLink::setOffset(double seconds) {
    if (!std::isfinite(seconds) || seconds == m_offset) {
        return;
    }
    m_offset = seconds;
    remap();
}

double ComparisonLink::wallStart(const TraceDocument &doc) {
    if (const auto w = doc.header().tWallStart(); w && std::isfinite(*w)) {
        return *w;
    }
    const RecordStore &r = doc.records();
    if (!r.isEmpty()) {
        const double w = r.tWall(0) - r.tMono(0);
        if (std::isfinite(w)) {
            return w;
        }
    }
    return qQNaN();
}

double ComparisonLink::base() const {
    if (m_alignment != Alignment::Wall || !m_a || !m_b || !m_a->document() || !m_b->document()) {
        return 0.0;
    }
    const double d = wallStart(*m_b->document()) - wallStart(*m_a->document());
    return std::isfinite(d) ? d : 0.0;
}

QString ComparisonLink::wallReason() const {
    for (const Side s : {Side::A, Side::B}) {
        const ViewState *v = s == Side::A ? m_a.data() : m_b.data();
        if (!v || !v->document()) {
            return tr("%1 is not loaded").arg(s == Side::A ? QLatin1Char('A') : QLatin1Char('B'));
        }
        if (!std::isfinite(wallStart(*v->document()))) {
            return tr("%1 has no t_wall (no t_wall_start and no record)")
                .arg(s == Side::A ? QLatin1Char('A') : QLatin1Char('B'));
        }
    }
    return {};
}

int ComparisonLink::nearestRecord(const RecordStore &records, const QString &qualname, double t) {
    const int id = records.qualnameIdOf(qualname);
    if (id < 0 || !std::isfinite(t)) {
        return -1;
    }
    int best = -1;
    double bestDistance = 0.0;
    const int n = records.size();
    for (int i = 0; i < n; ++i) {
        if (records.qualnameId(i) != quint32(id)) {
            continue;
        }
        const double d = std::fabs(records.tMono(i) - t);
        if (best < 0 || d < bestDistance) {
            best = i;
            bestDistance = d;
        }
    }
    return best;
}

void ComparisonLink::onFilterText(Side from) {
    ViewState *src = from == Side::A ? m_a.data() : m_b.data();
    ViewState *dst = from == Side::A ? m_b.data() : m_a.data();
    if (m_syncing || !src || !dst || dst->filterText() == src->filterText()) {
        return;
    }
    m_syncing = true;
    dst->setFilterText(src->filterText());
    m_syncing = false;
}

void ComparisonLink::onTimeRange(Side from) {
    ViewState *src = from == Side::A ? m_a.data() : m_b.data();
    ViewState *dst = from == Side::A ? m_b.data() : m_a.data();
    if (m_syncing || !src || !dst) {
        return;
    }
    std::optional<ViewState::TimeRange> range = src->timeRange();
    if (range) {
        const auto map = [this, from](double t) { return from == Side::A ? toB(t) : toA(t); };
        range = ViewState::TimeRange{map(range->from), map(range->to)};
    }
    m_syncing = true;
    dst->setTimeRange(range);
    m_syncing = false;
}

void ComparisonLink::onSelection(Side from, int record) {
    ViewState *src = from == Side::A ? m_a.data() : m_b.data();
    ViewState *dst = from == Side::A ? m_b.data() : m_a.data();
    if (m_syncing || !src || !dst) {
        return;
    }
    int target = -1;
    const auto srcDoc = src->document();
    const auto dstDoc = dst->document();
    if (record >= 0 && srcDoc && dstDoc && record < srcDoc->records().size()) {
        const RecordStore &r = srcDoc->records();
        const double t = from == Side::A ? toB(r.tMono(record)) : toA(r.tMono(record));
        target = nearestRecord(dstDoc->records(), r.qualname(record), t);
    }
    m_syncing = true;
    dst->setSelectedRecord(target);
    m_syncing = false;
}

void ComparisonLink::linkViewports(TimelineViewport *a, TimelineViewport *b) {
    if (m_viewA) {
        disconnect(m_viewA, nullptr, this, nullptr);
    }
    if (m_viewB) {
        disconnect(m_viewB, nullptr, this, nullptr);
    }
    m_viewA = a;
    m_viewB = b;
    if (a) {
        connect(a, &TimelineViewport::windowChanged, this,
                [this](double lower, double upper) { onWindow(Side::A, lower, upper); });
    }
    if (b) {
        connect(b, &TimelineViewport::windowChanged, this,
                [this](double lower, double upper) { onWindow(Side::B, lower, upper); });
    }
}

void ComparisonLink::onWindow(Side from, double lower, double upper) {
    TimelineViewport *dst = from == Side::A ? m_viewB.data() : m_viewA.data();
    if (m_syncing || !dst) {
        return;
    }
    m_syncing = true;
    if (from == Side::A) {
        dst->showWindow(toB(lower), toB(upper));
    } else {
        dst->showWindow(toA(lower), toA(upper));
    }
    m_syncing = false;
}

void ComparisonLink::alignWindows() {
    if (m_viewA) {
        onWindow(Side::A, m_viewA->window().lower, m_viewA->window().upper);
    }
}

void ComparisonLink::remap() {
    if (m_a) {
        onTimeRange(Side::A);
        if (m_a->selectedRecord() >= 0) {
            onSelection(Side::A, m_a->selectedRecord());
        }
    }
    alignWindows();
    emit mappingChanged();
}

}  // namespace lmct
