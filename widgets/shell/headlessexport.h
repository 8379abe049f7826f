#pragma once

#include "common/plotexport.h"

#include <QString>

namespace lmct {

/**
 * `lmct-viewer --export-png|--export-svg|--export-pdf OUT [--range T0:T1] [--filter EXPR]
 * [--size WxH] [--scale S] FILE`: renders the app's own TimelineWidget for FILE (lanes, spans,
 * rate plot, time axis) with a caption line (file name, time range, active filter) and writes it
 * through TimelineExport, the path of the timeline's context menu, without showing a window
 * (the widget is laid out with Qt::WA_DontShowOnScreen; works on the offscreen platform).
 *
 * Like the GUI, it goes through a ViewState: the document is set, the filter's FilterEvaluator
 * result handed over (setFilterText + setFilterResult), the timeline's index awaited (an event
 * loop bounded by Request::timeoutMs), and the view set to the range (its open ends: the
 * trace's extent as the timeline fits it). The plot is laid out at exactly WxH logical pixels by
 * TimelineExport (TimelineWidget::layOutFor), as the GUI's exports at a chosen size are.
 *
 * OUT's suffix is the format's own (.png for --export-png), none, or one that names no picture
 * format (x.out); one naming another (x.jpg, x.pdf for --export-png) is a usage error
 * (PlotExport::suffixProblem), checked before anything is read.
 *
 * Exit codes: 0 ok, 1 usage error (bad size, scale, range, filter or suffix), 2 unreadable input or
 * unwritable output. Messages go to stderr prefixed with "lmct-viewer: ".
 *
 * Thread-safety: GUI thread, after QApplication exists.
 */
class HeadlessExport {
public:
    struct Request {
        QString input;
        QString output;
        PlotExport::Format format = PlotExport::Format::Png;
        QString filter;  ///< empty: every record
        QString range;   ///< "T0:T1"; empty: the whole trace
        QString size = QStringLiteral("1600x900");
        double scale = 1.0;
        int timeoutMs = 120000;  ///< longest wait for the timeline's index
    };

    static constexpr int kExitOk = 0;
    static constexpr int kExitUsage = 1;
    static constexpr int kExitIo = 2;

    /** Runs the export; returns the exit code. */
    static int run(const Request &request);
};

}  // namespace lmct
