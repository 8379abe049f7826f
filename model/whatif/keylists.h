#pragma once

#include <QtGlobal>
#include <vector>

namespace lmct {

/**
 * Intrusive doubly-linked FIFO lists over dense key ids, the storage every policy simulator
 * builds on: one node per key (16 bytes: links, size, list, a few policy bits), so a key is in at
 * most one list at a time and moving it costs no allocation nor lookup.
 *
 * Each of the `lists` lists (at most 255) has a sentinel node after the keys' nodes; a list runs
 * from its front (oldest, next of the sentinel) to its back (newest). Per list it keeps the number
 * of keys and the units (sum of sizes) in it. Key k not in any list has list() == kNone.
 *
 * Units: whatever the simulator counts (1 per key, or bytes); a size is kept in 48 bits.
 * Ownership: value type. Thread-safety: none (one simulator per thread). Errors: none; ids must
 * be below the key count given to the constructor.
 */
class KeyLists {
public:
    static constexpr quint8 kNone = 0xff;

    KeyLists(quint32 keys, int lists)
        : m_keys(keys),
          m_nodes(size_t(keys) + size_t(lists)),
          m_count(size_t(lists), 0),
          m_units(size_t(lists), 0) {
        for (quint32 k = 0; k < keys; ++k) {
            m_nodes[k].list = kNone;
        }
        for (int l = 0; l < lists; ++l) {
            const quint32 s = keys + quint32(l);
            m_nodes[s].prev = m_nodes[s].next = s;
            m_nodes[s].list = quint8(l);
        }
    }

    quint8 list(quint32 k) const { return quint8(m_nodes[k].list); }
    quint64 size(quint32 k) const { return m_nodes[k].size; }
    quint8 bits(quint32 k) const { return quint8(m_nodes[k].bits); }
    void setBits(quint32 k, quint8 b) { m_nodes[k].bits = b; }

    bool empty(int l) const { return m_count[size_t(l)] == 0; }
    quint32 count(int l) const { return m_count[size_t(l)]; }
    quint64 units(int l) const { return m_units[size_t(l)]; }
    /** The oldest key of list l (the list must not be empty). */
    quint32 front(int l) const { return m_nodes[sentinel(l)].next; }

    /** Appends k (in no list) of `size` units at the back of list l. */
    void pushBack(int l, quint32 k, quint64 size) {
        Node &n = m_nodes[k];
        const quint32 s = sentinel(l);
        const quint32 last = m_nodes[s].prev;
        n.prev = last;
        n.next = s;
        n.size = size;
        n.list = quint8(l);
        m_nodes[last].next = k;
        m_nodes[s].prev = k;
        ++m_count[size_t(l)];
        m_units[size_t(l)] += size;
    }
    /** Unlinks k from its list (it must be in one). */
    void remove(quint32 k) {
        Node &n = m_nodes[k];
        m_nodes[n.prev].next = n.next;
        m_nodes[n.next].prev = n.prev;
        --m_count[n.list];
        m_units[n.list] -= n.size;
        n.list = kNone;
    }
    /** Moves k (in a list) to the back of list l. */
    void moveBack(int l, quint32 k) {
        const quint64 s = m_nodes[k].size;
        remove(k);
        pushBack(l, k, s);
    }
    /** Removes and returns the front of list l (it must not be empty). */
    quint32 popFront(int l) {
        const quint32 k = front(l);
        remove(k);
        return k;
    }

private:
    struct Node {
        quint32 prev = 0, next = 0;
        quint64 size : 48 = 0;
        quint64 list : 8 = 0;
        quint64 bits : 8 = 0;
    };
    quint32 sentinel(int l) const { return m_keys + quint32(l); }

    quint32 m_keys;
    std::vector<Node> m_nodes;
    std::vector<quint32> m_count;
    std::vector<quint64> m_units;
};

}  // namespace lmct
