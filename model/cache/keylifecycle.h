#pragma once

#include "cache/keyanalysis.h"

#include <vector>

namespace lmct {

/**
 * The life of one key: every traced call that named it, in file order, with the gaps between
 * them, built on demand from a KeyAnalysis (a scan of its key occurrences: O(occurrences),
 * tens of milliseconds for a 2 GB trace).
 *
 * Derived figures: the write latency of each finish_write (its time minus the reservation it
 * closed: the first reserve since the previous finish_write or abort_write), and the time to first
 * reuse (the first read — read_prefetched_results.__enter__ or a finish_read_prefetched that is
 * a read — after the first finish_write, minus that finish). A finish_read_prefetched that belongs
 * to a release_prefetch_task or to an earlier read (KeyAnalysis::FinishRole) is listed with the
 * record it belongs to (Event::partOf) and is no read.
 *
 * Thread-safety: a value type; build() is reentrant.
 */
class KeyLifecycle {
public:
    struct Event {
        qint32 record = -1;  ///< document record index
        KeyAnalysis::Call call = KeyAnalysis::Call::Other;
        double t = 0.0;                 ///< t_mono (seconds)
        double sincePrevious = 0.0;     ///< t − previous event's t (0 for the first)
        double writeLatency = qQNaN();  ///< finish_write only: t − the reservation it closed
        /** finish_read_prefetched only: the release or __enter__ record it belongs to, or -1
         *  (a read of its own). */
        qint32 partOf = -1;
    };

    /** The events of key `id` (at most `cap`: truncated() tells). */
    static KeyLifecycle build(const KeyAnalysis &keys, int id, int cap = 100000);

    int key() const { return m_key; }
    const std::vector<Event> &events() const { return m_events; }
    bool truncated() const { return m_truncated; }
    /** First finish_write − the reservation it closed; NaN when unknown. */
    double writeLatency() const { return m_writeLatency; }
    /** First read after the first finish_write − that finish; NaN when none. */
    double timeToFirstReuse() const { return m_firstReuse; }

private:
    int m_key = -1;
    std::vector<Event> m_events;
    bool m_truncated = false;
    double m_writeLatency = qQNaN();
    double m_firstReuse = qQNaN();
};

}  // namespace lmct
