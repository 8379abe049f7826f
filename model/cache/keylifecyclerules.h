#pragma once

#include "cache/keyanalysis.h"

#include <QtGlobal>

namespace lmct {

/**
 * The rules that give one key's calls their meaning, fed the key's calls in file order (shared
 * by KeyLifecycle and FollowedTrail, so that `lmct keys`, the Cache Behaviour pane and the
 * timeline agree):
 * - write latency: a finish_write closes the reservation opened by the first reserve_write or
 *   reserve_write_with_status since the previous finish_write or abort_write (abort_write drops
 *   it);
 * - time to first reuse: the first read (read_prefetched_results.__enter__ or a
 *   finish_read_prefetched that is a read, KeyAnalysis::FinishRole::Read) after the key's first
 *   finish_write reuses that finish; a finish_read_prefetched that belongs to a release or to an
 *   earlier read is no read.
 *
 * A call whose time is NaN opens nothing (a reservation or first finish needs a time), and a reuse
 * whose duration would be NaN does not count as the first one.
 *
 * Units: t_mono seconds. Thread-safety: a value type.
 */
class KeyLifecycleRules {
public:
    /** A call that starts a meaning: its record and t_mono; invalid (NaN time) when none. */
    struct Mark {
        qint32 record = -1;
        double t = qQNaN();
        bool isValid() const { return !qIsNaN(t); }
    };

    /** What one call ends. */
    struct Step {
        Mark reservation;            ///< finish_write: the reservation it closes (or invalid)
        bool isFirstFinish = false;  ///< finish_write: the key's first one
        Mark firstFinish;            ///< the first reuse: the first finish_write it reuses
    };

    /** Applies the next call of the key (file order) at `record`, t_mono `t`; `isRead` false
     *  for a finish_read_prefetched that is part of a release or of an earlier read. */
    Step next(KeyAnalysis::Call call, qint32 record, double t, bool isRead = true);

private:
    Mark m_reservation;  // the open reservation
    Mark m_firstFinish;
    bool m_reused = false;
};

}  // namespace lmct
