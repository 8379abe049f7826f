#include "whatif/s3fifopolicy.h"

#include <algorithm>

namespace lmct {

S3FifoPolicy::S3FifoPolicy(quint64 capacity, const UseSequence &uses)
    : m_capacity(capacity),
      m_smallCap(std::max<quint64>(1, capacity / 10)),
      m_mainCap(capacity - std::min(capacity, m_smallCap)),
      m_lists(uses.keyCount(), 3) {}

void S3FifoPolicy::evictMain() {
    while (!m_lists.empty(kMain)) {
        const quint32 t = m_lists.front(kMain);
        const quint8 f = m_lists.bits(t);
        if (f > 0) {
            m_lists.setBits(t, quint8(f - 1));
            m_lists.moveBack(kMain, t);
        } else {
            m_lists.remove(t);
            return;
        }
    }
}

void S3FifoPolicy::evictSmall() {
    while (!m_lists.empty(kSmall)) {
        const quint32 t = m_lists.front(kSmall);
        if (m_lists.bits(t) > 0) {
            m_lists.setBits(t, 0);
            m_lists.moveBack(kMain, t);
        } else {
            m_lists.moveBack(kGhost, t);
            while (m_lists.units(kGhost) > m_mainCap) {
                m_lists.popFront(kGhost);
            }
            return;
        }
    }
    evictMain();
}

void S3FifoPolicy::evict() {
    if (!m_lists.empty(kSmall) && (m_lists.units(kSmall) >= m_smallCap || m_lists.empty(kMain))) {
        evictSmall();
    } else {
        evictMain();
    }
}

inline bool S3FifoPolicy::access(quint32 key, quint64 size, quint32) {
    const quint8 l = m_lists.list(key);
    if (l == kSmall || l == kMain) {
        m_lists.setBits(key, quint8(std::min(3, m_lists.bits(key) + 1)));
        return true;
    }
    if (size > m_capacity) {
        return false;
    }
    while (occupied() + size > m_capacity) {
        evict();
    }
    if (m_lists.list(key) == kGhost) {  // evict() may have dropped it from G meanwhile
        m_lists.remove(key);
        m_lists.pushBack(kMain, key, size);
    } else {
        m_lists.pushBack(kSmall, key, size);
    }
    m_lists.setBits(key, 0);
    return false;
}

bool S3FifoPolicy::replay(const UseSequence &uses, bool inBytes, quint32 begin, quint32 end,
                          Tally &tally, const std::atomic_bool *cancel) {
    return replayAs(*this, uses, inBytes, begin, end, tally, cancel);
}

}  // namespace lmct
