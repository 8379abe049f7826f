#include "whatif/optpolicy.h"

namespace lmct {

OptPolicy::OptPolicy(quint64 capacity, const UseSequence &uses)
    : m_capacity(capacity),
      m_keys(uses.keys().data()),
      m_next(uses.nextUse().data()),
      m_size(uses.keyCount(), 0),
      m_resident(uses.keyCount(), 0) {
    size_t words = size_t(uses.size()) / 64 + 1;
    for (;;) {
        m_levels.emplace_back(words, 0);
        if (words == 1) {
            break;
        }
        words = (words + 63) / 64;
    }
    m_dead.reserve(uses.keyCount());
}

inline void OptPolicy::set(quint32 pos) {
    size_t i = pos;
    for (auto &level : m_levels) {
        level[i >> 6] |= quint64(1) << (i & 63);
        i >>= 6;
    }
}

inline void OptPolicy::clear(quint32 pos) {
    size_t i = pos;
    for (auto &level : m_levels) {
        if ((level[i >> 6] &= ~(quint64(1) << (i & 63))) != 0) {
            return;
        }
        i >>= 6;
    }
}

inline quint32 OptPolicy::max() const {
    size_t i = 0;
    for (size_t l = m_levels.size(); l-- > 0;) {
        i = (i << 6) | size_t(63 - __builtin_clzll(m_levels[l][i]));
    }
    return quint32(i);
}

void OptPolicy::evictOne() {
    quint32 k;
    if (!m_dead.empty()) {
        k = m_dead.back();
        m_dead.pop_back();
    } else {
        const quint32 pos = max();
        clear(pos);
        k = m_keys[pos];
    }
    m_occupied -= m_size[k];
    m_size[k] = 0;
    m_resident[k] = 0;
}

inline bool OptPolicy::access(quint32 key, quint64 size, quint32 position) {
    const quint32 next = m_next[position];
    if (m_resident[key]) {
        clear(position);  // its priority was this use
        if (next == UseSequence::kNever) {
            m_dead.push_back(key);
        } else {
            set(next);
        }
        return true;
    }
    if (size > m_capacity) {
        return false;
    }
    while (m_occupied + size > m_capacity) {
        evictOne();
    }
    m_resident[key] = 1;
    m_size[key] = size;
    m_occupied += size;
    if (next == UseSequence::kNever) {
        m_dead.push_back(key);
    } else {
        set(next);
    }
    return false;
}

bool OptPolicy::replay(const UseSequence &uses, bool inBytes, quint32 begin, quint32 end,
                       Tally &tally, const std::atomic_bool *cancel) {
    return replayAs(*this, uses, inBytes, begin, end, tally, cancel);
}

}  // namespace lmct
