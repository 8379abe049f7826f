#pragma once

#include "cache/keyanalysis.h"
#include "cache/requestanalysis.h"
#include "cache/reuseanalysis.h"
#include "compare/figurepair.h"
#include "timeline/contextpairs.h"

#include <QString>
#include <array>
#include <vector>

namespace lmct {

/**
 * The latencies of two traces side by side, each as p50, p95 and max plus a distribution in
 * power-of-two microsecond buckets (ReuseAnalysis::timeBucketOf: bucket 0 below 1 µs, bucket b
 * for [2^(b-1), 2^b) µs), so the two distributions overlay bucket by bucket.
 *
 * Latencies (seconds), one value per:
 * - WriteLatency: key finished after a reservation, KeyAnalysis::Key::writeLatency (its first
 *   finish_write − the reservation that finish closed);
 * - FirstReuse: key read after being written, KeyAnalysis::Key::firstReuse (its first read −
 *   its first finish_write);
 * - ReadDuration: matched read_prefetched_results context, __exit__ − __enter__ (ContextPairs,
 *   as the timeline and TraceStatistics::PairStats pair them);
 * - TimeToRead: request matched to a read, RequestAnalysis::timeToRead (the read's __enter__ −
 *   its submit_prefetch_task).
 * Percentiles interpolate linearly between closest ranks (TraceStatistics::percentile, as the
 * statistics table's), so ReadDuration's agree with TraceStatistics::PairStats.
 *
 * A latency with no value in a trace has a reason ("B has no submit_prefetch_task").
 *
 * Thread-safety: a value type, built once; const use from any thread.
 */
class LatencyComparison {
public:
    enum class Kind : quint8 { WriteLatency, FirstReuse, ReadDuration, TimeToRead };
    static constexpr int kKindCount = 4;
    /** JSON names: "write_latency", "first_reuse", "read_enter_exit", "time_to_read". */
    static QString kindName(Kind k);
    /** People's words: "write latency (reserve → finish)", "time to first reuse", "read enter →
     *  exit", "time to read (submit → read)". */
    static QString kindLabel(Kind k);

    struct Distribution {
        qint64 n = 0;
        double p50 = qQNaN();  ///< seconds
        double p95 = qQNaN();
        double max = qQNaN();
        /** Values per µs bucket (ReuseAnalysis::kBuckets). */
        std::vector<qint64> buckets = std::vector<qint64>(ReuseAnalysis::kBuckets);
    };
    /** The distribution of `values` (seconds; NaNs left out; reordered). */
    static Distribution distributionOf(std::vector<double> values);

    /** What one trace gives: its analyses (reads may be null: no read_prefetched_results). */
    struct Inputs {
        const KeyAnalysis *keys = nullptr;
        const RequestAnalysis *requests = nullptr;
        const ContextPairs *reads = nullptr;
    };
    /** The values of latency `k` in one trace (seconds, unordered). */
    static std::vector<double> valuesOf(Kind k, const Inputs &in);

    struct Row {
        Kind kind = Kind::WriteLatency;
        Distribution a, b;
        QString reason;  ///< why the latency cannot be compared; empty when it can
        FigurePair p50() const { return {a.p50, b.p50}; }
        FigurePair p95() const { return {a.p95, b.p95}; }
        FigurePair max() const { return {a.max, b.max}; }
    };

    static LatencyComparison build(const Inputs &a, const Inputs &b);

    /** One row per Kind, in Kind order. */
    const std::vector<Row> &rows() const { return m_rows; }
    const Row &row(Kind k) const { return m_rows[size_t(k)]; }

private:
    std::vector<Row> m_rows;
};

}  // namespace lmct
