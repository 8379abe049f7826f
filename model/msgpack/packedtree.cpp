#include "msgpack/packedtree.h"

#include "msgpack/msgpackhead.h"
#include "util/saturatingint.h"

#include <limits>

namespace lmct {

bool PackedTree::build(const char *data, qint64 size) {
    m_nodes.clear();
    m_data = data;
    m_size = size;
    qint64 pos = 0;
    return size > 0 && size <= qint64(std::numeric_limits<quint32>::max()) && parse(&pos, 0) &&
           pos == size;
}

qint64 PackedTree::toInt(int n) const {
    const Node &x = m_nodes[size_t(n)];
    if (x.kind == Kind::Int) {
        return qint64(x.u);
    }
    if (x.kind == Kind::Float) {
        return saturatingInt(x.d);
    }
    return 0;
}

int PackedTree::find(int n, std::string_view key) const {
    if (kind(n) != Kind::Map) {
        return -1;
    }
    for (int c = n + 1, e = end(n); c < e; c = end(end(c))) {
        if (text(c) == key) {
            return end(c);
        }
    }
    return -1;
}

// (inlined into parse(): a call per value was a fifth of the tree's build)
__attribute__((always_inline)) inline bool PackedTree::leaf(const MsgpackHead &h, const uchar *p,
                                                            Node *n) {
    switch (h.kind) {
        case MsgpackHead::Kind::Invalid:
        case MsgpackHead::Kind::Array:
        case MsgpackHead::Kind::Map:
            return false;
        case MsgpackHead::Kind::Nil:
            n->kind = Kind::Nil;
            return true;
        case MsgpackHead::Kind::Bool:
            n->kind = Kind::Bool;
            n->u = MsgpackHead::boolean(p) ? 1 : 0;
            return true;
        case MsgpackHead::Kind::Int:
        case MsgpackHead::Kind::UInt:
            n->kind = Kind::Int;
            n->u = h.integer(p);
            return true;
        case MsgpackHead::Kind::Float32:
        case MsgpackHead::Kind::Float64:
            n->kind = Kind::Float;
            n->d = h.floating(p);
            return true;
        case MsgpackHead::Kind::Str:
        case MsgpackHead::Kind::Bin:
        case MsgpackHead::Kind::Ext:
            if (h.payload > kMaxPayload) {
                return false;
            }
            n->kind = h.kind == MsgpackHead::Kind::Str   ? Kind::String
                      : h.kind == MsgpackHead::Kind::Bin ? Kind::Bytes
                                                         : Kind::Ext;
            n->data = n->begin + h.header;
            n->len = quint32(h.payload);
            return true;
    }
    return false;
}

// Flattened: MsgpackHead::read() is inlined at both its call sites.
__attribute__((flatten)) bool PackedTree::parse(qint64 *pos, int depth) {
    const qint64 avail = m_size - *pos;
    if (avail <= 0 || qint64(m_nodes.size()) >= kMaxNodes) {
        return false;
    }
    const auto *p = reinterpret_cast<const uchar *>(m_data + *pos);
    const MsgpackHead h = MsgpackHead::read(p, avail);
    if (!h.ok() || !h.fits(avail)) {
        return false;
    }
    const size_t index = m_nodes.size();
    m_nodes.emplace_back();
    Node n;
    n.begin = quint32(*pos);
    *pos += qint64(h.size());
    if (!h.isContainer()) {
        if (!leaf(h, p, &n)) {
            return false;
        }
    } else {
        const bool map = h.kind == MsgpackHead::Kind::Map;
        // Every element takes a byte at least (a map entry two): a claim beyond the bytes
        // left cannot be backed by data.
        if (depth >= kMaxDepth || h.children() > quint64(m_size - *pos)) {
            return false;
        }
        n.kind = map ? Kind::Map : Kind::Array;
        n.len = quint32(h.count);
        for (quint64 i = 0; i < h.children(); ++i) {
            // Scalars (every map key among them) are read here, without a call per value.
            const qint64 left = m_size - *pos;
            if (left <= 0 || qint64(m_nodes.size()) >= kMaxNodes) {
                return false;
            }
            const auto *q = reinterpret_cast<const uchar *>(m_data + *pos);
            const MsgpackHead c = MsgpackHead::read(q, left);
            if (!c.ok() || !c.fits(left) ||
                (map && i % 2 == 0 && c.kind != MsgpackHead::Kind::Str)) {
                return false;
            }
            if (c.isContainer()) {
                if (!parse(pos, depth + 1)) {
                    return false;
                }
                continue;
            }
            Node &x = m_nodes.emplace_back();
            x.begin = quint32(*pos);
            *pos += qint64(c.size());
            if (!leaf(c, q, &x)) {
                return false;
            }
            x.end = quint32(m_nodes.size());
            x.bytesEnd = quint32(*pos);
        }
        if (map && h.count == 2) {  // {"__t__": TAG, "v": PAYLOAD}, in either order
            const int self = int(index);
            m_nodes[index].kind = Kind::Map;  // (find() reads the node being built)
            m_nodes[index].end = quint32(m_nodes.size());
            const int t = find(self, "__t__");
            const int v = find(self, "v");
            if (t >= 0 && v >= 0 && m_nodes[size_t(t)].kind == Kind::String) {
                n.kind = Kind::Tagged;
                n.tag = t;
                n.payload = v;
            }
        }
    }
    n.end = quint32(m_nodes.size());
    n.bytesEnd = quint32(*pos);
    m_nodes[index] = n;
    return true;
}

}  // namespace lmct
