#pragma once

#include <QString>
#include <QStringList>

namespace lmct {

/**
 * `lmct-viewer --report OUT.pdf|OUT.html [--filter EXPR] [--range T0:T1] FILE` and
 * `lmct-viewer --report OUT --compare A B`: the report of File > Export Report… (ReportJob:
 * TraceReport or ComparisonReport, the viewer's own timeline and plots), written without a
 * window (the offscreen platform will do).
 *
 * Everything is checked before anything is read or written: the output's suffix (.pdf, .html),
 * the range and the filter (exit 1), the output's folder and that it is not one of the inputs
 * (exit 2); then the traces are loaded (exit 2 with the loader's message when one cannot be
 * read). A failure writes nothing (QSaveFile). Messages go to stderr prefixed "lmct-viewer: ".
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
        int timeoutMs = 600000;
    };

    static constexpr int kExitOk = 0;
    static constexpr int kExitUsage = 1;
    static constexpr int kExitIo = 2;

    static int run(const Request &request);
};

}  // namespace lmct
