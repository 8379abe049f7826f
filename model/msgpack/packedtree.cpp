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

bool PackedTree::parse(qint64 *pos, int depth) {
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
    switch (h.kind) {
        case MsgpackHead::Kind::Invalid:
            return false;
        case MsgpackHead::Kind::Nil:
            n.kind = Kind::Nil;
            break;
        case MsgpackHead::Kind::Bool:
            n.kind = Kind::Bool;
            n.u = MsgpackHead::boolean(p) ? 1 : 0;
            break;
        case MsgpackHead::Kind::Int:
        case MsgpackHead::Kind::UInt:
            n.kind = Kind::Int;
            n.u = h.integer(p);
            break;
        case MsgpackHead::Kind::Float32:
        case MsgpackHead::Kind::Float64:
            n.kind = Kind::Float;
            n.d = h.floating(p);
            break;
        case MsgpackHead::Kind::Str:
        case MsgpackHead::Kind::Bin:
        case MsgpackHead::Kind::Ext:
            if (h.payload > kMaxPayload) {
                return false;
            }
            n.kind = h.kind == MsgpackHead::Kind::Str   ? Kind::String
                     : h.kind == MsgpackHead::Kind::Bin ? Kind::Bytes
                                                        : Kind::Ext;
            n.data = n.begin + h.header;
            n.len = quint32(h.payload);
            break;
        case MsgpackHead::Kind::Array:
        case MsgpackHead::Kind::Map: {
            const bool map = h.kind == MsgpackHead::Kind::Map;
            // Every element takes a byte at least (a map entry two): a claim beyond the bytes
            // left cannot be backed by data.
            if (depth >= kMaxDepth || h.children() > quint64(m_size - *pos)) {
                return false;
            }
            n.kind = map ? Kind::Map : Kind::Array;
            n.len = quint32(h.count);
            for (quint64 i = 0; i < h.children(); ++i) {
                const size_t child = m_nodes.size();
                if (!parse(pos, depth + 1) ||
                    (map && i % 2 == 0 && m_nodes[child].kind != Kind::String)) {
                    return false;
                }
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
            break;
        }
    }
    n.end = quint32(m_nodes.size());
    n.bytesEnd = quint32(*pos);
    m_nodes[index] = n;
    return true;
}

}  // namespace lmct
