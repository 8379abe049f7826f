#pragma once

#include "filter/filterexpression.h"
#include "filter/tmonorange.h"
#include "trace/tracedocument.h"
#include "trace/traceset.h"

#include <QThreadPool>
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace lmct {

/**
 * Evaluates a FilterExpression over the records of a TraceDocument and returns the matching
 * record indices in file order.
 *
 * How it evaluates:
 * - conditions on `call` and `qualname` are turned into per-qualname-id truth tables when the
 *   evaluator is built, so they cost one table lookup per record;
 * - `t_mono`, `t_wall` and `index` are read from the record columns;
 * - `trace` is the same for every record of the document: decided once, when the evaluator is
 *   built, from the trace's identity (Trace: label, instance, index; for a document alone its
 *   file name, its header's `level_meta.instance_id` and 0). A TraceSet is filtered one trace
 *   at a time, each with its identity, and the results put in MergedOrder's order by the caller.
 *   `trace` holds when the label or the instance id satisfies the condition as text, or, for an
 *   unquoted integer value, the index does as a number;
 * - conditions that need the arguments decode them straight from the mapped file with
 *   PackedArgsDecoder (zero copy; TraceDocument's args cache is not touched), once per record
 *   and only when a cheaper condition did not decide already: children of `&&` and `||` that
 *   need no arguments are evaluated first. A filter without argument conditions never decodes.
 * - A record whose arguments do not decode fails every argument condition (`!=` being
 *   `!(==)`, it then holds); such records are counted in Result::decodeErrors.
 *
 * run() splits the records into chunks evaluated in parallel by ParallelChunks: the calling
 * thread takes part and only idle pool threads help, so run() may itself be called from a pool
 * thread (e.g. inside QtConcurrent::run), many at once, without deadlocking. Typical use from a
 * widget:
 *
 *     auto expr = FilterExpression::parse(text);              // GUI thread, as the user types
 *     if (!expr.isValid()) { showError(expr.errorString()); return; }
 *     auto cancel = std::make_shared<std::atomic_bool>(false);
 *     QtConcurrent::run([doc, expr, cancel, this] {
 *         FilterEvaluator ev(doc, expr);
 *         FilterEvaluator::Options o;
 *         o.cancel = cancel.get();
 *         o.progress = [this](qint64 done, qint64 total) {   // any thread, serialized
 *             QMetaObject::invokeMethod(this, [=] { setProgress(done, total); });
 *         };
 *         return ev.run(o);                                 // Result::records, sorted
 *     });
 *
 * Growing documents (loading, live follow): run() evaluates the records published when it
 * starts (RecordStore::size() then); qualnames that appear later are still handled. A file cut
 * short while open (TraceDocument::readableRecordCount): the records past its new end are left
 * out (never matched, not examined).
 *
 * Ownership: keeps the document alive (shared_ptr) and shares the expression's AST.
 * Thread-safety: immutable after construction; run() and matches() are const and may be called
 * from several threads at once, also while the loader appends records.
 */
class FilterEvaluator {
public:
    struct Options {
        /** Only records whose t_mono lies in this inclusive range are considered. */
        TMonoRange range;
        /**
         * Only these record indices (ascending) are considered; null means every record. Must
         * stay alive and unchanged during run().
         */
        const std::vector<int> *subset = nullptr;
        /**
         * Called now and then with the number of candidate records examined and their total;
         * from worker threads, never concurrently, with non-decreasing `done`, at most about
         * every 1% and once more at the end with done == total (unless cancelled).
         */
        std::function<void(qint64 done, qint64 total)> progress;
        /** When it becomes true, run() stops early and returns Result::cancelled. */
        const std::atomic_bool *cancel = nullptr;
        /** Thread pool to use; null means ComputePool::instance(). */
        QThreadPool *pool = nullptr;
        /** Records per work item; 0 picks one (larger when no arguments are decoded). */
        int chunkSize = 0;
    };

    struct Result {
        /** Matching record indices, ascending (file order). Incomplete when cancelled. */
        std::vector<int> records;
        bool cancelled = false;
        qint64 examined = 0;      ///< candidate records (in range and subset) evaluated
        qint64 decoded = 0;       ///< records whose arguments were decoded
        qint64 decodeErrors = 0;  ///< records whose arguments did not decode
        double seconds = 0.0;     ///< wall-clock time of run()
    };

    /** Which trace of a set the document is, for the `trace` field. */
    struct Trace {
        QString label;       ///< TraceSet::label, or the file name
        QString instanceId;  ///< `level_meta.instance_id`, or empty
        int index = 0;       ///< index in the TraceSet
    };

    /** `expr` must be valid (an invalid expression matches nothing). The document is trace 0,
     *  labelled by its file name. */
    FilterEvaluator(std::shared_ptr<const TraceDocument> doc, const FilterExpression &expr);
    /** Evaluates over trace `t` of `set` (its document, with its identity for `trace`). */
    FilterEvaluator(const TraceSet &set, int t, const FilterExpression &expr);
    /** Evaluates over `doc` as the trace `trace`. */
    FilterEvaluator(std::shared_ptr<const TraceDocument> doc, const FilterExpression &expr,
                    const Trace &trace);
    ~FilterEvaluator();
    FilterEvaluator(const FilterEvaluator &) = default;
    FilterEvaluator &operator=(const FilterEvaluator &) = default;

    const FilterExpression &expression() const { return m_expr; }
    /** Whether evaluating needs the records' arguments (see FilterExpression::needsArgs). */
    bool needsArgs() const { return m_expr.needsArgs(); }

    /** Evaluates every candidate record (blocking). */
    Result run(const Options &options) const;
    /** run() with default options: every record, the compute pool, no progress. */
    Result run() const;
    /** Whether record `record` matches (ignores ranges and subsets). */
    bool matches(int record) const;

    struct Program;  ///< the compiled form (private; defined in filterevaluator.cpp)

private:
    void compile(const Trace &trace);

    std::shared_ptr<const TraceDocument> m_doc;
    FilterExpression m_expr;
    std::shared_ptr<const Program> m_program;
};

}  // namespace lmct
