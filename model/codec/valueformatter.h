#pragma once

#include "codec/value.h"

#include <QJsonValue>
#include <QString>

namespace lmct {

/**
 * Renders Values for people: one-line texts for the inspector and table, type labels, and JSON.
 *
 * Known codec tags (spec §5) are rendered by payload shape, never by schema number:
 * ObjectKey (chunk hash as hex, model, rank), MemoryLayoutDesc (shapes, dtypes, bytes per
 * object), TrimPolicy and PrefetchMode (enum names), AttnWindowDesc (bare list or map form),
 * PrefetchRequestSpec (every variant), PrefetchHandle, torch.Size, torch.dtype, set and tuple.
 * Unknown tags are shown generically with their tag name.
 *
 * Thread-safety: stateless and reentrant.
 */
class ValueFormatter {
public:
    /**
     * One line describing `v`, at most about `maxChars` characters. A binary or string of
     * which only the start was decoded (Value::isCut()) ends with its size: "… (N bytes)".
     */
    static QString display(const Value &v, int maxChars = 200);
    /** "int", "str", "bytes[32]", "list[4]", "map{3}", or the codec tag for tagged values. */
    static QString typeLabel(const Value &v);
    /**
     * JSON for exports and "copy as JSON": bytes become lowercase hex strings, tagged values
     * `{"__t__": TAG, "v": PAYLOAD}` as in the file, NaN and infinities become null (JSON has
     * no such numbers; every JSON output of the project uses this rule). A binary of which
     * only the first bytes were decoded (Value::isCut(): over Value::kMaxKeptBytes) becomes
     * `{"__cut__": HEX OF THOSE BYTES, "size": ITS SIZE}`; a cut ext gets a "size" too; a cut
     * string becomes `{"__cut__": THE KEPT TEXT, "size": ITS UTF-8 SIZE IN BYTES}`.
     */
    static QJsonValue toJson(const Value &v);
    /** A number as text with up to 17 significant digits, no exponent for plain values. */
    static QString number(const Value &v);
    /**
     * "L1 hits N/M" of a PrefetchHandle payload (`l1_prefix_hit_count` of
     * `total_requested_keys`, the raw values as recorded), or empty when either is absent or
     * not an integer.
     */
    static QString handleHits(const Value &payload);
    /**
     * A list of integers as ascending runs: `[0,1,2,3,7,9,10]` as "0–3, 7, 9–10" (in the list's
     * order; a run is a step of +1), at most about `maxChars` characters ("…, N more" after
     * that); "none" for an empty list. Elements that are not integers are shown as display()
     * does. Used for PrefetchHandle's `l1_found_indices`.
     */
    static QString indexRuns(const Value &list, int maxChars = 200);
    /** Whether `tag` is one of the codec tags this build renders specially. */
    static bool isKnownTag(const QString &tag);
};

}  // namespace lmct
