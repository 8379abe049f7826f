#pragma once

#include "whatif/cachepolicy.h"
#include "whatif/keyring.h"

#include <vector>

namespace lmct {

/**
 * FIFO: keys leave in the order they were admitted; a hit changes nothing
 * (CachePolicy::Kind::Fifo). A ring of admitted keys and a resident byte per key.
 *
 * Units, ownership, thread-safety, errors: as CachePolicy.
 */
class FifoPolicy final : public CachePolicy {
public:
    FifoPolicy(quint64 capacity, const UseSequence &uses);

    bool access(quint32 key, quint64 size, quint32 position) override;
    quint64 occupied() const override { return m_occupied; }
    bool replay(const UseSequence &uses, bool inBytes, quint32 begin, quint32 end, Tally &tally,
                const std::atomic_bool *cancel) override;

private:
    quint64 m_capacity;
    quint64 m_occupied = 0;
    std::vector<quint8> m_resident;
    KeyRing m_ring;
};

}  // namespace lmct
