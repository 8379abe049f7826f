// lmct-viewer: the desktop viewer of LMCache storage traces.

#include "mainwindow.h"

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

}  // namespace

int main(int argc, char *argv[]) {
    // --help and --version work without a display; everything else needs one. Check before
    // QApplication, which would abort with a less helpful message.
    bool infoOnly = false;
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a == "-h" || a == "--help" || a == "-v" || a == "--version" || a == "--help-all") {
            infoOnly = true;
        }
    }
    if (!haveDisplay()) {
        if (!infoOnly) {
            std::fputs(
                "lmct-viewer: no display found (DISPLAY is not set). Run it under a desktop "
                "session, or headless with: xvfb-run -a lmct-viewer FILE\n",
                stderr);
            return 1;
        }
        // --help/--version print text only: no window system needed.
        qputenv("QT_QPA_PLATFORM", "offscreen");
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
                       "Each FILE opens in its own tab."));
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
    parser.process(app);

    lmct::MainWindow window;
    window.show();
    const QStringList files = parser.positionalArguments();
    for (const QString &f : parser.values(followOption)) {
        QTimer::singleShot(0, &window, [&window, f] { window.followFile(f); });
    }
    if (!files.isEmpty()) {
        // Open once the event loop runs, so the window paints first.
        QTimer::singleShot(0, &window, [&window, files] { window.openFiles(files); });
    }
    return app.exec();
}
