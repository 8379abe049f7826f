#include "codec/rawkeyscanner.h"

#include "msgpack/msgpackhead.h"
#include "msgpack/msgpackskim.h"
#include "util/saturatingint.h"

#include <cstring>

namespace lmct {

namespace {

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

/** Kind by MsgpackHead::Kind. A float32 counts as an int, a float64 does not (kv_rank must
 *  be an int). */
constexpr Kind kKinds[] = {Kind::Bad, Kind::Scalar, Kind::Scalar, Kind::Int,
                           Kind::Int, Kind::Int,    Kind::Scalar, Kind::Str,
                           Kind::Bin, Kind::Scalar, Kind::Array,  Kind::Map};

Head readHead(Cursor &c) {
    Head h;
    if (!c.need(1)) {
        return h;
    }
    const qint64 avail = c.left();
    const MsgpackHead m = MsgpackHead::read(c.p, avail);
    if (!m.ok() || !m.fits(avail)) {
        c.ok = false;
        return h;
    }
    const uchar *at = c.p;
    c.p += m.size();
    // Each element takes at least one byte: a bigger claim is damage (0 for all but containers).
    if (m.children() > quint64(c.left())) {
        c.ok = false;
        return h;
    }
    h.kind = kKinds[int(m.kind)];
    h.n = m.payload + m.count;  // one of them is 0
    h.data = at + m.header;
    if (m.kind >= MsgpackHead::Kind::Int && m.kind <= MsgpackHead::Kind::Float64) {
        h.i = m.kind <= MsgpackHead::Kind::UInt ? qint64(m.integer(at))
                                                : saturatingInt(m.floating(at));
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

}  // namespace

QByteArray RawKeyScanner::Fields::hashBytes() const {
    const QByteArray raw(reinterpret_cast<const char *>(hash), qsizetype(hashSize));
    if (!hashIsHex) {
        return raw;
    }
    return QByteArray::fromHex(raw);  // as ObjectKey::fromValue: invalid digits are skipped
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
