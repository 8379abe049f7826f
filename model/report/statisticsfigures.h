#pragma once

#include "compare/callcomparison.h"
#include "filter/tmonorange.h"
#include "report/reportcontent.h"
#include "stats/tracestatistics.h"

#include <QString>
#include <vector>

namespace lmct {

/**
 * The charts of the per-call statistics (TraceStatistics), as figure data: drawn by the
 * Statistics pane (FigurePlot, with their exports) and by the trace report's Calls section, the
 * same in both.
 *
 * - callCounts(): a horizontal bar per call (in Qualname::flowLess order, the totals left out),
 *   its length the call's count, in the call's colour, with "count · rate" beside it (rate:
 *   calls per second between its first and last t_mono, TraceStatistics::CallRow::rate).
 * - interArrival(): per call with at least two calls, the time between its successive calls
 *   (t_mono seconds): p50, p95 and max as dots on a log axis of durations, joined by a line
 *   (their spread). Gaps of 0 s (calls at one t_mono) have no place on a log axis and are left
 *   out; a call with no positive gap has no row.
 *
 * Captions are the viewer's export captions: the file, the range ("whole trace" or "t_mono A …
 * B s"), the filter ("no filter" or "filter: EXPR") and the records counted.
 *
 * Thread-safety: pure functions (reentrant).
 */
class StatisticsFigures {
public:
    /** "FILE  —  whole trace  —  no filter  —  1,234 records". */
    static QString caption(const QString &file, const QString &filterText, const TMonoRange &range,
                           qint64 records);
    static ReportContent::Figure callCounts(const TraceStatistics &stats, const QString &caption);
    static ReportContent::Figure interArrival(const TraceStatistics &stats, const QString &caption);
    /** The figures above that have data, in that order. */
    static std::vector<ReportContent::Figure> figures(const TraceStatistics &stats,
                                                      const QString &caption);
    /**
     * The two charts above for a comparison (CallComparison's rows, the totals left out): per
     * call A's bar above B's (the Compare pane's blue and orange) with "count · rate" beside
     * each; and A's and B's inter-arrival p50 and p95 as dots on one log axis of durations, A a
     * little above B. Those that have data, in that order; `caption` as for figures().
     */
    static std::vector<ReportContent::Figure> comparisonFigures(const CallComparison &calls,
                                                                const QString &caption);
    /** "41.2/s", "1,234/s", "0.05/s"; "—" when not a number. */
    static QString rateText(double perSecond);
};

}  // namespace lmct
