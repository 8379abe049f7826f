// Timeline replot benchmark (and a viewer for looking at the timeline by hand).
//
//   QT_QPA_PLATFORM=offscreen bench_gui_timeline [--runs N] [--size 1600x600] TRACE...
//   QT_QPA_PLATFORM=offscreen QT_SCALE_FACTOR=2 bench_gui_timeline TRACE...     (DPR 2)
//   bench_gui_timeline --show [--range FROM,TO] [--select N] [--wall] [--shot PNG] TRACE
//
// For each trace: loads it, builds the timeline index and pairs (timed), then replots a
// TimelineWidget of the given size (logical pixels) at full view, mid zoom (1/1000 of the trace)
// and deep zoom (10 ms) and prints the median ms per replot (layout, every layer, painting the
// widget) of the lanes + rate plot, and of the overview: wall clock, and CPU time of the GUI
// thread (what counts when other processes share the cores).
// Make big traces with: tests/fixtures/gen_fixtures.py --small 10000000 /tmp/small-10m.lct

#include "benchutil.h"
#include "timeline/timelinewidget.h"
#include "trace/traceloader.h"
#include "viewstate.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPalette>
#include <QStyle>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <ctime>

using namespace lmct;
using bench::threadCpuMs;

namespace {

struct Timing {
    double wall = 0.0;  // median wall-clock ms
    double cpu = 0.0;   // median CPU ms of the GUI thread (immune to other processes)
};

/** Replot (layout, draw every layer, paint the widget) `runs` times; medians. */
Timing medianReplot(QCustomPlot *plot, int runs) {
    std::vector<double> wall, cpu;
    plot->replot(QCustomPlot::rpImmediateRefresh);  // warm-up (layout, label cache)
    for (int r = 0; r < runs; ++r) {
        QElapsedTimer t;
        const double c0 = threadCpuMs();
        t.start();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        wall.push_back(double(t.nsecsElapsed()) / 1e6);
        cpu.push_back(threadCpuMs() - c0);
    }
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

bool waitForIndex(TimelineWidget &w) {
    if (!w.isIndexing()) {
        return true;
    }
    QEventLoop loop;
    QObject::connect(&w, &TimelineWidget::indexReady, &loop, &QEventLoop::quit);
    QTimer::singleShot(120000, &loop, &QEventLoop::quit);
    loop.exec();
    return !w.isIndexing();
}

}  // namespace

int main(int argc, char *argv[]) {
    QApplication app(argc, argv);
    QCommandLineParser p;
    p.addHelpOption();
    p.addOption({"runs", "Replots per figure (median).", "N", "15"});
    p.addOption({"size", "Widget size in logical pixels.", "WxH", "1600x600"});
    p.addOption({"show", "Show the timeline in a window instead of benchmarking."});
    p.addOption({"range", "Visible t_mono range (with --show).", "FROM,TO"});
    p.addOption({"select", "Select this record (with --show).", "N"});
    p.addOption({"time-range", "Set the ViewState time range (with --show).", "FROM,TO"});
    p.addOption({"wall", "Wall-clock axis (with --show)."});
    p.addOption({"utc", "UTC wall clock (with --show)."});
    p.addOption({"shot", "Save a screenshot of the widget and quit (with --show).", "PNG"});
    p.addOption({"dark", "A dark Fusion palette."});
    p.addPositionalArgument("TRACE", "Trace files.");
    p.process(app);
    const QStringList files = p.positionalArguments();
    if (files.isEmpty()) {
        p.showHelp(1);
    }
    if (p.isSet("dark")) {
        QApplication::setStyle(QStringLiteral("Fusion"));
        QPalette d;
        d.setColor(QPalette::Window, QColor(37, 37, 38));
        d.setColor(QPalette::WindowText, QColor(220, 220, 220));
        d.setColor(QPalette::Base, QColor(28, 28, 30));
        d.setColor(QPalette::AlternateBase, QColor(40, 40, 43));
        d.setColor(QPalette::Text, QColor(220, 220, 220));
        d.setColor(QPalette::Button, QColor(45, 45, 48));
        d.setColor(QPalette::ButtonText, QColor(220, 220, 220));
        d.setColor(QPalette::Mid, QColor(90, 90, 95));
        d.setColor(QPalette::Highlight, QColor(42, 130, 218));
        d.setColor(QPalette::HighlightedText, Qt::white);
        d.setColor(QPalette::ToolTipBase, QColor(50, 50, 52));
        d.setColor(QPalette::ToolTipText, QColor(220, 220, 220));
        QApplication::setPalette(d);
    }
    const QStringList size = p.value("size").split('x');
    const QSize wsize(size.value(0).toInt(), size.value(1).toInt());
    const int runs = std::max(1, p.value("runs").toInt());

    for (const QString &file : files) {
        QString error;
        auto doc = TraceLoader::load(file, &error);
        if (!doc) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 2;
        }
        ViewState state;
        state.setWallUtc(p.isSet("utc"));
        TimelineWidget w;
        w.resize(wsize);
        w.setViewState(&state);
        QElapsedTimer build;
        build.start();
        state.setDocument(doc);
        w.show();
        if (!waitForIndex(w)) {
            std::fprintf(stderr, "indexing did not finish\n");
            return 3;
        }
        const double buildMs = double(build.nsecsElapsed()) / 1e6;
        if (p.isSet("show")) {
            if (p.isSet("wall")) {
                w.setTimeMode(TimelineWidget::TimeMode::Wall);
            }
            if (p.isSet("time-range")) {
                const QStringList r = p.value("time-range").split(',');
                state.setTimeRange(
                    ViewState::TimeRange{r.value(0).toDouble(), r.value(1).toDouble()});
            }
            if (p.isSet("select")) {
                state.setSelectedRecord(p.value("select").toInt());
            }
            if (p.isSet("range")) {
                const QStringList r = p.value("range").split(',');
                w.setVisibleRange(r.value(0).toDouble(), r.value(1).toDouble());
            }
            w.setWindowTitle(QStringLiteral("Timeline — %1").arg(doc->fileName()));
            if (p.isSet("shot")) {
                QTimer::singleShot(300, &w, [&] {
                    w.grab().save(p.value("shot"));
                    app.quit();
                });
            }
            return app.exec();
        }
        const QCPRange full = w.visibleRange();
        const double span = doc->records().maxTMono() - doc->records().minTMono();
        const double mid = (doc->records().maxTMono() + doc->records().minTMono()) / 2;
        std::printf("%s: %d records, %.1f s; widget %dx%d at DPR %.0f; index+pairs %.0f ms\n",
                    qPrintable(doc->fileName()), doc->records().size(), span, wsize.width(),
                    wsize.height(), w.devicePixelRatioF(), buildMs);
        struct Zoom {
            const char *name;
            double from, to;
        };
        const Zoom zooms[] = {{"full", full.lower, full.upper},
                              {"mid (1/1000)", mid - span / 2000, mid + span / 2000},
                              {"deep (10 ms)", mid - 0.005, mid + 0.005}};
        for (const Zoom &z : zooms) {
            w.setVisibleRange(z.from, z.to);
            app.processEvents();
            const Timing t = medianReplot(w.plot(), runs);
            std::printf("  replot lanes+rate, %-13s %7.2f ms wall, %7.2f ms CPU (medians of %d)\n",
                        z.name, t.wall, t.cpu, runs);
        }
        const Timing o = medianReplot(w.overview(), runs);
        std::printf("  replot overview                  %7.2f ms wall, %7.2f ms CPU\n", o.wall,
                    o.cpu);
    }
    return 0;
}
