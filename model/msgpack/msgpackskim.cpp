#include "msgpack/msgpackskim.h"

#include "msgpack/msgpackhead.h"

#include <cstring>
#include <limits>

namespace lmct {

namespace {

/** One value's header, normalised (see MsgpackSkim::canonicalHash). */
struct Token {
    enum Kind : quint8 { Nil, Bool, Int, UInt, Float, Str, Bin, Ext, Array, Map };
    Kind kind = Nil;
    quint64 value = 0;             // Bool, Int (two's complement), UInt, Float (bits), Ext type
    const uchar *bytes = nullptr;  // Str, Bin, Ext payload
    quint64 length = 0;            // payload bytes; Array / Map: element / entry count
};

/** Reads the token at `*pos` and advances past its header and payload. */
bool readToken(const uchar *d, qint64 size, qint64 *pos, Token *t) {
    const qint64 p = *pos;
    if (p < 0 || p >= size) {
        return false;
    }
    const uchar *at = d + p;
    const MsgpackHead h = MsgpackHead::read(at, size - p);
    if (!h.ok() || !h.fits(size - p)) {
        return false;
    }
    *t = Token();
    switch (h.kind) {
        case MsgpackHead::Kind::Int:
            t->kind = Token::Int;
            t->value = h.integer(at);
            break;
        case MsgpackHead::Kind::UInt: {
            const quint64 u = h.integer(at);
            t->kind = u > quint64(std::numeric_limits<qint64>::max()) ? Token::UInt : Token::Int;
            t->value = u;
            break;
        }
        case MsgpackHead::Kind::Float32:
        case MsgpackHead::Kind::Float64: {
            const double dv = h.floating(at);  // float32 and float64 hash alike
            t->kind = Token::Float;
            std::memcpy(&t->value, &dv, 8);
            break;
        }
        case MsgpackHead::Kind::Map:
            t->kind = Token::Map;
            t->length = h.count;
            break;
        case MsgpackHead::Kind::Array:
            t->kind = Token::Array;
            t->length = h.count;
            break;
        case MsgpackHead::Kind::Str:
            t->kind = Token::Str;
            break;
        case MsgpackHead::Kind::Bin:
            t->kind = Token::Bin;
            break;
        case MsgpackHead::Kind::Ext:
            t->kind = Token::Ext;
            t->value = quint8(h.extType(at));
            break;
        case MsgpackHead::Kind::Bool:
            t->kind = Token::Bool;
            t->value = MsgpackHead::boolean(at);
            break;
        default:
            t->kind = Token::Nil;
            break;
    }
    if (t->kind == Token::Str || t->kind == Token::Bin || t->kind == Token::Ext) {
        t->bytes = at + h.header;
        t->length = h.payload;
    }
    *pos = p + qint64(h.size());
    return true;
}

// Two unrelated 64-bit mixers (splitmix64 / murmur3 finaliser constants) over the token stream.
quint64 mix(quint64 h, quint64 x) {
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 29);
}

quint64 mix2(quint64 h, quint64 x) {
    h = (h ^ x) * 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

}  // namespace

bool MsgpackSkim::canonicalHash(QByteArrayView v, quint64 *ha, quint64 *hb) {
    const auto *d = reinterpret_cast<const uchar *>(v.data());
    const qint64 size = v.size();
    qint64 pos = 0;
    quint64 a = 0x51ed27a3u, b = 0x2545f4914f6cdd1dULL;
    quint64 remaining = 1;
    auto feed = [&](quint64 x) {
        a = mix(a, x);
        b = mix2(b, x);
    };
    while (remaining > 0) {
        Token t;
        if (!readToken(d, size, &pos, &t)) {
            return false;
        }
        --remaining;
        feed(t.kind);
        feed(t.value);
        if (t.kind == Token::Array || t.kind == Token::Map) {
            const quint64 children = t.kind == Token::Map ? 2 * t.length : t.length;
            if (children > quint64(size - pos) || remaining + children > quint64(size - pos)) {
                return false;
            }
            remaining += children;
            feed(t.length);
        } else if (t.bytes) {
            feed(t.length);
            // the payload, 8 bytes at a time
            quint64 i = 0;
            for (; i + 8 <= t.length; i += 8) {
                quint64 w;
                std::memcpy(&w, t.bytes + i, 8);
                feed(w);
            }
            quint64 w = 0;
            std::memcpy(&w, t.bytes + i, size_t(t.length - i));
            feed(w);
        }
    }
    *ha = a;
    *hb = b;
    return pos == size;
}

qint64 MsgpackSkim::skip(const uchar *data, qint64 size, qint64 pos) {
    quint64 remaining = 1;
    while (remaining > 0) {
        if (pos < 0 || pos >= size) {
            return -1;
        }
        const MsgpackHead h = MsgpackHead::read(data + pos, size - pos);
        if (!h.ok() || !h.fits(size - pos)) {
            return -1;
        }
        pos += qint64(h.size());
        --remaining;
        // Every value takes at least one byte: a claim beyond the bytes left is malformed.
        const quint64 children = h.children();
        if (children > quint64(size - pos) || remaining + children > quint64(size - pos)) {
            return -1;
        }
        remaining += children;
    }
    return pos;
}

qint64 MsgpackSkim::findInMap(const uchar *data, qint64 size, qint64 pos, QByteArrayView key) {
    if (pos < 0 || pos >= size) {
        return -1;
    }
    const MsgpackHead m = MsgpackHead::read(data + pos, size - pos);
    if (m.kind != MsgpackHead::Kind::Map) {
        return -1;
    }
    const quint64 n = m.count;
    qint64 p = pos + m.header;
    for (quint64 i = 0; i < n; ++i) {
        if (p >= size) {
            return -1;
        }
        const MsgpackHead h = MsgpackHead::read(data + p, size - p);
        if (!h.ok()) {
            return -1;
        }
        const bool isStr = h.kind == MsgpackHead::Kind::Str;
        if (isStr && !h.fits(size - p)) {
            return -1;
        }
        // A string key ends after its payload; any other key is skipped whole.
        const qint64 valuePos = isStr ? p + qint64(h.size()) : skip(data, size, p);
        if (valuePos < 0) {
            return -1;
        }
        if (isStr && h.payload == quint64(key.size()) &&
            std::memcmp(data + p + h.header, key.data(), size_t(key.size())) == 0) {
            return valuePos;
        }
        p = skip(data, size, valuePos);
        if (p < 0) {
            return -1;
        }
    }
    return -1;
}

}  // namespace lmct
