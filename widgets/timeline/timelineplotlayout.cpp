#include "timeline/timelineplotlayout.h"

#include "timeline/timelinefit.h"
#include "timeline/timelinehitplot.h"
#include "timeline/timelinelanes.h"
#include "timeline/timelinerateplot.h"

#include <qcustomplot.h>
#include <QAbstractScrollArea>

#include <algorithm>
#include <cmath>

namespace lmct {

QSize TimelinePlotLayout::layoutSize() const {
    return m_layoutSize.isEmpty() ? m_p.plot->size() : m_layoutSize;
}

int TimelinePlotLayout::heightToFill() const {
    const int own = layoutSize().height();
    if (!m_layoutSize.isEmpty()) {
        return own;
    }
    // In a scroll area (the dock's), the height in view: a plot taller than that (its minimum
    // grown past the view) is laid out for the view again, rather than for its own height,
    // which would keep it as tall as it once had to be
    const QWidget *area = m_p.owner->parentWidget();
    while (area && !qobject_cast<const QAbstractScrollArea *>(area)) {
        area = area->parentWidget();
    }
    const auto *scroll = qobject_cast<const QAbstractScrollArea *>(area);
    if (!scroll || !scroll->isVisible() || !m_p.plot->isVisible()) {
        return own;
    }
    // (the area's size, not its viewport's: the viewport follows only after the view)
    const int chrome = m_p.owner->height() - m_p.plot->height();  // toolbar, overview
    const int visible = scroll->maximumViewportSize().height() - chrome;
    return visible > 0 ? std::min(own, visible) : own;
}

void TimelinePlotLayout::layOutFor(QSize size, int reservedHeight) {
    m_layoutSize = size;
    m_reservedHeight = size.isEmpty() ? 0 : std::max(0, reservedHeight);
    const QSize s = layoutSize();
    updateHeights();
    if (!s.isEmpty()) {
        // what QCustomPlot's replot does first: the areas' rects at this size, so that the
        // tick count and the rate buckets are those of this size
        m_p.plot->setViewport(QRect(QPoint(0, 0), s));
        QCPLayoutGrid *grid = m_p.plot->plotLayout();
        for (auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins,
                           QCPLayoutElement::upLayout}) {
            grid->update(phase);
        }
    }
}

void TimelinePlotLayout::updateHeights() {
    const QSize size(layoutSize().width(), heightToFill());
    const int fm = m_p.owner->fontMetrics().height();
    // rows of fm + 3 (readable labels); on a short plot down to fm + 1 (labels still apart)
    const int minRow = fm + 3, leastRow = fm + 1, maxRow = fm * 3;
    // the time axis with its caption, and what the caller added (an export's caption)
    int avail = size.height() - (fm * 3 + 8) - m_reservedHeight;
    const bool rateWanted = m_p.ratePlot->isShown();
    const bool hitWanted = m_p.hitPlot && m_p.hitPlot->isWanted();
    int rateLegendPx = 0, hitLegendPx = 0, rateLeast = 0, hitLeast = 0;
    if (rateWanted) {
        m_p.ratePlot->wrapLegend(size.width());
        rateLegendPx = int(m_p.rateLegend->minimumOuterSizeHint().height());
        const QMargins m = m_p.rateRect->margins();
        rateLeast = TimelineRatePlot::kLeastPlotPx + m.top() + m.bottom();
    }
    if (hitWanted) {
        m_p.hitPlot->wrapLegend(size.width());
        hitLegendPx = int(m_p.hitLegend->minimumOuterSizeHint().height());
        const QMargins m = m_p.hitRect->margins();
        hitLeast = TimelineHitPlot::kLeastPlotPx + m.top() + m.bottom();
    }
    // A picture laid out for a size (an export) cannot scroll: what does not fit goes, the
    // legends first, then the plots, then the rows shrink and merge (TimelineFit). On screen
    // everything stays and the dock scrolls.
    const QVector<LaneMerge::Lane> lanes = m_p.lanes->mergeLanes();
    TimelineFit::Fit fit = TimelineFit::keepAll(lanes);
    if (!m_layoutSize.isEmpty()) {
        TimelineFit::Room room;
        room.height = avail;
        room.legendsPx = rateLegendPx + hitLegendPx;
        room.plotsLeastPx = rateLeast + hitLeast;
        room.readableRowPx = leastRow;
        room.leastRowPx = kLeastLaneRowPx;
        room.lanes = lanes;
        fit = TimelineFit::of(room);
    }
    if (m_p.ratePlot->setLeftOut(!fit.plots, !fit.legends)) {
        m_p.ratePlot->place();
    }
    if (m_p.hitPlot && m_p.hitPlot->setLeftOut(!fit.plots, !fit.legends)) {
        m_p.hitPlot->place();
    }
    if (m_p.lanes->setMerge(fit.rows)) {
        m_p.lanes->labelAxis();
    }
    const bool rateOn = m_p.ratePlot->isPlaced();
    const bool hitOn = m_p.hitPlot && m_p.hitPlot->isPlaced();
    if (rateOn && fit.legends) {
        avail -= rateLegendPx;
    }
    if (hitOn && fit.legends) {
        avail -= hitLegendPx;
    }
    const double weight = std::max(1.0, m_p.lanes->totalWeight());
    const int room = avail;  // for the lanes and the plots
    // The legends whole, the lanes (readable labels), then the plots: the rate plot about a
    // third (at least 70 px), the hit-ratio plot about a quarter (at most 200 px, never below its
    // least: its ticks and the caption's headroom need it). Short of room the rate plot yields
    // first (to TimelineRatePlot::kLeastPlotPx and its margins), then the hit-ratio plot (to
    // its kLeastPlotPx), then the rows.
    int rate = 0, hit = 0;
    if (rateOn) {
        rate = std::clamp(int(room * 0.36), 70, 280);
    } else {
        rateLeast = 0;
    }
    if (hitOn) {
        hit = std::clamp(int(room * 0.25), hitLeast, 200);
    } else {
        hitLeast = 0;
    }
    int excess = rate + hit + int(weight * minRow) - avail;
    for (auto [plot, least] : {std::pair{&rate, rateLeast}, std::pair{&hit, hitLeast}}) {
        const int give = std::clamp(excess, 0, std::max(0, *plot - least));
        *plot -= give;
        excess -= give;
    }
    avail -= rate + hit;
    if (hitOn) {
        m_p.hitRect->setMinimumSize(0, hit);
        m_p.hitRect->setMaximumSize(QWIDGETSIZE_MAX, hit);
    }
    // Still too short: on screen the dock scrolls (rows stay readable); a picture laid out
    // by layOutFor() cannot (a small export, e.g. 800x260): there rows go down to
    // kLeastLaneRowPx with a smaller label font (laneLabelFont()), rather than rows the layout
    // squeezes under labels that then overlap; and never taller than the picture has room for
    // (a single merged row in a tiny picture).
    int least = leastRow;
    if (!m_layoutSize.isEmpty()) {
        least = std::min(leastRow, kLeastLaneRowPx);
        least = std::max(1, std::min(least, int(avail / weight)));
    }
    const int rowPx = std::clamp(int(avail / weight), least, maxRow);
    const int h = int(std::lround(weight * rowPx));
    if (rowPx != m_laneRowPx) {
        m_laneRowPx = rowPx;
        m_p.lanesRect->axis(QCPAxis::atLeft)->setTickLabelFont(laneLabelFont());
    }
    m_p.lanesRect->setMinimumSize(0, h);
    m_p.lanesRect->setMaximumSize(QWIDGETSIZE_MAX, h);
    if (m_layoutSize.isEmpty()) {
        const int rows = std::max(1, int(m_p.overviewLanes->rows().size()));
        m_p.overview->setFixedHeight(std::clamp(8 + rows * 4, 28, 64));
    }
}

int TimelinePlotLayout::readableHeight() const {
    // updateHeights()' shares with the rows at minRow and the plots yielded to their least
    const int fm = m_p.owner->fontMetrics().height();
    int h = fm * 3 + 8;  // the time axis with its caption
    if (m_p.ratePlot->isPlaced()) {
        const QMargins m = m_p.rateRect->margins();
        h += TimelineRatePlot::kLeastPlotPx + m.top() + m.bottom() +
             int(m_p.rateLegend->minimumOuterSizeHint().height());
    }
    if (m_p.hitPlot && m_p.hitPlot->isPlaced()) {
        const QMargins m = m_p.hitRect->margins();
        h += TimelineHitPlot::kLeastPlotPx + m.top() + m.bottom() +
             int(m_p.hitLegend->minimumOuterSizeHint().height());
    }
    const double weight = std::max(1.0, m_p.lanes->totalWeight());
    return h + int(std::ceil(weight * (fm + 3)));
}

QFont TimelinePlotLayout::laneLabelFont() const {
    QFont f = m_p.owner->font();
    if (f.pointSizeF() <= 0) {
        return f;  // sized in pixels (not by Qt's defaults): left as it is
    }
    // a row one pixel taller than the font's line: labels apart, as updateHeights()'s least row
    const int room = m_laneRowPx - 1;
    for (qreal pt = f.pointSizeF(); pt > kLeastLaneLabelPt && QFontMetrics(f).height() > room;) {
        pt = std::max(kLeastLaneLabelPt, pt - 0.5);
        f.setPointSizeF(pt);
    }
    return f;
}

}  // namespace lmct
