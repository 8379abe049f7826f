#pragma once

#include "common/plotexportspec.h"
#include "report/reportcontent.h"

class QCustomPlot;
class QWidget;

namespace lmct {

/**
 * A QCustomPlot drawn from a figure's data (ReportContent::Figure): its title on top, the
 * series as lines (solid or dashed, dots at the points), dots only, or bars (side by side when
 * there are several), in the viewer's colours (PolicyColors for policies, the Compare pane's
 * blue and orange for A and B, the What-if tab's histogram colours, CallColors for calls),
 * linear or log axes with the figure's tick labels (bucket bounds, named rows, chunk decades,
 * durations), each point's text beside it, a legend (in a corner where it hides no data, or
 * rows under the plot when no corner is free or there are many entries: LegendPlacement), and the
 * markers as dash-dotted vertical lines labelled at the top. A horizontal figure has its x axis on
 * the left, first row on top. Light colours on white: what print wants. The report's figures and
 * the Statistics pane's charts are drawn here.
 *
 * spec() is the plot's PlotExportSpec: the figure's caption on top (CaptionedExport), so the
 * figures look like the viewer's exports.
 *
 * Ownership: create() returns a plot owned by `parent` (or the caller when null), of the
 * figure's size (a widget in a layout may take another). Thread-safety: GUI thread.
 */
class FigurePlot {
public:
    static QCustomPlot *create(const ReportContent::Figure &figure, QWidget *parent = nullptr);
    static PlotExportSpec spec(QCustomPlot *plot, const ReportContent::Figure &figure);
};

}  // namespace lmct
