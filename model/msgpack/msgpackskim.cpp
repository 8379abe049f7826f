#include "msgpack/msgpackskim.h"

#include <cstring>
#include <limits>

namespace lmct {

namespace {

quint64 be(const uchar *p, int n) {
    quint64 v = 0;
    for (int i = 0; i < n; ++i) {
        v = (v << 8) | p[i];
    }
    return v;
}

/** One value's header at `pos`: its header length, payload bytes and child count. */
struct Head {
    qint64 header = 0;     // bytes of the header (type byte + length fields)
    quint64 payload = 0;   // bytes of inline payload (str, bin, ext, numbers)
    quint64 children = 0;  // values that follow (array elements, map keys + values)
    bool ok = false;
};

Head head(const uchar *d, qint64 size, qint64 pos) {
    Head h;
    const uchar b = d[pos];
    const qint64 avail = size - pos;
    auto lenField = [&](int lenBytes, int extraFixed) {
        if (avail < 1 + lenBytes) {
            return false;
        }
        h.header = 1 + lenBytes + extraFixed;
        h.payload = be(d + pos + 1, lenBytes);
        return true;
    };
    if (b <= 0x7f || b >= 0xe0) {
        h.header = 1;
    } else if (b <= 0x8f) {
        h.header = 1;
        h.children = 2 * quint64(b & 0x0f);
    } else if (b <= 0x9f) {
        h.header = 1;
        h.children = b & 0x0f;
    } else if (b <= 0xbf) {
        h.header = 1;
        h.payload = b & 0x1f;
    } else {
        switch (b) {
            case 0xc0:
            case 0xc2:
            case 0xc3:
                h.header = 1;
                break;
            case 0xc4:
            case 0xd9:
                if (!lenField(1, 0))
                    return h;
                break;
            case 0xc5:
            case 0xda:
                if (!lenField(2, 0))
                    return h;
                break;
            case 0xc6:
            case 0xdb:
                if (!lenField(4, 0))
                    return h;
                break;
            case 0xc7:
                if (!lenField(1, 1))
                    return h;
                break;
            case 0xc8:
                if (!lenField(2, 1))
                    return h;
                break;
            case 0xc9:
                if (!lenField(4, 1))
                    return h;
                break;
            case 0xca:
                h.header = 1;
                h.payload = 4;
                break;
            case 0xcb:
                h.header = 1;
                h.payload = 8;
                break;
            case 0xcc:
            case 0xd0:
                h.header = 1;
                h.payload = 1;
                break;
            case 0xcd:
            case 0xd1:
                h.header = 1;
                h.payload = 2;
                break;
            case 0xce:
            case 0xd2:
                h.header = 1;
                h.payload = 4;
                break;
            case 0xcf:
            case 0xd3:
                h.header = 1;
                h.payload = 8;
                break;
            case 0xd4:
                h.header = 2;
                h.payload = 1;
                break;
            case 0xd5:
                h.header = 2;
                h.payload = 2;
                break;
            case 0xd6:
                h.header = 2;
                h.payload = 4;
                break;
            case 0xd7:
                h.header = 2;
                h.payload = 8;
                break;
            case 0xd8:
                h.header = 2;
                h.payload = 16;
                break;
            case 0xdc:
            case 0xdd:
            case 0xde:
            case 0xdf: {
                const int lb = (b == 0xdc || b == 0xde) ? 2 : 4;
                if (avail < 1 + lb) {
                    return h;
                }
                h.header = 1 + lb;
                const quint64 n = be(d + pos + 1, lb);
                h.children = b >= 0xde ? 2 * n : n;
                break;
            }
            default:
                return h;  // 0xc1: never used
        }
    }
    h.ok = true;
    return h;
}

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
    const Head h = head(d, size, p);
    if (!h.ok || h.header > size - p || h.payload > quint64(size - p - h.header)) {
        return false;
    }
    const uchar b = d[p];
    const uchar *body = d + p + h.header;
    *t = Token();
    if (b <= 0x7f) {
        t->kind = Token::Int;
        t->value = b;
    } else if (b >= 0xe0) {
        t->kind = Token::Int;
        t->value = quint64(qint64(qint8(b)));
    } else if (b <= 0x8f || b == 0xde || b == 0xdf) {
        t->kind = Token::Map;
        t->length = h.children / 2;
    } else if (b <= 0x9f || b == 0xdc || b == 0xdd) {
        t->kind = Token::Array;
        t->length = h.children;
    } else if (b <= 0xbf || (b >= 0xd9 && b <= 0xdb)) {
        t->kind = Token::Str;
    } else if (b >= 0xc4 && b <= 0xc6) {
        t->kind = Token::Bin;
    } else if ((b >= 0xc7 && b <= 0xc9) || (b >= 0xd4 && b <= 0xd8)) {
        t->kind = Token::Ext;
        t->value = d[p + h.header - 1];  // the ext type byte ends the header
    } else if (b == 0xc0) {
        t->kind = Token::Nil;
    } else if (b == 0xc2 || b == 0xc3) {
        t->kind = Token::Bool;
        t->value = b == 0xc3;
    } else if (b == 0xca) {
        float f;
        const quint32 u = quint32(be(body, 4));
        std::memcpy(&f, &u, 4);
        const double dv = double(f);
        t->kind = Token::Float;
        std::memcpy(&t->value, &dv, 8);
    } else if (b == 0xcb) {
        t->kind = Token::Float;
        t->value = be(body, 8);
    } else if (b >= 0xcc && b <= 0xcf) {
        const quint64 u = be(body, int(h.payload));
        t->kind = u > quint64(std::numeric_limits<qint64>::max()) ? Token::UInt : Token::Int;
        t->value = u;
    } else {  // 0xd0..0xd3: signed big-endian
        const int n = int(h.payload);
        quint64 u = be(body, n);
        if (n < 8 && (u >> (8 * n - 1)) & 1) {
            u |= ~quint64(0) << (8 * n);  // sign-extend
        }
        t->kind = Token::Int;
        t->value = u;
    }
    if (t->kind == Token::Str || t->kind == Token::Bin || t->kind == Token::Ext) {
        t->bytes = body;
        t->length = h.payload;
    }
    *pos = p + h.header + qint64(h.payload);
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
        const Head h = head(data, size, pos);
        if (!h.ok || h.header > size - pos || h.payload > quint64(size - pos - h.header)) {
            return -1;
        }
        pos += h.header + qint64(h.payload);
        --remaining;
        // Every value takes at least one byte: a claim beyond the bytes left is malformed.
        if (h.children > quint64(size - pos) || remaining + h.children > quint64(size - pos)) {
            return -1;
        }
        remaining += h.children;
    }
    return pos;
}

qint64 MsgpackSkim::findInMap(const uchar *data, qint64 size, qint64 pos, QByteArrayView key) {
    if (pos < 0 || pos >= size) {
        return -1;
    }
    const uchar b = data[pos];
    quint64 n = 0;
    qint64 p = pos;
    if (b >= 0x80 && b <= 0x8f) {
        n = b & 0x0f;
        p += 1;
    } else if (b == 0xde && size - pos >= 3) {
        n = be(data + pos + 1, 2);
        p += 3;
    } else if (b == 0xdf && size - pos >= 5) {
        n = be(data + pos + 1, 4);
        p += 5;
    } else {
        return -1;
    }
    for (quint64 i = 0; i < n; ++i) {
        if (p >= size) {
            return -1;
        }
        const Head h = head(data, size, p);
        if (!h.ok) {
            return -1;
        }
        const uchar kb = data[p];
        const bool isStr = (kb >= 0xa0 && kb <= 0xbf) || kb == 0xd9 || kb == 0xda || kb == 0xdb;
        const qint64 valuePos = skip(data, size, p);
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
