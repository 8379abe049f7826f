#include "timeline/timelineviewport.h"

#include "timeline/timelineindex.h"

#include <algorithm>
#include <cmath>

namespace lmct {

namespace {
constexpr int kBurstMs = 700;  // moves closer than this are one history entry
constexpr int kMaxHistory = 200;
}  // namespace

TimelineViewport::TimelineViewport(QObject *parent) : QObject(parent) {}

void TimelineViewport::setTrace(bool any, double minTime, double maxTime) {
    m_any = any;
    m_minTime = minTime;
    m_maxTime = maxTime;
}

TimelineViewport::Range TimelineViewport::traceRange() const {
    if (!m_any) {
        return Range{0.0, 1.0};
    }
    double lo = m_minTime, hi = m_maxTime;
    if (hi - lo < 1e-3) {
        const double c = (lo + hi) / 2;
        lo = c - 5e-4;
        hi = c + 5e-4;
    }
    return Range{lo, hi};
}

std::optional<TimelineViewport::Range> TimelineViewport::windowFor(double from, double to) const {
    const Range trace = traceRange();
    const double lo = std::isfinite(from) ? std::max(from, trace.lower) : trace.lower;
    const double hi = std::isfinite(to) ? std::min(to, trace.upper) : trace.upper;
    if (!(hi > lo)) {
        return std::nullopt;
    }
    return Range{lo, hi};
}

void TimelineViewport::setWindow(double from, double to) {
    if (!(to > from) || !std::isfinite(from) || !std::isfinite(to)) {
        return;
    }
    // A window that fits in 1.5 times the trace keeps its width (pans and zooms): its centre
    // stays within the trace and the window within that limit, so panning stops at an edge. A
    // wider one shows its part inside the limit (a window reaching far past the trace keeps
    // where it starts or ends inside it, instead of being re-centred).
    const Range d = traceRange();
    const double margin = d.size() * 0.25 + 5e-7;
    const double lo = d.lower - margin, hi = d.upper + margin;
    const double w = to - from;
    double a = 0.0, b = 0.0;
    if (w <= hi - lo) {
        const double c = std::min(std::max((from + to) / 2, d.lower), d.upper);
        a = std::min(std::max(c - w / 2, lo), hi - w);
        b = a + w;
    } else {
        a = std::max(from, lo);
        b = std::min(to, hi);
    }
    if (!(b - a >= kMinViewSeconds)) {
        const double c = (a + b) / 2;
        a = c - kMinViewSeconds / 2;
        b = c + kMinViewSeconds / 2;
    }
    m_fitted = false;
    if (!m_tracking && m_keepNewest) {
        setKeepNewest(false);  // moved by hand (fitAll() restores it)
    }
    moveTo(a, b);
}

void TimelineViewport::showWindow(double from, double to) {
    moveTo(from, to);
}

void TimelineViewport::moveTo(double from, double to) {
    if (m_window.lower == from && m_window.upper == to) {
        return;
    }
    m_window = Range{from, to};
    emit windowChanged(from, to);
}

void TimelineViewport::noteNavigation() {
    // one history entry per burst of navigation (wheel, keys, drags in a row)
    if (!m_lastNavigation.isValid() || m_lastNavigation.elapsed() > kBurstMs) {
        if (m_history.isEmpty() || m_history.last() != m_window) {
            m_history.append(m_window);
            if (m_history.size() > kMaxHistory) {
                m_history.removeFirst();
            }
        }
        emit historyChanged(true);
    }
    m_lastNavigation.restart();
}

void TimelineViewport::beginNavigation() {
    m_lastNavigation.invalidate();
    noteNavigation();
}

void TimelineViewport::continueNavigation() {
    m_lastNavigation.restart();
}

void TimelineViewport::noteJump() {
    beginNavigation();
    m_lastNavigation.invalidate();
}

bool TimelineViewport::back() {
    if (m_history.isEmpty()) {
        return false;
    }
    const Range r = m_history.takeLast();
    m_lastNavigation.invalidate();
    setWindow(r.lower, r.upper);
    emit historyChanged(canGoBack());
    return true;
}

void TimelineViewport::resetHistory() {
    m_history.clear();
    m_fitted = true;
    emit historyChanged(false);
}

void TimelineViewport::fitAll() {
    noteJump();
    const Range d = traceRange();
    const double pad = d.size() * 0.01;
    m_tracking = true;  // fitting shows the newest record too: keep newest stays on
    setWindow(d.lower - pad, d.upper + pad);
    m_tracking = false;
    m_fitted = true;
}

void TimelineViewport::refit() {
    const QVector<Range> keep = m_history;
    fitAll();
    m_history = keep;
    emit historyChanged(canGoBack());
}

void TimelineViewport::zoomBy(double factor, double anchor) {
    const Range r = m_window;
    noteNavigation();
    setWindow(anchor - (anchor - r.lower) * factor, anchor + (r.upper - anchor) * factor);
}

void TimelineViewport::panBy(double fraction) {
    const Range r = m_window;
    noteNavigation();
    setWindow(r.lower + fraction * r.size(), r.upper + fraction * r.size());
}

void TimelineViewport::fitTo(std::optional<Range> target) {
    const Range v = m_window;
    const bool already = target && std::abs(v.lower - target->lower) < 0.02 * target->size() &&
                         std::abs(v.upper - target->upper) < 0.02 * target->size();
    if (target && !already) {
        noteJump();
        setWindow(target->lower, target->upper);
    } else {
        fitAll();
    }
}

void TimelineViewport::reveal(double t) {
    const Range r = m_window;
    if (!std::isfinite(t) || (t >= r.lower + 0.02 * r.size() && t <= r.upper - 0.02 * r.size())) {
        return;
    }
    // centre it, keeping the zoom, without showing more than a margin beyond the trace
    const Range d = traceRange();
    const double pad = 0.01 * std::max(d.size(), r.size());
    double lo = t - r.size() / 2;
    if (r.size() <= d.size() + 2 * pad) {
        lo = std::clamp(lo, d.lower - pad, d.upper + pad - r.size());
    }
    noteJump();
    setWindow(lo, lo + r.size());
}

void TimelineViewport::centreOn(double t) {
    const Range r = m_window;
    if (std::abs((r.lower + r.upper) / 2 - t) > 1e-9 * std::max(1.0, std::abs(t))) {
        noteJump();
        setWindow(t - r.size() / 2, t + r.size() / 2);
    }
}

void TimelineViewport::setKeepNewest(bool on) {
    if (on == m_keepNewest) {
        return;
    }
    m_keepNewest = on;
    emit keepNewestChanged(on);
    if (on && !m_fitted) {
        trackNewest();
    }
}

void TimelineViewport::trackNewest() {
    if (!m_any) {
        return;
    }
    const Range r = m_window;
    const double w = r.size();
    const double right = m_maxTime + 0.02 * w;  // a margin past the newest tick
    if (std::abs(r.upper - right) <= 1e-12 * std::max(1.0, std::abs(right))) {
        return;
    }
    m_tracking = true;
    setWindow(right - w, right);
    m_tracking = false;
}

std::optional<TimelineViewport::Range> TimelineViewport::aroundRecord(const TimelineIndex &index,
                                                                      const RecordStore &records,
                                                                      int record) {
    const RecordStore &rs = records;
    const int pos = index.positionOf(rs, record);
    if (pos < 0) {
        return std::nullopt;
    }
    // wide enough to separate the record from its 20 neighbours on each side
    const auto &ts = index.lane(int(rs.qualnameId(record))).times;
    const double t = rs.tMono(record);
    const double lo = ts.at(std::max(0, pos - 20));
    const double hi = ts.at(std::min(ts.size() - 1, pos + 20));
    const double w = std::max({2 * (t - lo), 2 * (hi - t), 1e-5});
    return Range{t - w / 2, t + w / 2};
}

}  // namespace lmct
