// libFuzzer target, differential: RecordPrefix (the fast path of RecordIndexer's Index mode)
// against msgpack-cxx's parse of the same bytes. The fast path may decline anything; what it
// accepts, msgpack-cxx must accept too, with the same fields (times bit for bit, the same
// qualname pointer and size). RecordIndexer::parse() in Index mode must say exactly what
// msgpack-cxx says (status, message, fields). Any disagreement aborts.
//
// Each input is checked as one record body, as a sequence of frames (so the trace seeds of
// fuzz_trace reach many bodies), and spliced into LMCache's canonical record: the canonical
// bytes up to a position the input's first byte picks, then the rest of the input, and the
// canonical record with the rest of the input written over it there (so mutations land inside
// and right after the prefix the fast path reads).
// Run it with tests/fuzz/run-fuzz.sh SECONDS (both targets share the time).

#include "trace/recordindexer.h"
#include "trace/recordprefix.h"

#include <QByteArray>
#include <QtEndian>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace lmct;
using Fields = RecordIndexer::Fields;
using Status = RecordIndexer::Status;

namespace {

bool sameBits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

bool sameFields(const Fields &a, const Fields &b) {
    if (a.status != b.status || a.message != b.message || a.trailingAt != b.trailingAt) {
        return false;
    }
    return a.status != Status::Ok || (sameBits(a.tMono, b.tMono) && sameBits(a.tWall, b.tWall) &&
                                      a.qualname == b.qualname && a.qualnameSize == b.qualnameSize);
}

[[noreturn]] void fail(const char *what, const char *data, qint64 size, const Fields &a,
                       const Fields &b) {
    std::fprintf(stderr,
                 "fuzz_prefix: %s on a %lld-byte body\n"
                 "  got:         status %d t_mono %.17g t_wall %.17g qualname +%lld (%u) \"%s\"\n"
                 "  msgpack-cxx: status %d t_mono %.17g t_wall %.17g qualname +%lld (%u) \"%s\"\n",
                 what, static_cast<long long>(size), int(a.status), a.tMono, a.tWall,
                 a.qualname ? static_cast<long long>(a.qualname - data) : -1LL, a.qualnameSize,
                 qPrintable(a.message), int(b.status), b.tMono, b.tWall,
                 b.qualname ? static_cast<long long>(b.qualname - data) : -1LL, b.qualnameSize,
                 qPrintable(b.message));
    std::abort();
}

void check(const char *data, qint64 size) {
    const Fields slow = RecordIndexer::parseMsgpack(data, size, RecordIndexer::Mode::Index);
    Fields fast;
    if (RecordPrefix::read(data, size, &fast)) {
        if (slow.status != Status::Ok) {
            fail("the fast path accepts what msgpack-cxx does not", data, size, fast, slow);
        }
        if (!sameFields(fast, slow)) {
            fail("the fast path's fields differ", data, size, fast, slow);
        }
    }
    const Fields both = RecordIndexer::parse(data, size, RecordIndexer::Mode::Index);
    if (!sameFields(both, slow)) {
        fail("parse() differs from msgpack-cxx's parse", data, size, both, slow);
    }
}

/** LMCache's record as msgspec writes it: the prefix, then args {"keys": []}. */
const QByteArray &canonical() {
    static const QByteArray b = [] {
        const QByteArray q("lmcache.v1.distributed.storage_manager.StorageManager.finish_write");
        QByteArray r("\x85\xa4type\xa6record\xa6t_mono\xcb", 21);
        r += QByteArray("\x3f\xf8\0\0\0\0\0\0", 8);  // 1.5
        r += QByteArray("\xa6t_wall\xcb", 8);
        r += QByteArray("\x41\xda\x39\x8e\xc4\x70\0\0", 8);
        r += QByteArray("\xa8qualname\xd9", 10);
        r += char(q.size());
        r += q;
        r += QByteArray(
            "\xa4"
            "args\x81\xa4keys\x90",
            12);
        return r;
    }();
    return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const auto *bytes = reinterpret_cast<const char *>(data);
    const qint64 n = qint64(size);

    // The input as one body (a copy of its own, so reads past it are caught).
    {
        const QByteArray body(bytes, qsizetype(n));
        check(body.constData(), body.size());
    }

    // The input as frames: each body, the last one cut to what is there.
    for (qint64 off = 0; n - off >= 4;) {
        const qint64 len = qFromBigEndian<quint32>(bytes + off);
        const qint64 have = qMin(len, n - off - 4);
        const QByteArray body(bytes + off + 4, qsizetype(have));
        check(body.constData(), body.size());
        off += 4 + have;
    }

    // Spliced into the canonical record at a position the first byte picks.
    if (n >= 1) {
        const QByteArray &c = canonical();
        const qsizetype pos = qsizetype(data[0]) % (c.size() + 1);
        const QByteArray rest(bytes + 1, qsizetype(n - 1));
        const QByteArray cut = c.left(pos) + rest;
        check(cut.constData(), cut.size());
        QByteArray over = c;
        over.replace(pos, qMin(rest.size(), c.size() - pos), rest);
        check(over.constData(), over.size());
    }
    return 0;
}
