#pragma once

#include "stats/tracestatistics.h"
#include "trace/mergedorder.h"
#include "trace/traceset.h"

#include <QJsonObject>
#include <QList>
#include <atomic>
#include <functional>
#include <vector>

namespace lmct {

/**
 * Statistics of the traces of a TraceSet: each trace on its own (a TraceStatistics of its
 * document, exactly as for a single trace) and all of them together.
 *
 * The combined statistics (`all`) are a TraceStatistics whose rows merge the per-trace rows:
 * - exact: records, every count (calls, group counters, pairs matched and unmatched, releases,
 *   cancels, decode errors, finish_read_prefetched roles), shares (count / all records), keys
 *   per call (mean weighted by calls, max), bytes per call (mean weighted by the calls with a
 *   layout), the enter→exit duration percentiles and max (over the durations of every trace:
 *   read_prefetched_results contexts open and close in one process, so pairs never span
 *   traces);
 * - on the common axis: first and last of a call row are seconds from the combined start
 *   (TraceSet::combinedStart()) on the aligned `t_wall` axis (t_mono of different hosts does
 *   not compare), the rate is calls per second over [first, last], and the inter-arrival
 *   percentiles are exact over the aligned t_walls of the call's records of all traces sorted
 *   (one pass over the merged order; records without a finite t_wall are left out of times);
 * - an upper bound: distinct keys (overall and per group) are the sums over the traces, so a key
 *   that several traces touch counts once per trace.
 * Group rows merge by name (models), by world size and rank (ranks), by salt (salts).
 *
 * Selections: Options::subsets, one per trace (ascending record indices, null: every record);
 * t_mono ranges are per host and are not offered.
 *
 * Cost: TraceStatistics::compute per trace, then one pass over the merged order's rows
 * (8 bytes per selected record, freed at the end).
 *
 * Thread-safety: compute() is a pure function of its inputs (run it on a worker); the result
 * is a value. Growing documents: it covers the rows of `order` and, per trace, the records
 * published when its statistics start.
 */
class TraceSetStatistics {
public:
    struct Options {
        /** Per trace, only these records (ascending); empty, or a null entry: every record. */
        std::vector<const std::vector<int> *> subsets;
        bool decodeArgs = true;
        /** Traces done and their total (after each trace's statistics). */
        std::function<void(qint64 done, qint64 total)> progress;
        const std::atomic_bool *cancel = nullptr;
    };

    QList<TraceStatistics> perTrace;  ///< by trace index
    TraceStatistics all;
    double origin = TraceStatistics::kNaN;  ///< the combined start (aligned t_wall, seconds)

    static TraceSetStatistics compute(const TraceSet &set, const MergedOrder &order,
                                      const Options &options);
    static TraceSetStatistics compute(const TraceSet &set, const MergedOrder &order);

    /**
     * JSON: `all` (TraceStatistics::toJson, with `t_wall_origin`: the combined start, and
     * `time_axis`: "t_wall"), `traces` (per trace: `trace` index, `label`, `instance_id` (null
     * when none), `offset_s`, and its TraceStatistics::toJson fields).
     */
    QJsonObject toJson(const TraceSet &set) const;
};

}  // namespace lmct
