#pragma once

#include "codec/value.h"

#include <QString>
#include <QtGlobal>
#include <optional>
#include <vector>

namespace lmct {

/**
 * LMCache's PrefetchHandle (codec tag `PrefetchHandle`, the `handle` argument of
 * `StorageManager.release_prefetch_task` and `cancel_prefetch_task`, late-2026 builds): the
 * server's own account of one prefetch request.
 *
 * Fields (spec §5, §6): `prefetch_request_id` (-1 when the server did not number it),
 * `external_request_id` (the serving engine's request id, as given to submit_prefetch_task),
 * `l1_prefix_hit_count` (leading requested keys found in L1 = len(l1_found_indices)),
 * `l1_found_indices`, `l1_hit_chunks`, `total_requested_keys`, `submit_time` (the server's raw
 * `time.monotonic()` in seconds: subtract the header's `t_mono_start` to place it on the trace's
 * t_mono axis), `l2_orig_indices` and `generation`. Payloads are recognised by the keys present:
 * a field absent or of another type is left unknown (the has* flags, NaN, empty lists).
 *
 * Counts are read as written, negative ones included (LMCache writes none; a damaged or
 * foreign recorder may). A msgpack uint64 above INT64_MAX saturates the qint64 field at
 * INT64_MAX, so it compares as larger than any real count, and keeps its exact value in the
 * matching `*AboveInt64` field for text (hitText()): "18446744073709551615", never "-1".
 *
 * Thread-safety: a value type.
 */
struct PrefetchHandle {
    qint64 prefetchRequestId = -1;
    QString externalRequestId;
    bool hasHitCount = false;
    qint64 l1PrefixHitCount = 0;  ///< INT64_MAX for a larger uint64 (hitCountAboveInt64)
    bool hasTotal = false;
    qint64 totalRequestedKeys = 0;  ///< INT64_MAX for a larger uint64 (totalAboveInt64)
    bool hasHitChunks = false;
    qint64 l1HitChunks = 0;          ///< saturated at INT64_MAX like the counts
    quint64 hitCountAboveInt64 = 0;  ///< l1_prefix_hit_count when above INT64_MAX, else 0
    quint64 totalAboveInt64 = 0;     ///< total_requested_keys when above INT64_MAX, else 0
    double submitTime = qQNaN();     ///< server time.monotonic() (seconds), not t_mono
    qint64 generation = 0;
    std::vector<qint64> l1FoundIndices;
    std::vector<qint64> l2OrigIndices;

    /**
     * Reads a Tagged `PrefetchHandle` value (or its payload map); nullopt when `v` is neither
     * a PrefetchHandle nor a map holding `external_request_id` or `prefetch_request_id`.
     */
    static std::optional<PrefetchHandle> fromValue(const Value &v);
    /** The `handle` argument of a release/cancel record's `args` map; nullopt when absent. */
    static std::optional<PrefetchHandle> fromArgs(const Value &args);
    /**
     * LMCache's L1 prefix hit as text, with the values as written (uint64 included): "4 of 7",
     * "4" without a total; empty when the handle has no hit count.
     */
    QString hitText() const;
    /** `l1_prefix_hit_count` as written ("18446744073709551615" for a uint64). */
    QString hitCountText() const;
    /** `total_requested_keys` as written. */
    QString totalText() const;
    /** submit_time on the trace's t_mono axis: submitTime − `tMonoStart`; NaN when unknown. */
    double submitTMono(double tMonoStart) const { return submitTime - tMonoStart; }
};

}  // namespace lmct
