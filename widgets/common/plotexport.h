#pragma once

#include <QByteArray>
#include <QFont>
#include <QImage>
#include <QSize>
#include <QString>

class QCPPainter;
class QCustomPlot;
class QIODevice;

namespace lmct {

/**
 * Writes a QCustomPlot to PNG, SVG or PDF through QSaveFile (lmct::ExportFile): a failed export
 * leaves no file behind. The one export path of plots: every plot's context menu, File > Export,
 * the reports and `lmct-viewer --export-*` end here (through CaptionedExport, which adds the
 * caption and the print palette).
 *
 * - PNG: toImage(), so the image is round(width·scale) × round(height·scale) pixels.
 * - SVG: QSvgGenerator (Qt SVG) painted by QCustomPlot::toPainter, vectorized without caches so
 *   texts stay `<text>` elements; width·scale × height·scale CSS pixels with a viewBox of
 *   width × height (the layout, scaled by the viewer).
 * - PDF: QPdfWriter on the save file, one page of width·scale × height·scale points, painted
 *   vectorized by QCustomPlot::toPainter scaled by `scale` (what QCustomPlot::savePdf does, but
 *   through QSaveFile).
 *   In both the lanes' raster image is embedded at `scale` pixels a logical pixel (the plot's
 *   buffer device pixel ratio is `scale` while writing, as for toImage()).
 *
 * `width` × `height` is the layout (logical pixels: what fits, how large texts are relative to
 * the picture), `scale` how many output pixels or units a logical pixel becomes.
 *
 * Thread-safety: GUI thread.
 */
class PlotExport {
public:
    enum class Format { Png, Svg, Pdf };

    /**
     * Limits of an export's layout size in logical pixels a side, what `lmct-viewer --size`
     * and the GUI's size choice accept.
     */
    static constexpr int kMinSide = 16;
    static constexpr int kMaxSide = 20000;
    /** Raster limits of a PNG or copied image: QPainter draws at most 32767 pixels a side. */
    static constexpr int kMaxImageSide = 32767;
    /** ... and at most 2^28 pixels in all (1 GiB at 4 bytes a pixel). */
    static constexpr qint64 kMaxImagePixels = qint64(1) << 28;

    /** Whether a raster image of `pixelsWide` × `pixelsHigh` pixels is within the limits above. */
    static bool withinImageLimits(double pixelsWide, double pixelsHigh);

    /**
     * Why a PNG laid out at `size` logical pixels and rendered at `scale` (so of
     * round(width·scale) × round(height·scale) pixels) cannot be written, in a sentence for the
     * user ("40000 × 10 pixels: an image has at most 32767 pixels a side."); empty when it can.
     * Checks kMinSide…kMaxSide for the layout and withinImageLimits() for the image.
     */
    static QString imageSizeProblem(QSize size, double scale);

    /**
     * A picture of a chosen pixel size is laid out like a screen of at most kLayoutWidth ×
     * kLayoutHeight logical pixels: larger ones at a scale, so that texts grow with the picture.
     */
    static constexpr int kLayoutWidth = 1920;
    static constexpr int kLayoutHeight = 1080;

    /**
     * The scale a picture of `pixels` is rendered at: the largest whole number n ≤
     * min(width / kLayoutWidth, height / kLayoutHeight) that divides both sides, at least 1; it
     * is laid out at `pixels` / n. 3840 × 2160 → 2 (laid out at 1920 × 1080), 7680 × 4320 → 4,
     * 1280 × 720, 1920 × 1080 and 2560 × 1440 → 1. Whole numbers keep the picture exactly
     * `pixels` and its hairlines on pixels.
     */
    static int pixelScale(QSize pixels);

    /**
     * `font` shaped without ligatures (QFont::PreferNoShaping: Latin text drawn glyph by glyph,
     * scripts that need shaping still get it): a PDF's or SVG's "fi" stays two letters that
     * copy and search as written, not the one glyph "ﬁ". Qt 6.4 has no QFont::setFeature.
     */
    static QFont withoutLigatures(QFont font);

    /** The format named by `path`'s suffix (png, svg, pdf), else `fallback`. */
    static Format formatFor(const QString &path, Format fallback);

    /**
     * Why `path` is no name for a picture in `format`, in a sentence for the user: its suffix
     * names another picture or document format (.png, .svg, .svgz, .pdf, .jpg, .jpeg, .gif,
     * .bmp, .webp, .tif, .tiff, .eps, .ps; case ignored), so the file would say one format and
     * hold another ("x.jpg: expected a file name ending in .png for a PNG, found .jpg"). Empty
     * when it fits: the format's own suffix, no suffix, or any other one (x.out, trace.v2).
     */
    static QString suffixProblem(const QString &path, Format format);
    /** The format's file suffix without the dot: png, svg, pdf. */
    static QString suffix(Format format);

    /**
     * `plot` rendered at `width`×`height` logical pixels times `scale` (a raster image of
     * round(width·scale) × round(height·scale) pixels, device pixel ratio 1). Texts and lines are
     * drawn at the final resolution (crisp at any scale): the plot's buffer device pixel ratio is
     * set to `scale` while rendering, so that plottables drawing raster images at that ratio
     * (TimelineLanes) render them pixel for pixel, and restored afterwards (with a queued
     * replot). A null image when the size is empty.
     */
    static QImage toImage(QCustomPlot *plot, int width, int height, double scale);

    /** The SVG of `plot` (as save() writes it) to `out`; false when drawing fails. */
    static bool writeSvg(QCustomPlot *plot, QIODevice *out, int width, int height, double scale,
                         const QString &title);
    /** The one-page PDF of `plot` (as save() writes it) to `out`; false when drawing fails. */
    static bool writePdf(QCustomPlot *plot, QIODevice *out, int width, int height, double scale,
                         const QString &title);
    /**
     * Paints `plot` laid out at `width` × `height` logical pixels on `painter` (vectorized, at
     * its current transform, clipped to the plot's rect): a plot inside a larger document (the
     * report's pages). Raster parts (the timeline's lanes) are drawn at `resolution` device
     * pixels a logical pixel.
     */
    static void paint(QCustomPlot *plot, QCPPainter *painter, int width, int height,
                      double resolution);

    /**
     * `plot` in `format` as the bytes save() writes (encoded in memory, so that no encoder
     * writes to a file or prints); empty with `error` set when it cannot be drawn.
     */
    static QByteArray encode(QCustomPlot *plot, Format format, int width, int height, double scale,
                             const QString &title, QString *error);

    /**
     * Writes `plot` (encode(), then one checked write through ExportFile: a full disk leaves no
     * file); returns false with `error` set ("cannot write PATH: reason"). `inputPath`
     * (the trace shown) is refused as a target, as ExportFile::write does. `title` is the SVG's
     * `<title>` and the PDF's Title; empty: the file name of `path`.
     */
    static bool save(QCustomPlot *plot, const QString &path, Format format, int width, int height,
                     double scale, QString *error, const QString &inputPath = {},
                     const QString &title = {});
};

}  // namespace lmct
