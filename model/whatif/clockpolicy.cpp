#include "whatif/clockpolicy.h"

#include <algorithm>

namespace lmct {

ClockPolicy::ClockPolicy(quint64 capacity, const UseSequence &uses)
    : m_capacity(capacity),
      m_state(uses.keyCount(), 0),
      m_ring(size_t(std::min<quint64>(capacity, uses.keyCount())) + 1) {}

inline bool ClockPolicy::access(quint32 key, quint64 size, quint32) {
    if (m_state[key]) {
        m_state[key] = 2;
        return true;
    }
    if (size > m_capacity) {
        return false;
    }
    while (m_occupied + size > m_capacity) {
        const KeyRing::Entry e = m_ring.front();
        m_ring.popFront();
        if (m_state[e.key] == 2) {
            m_state[e.key] = 1;
            m_ring.pushBack(e);
        } else {
            m_state[e.key] = 0;
            m_occupied -= e.size;
        }
    }
    m_ring.pushBack({key, 0, size});
    m_state[key] = 1;
    m_occupied += size;
    return false;
}

bool ClockPolicy::replay(const UseSequence &uses, bool inBytes, quint32 begin, quint32 end,
                         Tally &tally, const std::atomic_bool *cancel) {
    return replayAs(*this, uses, inBytes, begin, end, tally, cancel);
}

}  // namespace lmct
