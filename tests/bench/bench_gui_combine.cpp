// The combined view of one deployment (CombinedTab: one timeline per trace on one t_wall axis,
// the interleaved record table) over ten synthetic traces of 1 M records each, as bench_combine
// writes them.
//
//   QT_QPA_PLATFORM=offscreen bench_gui_combine [--traces 10] [--records 1000000] [--runs 15]
//                                               [--size 1440x900] [--dir DIR]
//                                               [--group-by rank|model|tenant] [--ranks 4]
//
// Writes the traces (into DIR, or a temporary directory), opens them in a CombinedTab of the
// given size (logical pixels) and waits until every trace is loaded, merged and indexed
// (timed). Prints the anonymous memory that costs per record (RssAnon after less before), then
// sets the first timeline's window (the others follow through the link) to the full view, a
// mid zoom (1/1000) and a deep zoom (10 ms), and prints the median ms of replotting every
// timeline (layout, every layer, painting): wall clock and CPU time of the GUI thread.
//
// With --group-by, the lanes are then grouped (LaneGrouping: one timeline per trace and group,
// each with the index of its trace and of its group's records) and it prints the rows, the time
// until every row's timeline is indexed, and the anonymous memory the grouped view adds (RssAnon
// after less before grouping) per record of the traces. Grouping by rank needs keys: --ranks R
// (the default with --group-by) gives every record a key of one of R TP ranks.

#include "benchutil.h"
#include "deploymenttraces.h"
#include "panes/combinedcacheview.h"
#include "panes/combinedstatisticsview.h"
#include "shell/combinedtab.h"
#include "shell/deploymenttimelines.h"
#include "shell/lanegroupview.h"
#include "timeline/timelinewidget.h"
#include "trace/tracedocument.h"
#include "viewstate.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <ctime>

using namespace lmct;
using bench::threadCpuMs;
using bench::waitFor;

namespace {

/** RssAnon of this process in bytes (mapped file pages are page cache, not counted). */
qint64 anonymousBytes() {
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly)) {
        return 0;
    }
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("RssAnon:")) {
            return line.mid(8).trimmed().split(' ').value(0).toLongLong() * 1024;
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char *argv[]) {
    QApplication app(argc, argv);
    QCommandLineParser p;
    p.addHelpOption();
    p.addOption({"traces", "Traces to combine.", "N", "10"});
    p.addOption({"records", "Records per trace.", "N", "1000000"});
    p.addOption({"runs", "Replots per figure (median).", "N", "15"});
    p.addOption({"size", "Tab size in logical pixels.", "WxH", "1440x900"});
    p.addOption({"dir", "Where to write the traces (default: a temporary directory).", "DIR"});
    p.addOption({"group-by", "Then group the lanes by rank, model or tenant.", "BY"});
    p.addOption(
        {"ranks", "Records carry keys of N TP ranks (0: no keys; 4 with --group-by).", "N"});
    p.process(app);
    const int k = std::max(1, p.value("traces").toInt());
    const int n = std::max(1, p.value("records").toInt());
    const int runs = std::max(1, p.value("runs").toInt());
    const QStringList size = p.value("size").split('x');
    LaneGrouping::By groupBy = LaneGrouping::By::None;
    if (p.isSet("group-by")) {
        for (const LaneGrouping::By by : LaneGrouping::all()) {
            if (LaneGrouping::name(by).compare(p.value("group-by"), Qt::CaseInsensitive) == 0) {
                groupBy = by;
            }
        }
        if (groupBy == LaneGrouping::By::None || groupBy == LaneGrouping::By::Trace) {
            std::fprintf(stderr, "--group-by: expected rank, model or tenant\n");
            return 1;
        }
    }
    const int ranks = p.isSet("ranks") ? std::max(0, p.value("ranks").toInt())
                                       : (groupBy != LaneGrouping::By::None ? 4 : 0);
    QTemporaryDir tmp;
    const QString dir = p.isSet("dir") ? p.value("dir") : tmp.path();
    std::vector<double> errors;
    const std::vector<QString> written = bench::writeDeployment(dir, k, n, &errors, ranks);
    if (written.empty()) {
        return 1;
    }
    QStringList paths;
    for (const QString &w : written) {
        paths << w;
    }

    CombinedTab tab;
    tab.resize(size.value(0).toInt(), size.value(1).toInt());
    tab.show();
    QApplication::processEvents();
    const qint64 before = anonymousBytes();
    bool loaded = false;
    QString failure;
    QObject::connect(&tab, &CombinedTab::loaded, [&] { loaded = true; });
    QObject::connect(&tab, &CombinedTab::failed, [&](const QString &e) { failure = e; });
    QElapsedTimer build;
    build.start();
    tab.combineFiles(paths);
    const auto ready = [&] {
        if (!failure.isEmpty()) {
            return true;
        }
        if (!loaded || tab.isBusy() || tab.isMerging() || tab.timelines()->count() != k) {
            return false;
        }
        for (int t = 0; t < k; ++t) {
            if (tab.timelines()->timeline(t)->isIndexing()) {
                return false;
            }
        }
        return true;
    };
    if (!waitFor(ready, 30 * 60 * 1000) || !failure.isEmpty()) {
        std::fprintf(stderr, "not combined: %s\n", qPrintable(failure));
        return 2;
    }
    const double seconds = double(build.elapsed()) / 1e3;
    waitFor([] { return false; }, 500);  // what the last pass queued
    qint64 records = 0;
    for (int t = 0; t < k; ++t) {
        records += tab.state(t)->document()->records().size();
    }
    const qint64 anon = anonymousBytes() - before;
    std::printf(
        "combined %d traces x %d records = %lld records; tab %sx%s; loaded, merged and "
        "indexed in %.1f s\n",
        k, n, static_cast<long long>(records), qPrintable(size.value(0)), qPrintable(size.value(1)),
        seconds);
    std::printf("  anonymous resident for them: %.0f MiB (%.1f bytes/record)\n",
                double(anon) / 1048576.0, double(anon) / double(std::max<qint64>(1, records)));

    TimelineWidget *first = tab.timelines()->timeline(0);
    const auto &rs = tab.state(0)->document()->records();
    const double span = rs.maxTMono() - rs.minTMono();
    const double mid = (rs.maxTMono() + rs.minTMono()) / 2;
    struct Zoom {
        const char *name;
        double from, to;
    };
    const QCPRange full = first->visibleRange();
    const Zoom zooms[] = {{"full", full.lower, full.upper},
                          {"mid (1/1000)", mid - span / 2000, mid + span / 2000},
                          {"deep (10 ms)", mid - 0.005, mid + 0.005}};
    for (const Zoom &z : zooms) {
        first->setVisibleRange(z.from, z.to);  // the others follow through the link
        waitFor([] { return false; }, 300);    // the builds of the new window
        std::vector<double> wall, cpu;
        for (int r = 0; r <= runs; ++r) {
            QElapsedTimer t;
            const double c0 = threadCpuMs();
            t.start();
            for (int i = 0; i < k; ++i) {
                tab.timelines()->timeline(i)->plot()->replot(QCustomPlot::rpImmediateRefresh);
            }
            if (r > 0) {  // the first one warms up (layout, label cache)
                wall.push_back(double(t.nsecsElapsed()) / 1e6);
                cpu.push_back(threadCpuMs() - c0);
            }
        }
        std::sort(wall.begin(), wall.end());
        std::sort(cpu.begin(), cpu.end());
        std::printf(
            "  replot all %d timelines, %-13s %7.2f ms wall, %7.2f ms CPU (medians of %d)\n", k,
            z.name, wall[wall.size() / 2], cpu[cpu.size() / 2], runs);
    }
    if (groupBy == LaneGrouping::By::None) {
        return 0;
    }

    // The lanes grouped: a timeline per (trace, group), each indexing its trace and its group.
    first->setVisibleRange(full.lower, full.upper);
    waitFor([] { return false; }, 300);
    // The combined statistics (every record's arguments) run in the background from the load
    // on: the grouping is timed once they are done, so that it is the grouping's time alone.
    QElapsedTimer statsClock;
    statsClock.start();
    waitFor([&] { return !tab.statisticsView()->isComputing() && !tab.cacheView()->isComputing(); },
            1800000);
    std::printf("  the combined statistics done %.1f s after the replots\n",
                double(statsClock.elapsed()) / 1e3);
    const qint64 beforeGroups = anonymousBytes();
    bool grouped = false;
    QObject::connect(&tab, &CombinedTab::grouped, [&] { grouped = true; });
    QElapsedTimer grouping;
    grouping.start();
    tab.setGrouping(groupBy);
    const auto rowsReady = [&] {
        const DeploymentTimelines *rows = tab.groupView()->timelines();
        if (!grouped || !rows || rows->count() == 0) {
            return false;
        }
        for (int r = 0; r < rows->count(); ++r) {
            if (rows->timeline(r)->isIndexing() || rows->timeline(r)->isFiltering()) {
                return false;
            }
        }
        return true;
    };
    if (!waitFor(rowsReady, 30 * 60 * 1000)) {
        std::fprintf(stderr, "not grouped\n");
        return 2;
    }
    const double groupSeconds = double(grouping.elapsed()) / 1e3;
    waitFor([] { return false; }, 500);  // what the last pass queued
    const qint64 groupAnon = anonymousBytes() - beforeGroups;
    const int rows = tab.groupView()->rowCount();
    qint64 indexed = 0;  // records the rows' timelines index: each row its trace's
    for (int r = 0; r < rows; ++r) {
        indexed += tab.state(tab.groupView()->traceOfRow(r))->document()->records().size();
    }
    std::printf(
        "grouped by %s (%d ranks in the keys): %d lane groups (timelines), every one indexed in "
        "%.1f s\n",
        qPrintable(LaneGrouping::name(groupBy).toLower()), ranks, rows, groupSeconds);
    std::printf(
        "  anonymous resident for the lane groups' timelines: %.0f MiB (%.1f bytes/record of "
        "the traces; %.1f per record a row's timeline indexes)\n",
        double(groupAnon) / 1048576.0, double(groupAnon) / double(std::max<qint64>(1, records)),
        double(groupAnon) / double(std::max<qint64>(1, indexed)));
    return 0;
}
