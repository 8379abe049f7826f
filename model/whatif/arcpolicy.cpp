#include "whatif/arcpolicy.h"

#include <algorithm>

namespace lmct {

ArcPolicy::ArcPolicy(quint64 capacity, const UseSequence &uses)
    : m_capacity(capacity), m_lists(uses.keyCount(), 4) {}

void ArcPolicy::replace(bool fromB2) {
    const quint64 t1 = m_lists.units(kT1);
    const bool fromT1 = !m_lists.empty(kT1) && (t1 > m_p || (fromB2 && t1 == m_p));
    if (fromT1 || m_lists.empty(kT2)) {
        m_lists.moveBack(kB1, m_lists.front(kT1));
    } else {
        m_lists.moveBack(kB2, m_lists.front(kT2));
    }
}

void ArcPolicy::makeRoom(quint64 size, bool fromB2) {
    while (occupied() + size > m_capacity) {
        replace(fromB2);
    }
}

inline bool ArcPolicy::access(quint32 key, quint64 size, quint32) {
    const quint8 l = m_lists.list(key);
    if (l == kT1 || l == kT2) {
        m_lists.moveBack(kT2, key);
        return true;
    }
    if (size > m_capacity) {
        return false;
    }
    if (l == kB1 || l == kB2) {
        const quint64 b1 = m_lists.units(kB1), b2 = m_lists.units(kB2);
        if (l == kB1) {
            const quint64 d = (b1 >= b2 ? 1 : b2 / b1) * size;
            m_p = std::min(m_capacity, m_p + d);
        } else {
            const quint64 d = (b2 >= b1 ? 1 : b1 / b2) * size;
            m_p = m_p > d ? m_p - d : 0;
        }
        m_lists.remove(key);
        makeRoom(size, l == kB2);
        m_lists.pushBack(kT2, key, size);
        return false;
    }
    while (m_lists.units(kT1) + m_lists.units(kB1) + size > m_capacity && !m_lists.empty(kB1)) {
        m_lists.popFront(kB1);
    }
    while (m_lists.units(kT1) + m_lists.units(kB1) + size > m_capacity) {
        m_lists.popFront(kT1);  // T1 alone fills the cache: evicted without a ghost
    }
    while (occupied() + m_lists.units(kB1) + m_lists.units(kB2) + size > 2 * m_capacity &&
           !m_lists.empty(kB2)) {
        m_lists.popFront(kB2);
    }
    makeRoom(size, false);
    m_lists.pushBack(kT1, key, size);
    return false;
}

bool ArcPolicy::replay(const UseSequence &uses, bool inBytes, quint32 begin, quint32 end,
                       Tally &tally, const std::atomic_bool *cancel) {
    return replayAs(*this, uses, inBytes, begin, end, tally, cancel);
}

}  // namespace lmct
