#pragma once

#include "filter/tmonorange.h"
#include "report/reportcontent.h"

#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <utility>

namespace lmct {

class TraceDocument;

/**
 * The report of two traces compared (File > Export Report… on a comparison's tab,
 * `lmct-viewer --report OUT --compare A B`): a ReportContent from TraceComparison (B against A:
 * Δ = B − A, Δ % = Δ / |A|), with these sections:
 *
 * - "files": both files' facts side by side and their configurations in words;
 * - "diagnostics": the diagnostics of A, then of B;
 * - "header": the header and StorageManagerConfig fields that differ (ConfigComparisonModel);
 * - "calls": the per-call figures (CallComparisonModel);
 * - "latencies": the latency figures (LatencyComparisonModel) and the distribution of each
 *   latency both traces have, A and B overlaid;
 * - "cache": the cache figures (CacheComparisonModel: hit at the configured capacities, the
 *   accounts, reuse, anomaly counts), the key overlap (KeyOverlapModel), the what-if curves of
 *   both (A solid, B dashed, each configured capacity marked) and the reuse-distance histograms
 *   overlaid (in keys, in time);
 * - "timeline": the timeline of A, then of B (TimelineSources 0 and 1), with the filter and
 *   range of Options when given, on one common time axis as the comparison's tab draws them
 *   (ComparisonLink): A at its `t_mono`, B at its `t_mono` + Options::bStart. Both pictures span
 *   the same stretch of it (their axisFrom/axisTo, each in its own trace's `t_mono`): the
 *   range of Options, cut to the two traces, else both traces whole (from the earlier start to
 *   the later end, 1 % to spare on each side); the axis and the captions say the alignment.
 *   Their rate plots share one calls/s scale (TimelineSource::sharedRateScale).
 *
 * Progress: TraceComparison's (0..100). Thread-safety: build() is reentrant (off the GUI
 * thread). Errors: an invalid filter gives nullptr with `error` set; cancel gives nullptr.
 */
class ComparisonReport {
public:
    /** How the timelines line up: from each trace's start, or by `t_wall` (ComparisonLink). */
    enum class Alignment : quint8 { Start, Wall };

    struct Options {
        QString filterText;  ///< for the timelines; empty: every record
        TMonoRange range;    ///< for the timelines, A's `t_mono` seconds
        int maxDiagnostics = 20;
        Alignment alignment = Alignment::Start;
        /**
         * Where B's `t_mono` 0 lies on the common axis, in A's `t_mono` seconds (positive: B
         * drawn later): ComparisonLink::base() + offset(), 0 from each trace's start without a
         * manual offset. Not finite: 0.
         */
        double bStart = 0.0;
        /**
         * The manual part of bStart under Alignment::Wall (ComparisonLink::offset(), seconds,
         * positive: B later), said in the words beside the t_wall difference; under
         * Alignment::Start bStart is all of it and this is not read. Not finite: 0.
         */
        double offset = 0.0;
    };
    using Progress = std::function<void(int percent)>;

    /**
     * Both traces whole on the common axis, in A's `t_mono` seconds: from the earlier start
     * (A's 0 or `bStart`) to the later end (A's last record, B's at `bStart` + its last). What
     * a range is cut to; a range reaching past it shows this part of it.
     */
    static std::pair<double, double> tracesAxis(const TraceDocument &a, const TraceDocument &b,
                                                double bStart);

    static std::shared_ptr<const ReportContent> build(std::shared_ptr<const TraceDocument> a,
                                                      std::shared_ptr<const TraceDocument> b,
                                                      const Options &options,
                                                      const Progress &progress = {},
                                                      const std::atomic_bool *cancel = nullptr,
                                                      QString *error = nullptr);
};

}  // namespace lmct
