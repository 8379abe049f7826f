#pragma once

#include "common/plotexport.h"
#include "common/plotexportspec.h"

#include <QFontMetricsF>
#include <QImage>
#include <QSize>
#include <QString>

namespace lmct {

class TimelineWidget;

/**
 * Exports of the timeline (lanes, spans, rate plot, the what-if's hit ratio over time when
 * shown, time axis, as TimelineWidget::plot() shows them) with a caption line on top: file
 * name, visible time range, the active filter and, with the hit-ratio plot, its capacity and
 * policies. The single code path of the timeline's context menu, File > Export, the report's
 * timeline picture and the headless `lmct-viewer --export-*`: CaptionedExport with spec().
 *
 * For the duration of the export the caption is on top of the plot's layout, the timeline
 * draws with the light print palette and the plot is laid out at the export's size
 * (TimelineWidget::layOutFor: lane heights, rate plot, legend columns, ticks and rate buckets as
 * a plot of that size on screen has them; a picture too small for everything leaves out the
 * legends, then the plots under the lanes, then shrinks the lane labels, then merges lanes:
 * TimelinePlotLayout), so an export at a size looks the same from the GUI and headless;
 * afterwards all is undone (the widget on screen is unchanged, a replot is
 * queued).
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
     * With the hit-ratio plot shown (and not left out of a small picture): "  —  hit ratio at
     * C = 1,024 chunks: LRU, OPT". With lanes merged to fit a small picture: "  —  9 lanes
     * merged into 5 rows to fit".
     */
    static QString caption(const TimelineWidget &timeline);
    /** The separator between the caption's parts, "  —  " (CaptionedExport::separator). */
    static QString captionSeparator();
    /** CaptionedExport::captionLines. */
    static QString captionLines(const QString &caption, const QFontMetricsF &fm, int width);

    /** The timeline as CaptionedExport exports it (caption, layout, palette). */
    static PlotExportSpec spec(TimelineWidget *timeline);

    /** The timeline as an image of size × scale pixels (device pixel ratio 1). */
    static QImage toImage(TimelineWidget *timeline, QSize size, double scale);

    /** Writes the timeline to `path`; false with `error` set on failure (nothing is left). */
    static bool save(TimelineWidget *timeline, const QString &path, PlotExport::Format format,
                     QSize size, double scale, QString *error);
};

}  // namespace lmct
