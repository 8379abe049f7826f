#pragma once

#include "whatif/cachepolicy.h"
#include "whatif/keylists.h"

namespace lmct {

/**
 * ARC (Megiddo & Modha, "ARC: A Self-Tuning, Low Overhead Replacement Cache", FAST'03;
 * CachePolicy::Kind::Arc): resident lists T1 (seen once recently) and T2 (seen at least twice),
 * ghost lists B1 and B2 of ids evicted from them, and the target size p of T1, 0 ≤ p ≤ C.
 *
 * With every key of 1 unit this is the paper's Figure 4, p an integer (δ = max(1, ⌊|B2|/|B1|⌋)
 * and max(1, ⌊|B1|/|B2|⌋)):
 * - hit in T1 or T2: the key moves to T2's MRU end;
 * - hit in B1: p ← min(C, p + δ1); in B2: p ← max(0, p − δ2); REPLACE while the key does not
 *   fit; the key moves to T2's MRU end;
 * - miss everywhere: while |T1| + |B1| + size > C and B1 is not empty, B1's LRU id is dropped;
 *   then while still |T1| + |B1| + size > C, T1's LRU key is evicted without a ghost; while
 *   the four lists exceed 2C, B2's LRU id is dropped; REPLACE while the key does not fit; the
 *   key enters T1's MRU end.
 * - REPLACE: T1's LRU key moves to B1 when T1 is not empty and (|T1| > p, or |T1| = p and the key
 *   came from B2), else T2's LRU key moves to B2 (T1's when T2 is empty).
 * With sizes, |X| are units and δ is multiplied by the key's size.
 *
 * Units, ownership, thread-safety, errors: as CachePolicy.
 */
class ArcPolicy final : public CachePolicy {
public:
    ArcPolicy(quint64 capacity, const UseSequence &uses);

    bool access(quint32 key, quint64 size, quint32 position) override;
    quint64 occupied() const override { return m_lists.units(kT1) + m_lists.units(kT2); }
    bool replay(const UseSequence &uses, bool inBytes, quint32 begin, quint32 end, Tally &tally,
                const std::atomic_bool *cancel) override;

    /** The target size of T1 (units): how far ARC leans to recency (for tests). */
    quint64 target() const { return m_p; }

private:
    enum : int { kT1 = 0, kT2 = 1, kB1 = 2, kB2 = 3 };
    void replace(bool fromB2);
    void makeRoom(quint64 size, bool fromB2);

    quint64 m_capacity;
    quint64 m_p = 0;
    KeyLists m_lists;
};

}  // namespace lmct
