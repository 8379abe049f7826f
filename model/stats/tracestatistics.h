#pragma once

#include "filter/tmonorange.h"
#include "trace/tracedocument.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QThreadPool>
#include <array>
#include <atomic>
#include <functional>
#include <limits>
#include <vector>

namespace lmct {

/**
 * Statistics of a trace, or of a selection of its records (a filter result and/or a t_mono
 * range): per call, per model, per rank and per cache salt, and the pairing of the
 * `read_prefetched_results` context manager.
 *
 * Definitions (times are t_mono seconds; "selection" is the records considered):
 * - CallRow (one per qualname present in the selection, in Qualname::flowLess order, plus a
 *   totals row over the whole selection): count; share = count / selection size; first and last
 *   t_mono; rate = count / (last − first) in calls per second (NaN when the span is 0);
 *   inter-arrival p50/p95/max over the differences of its sorted t_mono values (NaN with fewer
 *   than 2 calls); keys per call (mean over all its calls, max) counting every ObjectKey
 *   anywhere in the args; bytes per call = layout bytes per object × keys, averaged over the
 *   calls that carry a MemoryLayoutDesc (bytesCalls of them; NaN when none do).
 * - GroupRow (per model name, per rank "rank R/W", per cache salt): a call belongs to every
 *   group one of its keys belongs to (a TP=2 call with keys of both ranks counts for both).
 *   calls = all such calls; reserves = reserve_write and reserve_write_with_status;
 *   finishedWrites = finish_write; prefetches = submit_prefetch_task;
 *   reads = read_prefetched_results.__enter__; finishedReads = finish_read_prefetched that
 *   are reads (FinishReadPlacement over the selection: not those of a release_prefetch_task nor
 *   the late release of an earlier read; docs/cache-behaviour.md, "Reads"); releases =
 *   release_prefetch_task (with keys: a nil `keys` belongs to no group);
 *   distinctKeys = distinct ObjectKeys (hash, model, kv_rank, group, salt) of the group over
 *   the selection, counted by a 64-bit identity hash (collisions ~2^-64 per pair).
 *   Keys without `cache_salt` (schema < 2) form the salt group with hasSalt = false.
 * - PairStats: the selected `read_prefetched_results.__enter__`/`__exit__` calls paired by
 *   ContextPairs::match (as the timeline pairs them): in file order, each `__enter__` opens a
 *   context for its exact key list, and each `__exit__` closes the oldest open context with the
 *   identical key list (FIFO per key list; contexts of different lists may interleave).
 *   matched, unmatchedEnter (still open at the end), unmatchedExit (no open context), and the
 *   enter→exit duration p50/p95/max of matched pairs (an exit whose t_mono stepped back before
 *   its enter's counts 0 s, as ContextPairs clamps it). Only pairs inside the selection match:
 *   a filter or range that keeps one side of a pair leaves the other unmatched.
 * - Percentiles interpolate linearly between closest ranks (numpy's default): for sorted
 *   values v[0..n-1], p ∈ [0,1]: position p·(n−1).
 *
 * Cost: the per-call counts and times use the record columns only; keys, bytes, groups and
 * pairs need the arguments, decoded with PackedArgsDecoder in parallel chunks (ParallelChunks:
 * the calling thread works too, so compute() may run inside a pool thread). Options::decodeArgs =
 * false skips them (fast, for a first display).
 *
 * Growing documents: compute() covers the records published when it starts. A file cut short
 * while open (TraceDocument::readableRecordCount): the records past its new end are left out.
 *
 * Thread-safety: compute() is a pure function of its inputs, safe to run on any thread
 * (typically a worker: QtConcurrent::run([=] { return TraceStatistics::compute(*doc, o); })).
 * A TraceStatistics is a value; share it as std::shared_ptr<const TraceStatistics>.
 */
class TraceStatistics {
public:
    static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

    struct Options {
        TMonoRange range;                          ///< only records in this t_mono range
        const std::vector<int> *subset = nullptr;  ///< only these records (ascending); null: all
        bool decodeArgs = true;                    ///< false: skip keys, bytes, groups, pairs
        /** As FilterEvaluator::Options::progress (records processed, total). */
        std::function<void(qint64 done, qint64 total)> progress;
        const std::atomic_bool *cancel = nullptr;  ///< stop early; the result is then partial
        QThreadPool *pool = nullptr;               ///< null: ComputePool::instance()
        /** When set, receives the matched pairs' enter→exit durations (seconds), ascending:
         *  what percentiles over several traces need (TraceSetStatistics). */
        std::vector<double> *pairDurations = nullptr;
    };

    struct CallRow {
        QString qualname;  ///< full qualname; "(total)" for the totals row
        QString call;      ///< Qualname::shortName; "total" for the totals row
        qint64 count = 0;
        double share = 0.0;
        /** Times (seconds): of the calls whose `t_mono` is a time (a NaN, infinite or negative
         *  `t_mono` is counted in `count` but left out of these, as the duration leaves it out). */
        double firstTMono = kNaN;
        double lastTMono = kNaN;
        double rate = kNaN;  ///< calls with a t_mono that is a time, per second over [first, last]
        double interArrivalP50 = kNaN;
        double interArrivalP95 = kNaN;
        double interArrivalMax = kNaN;
        double keysMean = kNaN;
        qint64 keysMax = 0;
        double bytesMean = kNaN;
        qint64 bytesCalls = 0;  ///< calls with a layout (the ones bytesMean averages)
    };

    struct GroupRow {
        QString name;         ///< model name, "rank R/W", or the salt ("" is a salt too)
        bool hasSalt = true;  ///< salt groups: false for keys without a cache_salt field
        int rank = -1;        ///< rank groups: the rank
        int worldSize = -1;   ///< rank groups: the world size
        qint64 calls = 0;
        qint64 reserves = 0;
        qint64 finishedWrites = 0;
        qint64 prefetches = 0;
        qint64 reads = 0;
        qint64 finishedReads = 0;  ///< finish_read_prefetched that are reads
        qint64 releases = 0;       ///< release_prefetch_task
        qint64 distinctKeys = 0;
    };

    struct PairStats {
        qint64 matched = 0;
        qint64 unmatchedEnter = 0;
        qint64 unmatchedExit = 0;
        double durationP50 = kNaN;
        double durationP95 = kNaN;
        double durationMax = kNaN;
    };

    QList<CallRow> calls;
    CallRow totals;
    QList<GroupRow> models;  ///< by name
    QList<GroupRow> ranks;   ///< by world size, then rank
    QList<GroupRow> salts;   ///< by salt; the no-salt group first
    PairStats pairs;
    qint64 records = 0;       ///< records in the selection
    qint64 distinctKeys = 0;  ///< distinct ObjectKeys over the selection
    qint64 decodeErrors = 0;  ///< records whose arguments did not decode
    qint64 releases = 0;      ///< release_prefetch_task records (args decoded)
    qint64 cancels = 0;       ///< cancel_prefetch_task records (no keys: in no group)
    /** finish_read_prefetched by FinishReadPlacement::Role (read, of a release, of a read). */
    std::array<qint64, 3> finishReadRoles{};
    bool argsDecoded = false;  ///< keys, bytes, groups and pairs were computed
    bool cancelled = false;
    TMonoRange range;

    /** Computes the statistics of `doc` restricted by `options` (blocking). */
    static TraceStatistics compute(const TraceDocument &doc, const Options &options);
    static TraceStatistics compute(const TraceDocument &doc);

    /** Linear-interpolation percentile of ascending `sorted`, p in [0, 1]; NaN when empty. */
    static double percentile(const std::vector<double> &sorted, double p);

    /**
     * JSON: `records`, `range` ({from, to}, null ends when open), `args_decoded`,
     * `decode_errors`, `distinct_keys`, `releases`, `cancels`, `finish_read_prefetched` ({read,
     * of_release, of_read}), `calls` (array of call rows, snake_case keys, NaN as
     * null), `totals`, `models`, `ranks`, `salts` (arrays of group rows), `context_pairs`.
     */
    QJsonObject toJson() const;
    static QJsonObject toJson(const CallRow &row);
    static QJsonObject toJson(const GroupRow &row);
};

}  // namespace lmct
