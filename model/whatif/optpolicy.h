#pragma once

#include "whatif/cachepolicy.h"

#include <vector>

namespace lmct {

/**
 * OPT: Belady's MIN with demand admission (CachePolicy::Kind::Opt). Every miss is admitted; to
 * make room, a resident key never used again goes first (the one whose last use is latest), then
 * the resident key whose next use (UseSequence::nextUse()) is farthest away. With every key of 1
 * unit no policy that admits on demand has fewer misses; with sizes it is the same rule, a
 * heuristic (optimal caching of sized objects is NP-hard).
 *
 * A resident key's priority is the position of its next use, unique among resident keys, so the
 * farthest is found in a bit tree over positions (a bit per use, 64-way levels up to one word)
 * instead of a heap; keys never used again wait on a stack.
 *
 * access() must be fed the sequence's uses in order (`position` = the use's index).
 * Units, ownership, thread-safety, errors: as CachePolicy.
 */
class OptPolicy final : public CachePolicy {
public:
    OptPolicy(quint64 capacity, const UseSequence &uses);

    bool access(quint32 key, quint64 size, quint32 position) override;
    quint64 occupied() const override { return m_occupied; }
    bool replay(const UseSequence &uses, bool inBytes, quint32 begin, quint32 end, Tally &tally,
                const std::atomic_bool *cancel) override;

private:
    void set(quint32 pos);
    void clear(quint32 pos);
    /** The largest set position (some must be set). */
    quint32 max() const;
    void evictOne();

    quint64 m_capacity;
    const quint32 *m_keys;
    const quint32 *m_next;
    quint64 m_occupied = 0;
    std::vector<quint64> m_size;  // units of resident key k, 0 when not resident
    std::vector<quint8> m_resident;
    std::vector<quint32> m_dead;  // resident keys never used again, last use latest on top
    std::vector<std::vector<quint64>> m_levels;  // bit tree: [0] a bit per position, last one word
};

}  // namespace lmct
