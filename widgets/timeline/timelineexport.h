#pragma once

#include "common/plotexport.h"

#include <QFontMetricsF>
#include <QImage>
#include <QSize>
#include <QString>

namespace lmct {

class TimelineWidget;

/**
 * Exports of the timeline (lanes, spans, rate plot, time axis, as TimelineWidget::plot() shows
 * them) with a caption line on top: file name, visible time range and the active filter. The
 * single code path of the timeline's context menu, File > Export and the headless
 * `lmct-viewer --export-*`; the writing itself is PlotExport's.
 *
 * For the duration of the export the caption is a QCPTextElement on top of the plot's layout
 * and the plot is laid out at the export's size (TimelineWidget::layOutFor: lane heights, rate
 * plot, legend columns, ticks and rate buckets as a plot of that size on screen has them), so an
 * export at a size looks the same from the GUI and headless; afterwards both are undone (the
 * widget on screen is unchanged, a replot is queued).
 *
 * Sizes are logical pixels; an empty size means the plot's current size. PNGs and copied
 * images have size × scale pixels; SVG and PDF are vector, size × scale units (CSS pixels,
 * points) with the layout of `size` scaled to them (the lanes, drawn from per-pixel counts, are
 * embedded there as an image at the plot's buffer device pixel ratio).
 *
 * Thread-safety: GUI thread.
 */
class TimelineExport {
public:
    /**
     * "FILE  —  t_mono 1.000000 … 2.000000 s  —  filter: EXPR" (or "no filter"); in wall-clock
     * mode the range is given as wall-clock times. The filter is the ViewState's applied one.
     */
    static QString caption(const TimelineWidget &timeline);
    /** The separator between the caption's parts, "  —  ". */
    static QString captionSeparator();
    /**
     * `caption` as drawn on an export `width` pixels wide (less margins) in a font of metrics
     * `fm`: unchanged when it fits, else broken into lines ('\n') at its separators, parts
     * joined while they fit, a part wider than a line elided in its middle. (A narrow export
     * showed one centred line with both ends cut off: the file name and the filter.)
     */
    static QString captionLines(const QString &caption, const QFontMetricsF &fm, int width);

    /** The timeline as an image of size × scale pixels (device pixel ratio 1). */
    static QImage toImage(TimelineWidget *timeline, QSize size, double scale);

    /** Writes the timeline to `path`; false with `error` set on failure (nothing is left). */
    static bool save(TimelineWidget *timeline, const QString &path, PlotExport::Format format,
                     QSize size, double scale, QString *error);
};

}  // namespace lmct
