#pragma once

#include "cache/keyanalysis.h"
#include "trace/recordstore.h"
#include "trace/tracedocument.h"

#include <QString>
#include <vector>

namespace lmct {

/**
 * The records of a followed key (ViewState::followedRecords) in time order, as the timeline draws
 * them: one Event per record, successive events joined, and the gap before each event labelled
 * with its duration and, where the calls say so, what it means.
 *
 * Meanings follow KeyLifecycle's rules (the same figures as `lmct keys` and the Cache Behaviour
 * pane), applied in file order with calls classified by KeyAnalysis::callOf():
 * - write latency: a finish_write minus the reservation it closed (the first reserve_write or
 *   reserve_write_with_status since the previous finish_write or abort_write);
 * - time to first reuse: the first read (read_prefetched_results.__enter__ or
 *   finish_read_prefetched) after the first finish_write, minus that finish. A
 *   finish_read_prefetched that belongs to a release_prefetch_task or to an earlier read pair
 *   (FinishReadPlacement: late-2026 builds) is no read of its own and reuses nothing.
 * When the two ends of such a pair are adjacent in time order (or the start is at the same time
 * as the previous event, e.g. the same call on two ranks) the gap between them carries the
 * meaning ("write latency 1.2 ms"); otherwise the gap before the later end gives its own duration
 * and the figure ("40 µs · write latency 1.2 ms").
 *
 * Times are t_mono seconds; records whose t_mono is not finite are left out. Record indices are
 * the store's; indices outside the store are ignored.
 *
 * Cost: O(n log n) for n followed records (never the whole trace). At most `cap` records are
 * used (truncated() tells).
 * Thread-safety: a value type; build() is reentrant over a store that only grows.
 */
class FollowedTrail {
public:
    enum class Meaning : quint8 { None, WriteLatency, FirstReuse };

    struct Event {
        qint32 record = -1;
        double t = 0.0;    ///< t_mono
        quint32 lane = 0;  ///< qualname id (TimelineIndex lane)
        KeyAnalysis::Call call = KeyAnalysis::Call::Other;
        Meaning meaning = Meaning::None;  ///< what this event ends (write latency, first reuse)
        double figure = qQNaN();          ///< the duration of that meaning (seconds)
        bool adjacent = false;  ///< the meaning's start is the previous event in time order
    };

    /**
     * Events of `records` (any order; duplicates once) in (t_mono, record) order. `notReads`:
     * the finish_read_prefetched records among them that are no reads of their own, sorted
     * (notReads()).
     */
    static FollowedTrail build(const RecordStore &store, const std::vector<int> &records,
                               int cap = kDefaultCap, const std::vector<int> &notReads = {});
    /** Records build() uses at most unless told. */
    static constexpr int kDefaultCap = 1000000;
    /**
     * The finish_read_prefetched records among `records` that belong to a release or to an
     * earlier read pair, sorted: FinishReadPlacement over the key lists of the enters, exits,
     * releases and finishes among them, in file order (the followed records of a key hold all
     * of that key's calls). Decodes those records' arguments; a record whose arguments do not
     * decode is left out. Reentrant; the caller keeps `doc` alive.
     */
    static std::vector<int> notReads(const TraceDocument &doc, const std::vector<int> &records);

    const std::vector<Event> &events() const { return m_events; }
    int size() const { return int(m_events.size()); }
    bool isEmpty() const { return m_events.empty(); }
    bool truncated() const { return m_truncated; }

    /** Index of the first event with t_mono >= t (size() when none). */
    int lowerBound(double t) const;
    /** Index of the event of `record`, or -1. O(log n) by its time. */
    int indexOfRecord(const RecordStore &store, int record) const;
    /**
     * The event after (direction > 0) or before (direction < 0) the position of `record`
     * (t_mono, record) in time order, as an index; -1 when there is none. A record that is not
     * followed (or -1) is placed by its time; -1 with direction > 0 gives the first event.
     */
    int step(const RecordStore &store, int record, int direction) const;

    /**
     * The label of the gap between event i − 1 and event i (i ≥ 1), e.g. "1.2 ms",
     * "write latency 1.2 ms", "40 µs · time to first reuse 3 s". Empty for i ≤ 0 or out of range.
     */
    QString gapLabel(int i) const;
    /** The gap's duration alone (the short form of gapLabel()). */
    QString gapDuration(int i) const;
    /** "write latency", "time to first reuse", or empty. */
    static QString meaningText(Meaning m);

private:
    std::vector<Event> m_events;
    bool m_truncated = false;
};

}  // namespace lmct
