#pragma once

#include "keyanalysis.h"

#include <vector>

namespace lmct {

/**
 * The life of one key: every traced call that named it, in file order, with the gaps between
 * them, built on demand from a KeyAnalysis (a scan of its key occurrences: O(occurrences),
 * tens of milliseconds for a 2 GB trace).
 *
 * Derived figures: the write latency of each finish_write (its time minus the reservation it
 * closed: the first reserve since the previous finish_write or abort_write), and the time to first
 * reuse (the first read — read_prefetched_results.__enter__ or finish_read_prefetched — after
 * the first finish_write, minus that finish).
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
