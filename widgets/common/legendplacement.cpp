#include "common/legendplacement.h"

#include <qcustomplot.h>

#include <QLineF>
#include <cmath>
#include <optional>

namespace lmct {

namespace {

/** The pixel of (key, value) on `p`'s axes: x along the key axis when it is horizontal. */
QPointF pixelOf(const QCPAbstractPlottable *p, double key, double value) {
    const double k = p->keyAxis()->coordToPixel(key), v = p->valueAxis()->coordToPixel(value);
    return p->keyAxis()->orientation() == Qt::Horizontal ? QPointF(k, v) : QPointF(v, k);
}

bool segmentCovers(const QRectF &r, const QPointF &a, const QPointF &b) {
    if (r.contains(a) || r.contains(b)) {
        return true;
    }
    const QLineF line(a, b);
    const QLineF edges[] = {{r.topLeft(), r.topRight()},
                            {r.topRight(), r.bottomRight()},
                            {r.bottomRight(), r.bottomLeft()},
                            {r.bottomLeft(), r.topLeft()}};
    for (const QLineF &e : edges) {
        if (line.intersects(e, nullptr) == QLineF::BoundedIntersection) {
            return true;
        }
    }
    return false;
}

bool graphCovers(const QCPGraph *g, const QRectF &rect) {
    // the pen's half width and a little air around the entries
    const double pad = g->pen().widthF() / 2 + 2;
    const QRectF r = rect.adjusted(-pad, -pad, pad, pad);
    const bool lines = g->lineStyle() != QCPGraph::lsNone;
    std::optional<QPointF> last;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
        if (!std::isfinite(it->key) || !std::isfinite(it->value)) {
            last.reset();  // a gap
            continue;
        }
        const QPointF pt = pixelOf(g, it->key, it->value);
        if (r.contains(pt) || (lines && last && segmentCovers(r, *last, pt))) {
            return true;
        }
        last = pt;
    }
    return false;
}

bool barsCover(const QCPBars *b, const QRectF &rect) {
    const double half = b->width() / 2;
    for (auto it = b->data()->constBegin(); it != b->data()->constEnd(); ++it) {
        if (!std::isfinite(it->key) || !std::isfinite(it->value)) {
            continue;
        }
        const QRectF bar = QRectF(pixelOf(b, it->key - half, b->baseValue()),
                                  pixelOf(b, it->key + half, it->value))
                               .normalized();
        if (bar.intersects(rect)) {
            return true;
        }
    }
    return false;
}

}  // namespace

bool LegendPlacement::coversData(QCustomPlot *plot, const QRectF &rect) {
    for (int i = 0; i < plot->plottableCount(); ++i) {
        const QCPAbstractPlottable *p = plot->plottable(i);
        if (!p->visible()) {
            continue;
        }
        if (const auto *g = qobject_cast<const QCPGraph *>(p); g && graphCovers(g, rect)) {
            return true;
        }
        if (const auto *b = qobject_cast<const QCPBars *>(p); b && barsCover(b, rect)) {
            return true;
        }
    }
    // the markers' vertical lines (their labels beside them)
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto *line = qobject_cast<QCPItemStraightLine *>(plot->item(i));
            line && line->visible() &&
            segmentCovers(rect, line->point1->pixelPosition(), line->point2->pixelPosition())) {
            return true;
        }
    }
    return false;
}

void LegendPlacement::putUnder(QCustomPlot *plot) {
    QCPLegend *legend = plot->legend;
    plot->axisRect()->insetLayout()->take(legend);
    // The legend sits in the middle of a row of three cells: a grid stretches its columns over
    // its whole width, so a legend of its own in the row spread three entries across the page.
    // It is kept as wide as its entries (its maximum is its minimum, set again before every
    // replot: fonts change for exports); the empty cells beside it share the rest.
    auto *row = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, row);
    plot->plotLayout()->setRowStretchFactor(2, 0.001);
    row->setMargins(QMargins(0, 0, 0, 0));
    row->setColumnSpacing(0);
    row->addElement(0, 1, legend);
    row->expandTo(1, 3);
    row->setColumnStretchFactors({1.0, 1.0, 1.0});
    legend->setWrap(6);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    auto fit = [legend] {
        // (a maximum is of the inner rect, the hint of the outer one)
        const QMargins m = legend->margins();
        legend->setMaximumSize(legend->minimumOuterSizeHint().width() - m.left() - m.right(),
                               QWIDGETSIZE_MAX);
    };
    fit();
    QObject::connect(plot, &QCustomPlot::beforeReplot, legend, fit);
}

bool LegendPlacement::place(QCustomPlot *plot) {
    QCPLegend *legend = plot->legend;
    QCPLayoutInset *inset = plot->axisRect()->insetLayout();
    if (!legend->visible() || inset->elementCount() == 0 || inset->elementAt(0) != legend) {
        return false;
    }
    // (a plot not shown yet keeps the viewport it was made with: lay it out at its size)
    plot->setViewport(plot->rect());
    for (const Qt::Alignment corner :
         {Qt::AlignTop | Qt::AlignRight, Qt::AlignTop | Qt::AlignLeft,
          Qt::AlignBottom | Qt::AlignRight, Qt::AlignBottom | Qt::AlignLeft}) {
        inset->setInsetAlignment(0, corner);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        if (!coversData(plot, legend->outerRect())) {
            return true;
        }
    }
    putUnder(plot);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    return false;
}

}  // namespace lmct
