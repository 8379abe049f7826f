// lmct-viewer: the desktop viewer of LMCache storage traces.

#include "comparealignmentoptions.h"
#include "shell/combineactions.h"
#include "shell/headlessexport.h"
#include "shell/headlessreport.h"
#include "shell/mainwindow.h"
#include "util/terminaltext.h"
#include "util/utf8argument.h"
#include "util/workerpriority.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QTimer>
#include <cstdio>
#include <cstdlib>

namespace {

/** Whether a Qt platform can be expected to connect: a display, or an explicit platform. */
bool haveDisplay() {
    auto set = [](const char *name) {
        const char *v = std::getenv(name);
        return v && *v;
    };
    return set("DISPLAY") || set("WAYLAND_DISPLAY") || set("QT_QPA_PLATFORM");
}

/** The message handler installed before quietRuntimeDirNote()'s. */
QtMessageHandler g_previousHandler = nullptr;

/**
 * Drops Qt's note that XDG_RUNTIME_DIR is not set (it then uses /tmp/runtime-USER, as a
 * session's runtime folder would be); every other message goes to the previous handler. A
 * headless export or report run from cron, CI or ssh has no session and needs none: the note
 * was the only line on stderr of a successful run.
 */
void quietRuntimeDirNote(QtMsgType type, const QMessageLogContext &context,
                         const QString &message) {
    if (type == QtWarningMsg &&
        message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set"))) {
        return;
    }
    if (g_previousHandler) {
        g_previousHandler(type, context, message);
    }
}

}  // namespace

int main(int argc, char *argv[]) {
    // --help and --version work without a display; everything else needs one. Check before
    // QApplication, which would abort with a less helpful message.
    bool infoOnly = false;
    bool exporting = false;
    // Arguments that are not UTF-8 arrive with U+FFFD in them: a file of such a name cannot be
    // opened under it ("no such file"); said instead, from argv before QApplication.
    QStringList problems, lossy;
    for (int i = 1; i < argc; ++i) {
        if (const QString problem = lmct::Utf8Argument::problem(argv[i]); !problem.isEmpty()) {
            problems << problem;
            lossy << QString::fromUtf8(argv[i]);
        }
    }
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a.startsWith("--export-") || a.startsWith("--report")) {
            exporting = true;  // headless export: never needs a display
        }
        if (a == "-h" || a == "--help" || a == "-v" || a == "--version" || a == "--help-all") {
            infoOnly = true;
        }
    }
    if (exporting && !std::getenv("QT_QPA_PLATFORM")) {
        // A headless export never needs a window system: render offscreen even when a
        // DISPLAY is set (it may be stale, e.g. in an ssh session), unless a platform is asked.
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    if (!haveDisplay()) {
        if (!infoOnly && !exporting) {
            std::fputs(
                "lmct-viewer: no display found (DISPLAY is not set). Run it under a desktop "
                "session, or headless with: xvfb-run -a lmct-viewer FILE\n",
                stderr);
            return 1;
        }
        // --help/--version print text only, exports render offscreen: no window system needed.
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }

    if (exporting && qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
        g_previousHandler = qInstallMessageHandler(&quietRuntimeDirNote);
    }

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("lmct-viewer"));
    QApplication::setApplicationDisplayName(QStringLiteral("LMCache Trace Viewer"));
    QApplication::setApplicationVersion(QStringLiteral(LMCT_VERSION));
    QApplication::setOrganizationName(QStringLiteral("LMCache"));
    QApplication::setOrganizationDomain(QStringLiteral("lmcache.ai"));
    QApplication::setDesktopFileName(QStringLiteral("lmct-viewer"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/lmct-viewer.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("LMCache Trace Viewer: browse LMCache storage traces (*.lct, *.lmct).\n"
                       "Each FILE opens in its own tab.\n"
                       "Compare two traces side by side:\n"
                       "  lmct-viewer [--align start|wall] [--offset SECONDS] --compare A B\n"
                       "Several traces of one deployment on one t_wall axis:\n"
                       "  lmct-viewer --combine FILE... [--follow FILE]\n"
                       "Headless export of the timeline (no display needed):\n"
                       "  lmct-viewer --export-png OUT.png [--range T0:T1] [--filter EXPR]\n"
                       "              [--size WxH] [--scale S] FILE\n"
                       "  (--export-svg OUT.svg, --export-pdf OUT.pdf likewise)\n"
                       "A report (PDF, or one self-contained HTML file; no display needed):\n"
                       "  lmct-viewer --report OUT.pdf|OUT.html [--filter EXPR] [--range T0:T1] "
                       "FILE\n"
                       "  lmct-viewer --report OUT.pdf|OUT.html [--align start|wall] "
                       "[--offset SECONDS]\n"
                       "              [--filter EXPR] [--range T0:T1] --compare A B\n"
                       "Export exit codes: 0 ok, 1 usage error or invalid filter/range/size,\n"
                       "2 unreadable input or unwritable output."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("Trace files to open (*.lct, *.lmct)."),
                                 QStringLiteral("[FILE...]"));
    const QCommandLineOption followOption(
        QStringLiteral("follow"),
        QStringLiteral("Follow FILE while LMCache is still writing it: new records appear as "
                       "they are appended."),
        QStringLiteral("FILE"));
    parser.addOption(followOption);
    const QCommandLineOption compareOption(
        QStringLiteral("compare"),
        QStringLiteral("Open the two FILEs (A B) as a comparison: both timelines on one time "
                       "axis and the Compare pane."));
    parser.addOption(compareOption);
    const QCommandLineOption combineOption(
        QStringLiteral("combine"),
        QStringLiteral("Open the FILEs as one deployment: their records merged on one t_wall "
                       "axis, one lane group per trace. With --follow FILE, that trace joins "
                       "them and is followed as it is written."));
    parser.addOption(combineOption);
    const QCommandLineOption exportPng(QStringLiteral("export-png"),
                                       QStringLiteral("Render the timeline of FILE to a PNG."),
                                       QStringLiteral("OUT"));
    const QCommandLineOption exportSvg(QStringLiteral("export-svg"),
                                       QStringLiteral("Render the timeline of FILE to an SVG."),
                                       QStringLiteral("OUT"));
    const QCommandLineOption exportPdf(QStringLiteral("export-pdf"),
                                       QStringLiteral("Render the timeline of FILE to a PDF."),
                                       QStringLiteral("OUT"));
    const QCommandLineOption rangeOpt(QStringLiteral("range"),
                                      QStringLiteral("Export: t_mono range T0:T1 (e.g. 2:5s)."),
                                      QStringLiteral("T0:T1"));
    const QCommandLineOption filterOpt(QStringLiteral("filter"),
                                       QStringLiteral("Export: only records matching EXPR."),
                                       QStringLiteral("EXPR"));
    const QCommandLineOption sizeOpt(QStringLiteral("size"),
                                     QStringLiteral("Export: size in logical pixels (1600x900)."),
                                     QStringLiteral("WxH"), QStringLiteral("1600x900"));
    const QCommandLineOption scaleOpt(
        QStringLiteral("scale"),
        QStringLiteral("Export: scale of the picture, 0.1 to 8: PNG pixels, SVG/PDF size (1)."),
        QStringLiteral("S"), QStringLiteral("1"));
    const QCommandLineOption reportOpt(
        QStringLiteral("report"),
        QStringLiteral("Write the report of FILE (or, with --compare, of A and B) to OUT: a PDF "
                       "or one self-contained HTML file, after its suffix."),
        QStringLiteral("OUT"));
    const QCommandLineOption alignOpt(
        QStringLiteral("align"),
        QStringLiteral("With --compare: line the timelines up from each trace's start (start, "
                       "the default) or by t_wall (wall), as the comparison tab's Align."),
        QStringLiteral("start|wall"));
    const QCommandLineOption offsetOpt(
        QStringLiteral("offset"),
        QStringLiteral("With --compare: shift B by SECONDS on the common time axis (positive: "
                       "later, negative: earlier; e.g. -1.5, 250ms), as the tab's Offset of B."),
        QStringLiteral("SECONDS"));
    parser.addOptions({exportPng, exportSvg, exportPdf, rangeOpt, filterOpt, sizeOpt, scaleOpt,
                       reportOpt, alignOpt, offsetOpt});
    if (!parser.parse(QApplication::arguments())) {
        std::fprintf(stderr, "lmct-viewer: %s\n", qPrintable(parser.errorText()));
        return 1;
    }
    parser.process(app);  // --help, --version

    // B's alignment is a comparison's (its tab, or its report): refused elsewhere rather than
    // left unused
    if ((parser.isSet(alignOpt) || parser.isSet(offsetOpt)) && !parser.isSet(compareOption)) {
        std::fputs(
            "lmct-viewer: --align and --offset line B up with A in a comparison: they need "
            "--compare A B (see --help)\n",
            stderr);
        return 1;
    }
    if (parser.isSet(reportOpt)) {
        const qsizetype want = parser.isSet(compareOption) ? 2 : 1;
        if (int(parser.isSet(exportPng)) + int(parser.isSet(exportSvg)) +
                    int(parser.isSet(exportPdf)) >
                0 ||
            parser.positionalArguments().size() != want) {
            std::fputs(
                "lmct-viewer: --report OUT takes one FILE, or A and B with --compare, and no "
                "--export-* (see --help)\n",
                stderr);
            return 1;
        }
        if (!problems.isEmpty()) {
            std::fprintf(stderr, "lmct-viewer: %s\n", qPrintable(problems.front()));
            return 2;
        }
        lmct::HeadlessReport::Request req;
        req.output = parser.value(reportOpt);
        req.inputs = parser.positionalArguments();
        req.filter = parser.value(filterOpt);
        req.range = parser.value(rangeOpt);
        req.align = parser.value(alignOpt);
        req.offset = parser.value(offsetOpt);
        return lmct::HeadlessReport::run(req);
    }

    const int exports =
        int(parser.isSet(exportPng)) + int(parser.isSet(exportSvg)) + int(parser.isSet(exportPdf));
    if (exports > 0) {
        if (exports > 1 || parser.positionalArguments().size() != 1) {
            std::fputs(
                "lmct-viewer: an export takes exactly one --export-png/--export-svg/"
                "--export-pdf OUT and one FILE (see --help)\n",
                stderr);
            return 1;
        }
        if (!problems.isEmpty()) {
            std::fprintf(stderr, "lmct-viewer: %s\n", qPrintable(problems.front()));
            return 2;
        }
        lmct::HeadlessExport::Request req;
        req.input = parser.positionalArguments().front();
        req.format = parser.isSet(exportPng)   ? lmct::PlotExport::Format::Png
                     : parser.isSet(exportSvg) ? lmct::PlotExport::Format::Svg
                                               : lmct::PlotExport::Format::Pdf;
        req.output = parser.value(parser.isSet(exportPng)   ? exportPng
                                  : parser.isSet(exportSvg) ? exportSvg
                                                            : exportPdf);
        req.filter = parser.value(filterOpt);
        req.range = parser.value(rangeOpt);
        req.size = parser.value(sizeOpt);
        bool okScale = false;
        req.scale = parser.value(scaleOpt).toDouble(&okScale);
        if (!okScale) {
            std::fputs("lmct-viewer: invalid --scale: expected a number\n", stderr);
            return 1;
        }
        return lmct::HeadlessExport::run(req);
    }

    if (parser.isSet(combineOption) && parser.isSet(compareOption)) {
        std::fputs("lmct-viewer: --combine and --compare exclude each other (see --help)\n",
                   stderr);
        return 1;
    }
    if (parser.isSet(combineOption) &&
        parser.positionalArguments().size() + parser.values(followOption).size() < 1) {
        std::fputs("lmct-viewer: --combine takes one FILE or more (see --help)\n", stderr);
        return 1;
    }
    if (parser.isSet(compareOption) && parser.positionalArguments().size() != 2) {
        std::fputs("lmct-viewer: --compare takes exactly two FILEs, A and B (see --help)\n",
                   stderr);
        return 1;
    }
    // (in the words of the report's, which reads them alike)
    QString alignWhy;
    const auto alignment = lmct::CompareAlignmentOptions::parse(parser.value(alignOpt),
                                                                parser.value(offsetOpt), &alignWhy);
    if (!alignment) {
        std::fprintf(stderr, "lmct-viewer: %s\n",
                     qPrintable(lmct::TerminalText::escaped(alignWhy)));
        return 1;
    }

    // Background work must not starve the GUI thread (see WorkerPriority).
    lmct::WorkerPriority::setWorkerNice(lmct::WorkerPriority::kViewerNice);
    lmct::MainWindow window;
    window.show();
    QStringList files = parser.positionalArguments();
    if (!problems.isEmpty()) {
        files.removeIf([&lossy](const QString &f) { return lossy.contains(f); });
        // one box for every refused file: these first, then those the loader refuses
        QTimer::singleShot(0, &window, [&window, problems, lossy] {
            for (qsizetype i = 0; i < problems.size(); ++i) {
                window.reportRefused(lossy[i], problems[i]);
            }
        });
    }
    if (parser.isSet(combineOption)) {
        // The followed files join the deployment, followed as they are written.
        QStringList all = files;
        QSet<int> followed;
        for (const QString &f : parser.values(followOption)) {
            if (!lossy.contains(f)) {
                followed.insert(int(all.size()));
                all.append(f);
            }
        }
        if (!all.isEmpty()) {
            QTimer::singleShot(0, &window, [&window, all, followed] {
                window.combine()->combineFiles(all, followed);
            });
        }
        return app.exec();
    }
    for (const QString &f : parser.values(followOption)) {
        if (!lossy.contains(f)) {  // (said above: a second "no such file" box)
            QTimer::singleShot(0, &window, [&window, f] { window.followFile(f); });
        }
    }
    if (parser.isSet(compareOption)) {
        if (problems.isEmpty()) {
            QTimer::singleShot(0, &window, [&window, files, a = *alignment] {
                window.compareFiles(files[0], files[1], a);
            });
        }
    } else if (!files.isEmpty()) {
        // Open once the event loop runs, so the window paints first.
        QTimer::singleShot(0, &window, [&window, files] { window.openFiles(files); });
    }
    return app.exec();
}
