// Combining traces of one deployment: MergedOrder over ten synthetic traces of 1M records each
// (written to a temporary directory and loaded as any trace is), with staggered start times,
// clocks a few ms apart and a t_wall stepping back now and then.
//
//   bench_combine [--traces 10] [--records 1000000] [--runs 3] [--dir DIR]
//
// Prints the CPU time of the merge (median), its bytes per record, a record's row and a time's
// row looked up, the rebuild after an offset edit, and an update() that finds nothing new.

#include "benchutil.h"
#include "deploymenttraces.h"
#include "trace/mergedorder.h"
#include "trace/traceloader.h"
#include "trace/traceset.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTemporaryDir>
#include <cstdio>
#include <random>

using namespace lmct;

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.addOption({"traces", "Traces to combine.", "N", "10"});
    p.addOption({"records", "Records per trace.", "N", "1000000"});
    p.addOption({"runs", "Runs per figure (median).", "N", "3"});
    p.addOption({"dir", "Where to write the traces (default: a temporary directory).", "DIR"});
    p.process(app);
    const int k = p.value("traces").toInt(), n = p.value("records").toInt();
    const int runs = std::max(1, p.value("runs").toInt());
    QTemporaryDir tmp;
    const QString dir = p.isSet("dir") ? p.value("dir") : tmp.path();

    TraceSet set;
    std::vector<double> errors;
    const std::vector<QString> paths = bench::writeDeployment(dir, k, n, &errors);
    if (paths.empty()) {
        return 1;
    }
    for (int t = 0; t < k; ++t) {
        const double error = errors[size_t(t)];
        const QString &path = paths[size_t(t)];
        QString why;
        TraceLoadOptions o;
        o.validateArgs = false;
        auto doc = TraceLoader::load(path, &why, o);
        if (!doc) {
            std::fprintf(stderr, "%s\n", qPrintable(why));
            return 1;
        }
        set.add(doc);
        set.setOffset(t, -error);
    }
    std::printf("combine: %d traces x %d records = %lld records\n", k, n,
                static_cast<long long>(set.recordCount()));

    std::vector<double> cpu;
    MergedOrder order;
    for (int r = 0; r < runs; ++r) {
        const double c0 = bench::cpuSeconds();
        order = MergedOrder::build(set);
        cpu.push_back(bench::cpuSeconds() - c0);
    }
    const double rows = double(order.size());
    std::printf("  merge (build):          %8.1f ms CPU  %6.1f ns/record\n",
                bench::median(cpu) * 1e3, bench::median(cpu) / rows * 1e9);
    std::printf("  order memory:           %8.2f bytes/record (%lld rows, %.1f MiB)\n",
                double(order.memoryBytes()) / rows, static_cast<long long>(order.size()),
                double(order.memoryBytes()) / 1048576.0);
    qint64 stepped = 0;
    for (int t = 0; t < k; ++t) {
        stepped += order.steppedBack(t);
    }
    std::printf("  stepped back:           %lld records\n", static_cast<long long>(stepped));
    {
        std::mt19937_64 pick(5);
        std::uniform_int_distribution<qint64> row(0, order.size() - 1);
        const int lookups = 1000;
        qint64 sink = 0;
        const double c0 = bench::cpuSeconds();
        for (int i = 0; i < lookups; ++i) {
            const qint64 r = row(pick);
            sink += order.rowOf(set, order.traceAt(r), order.recordAt(r)) == r ? 1 : 0;
        }
        const double c1 = bench::cpuSeconds();
        for (int i = 0; i < lookups; ++i) {
            sink += order.rowAtTime(set, 1760000000.0 + double(row(pick)) / 2000.0);
        }
        const double c2 = bench::cpuSeconds();
        std::printf("  rowOf / rowAtTime:      %8.1f / %.1f us CPU per look-up%s\n",
                    (c1 - c0) / lookups * 1e6, (c2 - c1) / lookups * 1e6, sink < 0 ? "!" : "");
    }

    cpu.clear();
    for (int r = 0; r < runs; ++r) {
        set.setOffset(0, set.offset(0) + 0.001);
        const double c0 = bench::cpuSeconds();
        order.update(set);
        cpu.push_back(bench::cpuSeconds() - c0);
    }
    std::printf("  offset edit (rebuild):  %8.1f ms CPU\n", bench::median(cpu) * 1e3);
    const double c0 = bench::cpuSeconds();
    const qint64 added = order.update(set);
    std::printf("  update, nothing new:    %8.3f ms CPU (%lld rows added)\n",
                (bench::cpuSeconds() - c0) * 1e3, static_cast<long long>(added));
    return 0;
}
