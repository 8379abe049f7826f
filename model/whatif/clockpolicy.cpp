#include "whatif/clockpolicy.h"

namespace lmct {

ClockPolicy::ClockPolicy(quint64 capacity, const UseSequence &uses)
    : m_capacity(capacity), m_lists(uses.keyCount(), 1) {}

inline bool ClockPolicy::access(quint32 key, quint64 size, quint32) {
    if (m_lists.list(key) == 0) {
        m_lists.setBits(key, 1);
        return true;
    }
    if (size > m_capacity) {
        return false;
    }
    while (m_lists.units(0) + size > m_capacity) {
        const quint32 k = m_lists.front(0);
        if (m_lists.bits(k)) {
            m_lists.setBits(k, 0);
            m_lists.moveBack(0, k);
        } else {
            m_lists.remove(k);
        }
    }
    m_lists.pushBack(0, key, size);
    m_lists.setBits(key, 0);
    return false;
}

bool ClockPolicy::replay(const UseSequence &uses, bool inBytes, quint32 begin, quint32 end,
                         Tally &tally, const std::atomic_bool *cancel) {
    return replayAs(*this, uses, inBytes, begin, end, tally, cancel);
}

}  // namespace lmct
