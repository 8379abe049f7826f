#include "codec/rawkeyscanner.h"

#include "msgpack/msgpackskim.h"
#include "util/saturatingint.h"

#include <cstring>

namespace lmct {

namespace {

quint64 be(const uchar *p, int n) {
    quint64 v = 0;
    for (int i = 0; i < n; ++i) {
        v = (v << 8) | p[i];
    }
    return v;
}

/** A bounds-checked reader over one msgpack buffer. */
struct Cursor {
    const uchar *begin;
    const uchar *p;
    const uchar *end;
    bool ok = true;

    qint64 left() const { return end - p; }
    bool need(qint64 n) {
        if (left() < n) {
            ok = false;
        }
        return ok;
    }
    quint64 take(int n) {
        const quint64 v = be(p, n);
        p += n;
        return v;
    }
};

enum class Kind { Scalar, Str, Bin, Array, Map, Int, Bad };

/** Reads a value's header. For Str/Bin: `n` = byte length and `data` = bytes (skipped). For
 *  Array/Map: `n` = element/entry count (contents not skipped). For Int: `i` = value. */
struct Head {
    Kind kind = Kind::Bad;
    quint64 n = 0;
    qint64 i = 0;
    const uchar *data = nullptr;
};

Head readHead(Cursor &c) {
    Head h;
    if (!c.need(1)) {
        return h;
    }
    const uchar b = *c.p++;
    auto bytes = [&](Kind k, int lenBytes) {
        if (!c.need(lenBytes)) {
            return;
        }
        const quint64 len = c.take(lenBytes);
        if (quint64(c.left()) < len) {
            c.ok = false;
            return;
        }
        h.kind = k;
        h.n = len;
        h.data = c.p;
        c.p += len;
    };
    auto skipFixed = [&](qint64 n) {
        if (c.need(n)) {
            c.p += n;
            h.kind = Kind::Scalar;
        }
    };
    auto container = [&](Kind k, int lenBytes) {
        if (!c.need(lenBytes)) {
            return;
        }
        h.kind = k;
        h.n = c.take(lenBytes);
        // Each element takes at least one byte: a bigger claim is damage.
        const quint64 minBytes = k == Kind::Map ? 2 * h.n : h.n;
        if (minBytes > quint64(c.left())) {
            c.ok = false;
            h.kind = Kind::Bad;
        }
    };
    auto integer = [&](int n, bool isSigned) {
        if (!c.need(n)) {
            return;
        }
        const quint64 u = c.take(n);
        h.kind = Kind::Int;
        if (isSigned) {
            const int shift = 64 - 8 * n;
            h.i = qint64(u << shift) >> shift;
        } else {
            h.i = qint64(u);
        }
    };
    if (b <= 0x7f) {
        h.kind = Kind::Int;
        h.i = b;
    } else if (b >= 0xe0) {
        h.kind = Kind::Int;
        h.i = qint64(qint8(b));
    } else if (b <= 0x8f) {
        h.kind = Kind::Map;
        h.n = b & 0x0f;
        if (2 * h.n > quint64(c.left())) {
            c.ok = false;
            h.kind = Kind::Bad;
        }
    } else if (b <= 0x9f) {
        h.kind = Kind::Array;
        h.n = b & 0x0f;
        if (h.n > quint64(c.left())) {
            c.ok = false;
            h.kind = Kind::Bad;
        }
    } else if (b <= 0xbf) {
        const quint64 len = b & 0x1f;
        if (quint64(c.left()) < len) {
            c.ok = false;
        } else {
            h.kind = Kind::Str;
            h.n = len;
            h.data = c.p;
            c.p += len;
        }
    } else {
        switch (b) {
            case 0xc0:
            case 0xc2:
            case 0xc3:
                h.kind = Kind::Scalar;
                break;
            case 0xc4:
                bytes(Kind::Bin, 1);
                break;
            case 0xc5:
                bytes(Kind::Bin, 2);
                break;
            case 0xc6:
                bytes(Kind::Bin, 4);
                break;
            case 0xc7:
            case 0xc8:
            case 0xc9: {
                const int lb = b == 0xc7 ? 1 : b == 0xc8 ? 2 : 4;
                if (c.need(lb)) {
                    const quint64 len = c.take(lb);
                    if (quint64(c.left()) < len + 1) {
                        c.ok = false;
                    } else {
                        c.p += len + 1;
                        h.kind = Kind::Scalar;
                    }
                }
                break;
            }
            case 0xca: {
                if (c.need(4)) {
                    const quint32 u = quint32(c.take(4));
                    float f;
                    std::memcpy(&f, &u, 4);
                    h.kind = Kind::Int;
                    h.i = saturatingInt(f);
                }
                break;
            }
            case 0xcb: {
                if (c.need(8)) {
                    const quint64 u = c.take(8);
                    double d;
                    std::memcpy(&d, &u, 8);
                    h.kind = Kind::Scalar;  // floats are no ints (kv_rank must be an int)
                    h.i = saturatingInt(d);
                }
                break;
            }
            case 0xcc:
                integer(1, false);
                break;
            case 0xcd:
                integer(2, false);
                break;
            case 0xce:
                integer(4, false);
                break;
            case 0xcf:
                integer(8, false);
                break;
            case 0xd0:
                integer(1, true);
                break;
            case 0xd1:
                integer(2, true);
                break;
            case 0xd2:
                integer(4, true);
                break;
            case 0xd3:
                integer(8, true);
                break;
            case 0xd4:
                skipFixed(2);
                break;
            case 0xd5:
                skipFixed(3);
                break;
            case 0xd6:
                skipFixed(5);
                break;
            case 0xd7:
                skipFixed(9);
                break;
            case 0xd8:
                skipFixed(17);
                break;
            case 0xd9:
                bytes(Kind::Str, 1);
                break;
            case 0xda:
                bytes(Kind::Str, 2);
                break;
            case 0xdb:
                bytes(Kind::Str, 4);
                break;
            case 0xdc:
                container(Kind::Array, 2);
                break;
            case 0xdd:
                container(Kind::Array, 4);
                break;
            case 0xde:
                container(Kind::Map, 2);
                break;
            case 0xdf:
                container(Kind::Map, 4);
                break;
            default:  // 0xc1: never used
                c.ok = false;
                break;
        }
    }
    if (!c.ok) {
        h.kind = Kind::Bad;
    }
    return h;
}

/** Skips one whole value (iteratively, through MsgpackSkim). */
bool skipValue(Cursor &c) {
    const qint64 pos = c.p - c.begin;
    const qint64 end = MsgpackSkim::skip(c.begin, c.end - c.begin, pos);
    if (end < 0) {
        c.ok = false;
        return false;
    }
    c.p = c.begin + end;
    return true;
}

bool isStr(const Head &h, const char *s, quint64 n) {
    return h.kind == Kind::Str && h.n == n && std::memcmp(h.data, s, n) == 0;
}

template <size_t N>
bool isStr(const Head &h, const char (&s)[N]) {
    return isStr(h, s, N - 1);
}

/** Parses the ObjectKey payload map at c.p and consumes it (the cursor ends after the map when
 *  the bytes are sound, whether or not the map is an ObjectKey payload). */
bool parseKeyAt(Cursor &c, RawKeyScanner::Fields *out) {
    const uchar *start = c.p;
    const Head m = readHead(c);
    if (m.kind != Kind::Map) {
        if (c.ok) {
            c.p = start;
            skipValue(c);
        }
        return false;
    }
    RawKeyScanner::Fields f;
    bool hasHash = false, hasModel = false, hasRank = false, bad = false;
    for (quint64 k = 0; k < m.n && c.ok; ++k) {
        const uchar *keyAt = c.p;
        const Head key = readHead(c);
        if (!c.ok) {
            return false;
        }
        if (key.kind != Kind::Str) {
            if (key.kind == Kind::Array || key.kind == Kind::Map) {
                c.p = keyAt;  // a container as a map key: skip it whole
                skipValue(c);
            }
            skipValue(c);
            continue;
        }
        const uchar *valueAt = c.p;
        const Head v = readHead(c);
        if (!c.ok) {
            return false;
        }
        if (v.kind == Kind::Array || v.kind == Kind::Map) {
            c.p = valueAt;
            skipValue(c);
        }
        // First match wins, as Value::find.
        if (!hasHash && isStr(key, "chunk_hash")) {
            if (v.kind == Kind::Bin || v.kind == Kind::Str) {
                f.hash = v.data;
                f.hashSize = quint32(v.n);
                f.hashIsHex = v.kind == Kind::Str;
                hasHash = true;
            } else {
                hasHash = false;  // not an ObjectKey payload: read on to consume the map
                f.hash = nullptr;
                bad = true;
            }
        } else if (!hasModel && isStr(key, "model_name")) {
            hasModel = true;
            if (v.kind == Kind::Str) {
                f.model = v.data;
                f.modelSize = quint32(v.n);
            }
        } else if (!hasRank && isStr(key, "kv_rank")) {
            hasRank = true;
            f.kvRank = (v.kind == Kind::Int || v.kind == Kind::Scalar) ? v.i : 0;
        } else if (!f.hasGroup && isStr(key, "object_group_id")) {
            if (v.kind == Kind::Int) {
                f.hasGroup = true;
                f.group = v.i;
            }
        } else if (!f.hasSalt && isStr(key, "cache_salt")) {
            if (v.kind == Kind::Str) {
                f.hasSalt = true;
                f.salt = v.data;
                f.saltSize = quint32(v.n);
            }
        }
    }
    if (!c.ok || bad || !hasHash || !hasModel || !hasRank) {
        return false;
    }
    *out = f;
    return true;
}

struct Walker {
    std::vector<RawKeyScanner::Key> *keys;
    QByteArrayView *requestId;

    /** Walks the value at c.p (depth-first), consuming it. */
    void walk(Cursor &c, int depth) {
        if (!c.ok) {
            return;
        }
        if (depth > RawKeyScanner::kMaxDepth) {
            skipValue(c);
            return;
        }
        const uchar *start = c.p;
        Head h = readHead(c);
        if (h.kind == Kind::Array) {
            for (quint64 k = 0; k < h.n && c.ok; ++k) {
                walk(c, depth + 1);
            }
            return;
        }
        if (h.kind != Kind::Map) {
            return;  // scalars, str and bin were consumed by readHead
        }
        if (h.n == 2 && tagged(c, depth)) {
            return;
        }
        if (h.n == 2) {
            c.p = start;  // not a codec wrapper: read it again as a plain map
            h = readHead(c);
        }
        for (quint64 k = 0; k < h.n && c.ok; ++k) {
            const uchar *keyAt = c.p;
            const Head key = readHead(c);
            if (!c.ok) {
                return;
            }
            if (key.kind == Kind::Array || key.kind == Kind::Map) {
                c.p = keyAt;  // a container as a map key (legal msgpack): skip it whole
                if (!skipValue(c)) {
                    return;
                }
            }
            if (requestId && requestId->isNull() && isStr(key, "external_request_id")) {
                const uchar *v = c.p;
                const Head val = readHead(c);
                if (val.kind == Kind::Str) {
                    *requestId =
                        QByteArrayView(reinterpret_cast<const char *>(val.data), qsizetype(val.n));
                    continue;
                }
                c.p = v;
                c.ok = true;
            }
            walk(c, depth + 1);
        }
    }

    /**
     * At the first entry of a 2-entry map: when it is a codec wrapper {"__t__": TAG, "v": X},
     * consumes it (reporting an ObjectKey, or walking X) and returns true. Otherwise returns
     * false with the cursor somewhere inside the map (the caller rewinds).
     */
    bool tagged(Cursor &c, int depth) {
        const Head k1 = readHead(c);
        if (!c.ok) {
            return false;
        }
        const uchar *payload = nullptr;
        Head tag;
        if (isStr(k1, "__t__")) {
            tag = readHead(c);
            if (tag.kind != Kind::Str) {
                c.ok = true;
                return false;
            }
            const Head k2 = readHead(c);
            if (!isStr(k2, "v")) {
                c.ok = true;
                return false;
            }
            if (!isStr(tag, "ObjectKey")) {
                walk(c, depth + 1);
                return true;
            }
            RawKeyScanner::Key key;
            if (parseKeyAt(c, &key.fields)) {
                key.hash = RawKeyScanner::identityHash(key.fields);
                keys->push_back(key);
            }
            return true;
        } else if (isStr(k1, "v")) {
            payload = c.p;
            if (!skipValue(c)) {
                return true;
            }
            const Head k2 = readHead(c);
            if (!isStr(k2, "__t__")) {
                c.ok = true;
                return false;
            }
            tag = readHead(c);
            if (tag.kind != Kind::Str) {
                c.ok = true;
                return false;
            }
            if (!isStr(tag, "ObjectKey")) {
                const uchar *after = c.p;
                c.p = payload;
                walk(c, depth + 1);
                c.p = after;
                return true;
            }
        } else {
            c.ok = true;
            return false;
        }
        RawKeyScanner::Key key;
        if (RawKeyScanner::parseKey(payload, c.p - payload, &key.fields)) {
            key.hash = RawKeyScanner::identityHash(key.fields);
            keys->push_back(key);
        }
        return true;
    }
};

inline quint64 mul128(quint64 a, quint64 b) {
    const unsigned __int128 r = static_cast<unsigned __int128>(a) * b;
    return quint64(r) ^ quint64(r >> 64);
}

constexpr quint64 kP0 = 0xa0761d6478bd642full;
constexpr quint64 kP1 = 0xe7037ed1a0b428dbull;
constexpr quint64 kP2 = 0x8ebc6af09c88c6e3ull;

quint64 mixBytes(quint64 h, const uchar *p, quint32 n) {
    quint32 i = 0;
    for (; i + 8 <= n; i += 8) {
        quint64 w;
        std::memcpy(&w, p + i, 8);
        h = mul128(h ^ w ^ kP1, kP0);
    }
    quint64 w = 0;
    for (quint32 j = 0; i + j < n; ++j) {
        w |= quint64(p[i + j]) << (8 * j);
    }
    return mul128(h ^ w ^ (quint64(n) << 56) ^ kP2, kP0 ^ n);
}

int hexDigit(uchar c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

}  // namespace

QByteArray RawKeyScanner::Fields::hashBytes() const {
    const QByteArray raw(reinterpret_cast<const char *>(hash), qsizetype(hashSize));
    if (!hashIsHex) {
        return raw;
    }
    // As QByteArray::fromHex (what ObjectKey::fromValue does): invalid digits are skipped.
    QByteArray out;
    int hi = -1;
    for (qsizetype i = raw.size() - 1; i >= 0; --i) {
        const int d = hexDigit(uchar(raw[i]));
        if (d < 0) {
            continue;
        }
        if (hi < 0) {
            hi = d;
        } else {
            out.prepend(char(d << 4 | hi));
            hi = -1;
        }
    }
    if (hi >= 0) {
        out.prepend(char(hi));
    }
    return out;
}

bool RawKeyScanner::scan(const uchar *body, qint64 size, std::vector<Key> *keys,
                         QByteArrayView *requestId) {
    if (requestId) {
        *requestId = QByteArrayView();
    }
    const qint64 args = MsgpackSkim::findInMap(body, size, 0, "args");
    if (args < 0) {
        return false;
    }
    Cursor c{body, body + args, body + size};
    Walker w{keys, requestId};
    w.walk(c, 0);
    return c.ok;
}

bool RawKeyScanner::parseKey(const uchar *data, qint64 size, Fields *out) {
    Cursor c{data, data, data + size};
    return parseKeyAt(c, out);
}

quint64 RawKeyScanner::identityHash(const Fields &f) {
    quint64 h = kP0;
    if (f.hashIsHex) {
        const QByteArray b = f.hashBytes();
        h = mixBytes(h, reinterpret_cast<const uchar *>(b.constData()), quint32(b.size()));
    } else {
        h = mixBytes(h, f.hash, f.hashSize);
    }
    h = mixBytes(h, f.model, f.modelSize);
    h = mul128(h ^ quint64(f.kvRank) ^ kP1, kP0);
    h = mul128(h ^ (f.hasGroup ? quint64(f.group) ^ kP2 : 0) ^ quint64(f.hasGroup), kP1);
    if (f.hasSalt) {
        h = mixBytes(h ^ kP2, f.salt, f.saltSize);
    }
    return h;
}

bool RawKeyScanner::sameIdentity(const Fields &a, const Fields &b) {
    if (a.kvRank != b.kvRank || a.hasGroup != b.hasGroup || (a.hasGroup && a.group != b.group) ||
        a.hasSalt != b.hasSalt || a.modelSize != b.modelSize ||
        (a.modelSize && std::memcmp(a.model, b.model, a.modelSize) != 0)) {
        return false;
    }
    if (a.hasSalt &&
        (a.saltSize != b.saltSize || (a.saltSize && std::memcmp(a.salt, b.salt, a.saltSize)))) {
        return false;
    }
    if (!a.hashIsHex && !b.hashIsHex) {
        return a.hashSize == b.hashSize &&
               (a.hashSize == 0 || std::memcmp(a.hash, b.hash, a.hashSize) == 0);
    }
    return a.hashBytes() == b.hashBytes();
}

}  // namespace lmct
