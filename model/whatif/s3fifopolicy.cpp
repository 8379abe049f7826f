#include "whatif/s3fifopolicy.h"

#include <algorithm>

namespace lmct {

S3FifoPolicy::S3FifoPolicy(quint64 capacity, const UseSequence &uses)
    : m_capacity(capacity),
      m_smallCap(std::max<quint64>(1, capacity / 10)),
      m_mainCap(capacity - std::min(capacity, m_smallCap)),
      m_state(uses.keyCount(), kNone),
      m_tag(uses.keyCount(), 0),
      m_small(size_t(std::min<quint64>(capacity, uses.keyCount())) + 1),
      m_main(size_t(std::min<quint64>(capacity, uses.keyCount())) + 1),
      m_ghost(size_t(std::min<quint64>(capacity, uses.keyCount())) + 1) {}

void S3FifoPolicy::evictMain() {
    while (!m_main.empty()) {
        const KeyRing::Entry e = m_main.front();
        m_main.popFront();
        const quint8 f = m_state[e.key] >> 2;
        if (f > 0) {
            m_state[e.key] = quint8(((f - 1) << 2) | kMain);
            m_main.pushBack(e);
        } else {
            m_state[e.key] = kNone;
            m_mainUnits -= e.size;
            return;
        }
    }
}

void S3FifoPolicy::evictSmall() {
    while (!m_small.empty()) {
        KeyRing::Entry e = m_small.front();
        m_small.popFront();
        m_smallUnits -= e.size;
        if ((m_state[e.key] >> 2) >= 1) {
            m_state[e.key] = kMain;  // frequency cleared
            m_main.pushBack(e);
            m_mainUnits += e.size;
            continue;
        }
        m_state[e.key] = kGhost;
        e.tag = ++m_ghostTag;
        m_tag[e.key] = e.tag;
        m_ghost.pushBack(e);
        m_ghostUnits += e.size;
        while (m_ghostUnits > m_mainCap) {
            const KeyRing::Entry g = m_ghost.front();
            m_ghost.popFront();
            if (m_state[g.key] == kGhost && m_tag[g.key] == g.tag) {
                m_state[g.key] = kNone;
                m_ghostUnits -= g.size;
            }  // else stale: the key left G for M since
        }
        return;
    }
    evictMain();
}

void S3FifoPolicy::evict() {
    if (!m_small.empty() && (m_smallUnits >= m_smallCap || m_main.empty())) {
        evictSmall();
    } else {
        evictMain();
    }
}

inline bool S3FifoPolicy::access(quint32 key, quint64 size, quint32) {
    const quint8 s = m_state[key];
    const quint8 where = s & 3;
    if (where == kSmall || where == kMain) {
        const quint8 f = s >> 2;
        m_state[key] = quint8((std::min(3, f + 1) << 2) | where);
        return true;
    }
    if (size > m_capacity) {
        return false;
    }
    while (occupied() + size > m_capacity) {
        evict();
    }
    if (m_state[key] == kGhost) {  // evict() may have dropped it from G meanwhile
        m_ghostUnits -= size;
        m_state[key] = kMain;
        m_main.pushBack({key, 0, size});
        m_mainUnits += size;
    } else {
        m_state[key] = kSmall;
        m_small.pushBack({key, 0, size});
        m_smallUnits += size;
    }
    return false;
}

bool S3FifoPolicy::replay(const UseSequence &uses, bool inBytes, quint32 begin, quint32 end,
                          Tally &tally, const std::atomic_bool *cancel) {
    return replayAs(*this, uses, inBytes, begin, end, tally, cancel);
}

}  // namespace lmct
