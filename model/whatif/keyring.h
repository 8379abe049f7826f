#pragma once

#include <QtGlobal>
#include <vector>

namespace lmct {

/**
 * A FIFO ring buffer of key entries (key id, a tag, size in units), the queue of the FIFO-based
 * simulators (FIFO, CLOCK, S3-FIFO): pushes at the back and pops at the front touch memory in
 * order, unlike the links of a list. The capacity is a power of two and doubles when full (sized
 * up front by the simulators, so a replay does not allocate once warm).
 *
 * Ownership: value type. Thread-safety: none (one simulator per thread). Errors: none; front()
 * and popFront() need a non-empty ring.
 */
class KeyRing {
public:
    struct Entry {
        quint32 key = 0;
        quint32 tag = 0;  ///< what the simulator needs to tell a stale entry (S3-FIFO's ghost)
        quint64 size = 0;
    };

    explicit KeyRing(size_t reserve) {
        size_t c = 16;
        while (c < reserve) {
            c *= 2;
        }
        m_e.resize(c);
        m_mask = c - 1;
    }

    bool empty() const { return m_head == m_tail; }
    size_t count() const { return m_tail - m_head; }
    const Entry &front() const { return m_e[m_head & m_mask]; }
    void popFront() { ++m_head; }
    void pushBack(const Entry &e) {
        if (count() == m_e.size()) {
            grow();
        }
        m_e[m_tail++ & m_mask] = e;
    }

private:
    void grow() {
        std::vector<Entry> bigger(m_e.size() * 2);
        const size_t n = count();
        for (size_t i = 0; i < n; ++i) {
            bigger[i] = m_e[(m_head + i) & m_mask];
        }
        m_e.swap(bigger);
        m_mask = m_e.size() - 1;
        m_head = 0;
        m_tail = n;
    }

    std::vector<Entry> m_e;
    size_t m_mask = 0;
    size_t m_head = 0, m_tail = 0;  // running counts; positions are & m_mask
};

}  // namespace lmct
