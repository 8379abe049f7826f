#pragma once

#include <vector>

namespace lmct {

class TimelineIndex;

/**
 * Calls per second of one lane of a TimelineIndex, bucketed at a given resolution.
 *
 * Buckets are aligned to whole multiples of their width (bucket k covers
 * [origin + k·width, origin + (k+1)·width) with origin = floor(from / width)·width), so panning
 * does not change a bucket's value and nice widths (niceWidth()) give readable steps. Counts come
 * from the index's rank tables: O(buckets · log) whatever the number of records.
 *
 * Thread-safety: stateless; reentrant over an immutable index.
 */
class RateSeries {
public:
    double origin = 0.0;      ///< start of bucket 0 (t_mono seconds)
    double width = 1.0;       ///< bucket width (seconds)
    std::vector<int> counts;  ///< calls per bucket
    /**
     * Calls per second per bucket: counts / width, or per the time the trace covers of a bucket
     * at its start or end when that is at least a quarter of it (see compute()); NaN for a
     * bucket wholly outside the trace (no rate can be told there, which is not 0 calls).
     */
    std::vector<double> rates;

    int size() const { return int(counts.size()); }
    double bucketStart(int k) const { return origin + double(k) * width; }
    double bucketCenter(int k) const { return origin + (double(k) + 0.5) * width; }

    /** The smallest width of the form {1, 2, 5}·10^n seconds that is >= `minWidth`. */
    static double niceWidth(double minWidth);

    /**
     * Rate of `lane` over the buckets covering [from, to]; at most `maxBuckets` buckets (the
     * width grows to the next nice value when needed). Empty when the range is empty or
     * the lane does not exist.
     *
     * [traceStart, traceEnd] is the time the trace covers (t_mono seconds; the whole document's
     * first and last record, also when `index` holds a filter's records): a bucket the trace
     * covers only partly, but at least a quarter of it, has its rate over the covered part (the
     * last bucket of a trace ending 24 s into a 50 s bucket showed half the rate), and buckets
     * wholly outside it have none (NaN: a view zoomed out past the end showed a drop to 0).
     * Infinite bounds (the default) count every bucket whole.
     */
    static RateSeries compute(const TimelineIndex &index, int lane, double from, double to,
                              double width, int maxBuckets = 1 << 16,
                              double traceStart = -kInfinity, double traceEnd = kInfinity);
    static constexpr double kInfinity = __builtin_huge_val();
};

}  // namespace lmct
