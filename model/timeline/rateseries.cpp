#include "timeline/rateseries.h"

#include "timeline/timelineindex.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lmct {

double RateSeries::niceWidth(double minWidth) {
    if (!(minWidth > 0.0) || !std::isfinite(minWidth)) {
        return 1.0;
    }
    double mag = std::pow(10.0, std::floor(std::log10(minWidth)));
    for (;;) {
        for (double m : {1.0, 2.0, 5.0}) {
            // Tolerate rounding in pow(): 0.1 * 10 must count as 1.
            if (m * mag >= minWidth * (1.0 - 1e-12)) {
                return m * mag;
            }
        }
        mag *= 10.0;
    }
}

RateSeries RateSeries::compute(const TimelineIndex &index, int lane, double from, double to,
                               double width, int maxBuckets, double traceStart, double traceEnd) {
    RateSeries r;
    if (lane < 0 || lane >= index.laneCount() || !(to > from) || !(width > 0.0) || maxBuckets < 1) {
        return r;
    }
    while ((to - from) / width > double(maxBuckets - 1)) {
        width = niceWidth(width * 1.0001);
    }
    r.width = width;
    r.origin = std::floor(from / width) * width;
    const int n = int(std::ceil((to - r.origin) / width));
    if (n <= 0) {
        return r;
    }
    r.counts.resize(size_t(n));
    index.columnCounts(lane, r.origin, width, n, r.counts.data());
    r.rates.resize(size_t(n));
    // Buckets wholly outside the trace have no rate. One the trace covers at least a quarter of
    // (of itself, or of a trace shorter than a bucket) has its rate over the covered time; one
    // covered less (e.g. the last record at the very start of the last bucket) keeps count /
    // width: too little time to divide by, and its calls must still show.
    const bool bounded = traceEnd >= traceStart;
    const double minCovered = std::min(width, traceEnd - traceStart) / 4;
    for (int k = 0; k < n; ++k) {
        const double start = r.bucketStart(k), end = r.bucketStart(k + 1);
        double rate = double(r.counts[size_t(k)]) / width;
        if (bounded && (start > traceEnd || end <= traceStart)) {
            rate = std::numeric_limits<double>::quiet_NaN();
        } else if (bounded) {
            const double covered = std::min(end, traceEnd) - std::max(start, traceStart);
            if (covered < width * (1.0 - 1e-9) && covered >= minCovered && covered > 0.0) {
                rate = double(r.counts[size_t(k)]) / covered;
            }
        }
        r.rates[size_t(k)] = rate;
    }
    return r;
}

}  // namespace lmct
