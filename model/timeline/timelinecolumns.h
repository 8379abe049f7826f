#pragma once

namespace lmct {

/**
 * The device-pixel columns a timeline draws in: the pure time ↔ column mapping shared by the
 * lanes' passes and their tests.
 *
 * Column k covers t_mono [origin + k·width, origin + (k+1)·width). Columns are aligned to whole
 * multiples of their width (origin = floor(lower / width)·width), so that panning by whole
 * columns shifts the counts instead of re-bucketing them, and the per-column counts of a
 * TimelineIndex or ContextPairs (their columnCounts()/overlapCounts() take origin, width, count)
 * stay stable. Units: seconds (t_mono), device pixels (logical pixels · dpr).
 *
 * Thread-safety: a value type; of() is a pure function.
 */
struct TimelineColumns {
    double origin = 0.0;  ///< t_mono of column 0's left edge
    double width = 1.0;   ///< seconds per device pixel
    int count = 0;        ///< columns to draw (0: nothing to draw)
    double dpr = 1.0;     ///< device pixels per logical pixel (at least 1)
    double x0 = 0.0;      ///< device x of column 0

    /**
     * The columns of the visible window [lower, upper] drawn in a plot area `left`, `widthPx`
     * logical pixels wide at device pixel ratio `dpr` (less than 1 counts as 1). No columns when
     * the area or the window is empty. At most widthPx·dpr + 2 columns: one on each side for the
     * partial columns at the edges.
     */
    static TimelineColumns of(double lower, double upper, int left, int widthPx, double dpr);

    /** t_mono of column `k`'s left edge. */
    double timeOf(double k) const { return origin + k * width; }
    /** The column holding `t`, as a whole number (may lie outside [0, count)). */
    double columnOf(double t) const;
};

}  // namespace lmct
