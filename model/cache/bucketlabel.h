#pragma once

#include <QString>
#include <QtGlobal>

namespace lmct {

/**
 * Tick labels of the power-of-two buckets of ReuseAnalysis (reuse distances, reuse counts) and
 * of the latency distributions (LatencyComparison): a bucket's lower bound
 * (ReuseAnalysis::bucketFloor), short enough for a tick. The What-if tab's histograms, the
 * Compare pane's and the reports' figures all label their buckets with these.
 *
 * Thread-safety: pure functions. Errors: none.
 */
class BucketLabel {
public:
    /** A count: "0", "1", "512", "1k", "32k", "1M", "4G" (binary thousands: 1k = 1024). */
    static QString count(quint64 v);
    /** Microseconds: "0", "1µs", "512µs", "1ms", "2.6s", "1.1min", "140min": two significant
     *  digits below 100 of the unit, whole numbers from there on, never an exponent. */
    static QString micros(quint64 us);
};

}  // namespace lmct
