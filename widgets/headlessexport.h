#pragma once

#include "plotexport.h"

#include <QString>

namespace lmct {

/**
 * `lmct-viewer --export-png|--export-svg|--export-pdf OUT [--range T0:T1] [--filter EXPR]
 * [--size WxH] [--scale S] FILE`: renders the timeline of FILE (records matching the filter in
 * the range) with a caption line (file name, time range, active filter) and writes it, without
 * showing a window (works on the offscreen platform).
 *
 * Exit codes: 0 ok, 1 usage error (bad size, scale, range or filter), 2 unreadable input or
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
    };

    static constexpr int kExitOk = 0;
    static constexpr int kExitUsage = 1;
    static constexpr int kExitIo = 2;

    /** Runs the export; returns the exit code. */
    static int run(const Request &request);
};

}  // namespace lmct
