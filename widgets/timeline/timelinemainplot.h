#pragma once

#include "timeline/timelineinteraction.h"
#include "timeline/timelineplotlayout.h"

#include <QSharedPointer>

class QCPAxisRect;
class QCPLegend;
class QCustomPlot;
class QFont;
class QPalette;
class QWidget;

namespace lmct {

class TimeAxisTicker;
class TimelineBandLayer;
class TimelineBuilder;
class TimelineFollowLayer;
class TimelineHitPlot;
class TimelineLanes;
class TimelineMarginGroup;
class TimelineOverlay;
class TimelineOverview;
class TimelineRatePlot;
class TimelineViewport;

/**
 * The timeline's main plot and its parts, built in their order by create(): one QCustomPlot with
 * the lanes' area on top, the rate plot's area below and its legend last (the what-if's hit-ratio
 * area and legend made but out of the layout until there is one), one margin group for their left
 * edges, the lanes, the rate and hit plots, the "bands" and "follow" layers above the lanes with
 * the band layer and the follow layer drawn in them, and the overlay widget that follows the
 * mouse. applyPalette() styles them, and the overview strip's axes the same way.
 * TimelineWidget wires the parts to each other and to the ViewState.
 *
 * Units: none of its own (the parts say theirs: t_mono seconds on the time axis, logical pixels).
 *
 * Ownership: holds pointers only. The QCustomPlot is a child of the widget given to create();
 * the axis rects, legends, lanes and layers are the plot's; the rate, hit and band parts are
 * QObject children of the widget; the overlay is a child widget of the plot.
 *
 * Thread-safety: GUI thread only.
 *
 * Errors: none.
 */
struct TimelineMainPlot {
    QCustomPlot *plot = nullptr;
    QCPAxisRect *lanesRect = nullptr;
    QCPAxisRect *rateRect = nullptr;
    TimelineMarginGroup *marginGroup = nullptr;  // lanes, rate and hit areas: one left edge
    QCPLegend *rateLegend = nullptr;
    TimelineLanes *lanes = nullptr;
    TimelineRatePlot *ratePlot = nullptr;  // the graphs, legend and caption of rateRect
    QCPAxisRect *hitRect = nullptr;
    QCPLegend *hitLegend = nullptr;
    TimelineHitPlot *hitPlot = nullptr;  // the graphs, legend and caption of hitRect
    TimelineOverlay *overlay = nullptr;
    TimelineFollowLayer *followLayer = nullptr;
    TimelineBandLayer *bands = nullptr;  // backdrop, time range bands and duration label

    /**
     * Builds the main plot as a child of `owner` (the widget: parent of the parts that are
     * QObjects), its time axis labelled by `ticker`, the rate and hit plots following
     * `viewport` (the rate plot also `builder`'s index).
     */
    static TimelineMainPlot create(QWidget *owner, const QSharedPointer<TimeAxisTicker> &ticker,
                                   TimelineViewport *viewport, TimelineBuilder *builder);

    /**
     * Styles the parts and `overview`'s strip for `pal`: axes, grids and labels (tick labels in
     * `font`, the lane labels in `laneFont`, captions and legends a tenth smaller than `font`),
     * the lanes', plots', bands' and follow layer's colours.
     */
    void applyPalette(const QPalette &pal, const QFont &font, const QFont &laneFont,
                      TimelineOverview *overview) const;

    /** The parts TimelinePlotLayout shares the height of, with `owner`'s font and `overview`. */
    TimelinePlotLayout::Parts layoutParts(QWidget *owner, TimelineOverview *overview) const;

    /** The parts TimelineInteraction handles the mouse over, with `viewport`, `ticker` and
     *  `overview` (the overview strip's mouse). */
    TimelineInteraction::Parts interactionParts(TimelineViewport *viewport, TimeAxisTicker *ticker,
                                                TimelineOverview *overview) const;
};

}  // namespace lmct
