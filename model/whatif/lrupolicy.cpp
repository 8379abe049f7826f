#include "whatif/lrupolicy.h"

namespace lmct {

LruPolicy::LruPolicy(quint64 capacity, const UseSequence &uses)
    : m_capacity(capacity), m_lists(uses.keyCount(), 1) {}

inline bool LruPolicy::access(quint32 key, quint64 size, quint32) {
    if (m_lists.list(key) == 0) {
        m_lists.moveBack(0, key);
        return true;
    }
    if (size > m_capacity) {
        return false;  // never admitted
    }
    while (m_lists.units(0) + size > m_capacity) {
        m_lists.popFront(0);
    }
    m_lists.pushBack(0, key, size);
    return false;
}

bool LruPolicy::replay(const UseSequence &uses, bool inBytes, quint32 begin, quint32 end,
                       Tally &tally, const std::atomic_bool *cancel) {
    return replayAs(*this, uses, inBytes, begin, end, tally, cancel);
}

}  // namespace lmct
