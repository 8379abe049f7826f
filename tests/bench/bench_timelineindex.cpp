// Timeline index benchmarks: TimelineIndex build (1M and 10M synthetic records in the call mix
// of the reference traces), per-column count queries, and ContextPairs on a trace file.
//
//   bench_timelineindex [--sizes 1000000,10000000] [--runs 5] [TRACE...]
//
// Prints medians in ms. With TRACE files (e.g. made by tests/fixtures/gen_fixtures.py --small N
// FILE) it also loads them and times the index and the __enter__/__exit__ pairing on them.

#include "syntheticrecords.h"
#include "timeline/contextpairs.h"
#include "timeline/rateseries.h"
#include "timeline/timelineindex.h"
#include "trace/traceloader.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThreadPool>
#include <algorithm>
#include <cstdio>
#include <functional>

using namespace lmct;

namespace {

double medianMs(int runs, const std::function<void()> &f) {
    std::vector<double> ms;
    for (int r = 0; r < runs; ++r) {
        QElapsedTimer t;
        t.start();
        f();
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

void queries(const TimelineIndex &idx, int runs) {
    const double t0 = idx.minTime(), t1 = idx.maxTime();
    const int w = 3200;  // a 1600 px wide plot at devicePixelRatio 2
    std::vector<int> out(static_cast<size_t>(w));
    struct Zoom {
        const char *name;
        double span;
    };
    for (const Zoom z : {Zoom{"full", t1 - t0}, Zoom{"mid (1/1000)", (t1 - t0) / 1000},
                         Zoom{"deep (10 ms)", 0.010}}) {
        const double from = t0 + (t1 - t0 - z.span) / 2;
        qint64 sink = 0;
        for (const double tol : {0.0, 0.25}) {
            const double ms = medianMs(runs, [&] {
                for (int lane = 0; lane < idx.laneCount(); ++lane) {
                    idx.columnCounts(lane, from, z.span / w, w, out.data(), tol);
                    sink += out[0];
                }
            });
            std::printf("  column counts %s, %d lanes x %d columns, %-13s %8.3f ms%s\n",
                        tol > 0 ? "(LOD)  " : "(exact)", idx.laneCount(), w, z.name, ms,
                        sink < 0 ? "!" : "");
        }
        const double rms = medianMs(runs, [&] {
            for (int lane = 0; lane < idx.laneCount(); ++lane) {
                sink += RateSeries::compute(idx, lane, from, from + z.span,
                                            RateSeries::niceWidth(z.span / 530))
                            .size();
            }
        });
        std::printf("  rate series, %d lanes, 3 px buckets,              %-13s %8.3f ms\n",
                    idx.laneCount(), z.name, rms);
    }
}

}  // namespace

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.addOption({"sizes", "Synthetic record counts.", "N,N", "1000000,10000000"});
    p.addOption({"runs", "Runs per figure (median).", "N", "5"});
    p.addPositionalArgument("TRACE", "Trace files to load and index too.");
    p.process(app);
    const int runs = std::max(1, p.value("runs").toInt());
    std::printf("threads: %d\n", QThreadPool::globalInstance()->maxThreadCount());
    for (const QString &s : p.value("sizes").split(',', Qt::SkipEmptyParts)) {
        const int n = s.toInt();
        const auto store = test::syntheticRecords(n, 1);
        const RecordStore &rs = *store;
        std::shared_ptr<const TimelineIndex> idx;
        const double ms = medianMs(runs, [&] { idx = TimelineIndex::build(rs); });
        std::printf("synthetic %d records, %d lanes, %.0f s:\n", n, rs.qualnameCount(),
                    rs.maxTMono());
        std::printf(
            "  TimelineIndex::build                                     %8.1f ms (median of %d)\n",
            ms, runs);
        std::printf("  index memory %.1f MB = %.2f bytes/record (RecordStore: %.2f)\n",
                    double(idx->memoryBytes()) / 1e6, double(idx->memoryBytes()) / n,
                    double(rs.memoryBytes()) / n);
        queries(*idx, runs);
    }
    for (const QString &file : p.positionalArguments()) {
        QString error;
        QElapsedTimer lt;
        lt.start();
        auto doc = TraceLoader::load(file, &error);
        if (!doc) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 2;
        }
        const double loadMs = double(lt.nsecsElapsed()) / 1e6;
        const RecordStore &rs = doc->records();
        std::printf("%s: %d records (load %.0f ms, not a figure of this benchmark)\n",
                    qPrintable(doc->fileName()), rs.size(), loadMs);
        std::shared_ptr<const TimelineIndex> idx;
        std::printf("  TimelineIndex::build                           %8.1f ms\n",
                    medianMs(runs, [&] { idx = TimelineIndex::build(rs); }));
        for (const QString &f : ContextPairs::families(rs)) {
            std::shared_ptr<const ContextPairs> cp;
            const double ms = medianMs(runs, [&] { cp = ContextPairs::build(*doc, f); });
            std::printf(
                "  ContextPairs::build %-28s %8.1f ms: %d spans, %zu+%zu unmatched, "
                "%.1f MB\n",
                qPrintable(f.section('.', -1)), ms, cp->matchedCount(),
                cp->unmatchedEnters().size(), cp->unmatchedExits().size(),
                double(cp->memoryBytes()) / 1e6);
        }
        queries(*idx, runs);
    }
    return 0;
}
