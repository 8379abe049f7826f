#include "timeline/timelinebandlayer.h"

#include "common/plotpens.h"
#include "timeline/plotitems.h"
#include "util/timeformat.h"

#include <qcustomplot.h>

namespace lmct {

using namespace PlotItems;
using namespace PlotPens;

TimelineBandLayer::TimelineBandLayer(QCustomPlot *plot, QCPAxisRect *lanesRect,
                                     QCPAxisRect *rateRect, const QString &layer, QObject *parent)
    : QObject(parent) {
    QCPAxis *top = lanesRect->axis(QCPAxis::atTop);
    QCPAxis *left = lanesRect->axis(QCPAxis::atLeft);
    m_backdrop = new QCPItemRect(plot);
    m_backdrop->setLayer(QStringLiteral("background"));
    m_backdrop->setClipToAxisRect(false);
    m_backdrop->setSelectable(false);
    m_backdrop->setPen(Qt::NoPen);
    m_backdrop->topLeft->setType(QCPItemPosition::ptViewportRatio);
    m_backdrop->bottomRight->setType(QCPItemPosition::ptViewportRatio);
    m_backdrop->topLeft->setCoords(-0.01, -0.01);
    m_backdrop->bottomRight->setCoords(1.01, 1.01);
    m_band = bandItem(plot, lanesRect, top, left, layer);
    m_rateBand = bandItem(plot, rateRect, rateRect->axis(QCPAxis::atBottom),
                          rateRect->axis(QCPAxis::atLeft), layer);
    m_label = new QCPItemText(plot);
    m_label->setLayer(layer);
    m_label->setClipToAxisRect(true);
    m_label->setClipAxisRect(lanesRect);
    setPlotCoordsX(m_label->position, lanesRect, top, left);
    m_label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_label->setPadding(QMargins(4, 0, 4, 1));
    m_label->setSelectable(false);
    m_label->setText(QString());
    m_label->setVisible(false);
}

void TimelineBandLayer::show(bool on, double from, double to) {
    for (QCPItemRect *b : {m_band, m_rateBand}) {
        b->setVisible(on);
        if (on) {
            setBand(b, from, to);
        }
    }
    m_label->setVisible(on);
    if (on) {
        m_label->position->setCoords((from + to) / 2, 0);
        m_label->setText(TimeFormat::duration(to - from));
    }
}

void TimelineBandLayer::applyPalette(const QPalette &pal, const QFont &small) {
    const QColor hl = pal.color(QPalette::Highlight);
    m_backdrop->setBrush(pal.color(QPalette::Window));
    for (QCPItemRect *b : {m_band, m_rateBand}) {
        b->setBrush(alpha(hl, 42));
        b->setPen(hairline(hl));
    }
    m_label->setBrush(hl);
    m_label->setColor(pal.color(QPalette::HighlightedText));
    m_label->setFont(small);
}

}  // namespace lmct
