#pragma once

#include <QFont>
#include <QSize>

class QCPAxisRect;
class QCPLegend;
class QCustomPlot;
class QWidget;

namespace lmct {

class TimelineHitPlot;
class TimelineLanes;
class TimelineRatePlot;

/**
 * How the timeline's plot shares its height: the lanes' row height, the rate plot's share, the
 * rate legend's columns, the overview strip's height and the lane labels' font, for the plot's
 * own size or for a size asked for (an export, layOutFor()).
 *
 * Rules: the time axis and its caption first, then the legends whole, the lanes at readable rows
 * (the font's line + 3 px, at most 3 lines), then the rate plot (about a third, 70–280 px) and,
 * when placed, the hit-ratio plot (about a quarter, at least its kLeastPlotPx and margins, at
 * most 200 px). Short of room the plots yield first (to their kLeastPlotPx and margins), then the
 * rows (down to the font's line + 1 px). On screen the dock scrolls past that. A picture laid
 * out for a size (layOutFor()) cannot, so there what does not fit goes, in TimelineFit's order:
 * the legends, then the plots under the lanes (TimelineRatePlot::setLeftOut(),
 * TimelineHitPlot::setLeftOut()), then the rows go down to kLeastLaneRowPx with a smaller label
 * font (laneLabelFont(), at least kLeastLaneLabelPt), then rows merge (TimelineLanes::setMerge(),
 * a stage of the call flow per row, or all in one), rather than overlap. Laid out for the plot's
 * own size again, everything is back.
 *
 * Units: logical pixels; fonts in points. Ownership: borrows the parts (owned by TimelineWidget).
 * Thread-safety: GUI thread.
 */
class TimelinePlotLayout {
public:
    /** The least lane row (px) before the layout lets the lanes overflow, and the least
     *  lane-label font (points) for such rows (laneLabelFont()). */
    static constexpr int kLeastLaneRowPx = 9;
    static constexpr qreal kLeastLaneLabelPt = 5.0;

    struct Parts {
        QWidget *owner = nullptr;  ///< its font and metrics are the labels'
        QCustomPlot *plot = nullptr;
        QCPAxisRect *lanesRect = nullptr;
        QCPLegend *rateLegend = nullptr;
        QCPAxisRect *rateRect = nullptr;
        TimelineRatePlot *ratePlot = nullptr;
        QCPAxisRect *hitRect = nullptr;  ///< (none: no hit-ratio plot)
        QCPLegend *hitLegend = nullptr;
        TimelineHitPlot *hitPlot = nullptr;
        TimelineLanes *lanes = nullptr;
        QCustomPlot *overview = nullptr;
        TimelineLanes *overviewLanes = nullptr;
    };

    explicit TimelinePlotLayout(const Parts &parts) : m_p(parts) {}

    /**
     * Lays the plot out for `size` (empty: the plot's own size again): the heights, then the
     * plot's viewport and its layout's rects at that size, as a replot would do first.
     * `reservedHeight`: pixels of `size` the caller takes (an export's caption).
     */
    void layOutFor(QSize size, int reservedHeight);
    /** The lanes' and the rate plot's heights and the legend's columns for layoutSize(). */
    void updateHeights();
    /** The size the plot is laid out at: layOutFor()'s, else the plot's own. */
    QSize layoutSize() const;
    /** Whether a size was asked for (layOutFor() with a non-empty size). */
    bool hasFixedSize() const { return !m_layoutSize.isEmpty(); }
    /** The lane labels' font: the owner's, or smaller when the rows are shorter than it. */
    QFont laneLabelFont() const;
    /**
     * The plot's height on screen that shows every lane at readable rows (the font's line +
     * 3 px): the time axis, the legends and the plots placed at their least, and the lanes.
     * A plot given that much (a view around it that tall) needs no scrolling.
     */
    int readableHeight() const;

private:
    /** The height the lanes and plots share: layoutSize()'s, on screen no more than the scroll
     *  area around the timeline (the dock's) shows. */
    int heightToFill() const;

    Parts m_p;
    QSize m_layoutSize;        // layOutFor()'s size; empty: the plot's own
    int m_reservedHeight = 0;  // layOutFor()'s reservedHeight
    int m_laneRowPx = 0;       // the lanes' row height (px per unit of weight) chosen
};

}  // namespace lmct
