#include "export/packedjson.h"

#include "codec/value.h"
#include "export/jsonsink.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace lmct {

namespace {

/** One msgpack value header: its kind and its immediate number or payload length. */
struct Head {
    enum class Kind : quint8 { Nil, Bool, UInt, Int, Float, Str, Bin, Ext, Array, Map };
    Kind kind = Kind::Nil;
    quint64 u = 0;    // Bool, UInt; Int as two's complement
    double d = 0.0;   // Float
    quint32 len = 0;  // Str, Bin, Ext (payload without its type byte), Array, Map (entries)
    qint8 extType = 0;
};

/** Byte order of map keys (QJsonObject's for ASCII); most keys differ in their first bytes. */
inline bool keyLess(std::string_view a, std::string_view b) {
    const size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; ++i) {
        if (a[i] != b[i]) {
            return uchar(a[i]) < uchar(b[i]);
        }
    }
    return a.size() < b.size();
}

/** A map entry written in file order: its key and where `"key":value` lies in the output. */
struct Entry {
    std::string_view key;
    qsizetype begin = 0;
    qsizetype end = 0;
};

/** Streams one record's (or one value's) msgpack into JSON; see PackedJson. */
class Writer {
public:
    Writer(const char *data, qint64 size, JsonSink *out)
        : m_p(reinterpret_cast<const uchar *>(data)),
          m_end(reinterpret_cast<const uchar *>(data) + size),
          m_out(out) {}

    bool atEnd() const { return m_p == m_end; }
    static size_t stackSize() { return entryStack().size(); }
    static void resetStack(size_t n) { entryStack().resize(n); }

    bool value(int depth) {
        Head h;
        if (!head(&h) || ++m_nodes > PackedJson::kMaxNodes) {
            return false;
        }
        switch (h.kind) {
            case Head::Kind::Nil:
                m_out->literal("null");
                return true;
            case Head::Kind::Bool:
                h.u ? m_out->literal("true") : m_out->literal("false");
                return true;
            case Head::Kind::UInt:
                // Above INT64_MAX the DOM path holds a double (ValueFormatter::toJson).
                if (h.u > quint64(std::numeric_limits<qint64>::max())) {
                    m_out->appendDouble(double(h.u));
                } else {
                    m_out->appendInt(qint64(h.u));
                }
                return true;
            case Head::Kind::Int:
                m_out->appendInt(qint64(h.u));
                return true;
            case Head::Kind::Float:
                m_out->appendDouble(h.d);
                return true;
            case Head::Kind::Str: {
                if (h.len > Value::kMaxKeptBytes || !have(h.len)) {
                    return false;
                }
                m_out->appendString(std::string_view(reinterpret_cast<const char *>(m_p), h.len));
                m_p += h.len;
                return true;
            }
            case Head::Kind::Bin:
                if (h.len > Value::kMaxKeptBytes || !have(h.len)) {
                    return false;
                }
                m_out->append('"');
                m_out->appendHex(reinterpret_cast<const char *>(m_p), h.len);
                m_out->append('"');
                m_p += h.len;
                return true;
            case Head::Kind::Ext:
                if (h.len > Value::kMaxKeptBytes || !have(h.len)) {
                    return false;
                }
                m_out->literal("{\"data\":\"");
                m_out->appendHex(reinterpret_cast<const char *>(m_p), h.len);
                m_out->literal("\",\"ext\":");
                m_out->appendInt(h.extType);
                m_out->append('}');
                m_p += h.len;
                return true;
            case Head::Kind::Array:
                if (depth >= PackedJson::kMaxDepth) {
                    return false;
                }
                m_out->append('[');
                for (quint32 i = 0; i < h.len; ++i) {
                    if (i > 0) {
                        m_out->append(',');
                    }
                    if (!value(depth + 1)) {
                        return false;
                    }
                }
                m_out->append(']');
                return true;
            case Head::Kind::Map:
                if (depth >= PackedJson::kMaxDepth) {
                    return false;
                }
                return map(h.len, depth + 1);
        }
        return false;
    }

    /** Reads over one value, writing nothing. */
    bool skip(int depth) {
        Head h;
        if (!head(&h) || ++m_nodes > PackedJson::kMaxNodes) {
            return false;
        }
        switch (h.kind) {
            case Head::Kind::Str:
            case Head::Kind::Bin:
            case Head::Kind::Ext:
                if (!have(h.len)) {
                    return false;
                }
                m_p += h.len;
                return true;
            case Head::Kind::Array:
            case Head::Kind::Map: {
                if (depth >= PackedJson::kMaxDepth) {
                    return false;
                }
                const quint64 n = h.kind == Head::Kind::Map ? 2 * quint64(h.len) : h.len;
                for (quint64 i = 0; i < n; ++i) {
                    if (!skip(depth + 1)) {
                        return false;
                    }
                }
                return true;
            }
            default:
                return true;
        }
    }

    /** The record map: writes its first `args` value, reads over everything else. */
    bool record(PackedJson::Shape *shape) {
        Head h;
        if (!head(&h) || h.kind != Head::Kind::Map || ++m_nodes > PackedJson::kMaxNodes) {
            return false;
        }
        bool found = false;
        for (quint32 i = 0; i < h.len; ++i) {
            const uchar *keyAt = m_p;
            Head k;
            if (!head(&k)) {
                return false;
            }
            bool isArgs = false;
            if (k.kind == Head::Kind::Str) {
                if (!have(k.len) || ++m_nodes > PackedJson::kMaxNodes) {
                    return false;
                }
                const std::string_view key(reinterpret_cast<const char *>(m_p), k.len);
                if (key == "__t__") {
                    return false;  // a codec-tagged record: the DOM path finds no args map
                }
                isArgs = !found && key == "args";
                m_p += k.len;
            } else {
                m_p = keyAt;
                if (!skip(1)) {
                    return false;
                }
            }
            if (isArgs) {
                found = true;
                if (m_p >= m_end) {
                    return false;
                }
                const uchar c = *m_p;
                *shape = (c >= 0x80 && c <= 0x8f) || c == 0xde || c == 0xdf
                             ? PackedJson::Shape::Object
                         : (c >= 0x90 && c <= 0x9f) || c == 0xdc || c == 0xdd
                             ? PackedJson::Shape::Array
                             : PackedJson::Shape::Scalar;
                if (!value(1)) {
                    return false;
                }
            } else if (!skip(1)) {
                return false;
            }
        }
        return found;
    }

private:
    bool have(quint64 n) const { return quint64(m_end - m_p) >= n; }

    template <typename T>
    bool readBE(T *v) {
        if (!have(sizeof(T))) {
            return false;
        }
        T x = 0;
        for (size_t i = 0; i < sizeof(T); ++i) {
            x = T((x << 8) | T(m_p[i]));
        }
        m_p += sizeof(T);
        *v = x;
        return true;
    }

    bool length(int bytes, Head *h, Head::Kind kind) {
        h->kind = kind;
        if (bytes == 1) {
            quint8 n;
            if (!readBE(&n)) {
                return false;
            }
            h->len = n;
        } else if (bytes == 2) {
            quint16 n;
            if (!readBE(&n)) {
                return false;
            }
            h->len = n;
        } else {
            quint32 n;
            if (!readBE(&n)) {
                return false;
            }
            h->len = n;
        }
        return true;
    }

    bool ext(int bytes, Head *h) {
        if (bytes > 0 && !length(bytes, h, Head::Kind::Ext)) {
            return false;
        }
        h->kind = Head::Kind::Ext;
        if (!have(1)) {
            return false;
        }
        h->extType = qint8(*m_p++);
        return true;
    }

    bool head(Head *h) {
        if (m_p >= m_end) {
            return false;
        }
        const uchar c = *m_p++;
        if (c <= 0x7f) {
            h->kind = Head::Kind::UInt;
            h->u = c;
            return true;
        }
        if (c >= 0xe0) {
            h->kind = Head::Kind::Int;
            h->u = quint64(qint64(qint8(c)));
            return true;
        }
        if (c <= 0x8f) {
            h->kind = Head::Kind::Map;
            h->len = c & 0x0f;
            return true;
        }
        if (c <= 0x9f) {
            h->kind = Head::Kind::Array;
            h->len = c & 0x0f;
            return true;
        }
        if (c <= 0xbf) {
            h->kind = Head::Kind::Str;
            h->len = c & 0x1f;
            return true;
        }
        switch (c) {
            case 0xc0:
                h->kind = Head::Kind::Nil;
                return true;
            case 0xc2:
            case 0xc3:
                h->kind = Head::Kind::Bool;
                h->u = c == 0xc3;
                return true;
            case 0xc4:
                return length(1, h, Head::Kind::Bin);
            case 0xc5:
                return length(2, h, Head::Kind::Bin);
            case 0xc6:
                return length(4, h, Head::Kind::Bin);
            case 0xc7:
                return ext(1, h);
            case 0xc8:
                return ext(2, h);
            case 0xc9:
                return ext(4, h);
            case 0xca: {
                quint32 bits;
                if (!readBE(&bits)) {
                    return false;
                }
                float f;
                std::memcpy(&f, &bits, 4);
                h->kind = Head::Kind::Float;
                h->d = double(f);
                return true;
            }
            case 0xcb: {
                quint64 bits;
                if (!readBE(&bits)) {
                    return false;
                }
                h->kind = Head::Kind::Float;
                std::memcpy(&h->d, &bits, 8);
                return true;
            }
            case 0xcc: {
                quint8 v;
                h->kind = Head::Kind::UInt;
                return readBE(&v) && ((h->u = v), true);
            }
            case 0xcd: {
                quint16 v;
                h->kind = Head::Kind::UInt;
                return readBE(&v) && ((h->u = v), true);
            }
            case 0xce: {
                quint32 v;
                h->kind = Head::Kind::UInt;
                return readBE(&v) && ((h->u = v), true);
            }
            case 0xcf: {
                quint64 v;
                h->kind = Head::Kind::UInt;
                return readBE(&v) && ((h->u = v), true);
            }
            // msgpack-cxx hands a signed integer that is not negative to visit_positive_integer:
            // either way the DOM path holds the same qint64.
            case 0xd0: {
                quint8 v;
                h->kind = Head::Kind::Int;
                return readBE(&v) && ((h->u = quint64(qint64(qint8(v)))), true);
            }
            case 0xd1: {
                quint16 v;
                h->kind = Head::Kind::Int;
                return readBE(&v) && ((h->u = quint64(qint64(qint16(v)))), true);
            }
            case 0xd2: {
                quint32 v;
                h->kind = Head::Kind::Int;
                return readBE(&v) && ((h->u = quint64(qint64(qint32(v)))), true);
            }
            case 0xd3: {
                quint64 v;
                h->kind = Head::Kind::Int;
                return readBE(&v) && ((h->u = v), true);
            }
            case 0xd4:
            case 0xd5:
            case 0xd6:
            case 0xd7:
            case 0xd8:
                h->len = 1u << (c - 0xd4);
                return ext(0, h);
            case 0xd9:
                return length(1, h, Head::Kind::Str);
            case 0xda:
                return length(2, h, Head::Kind::Str);
            case 0xdb:
                return length(4, h, Head::Kind::Str);
            case 0xdc:
                return length(2, h, Head::Kind::Array);
            case 0xdd:
                return length(4, h, Head::Kind::Array);
            case 0xde:
                return length(2, h, Head::Kind::Map);
            case 0xdf:
                return length(4, h, Head::Kind::Map);
            default:
                return false;  // 0xc1: never used
        }
    }

    /** A map of `n` entries: written in file order, then put in QJsonObject's key order. */
    bool map(quint32 n, int depth) {
        m_out->append('{');
        const size_t base = m_entries.size();
        bool sorted = true;
        for (quint32 i = 0; i < n; ++i) {
            if (i > 0) {
                m_out->append(',');
            }
            Head k;
            if (!head(&k) || k.kind != Head::Kind::Str || !have(k.len) ||
                ++m_nodes > PackedJson::kMaxNodes) {
                return false;
            }
            const std::string_view key(reinterpret_cast<const char *>(m_p), k.len);
            for (char c : key) {
                if (uchar(c) >= 0x80) {
                    return false;  // QJsonObject orders such keys by UTF-16: left to the DOM
                }
            }
            m_p += k.len;
            Entry e;
            e.key = key;
            e.begin = m_out->size();
            m_out->append('"');
            m_out->appendEscaped(key);
            m_out->literal("\":");
            if (!value(depth)) {
                return false;
            }
            e.end = m_out->size();
            if (i > 0 && !keyLess(m_entries.back().key, key)) {
                sorted = false;
            }
            m_entries.push_back(e);
        }
        if (!sorted && !reorder(base)) {
            return false;
        }
        m_entries.resize(base);
        m_out->append('}');
        return true;
    }

    /** Rewrites the entries from `base` on in key order; false on a key given twice. */
    bool reorder(size_t base) {
        const auto first = m_entries.begin() + qsizetype(base);
        std::sort(first, m_entries.end(),
                  [](const Entry &a, const Entry &b) { return keyLess(a.key, b.key); });
        for (auto it = first + 1; it < m_entries.end(); ++it) {
            if ((it - 1)->key == it->key) {
                return false;  // QJsonObject keeps the last value: left to the DOM path
            }
        }
        qsizetype from = first->begin;
        qsizetype to = first->end;
        for (auto it = first; it < m_entries.end(); ++it) {
            from = std::min(from, it->begin);
            to = std::max(to, it->end);
        }
        thread_local std::vector<char> region;
        region.assign(m_out->data() + from, m_out->data() + to);
        m_out->truncate(from);
        for (auto it = first; it < m_entries.end(); ++it) {
            if (it != first) {
                m_out->append(',');
            }
            m_out->append(region.data() + (it->begin - from), it->end - it->begin);
        }
        return true;
    }

    const uchar *m_p;
    const uchar *m_end;
    JsonSink *m_out;
    qint64 m_nodes = 0;
    std::vector<Entry> &m_entries = entryStack();

    /** Entries of the maps being written, innermost last (one stack per thread). */
    static std::vector<Entry> &entryStack() {
        thread_local std::vector<Entry> entries;
        return entries;
    }
};

}  // namespace

bool PackedJson::appendRecordArgs(const char *data, qint64 size, QByteArray *out, Shape *shape) {
    JsonSink sink(out);
    const qsizetype mark = sink.size();
    const size_t entries = Writer::stackSize();
    Writer w(data, size, &sink);
    Shape s = Shape::Scalar;
    if (size <= 0 || !w.record(&s) || !w.atEnd()) {
        sink.truncate(mark);
        Writer::resetStack(entries);
        return false;
    }
    if (shape) {
        *shape = s;
    }
    return true;
}

bool PackedJson::appendValue(const char *data, qint64 size, QByteArray *out) {
    JsonSink sink(out);
    const qsizetype mark = sink.size();
    const size_t entries = Writer::stackSize();
    Writer w(data, size, &sink);
    if (size <= 0 || !w.value(0) || !w.atEnd()) {
        sink.truncate(mark);
        Writer::resetStack(entries);
        return false;
    }
    return true;
}

bool PackedJson::appendJsonLine(const char *data, qint64 size, qint64 index,
                                const QByteArray &qualnameJson, double tMono, double tWall,
                                QByteArray *out) {
    JsonSink sink(out);
    const qsizetype mark = sink.size();
    const size_t entries = Writer::stackSize();
    sink.literal("{\"args\":");
    Writer w(data, size, &sink);
    Shape s = Shape::Scalar;
    if (size <= 0 || !w.record(&s) || !w.atEnd()) {
        sink.truncate(mark);
        Writer::resetStack(entries);
        return false;
    }
    sink.literal(",\"index\":");
    sink.appendInt(index);
    sink.literal(",\"qualname\":");
    sink.append(qualnameJson);
    sink.literal(",\"t_mono\":");
    sink.appendDouble(tMono);
    sink.literal(",\"t_wall\":");
    sink.appendDouble(tWall);
    sink.literal("}\n");
    return true;
}

void PackedJson::appendString(std::string_view utf8, QByteArray *out) {
    JsonSink sink(out);
    sink.appendString(utf8);
}

void PackedJson::appendDouble(double v, QByteArray *out) {
    JsonSink sink(out);
    sink.appendDouble(v);
}

void PackedJson::appendInt(qint64 v, QByteArray *out) {
    JsonSink sink(out);
    sink.appendInt(v);
}

}  // namespace lmct
