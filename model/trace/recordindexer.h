#pragma once

#include <QString>
#include <QtGlobal>

namespace lmct {

/**
 * Reads the index fields of one record frame body: `t_mono`, `t_wall` and `qualname`.
 *
 * A record is a msgpack map (LMCache's `TraceRecord` msgspec struct, `trace/format.py`) with the
 * optional tag pair `"type": "record"` and the fields `t_mono` (float64 seconds since the
 * header's `t_mono_start`), `t_wall` (float64 Unix seconds), `qualname` (str) and `args` (map).
 * Keys may come in any order, unknown keys are ignored, integers and float32 are accepted for
 * the times, any msgpack width is accepted.
 *
 * The body is walked with msgpack-cxx's visitor parser without building any object. Two depths:
 * - Mode::Full validates the whole body (one complete value, no trailing bytes, bounded
 *   nesting, at most kMaxValues values, no container claiming more elements than there are
 *   bytes).
 * - Mode::Index stops as soon as `t_mono`, `t_wall` and `qualname` are known and the `args` map
 *   has started (its claimed size checked against the body), which in LMCache's field order
 *   (`type, t_mono, t_wall, qualname, args`) skips the arguments entirely. Keys in another order
 *   are still read correctly; the walk then simply goes further. What lies inside `args` is
 *   checked later by a Full parse (TraceLoader's argument check) or when decoded for display.
 *   Trailing bytes after the body's value (LMCache's decoder rejects such a frame) are found
 *   by Mode::Full only: Malformed, with a message naming the body offset and the number of
 *   bytes. Index mode does not walk the arguments to find where the value ends (skimming them
 *   cost 60% more indexing time); TraceLoader's argument check flags such a record.
 * `args` is never decoded here: TraceDocument::args() does that on demand.
 *
 * Index mode first tries RecordPrefix, the byte-by-byte reading of the fixed prefix LMCache
 * writes (fixmap, the tag pair, float64 times, the qualname, the `args` key and map header): it
 * gives the same fields as msgpack-cxx's parse, in a tenth of the time, or declines, and then
 * msgpack-cxx parses the body (parseMsgpack()).
 *
 * Thread-safety: stateless; parse() is reentrant.
 */
class RecordIndexer {
public:
    enum class Status : quint8 {
        Ok,
        Malformed,  ///< not one complete msgpack value (bad byte, cut short, bytes left over)
        BadFields,  ///< valid msgpack, but not a record (missing or mistyped fields, wrong tag)
        Limit       ///< nesting or a claimed size beyond the limits
    };

    struct Fields {
        Status status = Status::Ok;
        double tMono = 0.0;
        double tWall = 0.0;
        const char *qualname =
            nullptr;  ///< points into the parsed buffer (UTF-8, not 0-terminated)
        quint32 qualnameSize = 0;
        QString message;  ///< why the record is not Ok: what was expected, what was found
        /** Body offset (bytes) where trailing bytes after the value start, or -1 (Full only). */
        qint64 trailingAt = -1;
    };

    /** Maximum container nesting accepted inside a record. */
    static constexpr int kMaxDepth = 128;
    /**
     * Maximum values (scalars, map keys and containers) in a record: Mode::Full reports more
     * as Status::Limit, as ValueDecoder (the display decode) stops at the same count.
     */
    static constexpr qint64 kMaxValues = 2'000'000;

    enum class Mode : quint8 { Full, Index };

    /** Parses the record body `data[0, size)` (Index mode: RecordPrefix first). */
    static Fields parse(const char *data, qint64 size, Mode mode = Mode::Full);

    /**
     * parse() with msgpack-cxx's visitor parser alone, whatever the mode: what RecordPrefix is
     * checked against (tests, `tests/fuzz/fuzz_prefix`).
     */
    static Fields parseMsgpack(const char *data, qint64 size, Mode mode = Mode::Full);
};

}  // namespace lmct
