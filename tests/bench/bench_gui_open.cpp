// Opening a trace in the viewer's real main window: how long until the record table shows its
// first rows, and until the file is fully loaded.
//
//   QT_QPA_PLATFORM=offscreen bench_gui_open [--repeat N] TRACE...
//
// For each trace and run: a new MainWindow (shown, settings in a "lmct-bench" scope so that the
// user's recent files and layout are untouched), then MainWindow::openFile() as File > Open does,
// and the event loop runs until the tab's load is done. Printed, in ms from openFile() (medians of
// N runs, the file page-cached first):
//   first rows  the record table's viewport is painted with at least one row in its model
//   loaded      the tab's loaded() signal (the document is complete)
//   GUI stall   the longest time the GUI thread did not return to its event loop between
//               openFile() and loaded (gaps between the ticks of a 1 ms timer; the issue's
//               bound is 50 ms), and the number of gaps over 50 ms; with LMCT_BENCH_STALLS set,
//               each such gap with the GUI thread's CPU time and its wait for a CPU
//               (/proc/thread-self/schedstat) since the previous one
// and the CPU seconds of the process (all threads) per run, with the load average: wall times on
// the shared 2-core machine depend on what else runs. Worker threads run at
// WorkerPriority::kViewerNice, as in lmct-viewer.

#include "benchutil.h"
#include "records/recordtableview.h"
#include "shell/mainwindow.h"
#include "shell/tracetab.h"
#include "util/workerpriority.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QTimer>
#include <algorithm>
#include <cstdio>

using namespace lmct;

namespace {

/** Notes the first paint of a table viewport whose model has rows. */
class FirstRowsPaint : public QObject {
public:
    FirstRowsPaint(QTableView *table, const QElapsedTimer &clock) : m_table(table), m_clock(clock) {
        table->viewport()->installEventFilter(this);
    }
    double ms = -1.0;  // -1: not yet

protected:
    bool eventFilter(QObject *watched, QEvent *event) override {
        if (ms < 0 && event->type() == QEvent::Paint && watched == m_table->viewport() &&
            m_table->model() && m_table->model()->rowCount() > 0) {
            ms = double(m_clock.nsecsElapsed()) / 1e6;
        }
        return false;
    }

private:
    QTableView *m_table;
    const QElapsedTimer &m_clock;
};

QString loadAverage() {
    QFile f(QStringLiteral("/proc/loadavg"));
    if (!f.open(QIODevice::ReadOnly)) {
        return QStringLiteral("?");
    }
    return QString::fromLatin1(f.readAll()).section(QLatin1Char(' '), 0, 2);
}

/** Prints a GUI stall and the GUI thread's CPU time and CPU wait since the previous one. */
void reportStall(double ms, double endMs) {
    static double lastRunMs = 0.0, lastWaitMs = 0.0;
    QFile f(QStringLiteral("/proc/thread-self/schedstat"));  // ns on CPU, ns waiting for one
    const QList<QByteArray> v =
        f.open(QIODevice::ReadOnly) ? f.readAll().trimmed().split(' ') : QList<QByteArray>();
    const double runMs = v.value(0).toDouble() / 1e6, waitMs = v.value(1).toDouble() / 1e6;
    std::fprintf(stderr,
                 "GUI stall of %.0f ms ending %.0f ms after openFile(); since the previous one "
                 "the GUI thread ran %.0f ms and waited %.0f ms for a CPU\n",
                 ms, endMs, runMs - lastRunMs, waitMs - lastWaitMs);
    lastRunMs = runMs;
    lastWaitMs = waitMs;
}

struct Run {
    double firstRowsMs = -1.0;
    double loadedMs = -1.0;
    double cpuS = 0.0;
    double longestStallMs = 0.0;
    int stallsOver50 = 0;
    int records = 0;
};

Run openOnce(const QString &path) {
    Run run;
    MainWindow w;
    w.setShowDialogs(false);
    w.resize(1600, 1000);
    w.show();
    {
        QEventLoop settle;  // let the window map and paint its welcome page first
        QTimer::singleShot(300, &settle, &QEventLoop::quit);
        settle.exec();
    }
    QElapsedTimer clock;
    const double cpu0 = bench::cpuSeconds();
    clock.start();
    TraceTab *tab = w.openFile(path);
    if (!tab) {
        return run;
    }
    FirstRowsPaint firstRows(tab->table(), clock);
    QEventLoop loop;
    QObject::connect(tab, &TraceTab::loaded, &loop,
                     [&] { run.loadedMs = double(clock.nsecsElapsed()) / 1e6; });
    QObject::connect(tab, &TraceTab::loadFailed, &loop, &QEventLoop::quit);
    // Done when loaded and the rows were painted (a small file may be loaded before the first
    // paint); give up after 120 s.
    QTimer poll;
    double lastTickMs = 0.0;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        const double now = double(clock.nsecsElapsed()) / 1e6;
        if (run.loadedMs < 0 || now <= run.loadedMs + 1.0) {
            run.longestStallMs = std::max(run.longestStallMs, now - lastTickMs);
            run.stallsOver50 += now - lastTickMs > 50.0 ? 1 : 0;
            if (now - lastTickMs > 50.0 && qEnvironmentVariableIsSet("LMCT_BENCH_STALLS")) {
                reportStall(now - lastTickMs, now);
            }
        }
        lastTickMs = now;
        if ((run.loadedMs >= 0 && firstRows.ms >= 0) || clock.elapsed() > 120000) {
            loop.quit();
        }
    });
    poll.start(1);
    loop.exec();
    run.cpuS = bench::cpuSeconds() - cpu0;
    run.firstRowsMs = firstRows.ms;
    if (const auto doc = tab->document()) {
        run.records = doc->records().size();
    }
    return run;
}

}  // namespace

int main(int argc, char *argv[]) {
    QApplication app(argc, argv);
    WorkerPriority::setWorkerNice(WorkerPriority::kViewerNice);  // as lmct-viewer does
    QCoreApplication::setOrganizationName(QStringLiteral("lmct-bench"));
    QCoreApplication::setApplicationName(QStringLiteral("bench_gui_open"));
    QStringList files = app.arguments().mid(1);
    const int repeat = bench::repeatOption(app.arguments(), 5);
    if (const qsizetype i = files.indexOf(QStringLiteral("--repeat")); i >= 0) {
        files.remove(i, qMin<qsizetype>(2, files.size() - i));
    }
    if (files.isEmpty()) {
        std::fprintf(stderr, "usage: bench_gui_open [--repeat N] TRACE...\n");
        return 1;
    }
    int status = 0;
    for (const QString &file : std::as_const(files)) {
        bench::pageCache(file);
        std::vector<double> first, loaded, cpu, stall;
        int stalls = 0;
        int records = 0;
        for (int r = 0; r < repeat; ++r) {
            QSettings().clear();  // no saved layout or filter from the previous run
            const Run run = openOnce(file);
            if (run.firstRowsMs < 0 || run.loadedMs < 0) {
                std::fprintf(stderr, "%s: did not load (or no rows painted)\n", qPrintable(file));
                status = 2;
                break;
            }
            first.push_back(run.firstRowsMs);
            loaded.push_back(run.loadedMs);
            cpu.push_back(run.cpuS);
            stall.push_back(run.longestStallMs);
            stalls += run.stallsOver50;
            records = run.records;
        }
        if (first.empty()) {
            continue;
        }
        std::printf(
            "%s: %.1f MB, %d records; first rows %.0f ms, loaded %.0f ms, %.2f CPU s, longest "
            "GUI stall %.0f ms (max %.0f; %d over 50 ms in all runs) (medians of %zu; first rows "
            "min %.0f max %.0f ms; load average %s)\n",
            qPrintable(QFileInfo(file).fileName()), double(QFileInfo(file).size()) / 1e6, records,
            bench::median(first), bench::median(loaded), bench::median(cpu), bench::median(stall),
            *std::max_element(stall.begin(), stall.end()), stalls, first.size(),
            *std::min_element(first.begin(), first.end()),
            *std::max_element(first.begin(), first.end()), qPrintable(loadAverage()));
    }
    QSettings().clear();
    return status;
}
