// Replot of a comparison's two timelines (CompareTab: A above B, windows linked, plot areas
// aligned), e.g. over the traces bench_compare writes.
//
//   QT_QPA_PLATFORM=offscreen bench_gui_compare [--runs 15] [--size 1440x900] A B
//
// Loads both traces in a CompareTab of the given size (logical pixels), waits for the
// comparison and both timelines' indexes (timed), then sets A's window (B's follows through the
// link) to the full view, a mid zoom (1/1000 of A) and a deep zoom (10 ms), and prints the
// median ms of replotting both timelines (layout, every layer, painting): wall clock and CPU
// time of the GUI thread.

#include "benchutil.h"
#include "shell/comparetab.h"
#include "timeline/timelinewidget.h"
#include "trace/tracedocument.h"
#include "viewstate.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <ctime>

using namespace lmct;
using bench::threadCpuMs;
using bench::waitFor;

int main(int argc, char *argv[]) {
    QApplication app(argc, argv);
    QCommandLineParser p;
    p.addHelpOption();
    p.addOption({"runs", "Replots per figure (median).", "N", "15"});
    p.addOption({"size", "Tab size in logical pixels.", "WxH", "1440x900"});
    p.addPositionalArgument("A", "The first trace.");
    p.addPositionalArgument("B", "The trace compared with it.");
    p.process(app);
    const QStringList files = p.positionalArguments();
    if (files.size() != 2) {
        p.showHelp(1);
    }
    const QStringList size = p.value("size").split('x');
    const int runs = std::max(1, p.value("runs").toInt());

    CompareTab tab;
    tab.resize(size.value(0).toInt(), size.value(1).toInt());
    tab.show();
    bool compared = false;
    QString failure;
    QObject::connect(&tab, &CompareTab::compared, [&] { compared = true; });
    QObject::connect(&tab, &CompareTab::failed, [&](const QString &e) { failure = e; });
    QElapsedTimer build;
    build.start();
    tab.compareFiles(files[0], files[1]);
    TimelineWidget *ta = tab.timelineA(), *tb = tab.timelineB();
    if (!waitFor(
            [&] {
                return (compared || !failure.isEmpty()) && !ta->isIndexing() && !tb->isIndexing();
            },
            30 * 60 * 1000) ||
        !failure.isEmpty()) {
        std::fprintf(stderr, "not compared: %s\n", qPrintable(failure));
        return 2;
    }
    const auto docA = tab.stateA()->document(), docB = tab.stateB()->document();
    std::printf("%s vs %s: %d + %d records; tab %sx%s; loaded, compared and indexed in %.1f s\n",
                qPrintable(docA->fileName()), qPrintable(docB->fileName()), docA->records().size(),
                docB->records().size(), qPrintable(size.value(0)), qPrintable(size.value(1)),
                double(build.elapsed()) / 1e3);

    const double span = docA->records().maxTMono() - docA->records().minTMono();
    const double mid = (docA->records().maxTMono() + docA->records().minTMono()) / 2;
    struct Zoom {
        const char *name;
        double from, to;
    };
    const QCPRange full = ta->visibleRange();
    const Zoom zooms[] = {{"full", full.lower, full.upper},
                          {"mid (1/1000)", mid - span / 2000, mid + span / 2000},
                          {"deep (10 ms)", mid - 0.005, mid + 0.005}};
    for (const Zoom &z : zooms) {
        ta->setVisibleRange(z.from, z.to);   // B's window follows
        waitFor([] { return false; }, 300);  // the builds of the new window, the alignment
        std::vector<double> wall, cpu;
        for (int r = 0; r <= runs; ++r) {
            QElapsedTimer t;
            const double c0 = threadCpuMs();
            t.start();
            ta->plot()->replot(QCustomPlot::rpImmediateRefresh);
            tb->plot()->replot(QCustomPlot::rpImmediateRefresh);
            if (r > 0) {  // the first one warms up (layout, label cache)
                wall.push_back(double(t.nsecsElapsed()) / 1e6);
                cpu.push_back(threadCpuMs() - c0);
            }
        }
        std::sort(wall.begin(), wall.end());
        std::sort(cpu.begin(), cpu.end());
        std::printf("  replot A + B, %-13s %7.2f ms wall, %7.2f ms CPU (medians of %d)\n", z.name,
                    wall[wall.size() / 2], cpu[cpu.size() / 2], runs);
    }
    return 0;
}
