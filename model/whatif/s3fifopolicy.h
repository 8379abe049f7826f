#pragma once

#include "whatif/cachepolicy.h"
#include "whatif/keyring.h"

#include <vector>

namespace lmct {

/**
 * S3-FIFO (Yang et al., "FIFO queues are all you need for cache eviction", SOSP'23;
 * CachePolicy::Kind::S3Fifo), in units:
 *
 * - small S: a FIFO of max(1, ⌊C / 10⌋) units; main M: a FIFO of the rest, C − |S|cap; ghost G:
 *   a FIFO of key ids only (not resident), holding at most M's capacity in units.
 * - Hit (key in S or M): its frequency becomes min(freq + 1, 3).
 * - Miss: evict until the key fits; then a key found in G leaves G and enters M, any other
 *   enters S, with frequency 0.
 * - Evict: from S when S is not empty and holds at least its capacity (or M is empty), else
 *   from M.
 * - From S: the oldest key of S leaves it; hit while in S (frequency ≥ 1): it moves to M with
 *   its frequency cleared, and the next oldest of S is looked at; else it is evicted and its id
 *   enters G (G's oldest ids leave while G holds more than M's capacity). When every key of S
 *   moved to M, one key is evicted from M.
 * - From M: the oldest key with a non-zero frequency goes to M's back with its frequency − 1;
 *   the first with frequency 0 is evicted.
 *
 * Storage: three rings (KeyRing) and a state byte per key (queue and frequency); G's entries are
 * left in place when a key leaves G for M, and told stale by a tag kept per key (4 bytes).
 *
 * Units, ownership, thread-safety, errors: as CachePolicy.
 */
class S3FifoPolicy final : public CachePolicy {
public:
    S3FifoPolicy(quint64 capacity, const UseSequence &uses);

    bool access(quint32 key, quint64 size, quint32 position) override;
    quint64 occupied() const override { return m_smallUnits + m_mainUnits; }
    bool replay(const UseSequence &uses, bool inBytes, quint32 begin, quint32 end, Tally &tally,
                const std::atomic_bool *cancel) override;

private:
    enum : quint8 { kNone = 0, kSmall = 1, kMain = 2, kGhost = 3 };  // state & 3; freq = state >> 2
    void evict();
    void evictSmall();
    void evictMain();

    quint64 m_capacity;
    quint64 m_smallCap;
    quint64 m_mainCap;
    quint64 m_smallUnits = 0, m_mainUnits = 0, m_ghostUnits = 0;
    quint32 m_ghostTag = 0;
    std::vector<quint8> m_state;
    std::vector<quint32> m_tag;  // tag of the key's live entry in G
    KeyRing m_small, m_main, m_ghost;
};

}  // namespace lmct
