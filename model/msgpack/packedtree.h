#pragma once

#include <QByteArrayView>
#include <QtGlobal>
#include <string_view>
#include <vector>

namespace lmct {

struct MsgpackHead;

/**
 * A flat index of one msgpack value over its raw bytes: one node per value, in document order
 * (a container's node, then its children's: for a map, each key, then its value), each node
 * knowing where its subtree ends. Codec-aware as Value is: a map of exactly two entries whose
 * keys are `__t__` (with a string value) and `v` is Tagged (tag(), payload()). Nothing is
 * copied and nothing allocated per value once the node vector has grown (reuse one tree).
 *
 * It mirrors ValueDecoder's tree: the same values, children and tags, so that code written
 * against Value can be written against it and give the same results (PackedSummary). It
 * declines (build() returns false) what it does not mirror: malformed or truncated bytes, bytes
 * left after the value, a map key that is not a string, a string, binary or ext payload over
 * kMaxPayload (ValueDecoder keeps only its start), nesting deeper than kMaxDepth, more than
 * kMaxNodes values.
 *
 * Units: node indices (0 is the root), byte offsets into the indexed bytes.
 * Ownership: points into the indexed bytes, which must outlive its use.
 * Thread-safety: build() modifies it; const access is reentrant. One tree per thread.
 */
class PackedTree {
public:
    enum class Kind : quint8 { Nil, Bool, Int, Float, String, Bytes, Ext, Array, Map, Tagged };

    static constexpr int kMaxDepth = 100;
    static constexpr qint64 kMaxNodes = 1'000'000;
    /** Payload bytes of a string, binary or ext beyond which it is declined (Value keeps 1 MiB). */
    static constexpr quint64 kMaxPayload = 1 << 20;

    /** Indexes the one msgpack value `data[0, size)`; false when declined (see above). */
    bool build(const char *data, qint64 size);

    static constexpr int root() { return 0; }
    Kind kind(int n) const { return m_nodes[size_t(n)].kind; }
    bool isContainer(int n) const {
        const Kind k = kind(n);
        return k == Kind::Array || k == Kind::Map || k == Kind::Tagged;
    }
    /** The node after `n`'s subtree (its next sibling, or its parent's end). */
    int end(int n) const { return int(m_nodes[size_t(n)].end); }
    /** Array: elements; Map and Tagged: entries; 0 otherwise. */
    int size(int n) const { return isContainer(n) ? int(m_nodes[size_t(n)].len) : 0; }
    /** The msgpack bytes of value `n` (its whole subtree). */
    QByteArrayView bytes(int n) const {
        const Node &x = m_nodes[size_t(n)];
        return QByteArrayView(m_data + x.begin, qsizetype(x.bytesEnd - x.begin));
    }
    /** The payload of a String, Bytes or Ext (ext: without its type byte); empty otherwise. */
    std::string_view text(int n) const {
        const Node &x = m_nodes[size_t(n)];
        const Kind k = x.kind;
        return k == Kind::String || k == Kind::Bytes || k == Kind::Ext
                   ? std::string_view(m_data + x.data, x.len)
                   : std::string_view();
    }
    bool toBool(int n) const { return kind(n) == Kind::Bool && m_nodes[size_t(n)].u != 0; }
    /** As Value::toInt(): an Int's 64 bits as qint64, a Float saturated, 0 otherwise. */
    qint64 toInt(int n) const;

    /** Codec tag of a Tagged value (UTF-8 as in the file); empty otherwise. */
    std::string_view tag(int n) const {
        return kind(n) == Kind::Tagged ? text(m_nodes[size_t(n)].tag) : std::string_view();
    }
    /** Payload of a Tagged value; -1 otherwise. */
    int payload(int n) const { return kind(n) == Kind::Tagged ? m_nodes[size_t(n)].payload : -1; }
    /** Follows Tagged wrappers down to the innermost payload (Value::untagged()). */
    int untagged(int n) const {
        while (kind(n) == Kind::Tagged) {
            n = payload(n);
        }
        return n;
    }
    /** The value of the first entry of Map `n` whose key is `key`; -1 when none or no Map. */
    int find(int n, std::string_view key) const;

    /**
     * Calls `f(child)` for every child Value has: an Array's elements, a Map's values (their
     * keys too through forEachEntry()), a Tagged value's payload only.
     */
    template <typename F>
    void forEachChild(int n, F f) const {
        const Kind k = kind(n);
        if (k == Kind::Tagged) {
            f(payload(n));
        } else if (k == Kind::Array) {
            for (int c = n + 1, e = end(n); c < e; c = end(c)) {
                f(c);
            }
        } else if (k == Kind::Map) {
            for (int c = n + 1, e = end(n); c < e; c = end(end(c))) {
                f(end(c));
            }
        }
    }
    /** Calls `f(key, value)` for every entry of a Map, in file order (key: its UTF-8). */
    template <typename F>
    void forEachEntry(int n, F f) const {
        if (kind(n) != Kind::Map) {
            return;
        }
        for (int c = n + 1, e = end(n); c < e; c = end(end(c))) {
            f(text(c), end(c));
        }
    }

private:
    struct Node {
        quint32 end = 0;       // node index after the subtree
        quint32 begin = 0;     // byte offset of the value
        quint32 bytesEnd = 0;  // byte offset after the value
        quint32 data = 0;      // String, Bytes, Ext: byte offset of the payload
        quint32 len = 0;       // String, Bytes, Ext: payload bytes; containers: children
        int tag = -1;          // Tagged: the node of the tag's string
        int payload = -1;      // Tagged: the node of `v`
        Kind kind = Kind::Nil;
        quint64 u = 0;  // Bool, Int (two's complement)
        double d = 0.0;
    };

    bool parse(qint64 *pos, int depth);
    /** Fills `n` (its `begin` set) with the scalar whose head `h` was read at `p`; false for a
     *  container or a value declined. */
    static bool leaf(const MsgpackHead &h, const uchar *p, Node *n);

    const char *m_data = nullptr;
    qint64 m_size = 0;
    std::vector<Node> m_nodes;
};

}  // namespace lmct
