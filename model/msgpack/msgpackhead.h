#pragma once

#include <QtEndian>
#include <QtGlobal>
#include <cstring>

namespace lmct {

/**
 * The header of one raw msgpack value: what its type byte says (kind, header size) and the
 * length or count its length field holds. The one place that knows msgpack's type bytes
 * (https://github.com/msgpack/msgpack/blob/master/spec.md, "Formats"), behind every reader of
 * mapped msgpack bytes (MsgpackSkim, RawKeyScanner, FrameDump).
 *
 * A value is `header` bytes, then `payload` bytes of its own (string, binary and extension
 * data, the bytes of a number), then for arrays `count` values and for maps `count` key/value
 * pairs (children() values). Fixints, nil and booleans are the type byte alone.
 *
 * read() is inline and branch-cheap (range checks for the fix formats, one predicted jump for
 * the others): it runs for every value of every record in the key scans. It checks only that
 * the length field is readable; fits() checks that header and payload lie within the bytes
 * left.
 *
 * Thread-safety: a value type; every function is reentrant.
 */
struct MsgpackHead {
    enum class Kind : quint8 {
        Invalid,  // 0xc1 (never used), or a length field cut short
        Nil,
        Bool,
        Int,   // fixints, int8..int64 (signed encodings; positive fixints included)
        UInt,  // uint8..uint64
        Float32,
        Float64,
        Str,
        Bin,
        Ext,  // fixext1..16, ext8..32
        Array,
        Map,
    };

    Kind kind = Kind::Invalid;
    quint8 header = 0;    // bytes before the payload: type byte, length field, ext type byte
    quint64 payload = 0;  // bytes of the value's own data after the header (0 for containers)
    quint64 count = 0;    // Array: elements; Map: entries

    /**
     * The header of the value whose type byte is `p[0]`; `avail` (at least 1) bytes are
     * readable from `p`. Kind::Invalid for 0xc1 or when the length field is cut short.
     */
    static MsgpackHead read(const uchar *p, qint64 avail);

    /** The big-endian unsigned integer in `p[0, n)`, n in [0, 8]. */
    static quint64 be(const uchar *p, int n);

    /** The format's name as the frame dump shows it ("fixmap", "str8", "uint16"); null for 0xc1. */
    static const char *typeName(uchar typeByte);

    bool ok() const { return kind != Kind::Invalid; }
    bool isContainer() const { return kind == Kind::Array || kind == Kind::Map; }
    /** Values that follow the payload: array elements, or map keys and values. */
    quint64 children() const { return count << int(kind == Kind::Map); }
    /** Header and payload lie within `avail` (>= 0) bytes. A payload is below 2^32 bytes, so
     *  their sum does not wrap. */
    bool fits(qint64 avail) const { return size() <= quint64(avail); }
    /** Header plus payload (the whole value unless it is a container). */
    quint64 size() const { return header + payload; }

    /** Int and UInt at `p` (the type byte): the value's 64 bits, Int sign-extended. */
    quint64 integer(const uchar *p) const;
    /** Float32 (widened) and Float64 at `p`. */
    double floating(const uchar *p) const;
    /** Bool at `p`. */
    static bool boolean(const uchar *p) { return p[0] == 0xc3; }
    /** Ext at `p`: the extension type byte (it ends the header). */
    qint8 extType(const uchar *p) const { return qint8(p[header - 1]); }
};

inline quint64 MsgpackHead::be(const uchar *p, int n) {
    switch (n) {
        case 1:
            return p[0];
        case 2:
            return qFromBigEndian<quint16>(p);
        case 4:
            return qFromBigEndian<quint32>(p);
        case 8:
            return qFromBigEndian<quint64>(p);
        default: {
            quint64 v = 0;
            for (int i = 0; i < n; ++i) {
                v = (v << 8) | p[i];
            }
            return v;
        }
    }
}

inline MsgpackHead MsgpackHead::read(const uchar *p, qint64 avail) {
    const uchar b = p[0];
    if (b <= 0x7f || b >= 0xe0) {
        return {Kind::Int, 1, 0, 0};
    }
    if (b <= 0x8f) {
        return {Kind::Map, 1, 0, quint64(b & 0x0f)};
    }
    if (b <= 0x9f) {
        return {Kind::Array, 1, 0, quint64(b & 0x0f)};
    }
    if (b <= 0xbf) {
        return {Kind::Str, 1, quint64(b & 0x1f), 0};
    }
    // A big-endian length (Str, Bin, Ext: payload bytes) or count (Array, Map) of 1 << `width`
    // bytes after the type byte, then `extra` more header bytes (the ext type byte).
    const auto sized = [p, avail](Kind k, int width, int extra) -> MsgpackHead {
        const int lenBytes = 1 << width;
        if (avail < 1 + lenBytes) {
            return {};
        }
        const quint64 n = width == 0   ? quint64(p[1])
                          : width == 1 ? quint64(qFromBigEndian<quint16>(p + 1))
                                       : quint64(qFromBigEndian<quint32>(p + 1));
        const quint8 header = quint8(1 + lenBytes + extra);
        if (k == Kind::Array || k == Kind::Map) {
            return {k, header, 0, n};
        }
        return {k, header, n, 0};
    };
    // A switch, not a data table: the jump is predicted and each case's widths are arithmetic,
    // so reading a header adds no load to a skip loop's chain of offsets.
    switch (b) {
        case 0xc0:
            return {Kind::Nil, 1, 0, 0};
        case 0xc2:
        case 0xc3:
            return {Kind::Bool, 1, 0, 0};
        case 0xc4:
        case 0xc5:
        case 0xc6:
            return sized(Kind::Bin, b - 0xc4, 0);
        case 0xc7:
        case 0xc8:
        case 0xc9:
            return sized(Kind::Ext, b - 0xc7, 1);
        case 0xca:
            return {Kind::Float32, 1, 4, 0};
        case 0xcb:
            return {Kind::Float64, 1, 8, 0};
        case 0xcc:
        case 0xcd:
        case 0xce:
        case 0xcf:
            return {Kind::UInt, 1, 1u << (b - 0xcc), 0};
        case 0xd0:
        case 0xd1:
        case 0xd2:
        case 0xd3:
            return {Kind::Int, 1, 1u << (b - 0xd0), 0};
        case 0xd4:
        case 0xd5:
        case 0xd6:
        case 0xd7:
        case 0xd8:
            return {Kind::Ext, 2, 1u << (b - 0xd4), 0};  // fixext: type byte, 1..16 bytes
        case 0xd9:
        case 0xda:
        case 0xdb:
            return sized(Kind::Str, b - 0xd9, 0);
        case 0xdc:
        case 0xdd:
            return sized(Kind::Array, b - 0xdc + 1, 0);
        case 0xde:
        case 0xdf:
            return sized(Kind::Map, b - 0xde + 1, 0);
        default:
            return {};  // 0xc1: never used
    }
}

inline quint64 MsgpackHead::integer(const uchar *p) const {
    if (payload == 0) {
        return quint64(qint64(qint8(p[0])));  // fixints: the type byte is the value
    }
    const int n = int(payload);
    const quint64 u = be(p + header, n);
    if (kind == Kind::UInt || n >= 8) {
        return u;
    }
    const int shift = 64 - 8 * n;
    return quint64(qint64(u << shift) >> shift);
}

inline double MsgpackHead::floating(const uchar *p) const {
    if (kind == Kind::Float32) {
        const quint32 u = quint32(be(p + header, 4));
        float f;
        std::memcpy(&f, &u, 4);
        return double(f);
    }
    const quint64 u = be(p + header, 8);
    double d;
    std::memcpy(&d, &u, 8);
    return d;
}

inline const char *MsgpackHead::typeName(uchar b) {
    if (b <= 0x7f) {
        return "positive fixint";
    }
    if (b >= 0xe0) {
        return "negative fixint";
    }
    if (b <= 0x8f) {
        return "fixmap";
    }
    if (b <= 0x9f) {
        return "fixarray";
    }
    if (b <= 0xbf) {
        return "fixstr";
    }
    static const char *const kNames[0xe0 - 0xc0] = {
        "nil",      "reserved", "false",   "true",    "bin8",    "bin16",   "bin32",   "ext",
        "ext",      "ext",      "float32", "float64", "uint8",   "uint16",  "uint32",  "uint64",
        "int8",     "int16",    "int32",   "int64",   "fixext1", "fixext2", "fixext4", "fixext8",
        "fixext16", "str8",     "str16",   "str32",   "array16", "array32", "map16",   "map32"};
    return b == 0xc1 ? nullptr : kNames[b - 0xc0];
}

}  // namespace lmct
