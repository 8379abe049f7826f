#include "cache/followedtrail.h"

#include "cache/keylifecyclerules.h"
#include "codec/recordfacts.h"
#include "timeline/finishreadplacement.h"
#include "trace/packedargsdecoder.h"
#include "util/timeformat.h"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace lmct {

std::vector<int> FollowedTrail::notReads(const TraceDocument &doc,
                                         const std::vector<int> &records) {
    using Call = KeyAnalysis::Call;
    std::vector<int> recs(records);
    std::sort(recs.begin(), recs.end());
    recs.erase(std::unique(recs.begin(), recs.end()), recs.end());
    const RecordStore &store = doc.records();
    PackedArgsDecoder decoder(doc);
    RecordFacts facts;
    FinishReadPlacement placement;
    std::vector<int> out;
    for (const int r : recs) {
        if (r < 0 || r >= store.size()) {
            continue;
        }
        const Call call = KeyAnalysis::callOf(store.qualname(r));
        if (call != Call::ReadEnter && call != Call::ReadExit && call != Call::Release &&
            call != Call::FinishRead) {
            continue;
        }
        const PackedValue args = decoder.decode(r);
        if (!args.isValid()) {
            continue;
        }
        facts.reset(args);
        const quint64 list = facts.keyListHash();
        switch (call) {
            case Call::ReadEnter:
                placement.enter(list, r);
                break;
            case Call::ReadExit:
                placement.exit(list, store.tMono(r));
                break;
            case Call::Release:
                placement.release(list, r, facts.keyCount() > 0);
                break;
            default: {
                qint32 owner = -1;
                if (placement.finish(list, r, store.tMono(r), &owner) !=
                    FinishReadPlacement::Role::Read) {
                    out.push_back(r);
                }
                break;
            }
        }
    }
    return out;
}

FollowedTrail FollowedTrail::build(const RecordStore &store, const std::vector<int> &records,
                                   int cap, const std::vector<int> &notReads) {
    FollowedTrail ft;
    std::vector<int> recs;
    recs.reserve(std::min(records.size(), size_t(std::max(0, cap))));
    const int n = store.size();
    for (int r : records) {
        if (r >= 0 && r < n && std::isfinite(store.tMono(r))) {
            recs.push_back(r);
        }
    }
    std::sort(recs.begin(), recs.end());
    recs.erase(std::unique(recs.begin(), recs.end()), recs.end());
    if (int(recs.size()) > cap) {
        recs.resize(size_t(std::max(0, cap)));
        ft.m_truncated = true;
    }
    // Meanings in file order by KeyLifecycleRules (as KeyLifecycle::build derives them);
    // startOf: the record where an event's meaning starts (its reservation, the first finish),
    // or -1.
    std::vector<Event> ev;
    std::vector<qint32> startOf;
    ev.reserve(recs.size());
    startOf.reserve(recs.size());
    KeyLifecycleRules rules;
    for (int r : recs) {
        Event e;
        e.record = r;
        e.t = store.tMono(r);
        e.lane = store.qualnameId(r);
        e.call = KeyAnalysis::callOf(store.qualname(r));
        qint32 start = -1;
        const bool isRead = e.call != KeyAnalysis::Call::FinishRead ||
                            !std::binary_search(notReads.begin(), notReads.end(), r);
        const KeyLifecycleRules::Step step = rules.next(e.call, e.record, e.t, isRead);
        if (step.reservation.isValid()) {
            e.meaning = Meaning::WriteLatency;
            e.figure = e.t - step.reservation.t;
            start = step.reservation.record;
        } else if (step.firstFinish.isValid()) {
            e.meaning = Meaning::FirstReuse;
            e.figure = e.t - step.firstFinish.t;
            start = step.firstFinish.record;
        }
        ev.push_back(e);
        startOf.push_back(start);
    }
    std::vector<size_t> order(ev.size());
    for (size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(),
                     [&ev](size_t a, size_t b) { return ev[a].t < ev[b].t; });
    ft.m_events.reserve(ev.size());
    for (size_t k = 0; k < order.size(); ++k) {
        Event e = ev[order[k]];
        // adjacent: the gap before this event is the meaning's whole duration (its start is
        // the previous event, or at the same time as it, e.g. the same call on two ranks)
        e.adjacent = startOf[order[k]] >= 0 && k > 0 &&
                     (ev[order[k - 1]].record == startOf[order[k]] ||
                      ev[order[k - 1]].t == store.tMono(startOf[order[k]]));
        ft.m_events.push_back(e);
    }
    return ft;
}

int FollowedTrail::lowerBound(double t) const {
    return int(std::lower_bound(m_events.begin(), m_events.end(), t,
                                [](const Event &e, double v) { return e.t < v; }) -
               m_events.begin());
}

int FollowedTrail::indexOfRecord(const RecordStore &store, int record) const {
    if (record < 0 || record >= store.size()) {
        return -1;
    }
    const double t = store.tMono(record);
    for (int i = lowerBound(t); i < size() && m_events[size_t(i)].t == t; ++i) {
        if (m_events[size_t(i)].record == record) {
            return i;
        }
    }
    return -1;
}

int FollowedTrail::step(const RecordStore &store, int record, int direction) const {
    if (m_events.empty()) {
        return -1;
    }
    const int at = indexOfRecord(store, record);
    if (at >= 0) {
        const int next = at + (direction > 0 ? 1 : -1);
        return next >= 0 && next < size() ? next : -1;
    }
    if (record < 0 || record >= store.size() || !std::isfinite(store.tMono(record))) {
        return direction > 0 ? 0 : size() - 1;
    }
    // not followed: by (t, record)
    const double t = store.tMono(record);
    auto after = [&](const Event &e) { return e.t > t || (e.t == t && e.record > record); };
    int i = lowerBound(t);
    while (i < size() && !after(m_events[size_t(i)])) {
        ++i;
    }
    if (direction > 0) {
        return i < size() ? i : -1;
    }
    return i - 1;
}

QString FollowedTrail::meaningText(Meaning m) {
    switch (m) {
        case Meaning::WriteLatency:
            return QCoreApplication::translate("FollowedTrail", "write latency");
        case Meaning::FirstReuse:
            return QCoreApplication::translate("FollowedTrail", "time to first reuse");
        case Meaning::None:
            break;
    }
    return QString();
}

QString FollowedTrail::gapDuration(int i) const {
    if (i <= 0 || i >= size()) {
        return QString();
    }
    return TimeFormat::duration(m_events[size_t(i)].t - m_events[size_t(i) - 1].t);
}

QString FollowedTrail::gapLabel(int i) const {
    if (i <= 0 || i >= size()) {
        return QString();
    }
    const Event &e = m_events[size_t(i)];
    const QString gap = TimeFormat::duration(e.t - m_events[size_t(i) - 1].t);
    if (e.meaning == Meaning::None || std::isnan(e.figure)) {
        return gap;
    }
    if (e.adjacent) {
        return meaningText(e.meaning) + QLatin1Char(' ') + gap;
    }
    return gap + QStringLiteral(" · ") + meaningText(e.meaning) + QLatin1Char(' ') +
           TimeFormat::duration(e.figure);
}

}  // namespace lmct
