#include "whatif/fifopolicy.h"

#include <algorithm>

namespace lmct {

FifoPolicy::FifoPolicy(quint64 capacity, const UseSequence &uses)
    : m_capacity(capacity),
      m_resident(uses.keyCount(), 0),
      m_ring(size_t(std::min<quint64>(capacity, uses.keyCount())) + 1) {}

inline bool FifoPolicy::access(quint32 key, quint64 size, quint32) {
    if (m_resident[key]) {
        return true;
    }
    if (size > m_capacity) {
        return false;
    }
    while (m_occupied + size > m_capacity) {
        const KeyRing::Entry &e = m_ring.front();
        m_resident[e.key] = 0;
        m_occupied -= e.size;
        m_ring.popFront();
    }
    m_ring.pushBack({key, 0, size});
    m_resident[key] = 1;
    m_occupied += size;
    return false;
}

bool FifoPolicy::replay(const UseSequence &uses, bool inBytes, quint32 begin, quint32 end,
                        Tally &tally, const std::atomic_bool *cancel) {
    return replayAs(*this, uses, inBytes, begin, end, tally, cancel);
}

}  // namespace lmct
