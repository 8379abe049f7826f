#pragma once

#include "common/plotexportspec.h"
#include "report/reportcontent.h"

class QCustomPlot;
class QWidget;

namespace lmct {

/**
 * A QCustomPlot drawn from a report figure's data (ReportContent::Figure): its title on top,
 * the series as lines (solid or dashed, dots at the points) or bars (side by side when there
 * are several), in the viewer's colours (PolicyColors for policies, the Compare pane's blue and
 * orange for A and B, the What-if tab's histogram colours), linear or log axes with the
 * figure's tick labels (bucket bounds, chunk decades), a legend row under the plot when there
 * is more than one series, and the markers as dash-dotted vertical lines labelled at the top.
 * Light colours on white: what print wants.
 *
 * spec() is the plot's PlotExportSpec: the figure's caption on top (CaptionedExport), so the
 * report's figures look like the viewer's exports.
 *
 * Ownership: create() returns a plot owned by `parent` (or the caller when null).
 * Thread-safety: GUI thread.
 */
class ReportFigurePlot {
public:
    static QCustomPlot *create(const ReportContent::Figure &figure, QWidget *parent = nullptr);
    static PlotExportSpec spec(QCustomPlot *plot, const ReportContent::Figure &figure);
};

}  // namespace lmct
