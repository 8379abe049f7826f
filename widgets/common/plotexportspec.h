#pragma once

#include <QSize>
#include <QString>
#include <functional>

class QCustomPlot;
class QWidget;

namespace lmct {

/**
 * What the export of one plot needs beyond its QCustomPlot: what CaptionedExport draws on top of
 * it and how PlotExportActions names, enables and places its files. Every plot of the viewer
 * that exports (the timeline, the What-if tab's curves and histograms, the Compare pane's plots,
 * the report's figures) describes itself with one.
 *
 * - `title`: what the plot is, in menus and dialogs ("What-if Curves": "Export What-if Curves as
 *   PNG…"); `fileSuffix` is appended to the trace's base name for the suggested file
 *   ("-whatif": trace-whatif.png).
 * - `caption`: the caption line ("FILE  —  range  —  filter  —  capacity", parts separated by
 *   CaptionedExport::separator()); empty: no caption.
 * - `inputPath`: the trace shown: never written over, and the folder of the suggested file.
 * - `subject`: what the picture is of, for the document title of an SVG or PDF
 *   (CaptionedExport::documentTitle(): "SUBJECT — title"); unset: the file name of `inputPath`
 *   ("a.lct"), else the caption's first part.
 * - `ready`: whether there is something to export (the actions are enabled); unset: always.
 * - `layOut`: lays the plot out as if it were `size` logical pixels, `reservedHeight` of them
 *   taken by the caption; an empty size goes back to the plot's own size. Unset: QCustomPlot
 *   lays out at the export's size by itself.
 * - `paletteWidget`: the widget whose palette the plot's colours follow (the timeline): during an
 *   export it draws with CaptionedExport::printPalette() and gets its own back afterwards. Null:
 *   the plot itself when it follows its palette (PlotTheme), else the plot keeps its colours.
 *
 * Ownership: a value; the plot and whatever the functions capture must outlive it.
 * Thread-safety: GUI thread.
 */
struct PlotExportSpec {
    QCustomPlot *plot = nullptr;
    QString title;
    QString fileSuffix;
    std::function<QString()> caption;
    std::function<QString()> inputPath;
    std::function<QString()> subject;
    std::function<bool()> ready;
    std::function<void(QSize size, int reservedHeight)> layOut;
    QWidget *paletteWidget = nullptr;
};

}  // namespace lmct
