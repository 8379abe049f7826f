#pragma once

class QCPLegend;

namespace lmct {

/**
 * Wraps a QCustomPlot legend into as many columns as fit a width: the most columns whose widest
 * entries, side by side with the legend's margins and column spacing, fit in it (one column at
 * least). Entries fill column after column; a legend already wrapped so is left alone.
 *
 * Units: logical pixels. Ownership: borrows the legend. Thread-safety: GUI thread.
 */
class LegendWrap {
public:
    static void wrap(QCPLegend *legend, int width);
};

}  // namespace lmct
