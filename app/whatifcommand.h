#pragma once

#include <QStringList>

namespace lmct {

/**
 * `lmct whatif [--policy LIST] [--capacity LIST] [--model M] [--salt S] [--sample RATE] [--json]
 * FILE`: the prefetch hit ratio and miss ratio that each eviction policy would have had at each
 * capacity, replayed over the trace's uses (WhatIfAnalysis over a UseSequence).
 *
 * Capacities (CapacitySpec lists): chunk counts ("1024") or sizes ("48GiB"); default: every
 * power of two from 1 to the first at or above the number of distinct keys. A size (rounded to
 * whole bytes) becomes a chunk count by ChunkSize, the viewer's rule too (the scope's bytes per
 * object, from the MemoryLayoutDesc of reserve_write); when the keys in scope differ in size,
 * sizes are replayed in bytes (then no counts may be mixed in). A size on a trace without a
 * layout is a usage error.
 *
 * JSON: `{"uses", "distinct_keys", "prefetch_occurrences", "unit", ["sample_rate",]
 * "configured": {"l1_bytes", "policy", "chunks"}, "policies": {NAME: {"capacities",
 * "prefetch_hit_ratio", "miss_ratio"}}}`; ratios in [0, 1]; capacities in `unit` ("chunks", or
 * "bytes" when replayed in bytes); `sample_rate` only with --sample; `configured` from the
 * header's StorageManagerConfig (`size_in_bytes`, `eviction_policy`; `chunks` by ChunkSize), null
 * where unknown. Text: a table (a row per capacity, a column per policy, percent) and a line
 * comparing the configured L1 with OPT at the same capacity.
 *
 * A damaged trace (DamageSummary) is replayed as far as it reads, with a warning on stderr.
 * Progress goes to stderr only when stderr is a terminal. Thread-safety: main thread of the
 * command-line program (the replays run on ComputePool).
 *
 * Exit codes: 0 ok, 1 usage error (bad option, policy, capacity list, sample rate, unknown model
 * or salt, a size without a layout), 2 unreadable input or a failed write to standard output.
 */
class WhatIfCommand {
public:
    /** Runs the command; `args` starts with the program name, the command word removed. */
    static int run(const QStringList &args);
};

}  // namespace lmct
