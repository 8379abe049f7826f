#pragma once

#include <QString>
#include <QStringList>

namespace lmct {

/**
 * `lmct-viewer --report OUT.pdf|OUT.html [--filter EXPR] [--range T0:T1] FILE` and
 * `lmct-viewer --report OUT [--align start|wall] [--offset SECONDS] --compare A B`: the report
 * of File > Export Report… (ReportJob: TraceReport or ComparisonReport, the viewer's own
 * timeline and plots), written without a window (the offscreen platform will do).
 *
 * A comparison's timelines line up as a comparison's tab lines them up (ComparisonLink, the
 * same words as its bar): `align` "start" (the default: from each trace's start) or "wall" (by
 * `t_wall`: instants of the same wall-clock time at one x), and B's manual `offset` in seconds
 * on the common axis (positive: B later; negative: earlier), read by CompareAlignmentOptions as
 * `lmct-viewer --compare` reads them for its tab. The range is on that axis (A's `t_mono`).
 *
 * Everything is checked before anything is read or written: the output's suffix (.pdf, .html),
 * the range, the filter, the alignment and the offset (a number; both only for a comparison)
 * (exit 1), the output's folder and that it is not one of the inputs (exit 2); then the traces
 * are loaded (exit 2 with the loader's message when one cannot be read); a range that holds
 * none of a trace's records, or `wall` for a trace without `t_wall`, exits 1. A failure writes
 * nothing (QSaveFile). Messages go to stderr prefixed "lmct-viewer: ".
 *
 * Exit codes: 0 ok, 1 usage error, 2 unreadable input or unwritable output.
 * Thread-safety: GUI thread, after QApplication exists.
 */
class HeadlessReport {
public:
    struct Request {
        QString output;
        QStringList inputs;  ///< one trace, or A and B of a comparison
        QString filter;
        QString range;
        QString align;   ///< "start", "wall" or empty (start); a comparison's only
        QString offset;  ///< B's offset in seconds, e.g. "-1.5"; empty: 0; a comparison's only
        int timeoutMs = 600000;
    };

    static constexpr int kExitOk = 0;
    static constexpr int kExitUsage = 1;
    static constexpr int kExitIo = 2;

    static int run(const Request &request);
};

}  // namespace lmct
