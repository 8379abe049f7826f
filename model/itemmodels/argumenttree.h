#pragma once

#include "codec/value.h"
#include "itemmodels/treenode.h"

#include <memory>
#include <optional>

namespace lmct {

/**
 * Builds the inspector tree of a record's arguments from its decoded `args` Value.
 *
 * Tagged values show their codec tag as the type and their payload's entries as children (so
 * paths read `spec.keys[0].chunk_hash`, as the filter language writes them). Known tags get
 * derived rows: an ObjectKey's `kv_rank` unpacked into world_size, rank, local_world_size and
 * local_rank; a MemoryLayoutDesc's bytes per object. Chunk hashes and other bytes are shown as
 * full lowercase hex. At most `maxNodes` rows are built; the rest is summarised in one row.
 *
 * A PrefetchHandle (late 2026 builds, spec §6) keeps every field as a row, with readable
 * values: `l1_prefix_hit_count` as "4 of 7 keys hit in L1" (of `total_requested_keys`, both
 * as written, uint64 included; a count that is negative, exceeds the total or differs from the
 * length of `l1_found_indices` is a problem row, and so is a negative total), `l1_found_indices` as
 * runs ("0–3", ValueFormatter::indexRuns) over its element rows, and `submit_time` (the
 * server's raw `time.monotonic()`, seconds) gets derived rows: `t_mono`, its place on the
 * trace's time axis (`submit_time − t_mono_start`, formatted as t_mono: "21.229481 s"), and
 * `age`, how long before the record it lies, when the TimeContext has them. Copying a row
 * still gives the raw value.
 *
 * Ownership: the returned nodes point into `args` (TreeNode::source): keep `args` alive as long
 * as the tree. Thread-safety: reentrant.
 */
class ArgumentTree {
public:
    /** The times that place a record's raw monotonic times (PrefetchHandle.submit_time). */
    struct TimeContext {
        std::optional<double> tMonoStart;   ///< the header's `t_mono_start` (seconds)
        std::optional<double> recordTMono;  ///< the record's `t_mono` (seconds)
    };

    static std::unique_ptr<TreeNode> build(const Value &args, int maxNodes = 200000,
                                           const TimeContext &time = TimeContext());
};

}  // namespace lmct
