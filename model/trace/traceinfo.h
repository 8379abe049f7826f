#pragma once

#include "trace/tracedocument.h"

#include <QJsonObject>
#include <QString>

namespace lmct {

/**
 * The facts `lmct info` reports about one file, as LMCache's `lmcache trace info` prints them
 * (level, format_version, trace_schema_version, duration = largest t_mono, sm_config_digest,
 * total records, records per qualname) and more (header fields, diagnostics, damage counts).
 *
 * JSON shape (one object per file): `file` (str), `ok` (bool), `error` (str or null), `header`
 * (object of header fields; `magic` as text, bytes as hex), `records` (int), `duration_s`
 * (number), `qualnames` (object: full qualname → count), `diagnostics` (array of
 * `{"severity", "offset", "message", "kind"}`) and `config` (the StorageManagerConfig read:
 * configJson(), object or null): exactly these keys. With `details` (lmct info
 * --json --details) an opened file also gets `digest` (str: "match", "mismatch", "absent" or
 * "lost", TraceHeader::digestStatusName), `partial` (bool: loading was cancelled),
 * `args_checked` (bool: TraceDocument::argsChecked(), `lmct info --check`), `damage`
 * (`skipped_bytes`, `skipped_frames`, `recovered_frames`). The damage counts are also in the
 * loader's "damage" summary diagnostic, so they are in the plain output too.
 *
 * The plain text also says the StorageManagerConfig in words (StorageManagerConfig::summaryParts,
 * one part a line).
 */
class TraceInfo {
public:
    /**
     * The header's fields as JSON, as `lmct info --json` prints them: `magic` as text ("LMCT"),
     * other bytes as hex (ValueFormatter::toJson).
     */
    static QJsonObject headerJson(const TraceHeader &header);
    /**
     * The StorageManagerConfig as `lmct info --json` prints it: null when none was
     * attached (State::None) or it was lost; else an object with `l1_bytes`, `l1_init_bytes`
     * (int bytes), `l1_use_lazy` (bool), `eviction_policy` (str), `eviction_ratio`,
     * `trigger_watermark` (number, fractions of L1), `read_ttl_s`, `write_ttl_s` (int s),
     * `l2_adapters` (array of the adapter objects as written), `prefetch_max_in_flight` (int),
     * `prefetch_policy`, `store_policy` (str), `notifier_interval_ms` (number), each null when
     * unknown, `error` (str: why the text is not a config object, e.g. not valid JSON; null
     * for a config object) and `problems` (array of `{"path", "expected", "found"}`: the known
     * fields of another type or out of range, StorageManagerConfig::fieldProblems()).
     */
    static QJsonValue configJson(const StorageManagerConfig &config);
    /** JSON for an opened document. */
    static QJsonObject toJson(const QString &file, const TraceDocument &doc, bool details = false);
    /** JSON for a file that was refused: `records` and `duration_s` are null (unknown). */
    static QJsonObject refusedJson(const QString &file, const QString &error);
    /** Plain-text report, like `lmcache trace info` with more detail. */
    static QString toText(const QString &file, const TraceDocument &doc);
};

}  // namespace lmct
