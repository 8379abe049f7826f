#pragma once

#include "common/plotexport.h"
#include "common/plotexportspec.h"

#include <QByteArray>
#include <QFontMetricsF>
#include <QImage>
#include <QPalette>
#include <QSize>
#include <QString>
#include <functional>
#include <vector>

class QCPPainter;
class QCPTextElement;

namespace lmct {

/**
 * Exports of any plot with the caption line on top (PlotExportSpec::caption: file, range,
 * filter, capacity and policy where they apply), in the light print palette: the one path of
 * the timeline's exports, every other plot's context menu (PlotExportActions), File > Export and
 * the report's figures. The writing itself is PlotExport's.
 *
 * While an instance lives (the scope of one export):
 * - the caption is a QCPTextElement in a row inserted on top of the plot's layout, in the
 *   plot's font, broken into lines that fit the export's width (captionLines());
 * - the spec's paletteWidget, if any, draws with printPalette() (dark themes export light);
 * - the plot is laid out at the export's size (PlotExportSpec::layOut, the caption's height
 *   left out); then the caption is read again, as a small size's layout can leave out what it
 *   names, and, when it changed, set and the plot laid out again (at most twice);
 * - every text of the plot (axis labels and tick labels, titles, legends, text items, the
 *   caption) is drawn without ligatures (PlotExport::withoutLigatures), so that the text of a
 *   PDF or SVG is copied and found as written ("fi", not "ﬁ").
 * Afterwards the caption row is removed, the fonts, the palette and the layout are the
 * widget's again and a replot is queued: the plot on screen is unchanged.
 *
 * Sizes are logical pixels; an empty size means the plot's current size. PNGs and copied images
 * have size × scale pixels (texts drawn at that resolution: crisp at any scale); SVG and PDF are
 * vector, size × scale CSS pixels or points.
 *
 * Thread-safety: GUI thread.
 */
class CaptionedExport {
public:
    CaptionedExport(const PlotExportSpec &spec, QSize size);
    ~CaptionedExport();
    CaptionedExport(const CaptionedExport &) = delete;
    CaptionedExport &operator=(const CaptionedExport &) = delete;

    /** The separator between a caption's parts, "  —  ". */
    static QString separator();
    /**
     * `caption` as drawn on an export `width` pixels wide (less margins) in a font of metrics
     * `fm`: unchanged when it fits, else broken into lines ('\n') at its separators, parts
     * joined while they fit, a part wider than a line elided in its middle. (A narrow export
     * showed one centred line with both ends cut off: the file name and the filter.)
     */
    static QString captionLines(const QString &caption, const QFontMetricsF &fm, int width);
    /**
     * The document title of the plot's SVG (`<title>`) and PDF (its Title): "SUBJECT — what",
     * the subject (PlotExportSpec::subject) and the plot's title in lower case
     * ("late2026-tp1-cancel.lct — timeline"); the title alone without a subject.
     */
    static QString documentTitle(const PlotExportSpec &spec);
    /** The light palette exports are drawn in: dark text on white and light grey grounds. */
    static QPalette printPalette();
    /** `size`, or the plot's current size when `size` is empty. */
    static QSize effectiveSize(const PlotExportSpec &spec, QSize size);

    /** The plot as an image of size × scale pixels (device pixel ratio 1). */
    static QImage toImage(const PlotExportSpec &spec, QSize size, double scale);
    /**
     * Writes the plot to `path` (QSaveFile), an SVG or PDF titled documentTitle(); false with
     * `error` set (nothing is left).
     */
    static bool save(const PlotExportSpec &spec, const QString &path, PlotExport::Format format,
                     QSize size, double scale, QString *error);
    /**
     * Paints the plot laid out at `size` on `painter` at its current transform, vectorized (a
     * figure of the report); raster parts at `resolution` device pixels a logical pixel.
     */
    static void paint(const PlotExportSpec &spec, QCPPainter *painter, QSize size,
                      double resolution = 2.0);
    /** The plot as an SVG document of `size` CSS pixels (what save() writes as SVG). */
    static QByteArray svg(const PlotExportSpec &spec, QSize size, const QString &title);

private:
    void unligateTexts();

    PlotExportSpec m_spec;
    std::vector<std::function<void()>> m_restoreFonts;  // the fonts' own, in the order set
    QCPTextElement *m_caption = nullptr;
    bool m_restylePalette = false;
    bool m_hadPalette = false;
    QPalette m_palette;
};

}  // namespace lmct
