#pragma once

#include <qcustomplot.h>

#include <QString>

namespace lmct {

/**
 * The timeline's plot items positioned in time (x: plot coordinates of `key`) and spanning their
 * axis rect's height (y: axis rect ratio): bands (time ranges) and vertical lines (instants).
 * Made hidden and unselectable on `layer`; the plot owns them. GUI thread only.
 */
namespace PlotItems {

inline void setPlotCoordsX(QCPItemPosition *p, QCPAxisRect *rect, QCPAxis *key, QCPAxis *value) {
    p->setAxisRect(rect);
    p->setAxes(key, value);
    p->setTypeX(QCPItemPosition::ptPlotCoords);
    p->setTypeY(QCPItemPosition::ptAxisRectRatio);
}

inline QCPItemRect *bandItem(QCustomPlot *plot, QCPAxisRect *rect, QCPAxis *key, QCPAxis *value,
                             const QString &layer) {
    auto *item = new QCPItemRect(plot);
    item->setLayer(layer);
    item->setClipAxisRect(rect);
    setPlotCoordsX(item->topLeft, rect, key, value);
    setPlotCoordsX(item->bottomRight, rect, key, value);
    item->topLeft->setCoords(0, 0);
    item->bottomRight->setCoords(0, 1);
    item->setVisible(false);
    item->setSelectable(false);
    item->setAntialiased(false);  // crisp one-device-pixel edges
    return item;
}

inline QCPItemStraightLine *vLineItem(QCustomPlot *plot, QCPAxisRect *rect, QCPAxis *key,
                                      QCPAxis *value, const QString &layer) {
    auto *item = new QCPItemStraightLine(plot);
    item->setLayer(layer);
    item->setClipAxisRect(rect);
    setPlotCoordsX(item->point1, rect, key, value);
    setPlotCoordsX(item->point2, rect, key, value);
    item->point1->setCoords(0, 0);
    item->point2->setCoords(0, 1);
    item->setVisible(false);
    item->setSelectable(false);
    return item;
}

inline void setBand(QCPItemRect *item, double from, double to) {
    item->topLeft->setCoords(from, 0);
    item->bottomRight->setCoords(to, 1);
}

inline void setVLine(QCPItemStraightLine *item, double t) {
    item->point1->setCoords(t, 0);
    item->point2->setCoords(t, 1);
}

}  // namespace PlotItems

}  // namespace lmct
