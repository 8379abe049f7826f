#pragma once

#include "filter/filterexpression.h"
#include "trace/mergedorder.h"
#include "trace/traceset.h"

#include <QtGlobal>
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace lmct {

/**
 * One filter over every trace of a TraceSet: each trace evaluated by a FilterEvaluator with its
 * identity (label, instance, index: the `trace` field), and the matching rows of a MergedOrder,
 * what the combined record table shows.
 *
 * Rows: ascending MergedOrder rows whose record matches. Each trace keeps its file order in a
 * MergedOrder, so the per-trace results (ascending) are walked with one cursor per trace: one
 * pass over the order's rows, no table per record. Records published after the order was built
 * are matched (perTrace) but have no row until the order holds them; rowsOf() gives the rows
 * of a later order.
 *
 * Cost: the evaluations (each in parallel on ComputePool, see FilterEvaluator::run), then
 * O(order rows). Thread-safety: run() and rowsOf() are pure functions of their inputs (call them
 * on a worker); the documents may grow meanwhile. Errors: an invalid expression matches nothing.
 */
class TraceSetFilter {
public:
    struct Result {
        /** Per trace, the matching record indices (ascending), never null. */
        std::vector<std::shared_ptr<const std::vector<int>>> perTrace;
        /** Matching rows of the order (ascending). */
        std::vector<qint64> rows;
        bool cancelled = false;
        qint64 decodeErrors = 0;  ///< records whose arguments did not decode, over all traces
    };

    struct Options {
        /** Records examined and their total over all traces (any thread, serialized). */
        std::function<void(qint64 done, qint64 total)> progress;
        /** When it becomes true, run() stops (Result::cancelled). */
        const std::atomic_bool *cancel = nullptr;
    };

    static Result run(const TraceSet &set, const MergedOrder &order, const FilterExpression &expr,
                      const Options &options);
    static Result run(const TraceSet &set, const MergedOrder &order, const FilterExpression &expr);

    /** The rows of `order` whose record is in perTrace[trace] (ascending; null: none match). */
    static std::vector<qint64> rowsOf(
        const MergedOrder &order,
        const std::vector<std::shared_ptr<const std::vector<int>>> &perTrace);
};

}  // namespace lmct
