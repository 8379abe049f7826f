// Filter evaluation throughput over a large realistic trace.
//
//   bench_filter [TRACE]
//
// Without TRACE, uses /tmp/big.lct, generating it first when missing with
// `gen_fixtures.py --big 1000000 /tmp/big.lct` (about 1.0 M records, 1.4 GB, ~25 s).
// For each filter it reports records per second on one core (the whole trace as a single work
// item) and with every core (QtConcurrent over the global pool), best of three runs, after a
// warm-up pass that brings the file into the page cache. "per core (CPU)" divides the records
// by the CPU time all threads used, which stays meaningful when other processes share the
// cores; the wall-clock rates do not. Ends with TraceStatistics::compute.

#include "benchutil.h"
#include "codec/objectkey.h"
#include "codec/recordsummary.h"
#include "filter/filterevaluator.h"
#include "stats/tracestatistics.h"
#include "trace/traceloader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QThread>
#include <cstdio>
#include <ctime>

using namespace lmct;

namespace {

struct Timing {
    double seconds = 1e300;  ///< wall clock
    double cpu = 1e300;      ///< CPU time of all threads
    size_t matches = 0;
    qint64 decoded = 0;
};

/** Best of `runs` (wall and CPU time taken separately). */
Timing best(const FilterEvaluator &ev, const FilterEvaluator::Options &o, int runs = 3) {
    Timing t;
    for (int i = 0; i < runs; ++i) {
        const double cpu0 = lmct::bench::cpuSeconds();
        const FilterEvaluator::Result r = ev.run(o);
        t.cpu = std::min(t.cpu, lmct::bench::cpuSeconds() - cpu0);
        t.seconds = std::min(t.seconds, r.seconds);
        t.matches = r.records.size();
        t.decoded = r.decoded;
    }
    return t;
}

}  // namespace

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    QString path = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("/tmp/big.lct");
    if (argc <= 1 && !QFileInfo::exists(path)) {
        std::printf("generating %s (gen_fixtures.py --big 1000000) ...\n", qPrintable(path));
        std::fflush(stdout);
        QProcess gen;
        gen.setProcessChannelMode(QProcess::ForwardedChannels);
        gen.start(QStringLiteral("/usr/bin/python3"),
                  {QStringLiteral(LMCT_SOURCE_DIR "/tests/fixtures/gen_fixtures.py"),
                   QStringLiteral("--big"), QStringLiteral("1000000"), path});
        if (!gen.waitForFinished(-1) || gen.exitCode() != 0) {
            std::fprintf(stderr, "bench_filter: could not generate %s\n", qPrintable(path));
            return 2;
        }
    }
    QElapsedTimer timer;
    timer.start();
    QString error;
    const std::shared_ptr<const TraceDocument> doc = TraceLoader::load(path, &error);
    if (!doc) {
        std::fprintf(stderr, "bench_filter: %s\n", qPrintable(error));
        return 2;
    }
    const qint64 n = doc->records().size();
    const int threads = QThreadPool::globalInstance()->maxThreadCount();
    std::printf("trace: %s\nrecords: %lld, file %.1f MB, loaded in %.2f s; %d threads (%d cores)\n",
                qPrintable(path), n, double(doc->fileSize()) / 1e6,
                double(timer.nsecsElapsed()) / 1e9, threads, QThread::idealThreadCount());

    // Known values from the first prefetch: a chunk hash prefix and a request id.
    QString prefix, request;
    for (int i = 0; i < n && prefix.isEmpty(); ++i) {
        if (doc->records().qualname(i).endsWith(QLatin1String(".submit_prefetch_task"))) {
            const auto args = doc->args(i);
            const QList<ObjectKey> keys = ObjectKey::collect(args->value, 1);
            if (!keys.isEmpty()) {
                prefix = keys.front().hashHex().left(6);
                request = RecordSummary::requestId(args->value);
            }
        }
    }

    // Warm-up: decode everything once (page cache).
    FilterEvaluator(doc, FilterExpression::parse(QStringLiteral("keys.count >= 0"))).run();

    const QStringList filters = {
        QStringLiteral("call == reserve_write"),
        QStringLiteral("t_mono > 100 && t_mono < 2000"),
        QStringLiteral("call in [reserve_write, finish_write] && t_mono >= 60s"),
        QStringLiteral("chunk_hash == %1").arg(prefix),
        QStringLiteral("model_name == \"Qwen/Qwen3-8B\""),
        QStringLiteral("chunk_hash == %1 && model_name == \"Qwen/Qwen3-8B\"").arg(prefix),
        QStringLiteral("request == \"%1\"").arg(request),
        QStringLiteral("keys.count > 30"),
        QStringLiteral("rank == 1 && bytes > 100MiB"),
    };
    std::printf("\nrecords/s; wall = elapsed time, CPU = per CPU-second of all threads\n");
    std::printf("%-58s %8s %8s %10s %10s %10s %10s\n", "filter", "matches", "decoded", "1core wall",
                "1core CPU", "all wall", "all CPU");
    for (const QString &f : filters) {
        const FilterExpression e = FilterExpression::parse(f);
        if (!e.isValid()) {
            std::fprintf(stderr, "bench_filter: %s: %s\n", qPrintable(f),
                         qPrintable(e.errorString()));
            return 1;
        }
        const FilterEvaluator ev(doc, e);
        FilterEvaluator::Options single;
        single.chunkSize = int(n) + 1;  // one work item: one core
        const Timing one = best(ev, single);
        const Timing all = best(ev, FilterEvaluator::Options());
        const double target = e.needsArgs() ? 200e3 : 2e6;
        const double perCore = double(n) / all.cpu;
        std::printf("%-58s %8zu %8lld %10.3g %10.3g %10.3g %10.3g %s\n", qPrintable(f), all.matches,
                    all.decoded, double(n) / one.seconds, double(n) / one.cpu,
                    double(n) / all.seconds, perCore,
                    perCore >= target ? "(target met)" : "(BELOW TARGET)");
        std::fflush(stdout);
    }

    double cpu0 = lmct::bench::cpuSeconds();
    timer.restart();
    const TraceStatistics st = TraceStatistics::compute(*doc);
    std::printf(
        "\nTraceStatistics::compute, args decoded: %.2f s wall, %.2f s CPU (%.3g records "
        "per CPU-second); %lld distinct keys, %lld enter/exit pairs\n",
        double(timer.nsecsElapsed()) / 1e9, lmct::bench::cpuSeconds() - cpu0,
        double(n) / (lmct::bench::cpuSeconds() - cpu0), st.distinctKeys, st.pairs.matched);
    TraceStatistics::Options fast;
    fast.decodeArgs = false;
    cpu0 = lmct::bench::cpuSeconds();
    timer.restart();
    TraceStatistics::compute(*doc, fast);
    std::printf("TraceStatistics::compute, columns only: %.2f s wall, %.2f s CPU\n",
                double(timer.nsecsElapsed()) / 1e9, lmct::bench::cpuSeconds() - cpu0);
    return 0;
}
