#pragma once

#include <QString>
#include <QtGlobal>

namespace lmct {

/**
 * RecordSummary::summarize(qualname, args, maxChars) from the msgpack bytes of `args`, without
 * the value tree: the same text, character for character, in a fraction of the time (the CSV
 * export's summary column; a record of 32 ObjectKeys decoded into a Value tree, then collected
 * as ObjectKeys, cost several times the rest of its CSV row).
 *
 * The bytes are indexed flat (PackedTree, which mirrors ValueDecoder's tree), then read by the
 * same walks as RecordSummary's over Value: the ObjectKeys (count, models, ranks, salts), the
 * first MemoryLayoutDesc, the flags and the request id found within six levels, the scalar
 * arguments of a record without keys, a PrefetchHandle's request and hits. The parts are worded
 * by RecordSummary's own building blocks, and the few values a part shows as
 * ValueFormatter::display() renders them (a `mode`, a non-string request id, an argument of a
 * record without keys) are decoded alone, from their bytes, and rendered by it.
 *
 * Declines (returns false) what PackedTree declines: malformed or truncated bytes, bytes left
 * over, a map key that is not a string, a string, binary or ext payload over 1 MiB, nesting
 * deeper than 100 levels. The caller then decodes the value tree (RecordSummary).
 *
 * Thread-safety: reentrant (a tree per thread).
 */
class PackedSummary {
public:
    /** What summarize() must know of a record's call (RecordSummary words two apart). */
    enum class Call : quint8 { Other, ReleasePrefetch, CancelPrefetch };

    /** The Call of `qualname` (Qualname::shortName: `release_prefetch_task`, ...). */
    static Call callOf(const QString &qualname);

    /**
     * RecordSummary::summarize(qualname, args, maxChars) of the one msgpack value
     * `args[0, size)`, a record's `args`, into `out`; `call` is callOf(qualname). False when
     * declined (`out` unchanged).
     */
    static bool summarize(const char *args, qint64 size, Call call, int maxChars, QString *out);

    /**
     * summarize() of the `args` of the record body `body[0, size)` (one msgpack map: the first
     * `args` entry, as TraceDocument::decodeArgs() reads it). Declines too when the body is not
     * one map or has no `args`; the whole body is checked as the tree checks `args`.
     */
    static bool summarizeRecord(const char *body, qint64 size, Call call, int maxChars,
                                QString *out);
};

}  // namespace lmct
