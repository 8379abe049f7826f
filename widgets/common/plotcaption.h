#pragma once

class QCPAxisRect;
class QCPItemText;
class QCustomPlot;

namespace lmct {

/**
 * The small caption a plot shows in the top-left corner of its axis rect (the rate plot's bucket
 * width, the hit-ratio plot's capacity): a QCPItemText on the "legend" layer, clipped to the
 * rect, padded, not selectable, empty and hidden until a text is set.
 *
 * Ownership: the plot owns the item. Thread-safety: GUI thread.
 */
class PlotCaption {
public:
    static QCPItemText *create(QCustomPlot *plot, QCPAxisRect *rect);
};

}  // namespace lmct
