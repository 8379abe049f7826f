#pragma once

#include "trace/recordindexer.h"

#include <QtEndian>
#include <QtGlobal>
#include <cstring>

namespace lmct {

/**
 * The fast path of RecordIndexer's Mode::Index: reads `t_mono`, `t_wall` and `qualname` from the
 * fixed prefix every record LMCache writes begins with, checked byte by byte, and declines
 * (returns false) on any other bytes, so that the caller parses the body with msgpack-cxx
 * instead. What it accepts, it reads exactly as msgpack-cxx's parse in Index mode does (same
 * status, times bit for bit, the same qualname pointer and size, no message); a test over every
 * fixture and reference trace (`tst_recordprefix`) and a differential fuzz target
 * (`tests/fuzz/fuzz_prefix`) hold it to that.
 *
 * The prefix, as LMCache's msgspec encoder writes a `TraceRecord` (`trace/format.py`: the tag
 * pair first, then the fields in declaration order; spec §2, §4):
 *
 *     85                         fixmap, 5 entries
 *     a4 "type"  a6 "record"     the tag pair
 *     a6 "t_mono" cb <8 bytes>   float64, big-endian
 *     a6 "t_wall" cb <8 bytes>   float64, big-endian
 *     a8 "qualname" a0+n / d9 n  fixstr or str8, then n > 0 bytes (not checked as UTF-8, as
 *                                msgpack-cxx does not; an empty one it reports with a pointer
 *                                of its own choosing, so that is declined)
 *     a4 "args"                  the last key
 *     80+n / de nn / df nnnn     the args map's header: fixmap, map16 or map32, whose entries
 *                                (2 bytes each at least) fit the body
 *
 * Everything after the args map's header is left, as Index mode leaves it (TraceLoader's
 * argument check reads it). Any deviation declines: another map width or count, another key
 * order, a key missing or added, integer or float32 times, a str16 qualname, an empty qualname, a
 * body cut inside the prefix, an args map claiming more entries than the body has bytes for.
 *
 * Units: `t_mono` and `t_wall` seconds as written; offsets are bytes of the body.
 * Thread-safety: stateless; read() is reentrant. Errors: none, a decline is not one.
 * LMCache source: `lmcache/v1/mp_observability/trace/format.py` (TraceRecord, msgspec).
 */
class RecordPrefix {
public:
    /** Bytes of the prefix before the qualname's string header. */
    static constexpr qint64 kFixedBytes = 54;
    /** The shortest body the prefix fits: a one-byte fixstr qualname and a fixmap. */
    static constexpr qint64 kMinBytes = kFixedBytes + 1 + 1 + 5 + 1;

    /**
     * When the body `data[0, size)` begins with the prefix: sets `f`'s times and qualname
     * (status Ok, nothing else touched) and returns true. Else false, `f` untouched.
     */
    static inline bool read(const char *data, qint64 size, RecordIndexer::Fields *f);

private:
    static double float64At(const char *p) {
        const quint64 bits = qFromBigEndian<quint64>(p);
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return d;
    }
};

bool RecordPrefix::read(const char *data, qint64 size, RecordIndexer::Fields *f) {
    static constexpr char kHead[] = "\x85\xa4type\xa6record\xa6t_mono\xcb";  // bytes 0..20
    static constexpr char kWall[] = "\xa6t_wall\xcb";                        // 29..36
    static constexpr char kQualname[] = "\xa8qualname";                      // 45..53
    static constexpr char kArgs[] =
        "\xa4"
        "args";
    static_assert(sizeof kHead - 1 == 21 && sizeof kWall - 1 == 8 && sizeof kQualname - 1 == 9 &&
                  21 + 8 + 8 + 8 + 9 == kFixedBytes);
    if (size < kMinBytes || std::memcmp(data, kHead, 21) != 0 ||
        std::memcmp(data + 29, kWall, 8) != 0 || std::memcmp(data + 45, kQualname, 9) != 0) {
        return false;
    }
    const auto *u = reinterpret_cast<const uchar *>(data);
    qint64 q = kFixedBytes + 1;  // where the qualname's bytes start
    qint64 n = 0;                // and how many there are
    if ((u[kFixedBytes] & 0xe0) == 0xa0) {
        n = u[kFixedBytes] & 0x1f;
    } else if (u[kFixedBytes] == 0xd9) {
        n = u[q];  // (kMinBytes leaves room for this byte)
        ++q;
    } else {
        return false;
    }
    if (n == 0) {  // msgpack-cxx points an empty string elsewhere: it is left to it
        return false;
    }
    // After the qualname: the key (5 bytes), then the map header (1, 3 or 5 bytes).
    const qint64 a = q + n;
    if (size - a < 6 || std::memcmp(data + a, kArgs, 5) != 0) {
        return false;
    }
    const uchar m = u[a + 5];
    qint64 entries = 0;
    if ((m & 0xf0) == 0x80) {
        entries = m & 0x0f;
    } else if (m == 0xde && size - a >= 8) {
        entries = qFromBigEndian<quint16>(data + a + 6);
    } else if (m == 0xdf && size - a >= 10) {
        entries = qFromBigEndian<quint32>(data + a + 6);
    } else {
        return false;
    }
    if (entries * 2 > size) {  // msgpack-cxx's parse reports this as a Limit
        return false;
    }
    f->status = RecordIndexer::Status::Ok;
    f->tMono = float64At(data + 21);
    f->tWall = float64At(data + 37);
    f->qualname = data + q;
    f->qualnameSize = quint32(n);
    return true;
}

}  // namespace lmct
