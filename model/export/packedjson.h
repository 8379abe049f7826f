#pragma once

#include <QByteArray>
#include <QtGlobal>
#include <string_view>

namespace lmct {

/**
 * Formats msgpack bytes straight into compact JSON, byte for byte as the DOM path does it
 * (ValueDecoder, ValueFormatter::toJson, then QJsonDocument::toJson(Compact)): map keys in
 * QJsonObject's order (sorted), integers as integers, integral doubles up to 2^53 as integers
 * and other doubles in Qt's shortest form, NaN and infinities as null, bytes as lowercase hex,
 * ext as `{"data": HEX, "ext": TYPE}`, strings escaped as Qt escapes them (invalid UTF-8 becomes
 * U+FFFD per bad byte, as QString::fromUtf8 does). Codec-tagged values need no special case:
 * `{"__t__": TAG, "v": PAYLOAD}` is what the DOM path writes for them too.
 *
 * It streams: no value tree, no QString unless a string is not valid UTF-8; used by the record
 * exports (RecordExport), which are bound by it (a 410 MB trace of 300 k records makes 560 MB
 * of JSON Lines).
 *
 * Declines (returns false, `out` unchanged) whatever the DOM path renders some other way or
 * reports as an error, so that the caller falls back to it: malformed or truncated msgpack,
 * bytes left after the value, a map key that is not an ASCII string, a key twice in one map,
 * a string, binary or ext payload over Value::kMaxKeptBytes (the DOM path keeps only its
 * start), nesting deeper than kMaxDepth, more than kMaxNodes values.
 *
 * Thread-safety: stateless and reentrant.
 */
class PackedJson {
public:
    /** Containers nested deeper than this are declined (ValueDecoder stops at 128). */
    static constexpr int kMaxDepth = 100;
    /** Values in one record beyond this are declined (ValueDecoder stops at 2'000'000). */
    static constexpr qint64 kMaxNodes = 1'000'000;

    /** What the `args` of a record were, for CSV's args_json (objects and arrays only). */
    enum class Shape : quint8 { Scalar, Object, Array };

    /**
     * The JSON of the `args` entry (the first one) of record body `data[0, size)` (one msgpack
     * map, the record), appended to `out`; `shape` tells what it was. Declines too when the
     * body is not one map, has no `args` string key, or has an `__t__` key (the DOM path reads
     * such a record as a codec-tagged value: "no args map").
     */
    static bool appendRecordArgs(const char *data, qint64 size, QByteArray *out, Shape *shape);
    /**
     * A line of RecordExport's JSON Lines: `{"args":ARGS,"index":…,"qualname":…,"t_mono":…,
     * "t_wall":…}` and LF, ARGS as appendRecordArgs() writes them, `qualnameJson` as
     * appendString() wrote it. Declines as appendRecordArgs() does.
     */
    static bool appendJsonLine(const char *data, qint64 size, qint64 index,
                               const QByteArray &qualnameJson, double tMono, double tWall,
                               QByteArray *out);
    /** The JSON of the one msgpack value `data[0, size)`, appended to `out`. */
    static bool appendValue(const char *data, qint64 size, QByteArray *out);
    /** A JSON string of UTF-8 text (quotes included), as QJsonDocument writes a QString. */
    static void appendString(std::string_view utf8, QByteArray *out);
    /** A double as QJsonDocument writes a QJsonValue(double) (finite; null otherwise). */
    static void appendDouble(double v, QByteArray *out);
    /** An integer as QJsonDocument writes it. */
    static void appendInt(qint64 v, QByteArray *out);
};

}  // namespace lmct
