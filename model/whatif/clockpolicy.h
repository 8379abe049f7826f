#pragma once

#include "whatif/cachepolicy.h"
#include "whatif/keyring.h"

#include <vector>

namespace lmct {

/**
 * CLOCK: a FIFO ring with one reference bit per key (CachePolicy::Kind::Clock). A key is
 * admitted behind the hand with its bit clear; a hit sets the bit. To evict, the hand looks at
 * the oldest key: a set bit is cleared and the key goes round again (second chance), a clear one
 * is evicted. A ring of keys and a state byte per key (absent, resident, referenced).
 *
 * Units, ownership, thread-safety, errors: as CachePolicy.
 */
class ClockPolicy final : public CachePolicy {
public:
    ClockPolicy(quint64 capacity, const UseSequence &uses);

    bool access(quint32 key, quint64 size, quint32 position) override;
    quint64 occupied() const override { return m_occupied; }
    bool replay(const UseSequence &uses, bool inBytes, quint32 begin, quint32 end, Tally &tally,
                const std::atomic_bool *cancel) override;

private:
    quint64 m_capacity;
    quint64 m_occupied = 0;
    std::vector<quint8> m_state;  // 0 absent, 1 resident, 2 resident with its bit set
    KeyRing m_ring;
};

}  // namespace lmct
