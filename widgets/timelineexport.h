#pragma once

#include "plotexport.h"

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
 * The caption is a QCPTextElement added to the top of the plot's layout for the duration of
 * the export and removed afterwards (the widget on screen is unchanged, a replot is queued).
 *
 * Sizes are logical pixels; an empty size means the plot's current size. PNGs and copied
 * images have size × scale pixels, SVG and PDF are vector (the lanes, drawn from per-pixel
 * counts, are embedded there as an image at the plot's buffer device pixel ratio).
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

    /** The timeline as an image of size × scale pixels (device pixel ratio 1). */
    static QImage toImage(TimelineWidget *timeline, QSize size, double scale);

    /** Writes the timeline to `path`; false with `error` set on failure (nothing is left). */
    static bool save(TimelineWidget *timeline, const QString &path, PlotExport::Format format,
                     QSize size, double scale, QString *error);
};

}  // namespace lmct
