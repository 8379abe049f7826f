#pragma once

#include <QStringList>

namespace lmct {

/**
 * `lmct keys [--json] FILE`: every distinct ObjectKey of a trace and what the calls did to it
 * (KeyAnalysis).
 *
 * JSON: `{"distinct_keys": N, "states": {STATE: N, ...}, "keys": [KEY, ...]}`, keys in order of
 * first appearance, each `{"chunk_hash": hex, "model_name", "kv_rank" (packed), "rank",
 * "world_size", "object_group_id" (null when absent), "cache_salt" (null when absent),
 * "first_t_mono", "last_t_mono", "first_record", "last_record", "counts": {"reserve", "finish",
 * "abort", "prefetch", "read"}, "write_latency_s", "first_reuse_s" (null when unknown), "state"}`
 * with `read` = read_prefetched_results.__enter__ + finish_read_prefetched and `state` one of
 * KeyAnalysis::stateName(). Text: a summary, then one line per key.
 *
 * Exit codes: 0 ok, 1 usage error, 2 unreadable input (see CacheCommand) or a failed write to
 * standard output.
 */
class KeysCommand {
public:
    /** Runs the command; `args` starts with the program name, the command word removed. */
    static int run(const QStringList &args);
};

}  // namespace lmct
