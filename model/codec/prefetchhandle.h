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
 * Thread-safety: a value type.
 */
struct PrefetchHandle {
    qint64 prefetchRequestId = -1;
    QString externalRequestId;
    bool hasHitCount = false;
    qint64 l1PrefixHitCount = 0;
    bool hasTotal = false;
    qint64 totalRequestedKeys = 0;
    bool hasHitChunks = false;
    qint64 l1HitChunks = 0;
    double submitTime = qQNaN();  ///< server time.monotonic() (seconds), not t_mono
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
    /** submit_time on the trace's t_mono axis: submitTime − `tMonoStart`; NaN when unknown. */
    double submitTMono(double tMonoStart) const { return submitTime - tMonoStart; }
};

}  // namespace lmct
