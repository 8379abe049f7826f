#pragma once

#include "whatif/cachepolicy.h"
#include "whatif/keylists.h"

namespace lmct {

/**
 * FIFO: keys leave in the order they were admitted; a hit changes nothing
 * (CachePolicy::Kind::Fifo).
 *
 * Units, ownership, thread-safety, errors: as CachePolicy.
 */
class FifoPolicy final : public CachePolicy {
public:
    FifoPolicy(quint64 capacity, const UseSequence &uses);

    bool access(quint32 key, quint64 size, quint32 position) override;
    quint64 occupied() const override { return m_lists.units(0); }
    bool replay(const UseSequence &uses, bool inBytes, quint32 begin, quint32 end, Tally &tally,
                const std::atomic_bool *cancel) override;

private:
    quint64 m_capacity;
    KeyLists m_lists;
};

}  // namespace lmct
