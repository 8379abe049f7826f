#pragma once

#include <QString>

class QCustomPlot;

namespace lmct {

/**
 * Writes a QCustomPlot to PNG, SVG or PDF through QSaveFile (lmct::ExportFile): a failed export
 * leaves no file behind.
 *
 * - PNG: QCustomPlot::toPixmap at `width`×`height` logical pixels times `scale`, so the image is
 *   round(width·scale) × round(height·scale) pixels.
 * - SVG: QSvgGenerator (Qt SVG) painted by QCustomPlot::toPainter, vectorized without caches so
 *   texts stay `<text>` elements.
 * - PDF: QPdfWriter on the save file, one page of width×height points, painted vectorized by
 *   QCustomPlot::toPainter (what QCustomPlot::savePdf does, but through QSaveFile).
 *
 * Thread-safety: GUI thread.
 */
class PlotExport {
public:
    enum class Format { Png, Svg, Pdf };

    /** The format named by `path`'s suffix (png, svg, pdf), else `fallback`. */
    static Format formatFor(const QString &path, Format fallback);

    /** Writes `plot`; returns false with `error` set ("cannot write PATH: reason"). */
    static bool save(QCustomPlot *plot, const QString &path, Format format, int width, int height,
                     double scale, QString *error);
};

}  // namespace lmct
