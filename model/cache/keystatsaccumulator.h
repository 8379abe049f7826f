#pragma once

#include "cache/keyanalysis.h"

#include <cmath>
#include <vector>

namespace lmct {

/**
 * The per-key stats of KeyAnalysis (KeyAnalysis::Key's counts, first and last records, write
 * latency, first reuse, reservedAgain), accumulated occurrence by occurrence in file order, and
 * the state decided from them at the end (KeyAnalysis::State, first match wins).
 *
 * Per occurrence: a reserve_write(_with_status) opens a reservation when the key was never
 * finished and none is open; the first finish_write closes it (Key::writeLatency, NaN when the
 * key was never reserved here); an abort_write before any finish drops it. Reserved again after a
 * finish_write, not finished nor aborted since: Key::reservedAgain (LMCache's reserve_write
 * (mode="new") skips such keys as already stored). A read is a read_prefetched_results.__enter__
 * or a finish_read_prefetched whose FinishRole is Read; the first read after the first
 * finish_write sets Key::firstReuse.
 *
 * Units: t_mono seconds, document record indices. Ownership: keeps one open-reservation time per
 * key id (8 bytes a key) while accumulating; the Keys are the caller's.
 * Thread-safety: none (one accumulator per build). Errors: none.
 */
class KeyStatsAccumulator {
public:
    using Key = KeyAnalysis::Key;
    using Call = KeyAnalysis::Call;
    using State = KeyAnalysis::State;
    using FinishRole = KeyAnalysis::FinishRole;

    /** Key `k` (id `id`) occurs in a key record of `call` (`role` for finish_read_prefetched)
     *  at document record `record`, t_mono `t`. */
    void add(Key &k, quint32 id, Call call, FinishRole role, qint32 record, double t);
    /** Key `k` is given back by a release_prefetch_task with nil `keys` (through its handle): only
     *  its last record moves. */
    static void touch(Key &k, qint32 record, double t) {
        k.lastRecord = record;
        k.lastT = t;
    }
    /** What became of `k` once every occurrence was added. */
    static State stateOf(const Key &k);

private:
    std::vector<double> m_pendingReserve;  // by key id: t_mono of the open reservation, or NaN
};

inline void KeyStatsAccumulator::add(Key &k, quint32 id, Call call, FinishRole role, qint32 record,
                                     double t) {
    if (id >= m_pendingReserve.size()) {
        m_pendingReserve.resize(size_t(id) + 1, qQNaN());
    }
    if (k.firstRecord < 0) {
        k.firstRecord = record;
        k.firstT = t;
    }
    k.lastRecord = record;
    k.lastT = t;
    switch (call) {
        case Call::Reserve:
        case Call::ReserveWithStatus:
            ++k.reserves;
            if (k.finishes == 0 && std::isnan(m_pendingReserve[id])) {
                m_pendingReserve[id] = t;
            }
            k.reservedAgain = k.finishes > 0;
            break;
        case Call::Finish:
            if (++k.finishes == 1) {
                k.firstFinishT = t;
                k.writeLatency = t - m_pendingReserve[id];  // NaN: not reserved
            }
            k.reservedAgain = false;
            break;
        case Call::Abort:
            ++k.aborts;
            if (k.finishes == 0) {
                m_pendingReserve[id] = qQNaN();
            }
            k.reservedAgain = false;
            break;
        case Call::Prefetch:
            ++k.prefetches;
            break;
        case Call::ReadEnter:
        case Call::FinishRead:
            if (call == Call::ReadEnter) {
                ++k.readEnters;
            } else if (role == FinishRole::Read) {
                ++k.finishReads;
            } else {
                break;  // part of a release or of an earlier read
            }
            if (k.finishes > 0 && std::isnan(k.firstReuse)) {
                k.firstReuse = t - k.firstFinishT;
            }
            break;
        default:
            break;
    }
}

inline KeyStatsAccumulator::State KeyStatsAccumulator::stateOf(const Key &k) {
    if (k.finishes > 0) {
        return std::isnan(k.firstReuse) ? State::Written : State::WrittenRead;
    }
    if (k.aborts > 0) {
        return State::Aborted;
    }
    if (k.reserves > 0) {
        return State::ReservedOnly;
    }
    return State::PrefetchedOnly;
}

}  // namespace lmct
