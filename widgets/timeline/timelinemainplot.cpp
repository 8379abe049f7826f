#include "timeline/timelinemainplot.h"

#include "common/plotpens.h"
#include "timeline/timeaxisticker.h"
#include "timeline/timelinebandlayer.h"
#include "timeline/timelinefollowlayer.h"
#include "timeline/timelinehitplot.h"
#include "timeline/timelinelanes.h"
#include "timeline/timelinemargingroup.h"
#include "timeline/timelineoverlay.h"
#include "timeline/timelineoverview.h"
#include "timeline/timelinerateplot.h"

#include <qcustomplot.h>

namespace lmct {

using namespace PlotPens;

TimelineMainPlot TimelineMainPlot::create(QWidget *owner,
                                          const QSharedPointer<TimeAxisTicker> &ticker,
                                          TimelineViewport *viewport, TimelineBuilder *builder) {
    // Lanes on top, the rate plot below, the rate legend last; shared time axis.
    TimelineMainPlot p;
    p.plot = new QCustomPlot(owner);
    p.plot->setObjectName(QStringLiteral("timelinePlot"));
    p.plot->setFocusPolicy(Qt::StrongFocus);
    p.plot->setAutoAddPlottableToLegend(false);
    p.plot->setNoAntialiasingOnDrag(true);
    p.plot->setPlottingHints(QCP::phFastPolylines | QCP::phCacheLabels);
    p.plot->plotLayout()->clear();
    p.lanesRect = new QCPAxisRect(p.plot);
    p.rateRect = new QCPAxisRect(p.plot);
    p.rateLegend = new QCPLegend;
    p.plot->plotLayout()->addElement(0, 0, p.lanesRect);
    p.plot->plotLayout()->addElement(1, 0, p.rateRect);
    p.plot->plotLayout()->addElement(2, 0, p.rateLegend);
    p.plot->plotLayout()->setRowStretchFactors({0.001, 1.0, 0.001});
    p.plot->plotLayout()->setRowSpacing(0);

    auto *group = p.marginGroup = new TimelineMarginGroup(p.plot);
    p.lanesRect->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    p.rateRect->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    // the what-if's hit ratio: out of the layout until there is one (TimelineHitPlot::place)
    p.hitRect = new QCPAxisRect(p.plot);
    p.hitLegend = new QCPLegend;
    p.hitRect->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    p.lanesRect->setSizeConstraintRect(QCPLayoutElement::scrInnerRect);

    TimelineLanes::setUpAxes(p.lanesRect, ticker);
    QCPAxis *top = p.lanesRect->axis(QCPAxis::atTop);
    QCPAxis *left = p.lanesRect->axis(QCPAxis::atLeft);
    p.lanes = new TimelineLanes(top, left);

    p.ratePlot = new TimelineRatePlot(p.plot, p.rateRect, p.rateLegend, ticker, p.lanes, viewport,
                                      builder, owner);
    p.hitPlot = new TimelineHitPlot(p.plot, p.hitRect, p.hitLegend, ticker, viewport, owner);
    p.lanesRect->setAutoMargins(QCP::msLeft | QCP::msRight | QCP::msTop);

    // Bands above the lanes. One paint buffer for the whole plot (QCustomPlot's own "overlay"
    // layer would add a second one to clear and compose on every replot); what follows the
    // mouse is drawn by a TimelineOverlay widget instead.
    p.plot->addLayer(QStringLiteral("bands"), p.plot->layer(QStringLiteral("main")),
                     QCustomPlot::limAbove);
    p.plot->layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);
    const QString items = QStringLiteral("bands");
    p.plot->addLayer(QStringLiteral("follow"), p.plot->layer(items), QCustomPlot::limAbove);
    p.followLayer = new TimelineFollowLayer(p.lanes, QStringLiteral("follow"),
                                            TimelineFollowLayer::Style::Detailed);
    top->grid()->setLayer(items);  // lane rows are opaque: the time grid goes over them
    // The paint buffer is made opaque by the band layer's backdrop, so that showing it is
    // mostly a copy. QCustomPlot clips every layerable one pixel up (QCPLayer::draw), so the
    // backdrop misses the plot's last row: the plot's own background fill (applyPalette(), in
    // paintEvent) paints it, else an opaque widget showed whatever was there before.
    p.bands = new TimelineBandLayer(p.plot, p.lanesRect, p.rateRect, items, owner);
    p.plot->setAttribute(Qt::WA_OpaquePaintEvent);
    p.ratePlot->createCaption();
    p.hitPlot->createCaption();
    p.overlay = new TimelineOverlay(p.plot);
    return p;
}

void TimelineMainPlot::applyPalette(const QPalette &pal, const QFont &font, const QFont &laneFont,
                                    TimelineOverview *overview) const {
    QCustomPlot *ov = overview->plot();
    const QColor base = pal.color(QPalette::Base);
    const QColor window = pal.color(QPalette::Window);
    const QColor text = pal.color(QPalette::Text);
    const QColor mid = pal.color(QPalette::Mid);
    const QColor grid = alpha(text, 38);
    QFont small = font;
    small.setPointSizeF(small.pointSizeF() * 0.9);
    ov->setBackground(window);
    plot->setBackground(window);  // (its last row: see create())
    for (QCustomPlot *each : {plot, ov}) {
        for (QCPAxisRect *rect : each->axisRects()) {
            // the lanes paint every pixel of their rect themselves
            rect->setBackground(rect == lanesRect ? QBrush(Qt::NoBrush) : QBrush(base));
            for (QCPAxis *a : rect->axes()) {
                a->setBasePen(hairline(mid));
                a->setTickPen(hairline(mid));
                a->setSubTickPen(hairline(mid));
                a->setTickLabelColor(text);
                a->setLabelColor(alpha(text, 190));
                a->setTickLabelFont(a == lanesRect->axis(QCPAxis::atLeft) ? laneFont : font);
                a->setLabelFont(small);
                a->grid()->setPen(hairline(grid));
                a->grid()->setSubGridPen(hairline(alpha(text, 14)));
                a->grid()->setZeroLinePen(Qt::NoPen);
            }
        }
    }
    lanesRect->axis(QCPAxis::atTop)->grid()->setSubGridVisible(true);
    lanesRect->axis(QCPAxis::atLeft)->setBasePen(Qt::NoPen);
    ratePlot->applyPalette(pal, small);
    hitPlot->applyPalette(pal, small);
    bands->applyPalette(pal, small);
    overlay->setFont(small);
    overview->applyPalette(pal);
    lanes->setColors(pal);
    followLayer->setColors(pal);
}

TimelinePlotLayout::Parts TimelineMainPlot::layoutParts(QWidget *owner,
                                                        TimelineOverview *overview) const {
    TimelinePlotLayout::Parts parts;
    parts.owner = owner;
    parts.plot = plot;
    parts.lanesRect = lanesRect;
    parts.rateLegend = rateLegend;
    parts.rateRect = rateRect;
    parts.ratePlot = ratePlot;
    parts.hitRect = hitRect;
    parts.hitLegend = hitLegend;
    parts.hitPlot = hitPlot;
    parts.lanes = lanes;
    parts.overview = overview->plot();
    parts.overviewLanes = overview->lanes();
    return parts;
}

TimelineInteraction::Parts TimelineMainPlot::interactionParts(TimelineViewport *viewport,
                                                              TimeAxisTicker *ticker,
                                                              TimelineOverview *overview) const {
    TimelineInteraction::Parts parts;
    parts.plot = plot;
    parts.lanesRect = lanesRect;
    parts.rateRect = rateRect;
    parts.lanes = lanes;
    parts.overlay = overlay;
    parts.viewport = viewport;
    parts.ticker = ticker;
    parts.ratePlot = ratePlot;
    parts.overview = overview;
    return parts;
}

}  // namespace lmct
