#pragma once

#include <QRectF>

class QCustomPlot;

namespace lmct {

/**
 * Where a plot's legend goes so that it hides no data: the first corner of the axis rect (top
 * right, top left, bottom right, bottom left) where the legend covers no point, line or bar of
 * the plottables nor a marker's line, else rows of entries under the axis rect. (A top-right
 * legend hid curves near 100 %, as in the report's "Prefetched keys hit over time".)
 *
 * Units: logical pixels of the plot. Ownership: borrows the plot and its legend. Thread-safety:
 * GUI thread. Errors: none; a plot without a visible legend is left alone.
 */
class LegendPlacement {
public:
    /** Places the legend of `plot` (visible, in the axis rect's inset layout, its element 0) in
     *  a free corner or under the axis rect (putUnder()); lays the plot out at its own size.
     *  Returns whether it stayed inside the axis rect. */
    static bool place(QCustomPlot *plot);
    /** Moves the legend of `plot` out of the axis rect into the row under it: up to six
     *  entries a row, no frame, no ground, as wide as its entries and centred (in the middle
     *  cell of a grid of three in that row). The plot's layout has the axis rect in row 1. */
    static void putUnder(QCustomPlot *plot);
    /** Whether `rect` covers a data point or a line between two points of one of `plot`'s
     *  graphs, a bar, or a marker's line (QCPItemStraightLine, between its two points), as
     *  they are laid out now (after a replot). NaN values are gaps. */
    static bool coversData(QCustomPlot *plot, const QRectF &rect);
};

}  // namespace lmct
