#include "timeline/timelineoverview.h"

#include "common/plotpens.h"
#include "timeline/plotitems.h"
#include "timeline/timelinefollowlayer.h"
#include "timeline/timelinelanes.h"
#include "timeline/timelineviewport.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace lmct {

using namespace PlotItems;
using namespace PlotPens;

TimelineOverview::TimelineOverview(TimelineViewport *viewport, QWidget *timeline)
    : QObject(timeline), m_viewport(viewport) {
    m_plot = new QCustomPlot(timeline);
    m_plot->setObjectName(QStringLiteral("timelineOverview"));
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->setFixedHeight(44);
    QCPAxisRect *ov = m_plot->axisRect();
    ov->setAutoMargins(QCP::msNone);
    ov->setMargins(QMargins(0, 3, 0, 3));
    for (QCPAxis *a : ov->axes()) {
        a->setVisible(false);
        a->grid()->setVisible(false);
    }
    ov->axis(QCPAxis::atLeft)->setRangeReversed(true);
    m_lanes = new TimelineLanes(ov->axis(QCPAxis::atBottom), ov->axis(QCPAxis::atLeft));
    m_lanes->setStyle(TimelineLanes::Style::Overview);
    m_plot->addLayer(QStringLiteral("window"), m_plot->layer(QStringLiteral("legend")),
                     QCustomPlot::limAbove);
    m_plot->layer(QStringLiteral("window"))->setMode(QCPLayer::lmBuffered);
    QCPAxis *ok = ov->axis(QCPAxis::atBottom), *ovv = ov->axis(QCPAxis::atLeft);
    const QString win = QStringLiteral("window");
    m_shadeLeft = bandItem(m_plot, ov, ok, ovv, win);
    m_shadeRight = bandItem(m_plot, ov, ok, ovv, win);
    m_band = bandItem(m_plot, ov, ok, ovv, win);
    m_window = bandItem(m_plot, ov, ok, ovv, win);
    m_selection = vLineItem(m_plot, ov, ok, ovv, win);
    // followed records over the window's shading
    m_followLayer = new TimelineFollowLayer(m_lanes, win, TimelineFollowLayer::Style::Overview);
    m_plot->setMouseTracking(true);
    connect(m_plot, &QCustomPlot::mousePress, this, &TimelineOverview::onPress);
    connect(m_plot, &QCustomPlot::mouseMove, this, &TimelineOverview::onMove);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &TimelineOverview::onRelease);
    connect(m_plot, &QCustomPlot::mouseWheel, this, &TimelineOverview::onWheel);
}

void TimelineOverview::updateWindow() {
    const auto r = m_viewport->window();
    QCPAxis *ok = m_plot->axisRect()->axis(QCPAxis::atBottom);
    const QCPRange full = ok->range();
    // at least 5 px wide so that it stays visible and grabbable
    const double minW = full.size() / std::max(1, m_plot->axisRect()->width()) * 5;
    double lo = r.lower, hi = r.upper;
    if (hi - lo < minW) {
        const double c = (lo + hi) / 2;
        lo = c - minW / 2;
        hi = c + minW / 2;
    }
    PlotItems::setBand(m_window, lo, hi);
    PlotItems::setBand(m_shadeLeft, std::min(full.lower, lo), lo);
    PlotItems::setBand(m_shadeRight, hi, std::max(full.upper, hi));
    for (QCPItemRect *i : {m_window, m_shadeLeft, m_shadeRight}) {
        i->setVisible(m_active);
    }
    m_plot->layer(QStringLiteral("window"))->replot();
}

void TimelineOverview::setSelection(bool shown, double t) {
    m_selection->setVisible(shown);
    if (shown) {
        setVLine(m_selection, t);
    }
}

void TimelineOverview::setBand(bool shown, double from, double to) {
    m_band->setVisible(shown);
    if (shown) {
        PlotItems::setBand(m_band, from, to);
    }
}

void TimelineOverview::applyPalette(const QPalette &pal) {
    const QColor window = pal.color(QPalette::Window);
    const QColor hl = pal.color(QPalette::Highlight);
    m_window->setPen(QPen(hl, 1.5));
    m_window->setBrush(alpha(hl, 28));
    for (QCPItemRect *s : {m_shadeLeft, m_shadeRight}) {
        s->setPen(Qt::NoPen);
        s->setBrush(alpha(window, 150));
    }
    m_selection->setPen(QPen(hl, 1.5));
    // the time range's band, as the timeline's bands (a one-device-pixel pen)
    QPen bandPen(hl, 0);
    bandPen.setCosmetic(true);
    m_band->setBrush(alpha(hl, 42));
    m_band->setPen(bandPen);
    m_lanes->setColors(pal);
    m_followLayer->setColors(pal);
}

void TimelineOverview::alignTo(const QMargins &lanesMargins) {
    QCPAxisRect *ov = m_plot->axisRect();
    const QMargins want(lanesMargins.left(), 3, lanesMargins.right(), 3);
    if (ov->margins() != want) {
        ov->setMargins(want);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void TimelineOverview::onPress(QMouseEvent *e) {
    if (!m_active || e->button() != Qt::LeftButton) {
        return;
    }
    QCPAxis *ok = m_plot->axisRect()->axis(QCPAxis::atBottom);
    const double x = e->pos().x();
    const double t = ok->pixelToCoord(x);
    const auto r = m_viewport->window();
    const double xl = ok->coordToPixel(r.lower), xr = ok->coordToPixel(r.upper);
    m_viewport->beginNavigation();
    if (xr - xl > 12 && std::abs(x - xl) <= 5) {
        m_drag = Drag::Left;
    } else if (xr - xl > 12 && std::abs(x - xr) <= 5) {
        m_drag = Drag::Right;
    } else {
        if (x < xl - 2 || x > xr + 2) {
            m_viewport->setWindow(t - r.size() / 2, t + r.size() / 2);
        }
        m_drag = Drag::Move;
        m_plot->setCursor(Qt::ClosedHandCursor);
    }
    m_pressLower = m_viewport->window().lower;
    m_pressUpper = m_viewport->window().upper;
    m_pressTime = t;
}

void TimelineOverview::onMove(QMouseEvent *e) {
    QCPAxis *ok = m_plot->axisRect()->axis(QCPAxis::atBottom);
    const double x = e->pos().x();
    const double t = ok->pixelToCoord(x);
    if (m_drag == Drag::None) {
        const auto r = m_viewport->window();
        const double xl = ok->coordToPixel(r.lower), xr = ok->coordToPixel(r.upper);
        if (m_active && xr - xl > 12 && (std::abs(x - xl) <= 5 || std::abs(x - xr) <= 5)) {
            m_plot->setCursor(Qt::SizeHorCursor);
        } else if (m_active && x > xl && x < xr) {
            m_plot->setCursor(Qt::OpenHandCursor);
        } else {
            m_plot->unsetCursor();
        }
        return;
    }
    m_viewport->continueNavigation();
    const double minW = TimelineViewport::kMinViewSeconds;
    if (m_drag == Drag::Move) {
        const double dt = t - m_pressTime;
        m_viewport->setWindow(m_pressLower + dt, m_pressUpper + dt);
    } else if (m_drag == Drag::Left) {
        m_viewport->setWindow(std::min(t, m_pressUpper - minW), m_pressUpper);
    } else if (m_drag == Drag::Right) {
        m_viewport->setWindow(m_pressLower, std::max(t, m_pressLower + minW));
    }
}

void TimelineOverview::onRelease(QMouseEvent *) {
    if (m_drag != Drag::None) {
        m_drag = Drag::None;
        m_plot->unsetCursor();
    }
}

void TimelineOverview::onWheel(QWheelEvent *e) {
    e->accept();
    if (!m_active || e->angleDelta().y() == 0) {
        return;
    }
    const double t = m_plot->axisRect()->axis(QCPAxis::atBottom)->pixelToCoord(e->position().x());
    m_viewport->zoomBy(std::pow(0.8, e->angleDelta().y() / 120.0), t);
}

}  // namespace lmct
