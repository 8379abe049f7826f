// Comparing two large traces (A/B): TraceComparison over two synthetic cache workloads of about
// 10 M records each (the same prompts, B with half the L1 and another eviction policy), written
// to a directory and loaded as any trace is.
//
//   bench_compare [--records 10000000] [--keys 2] [--runs 1] [--dir DIR] [--no-whatif]
//
// A request prefetches the `--keys` chunk keys of a prompt (submit_prefetch_task), reads them
// (read_prefetched_results.__enter__, finish_read_prefetched, __exit__) and, the first time a
// prompt is seen, writes them (reserve_write with a MemoryLayoutDesc, finish_write); prompts are
// drawn from a skewed hot set, one request in ten is a one-off prompt. The traces are kept in
// DIR as compare-a-N.lct and compare-b-N.lct (N: records asked for) and written only when
// absent, so bench_gui_compare can replot them (tests/bench/run_all.sh does both).
//
// Prints the load of both (index and argument check), then per run the CPU and wall time of
// TraceComparison::run (the what-if's replays included unless --no-whatif), the anonymous
// resident memory (RssAnon) it adds while its result is kept (bytes per record of both traces),
// the file pages it leaves mapped in, and the process's peak resident size (VmHWM).

#include "benchutil.h"
#include "cachetracewriter.h"
#include "compare/tracecomparison.h"
#include "trace/traceloader.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <tuple>

using namespace lmct;
using namespace lmct::test;

namespace {

/** A size field of /proc/self/status (RssAnon, VmRSS, VmHWM), in bytes (0 when unknown). */
qint64 procStatus(const char *field) {
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly)) {
        return 0;
    }
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith(field)) {
            return line.mid(qsizetype(std::strlen(field)))
                       .trimmed()
                       .split(' ')
                       .value(0)
                       .toLongLong() *
                   1024;
        }
    }
    return 0;
}

/** A 32-byte chunk hash of key `n` (distinct for every n below 2^32). */
QByteArray hashOf(quint32 n) {
    QByteArray h(32, '\0');
    std::memcpy(h.data(), &n, 4);
    quint64 x = n * 0x9e3779b97f4a7c15ULL;
    for (int i = 4; i < 32; ++i) {
        x ^= x >> 29;
        x *= 0xbf58476d1ce4e5b9ULL;
        h[i] = char(x >> 56);
    }
    return h;
}

QString configJson(qint64 l1Bytes, const char *policy) {
    const QJsonObject o{
        {QStringLiteral("eviction_config"),
         QJsonObject{{QStringLiteral("eviction_policy"), QLatin1String(policy)}}},
        {QStringLiteral("l1_manager_config"),
         QJsonObject{{QStringLiteral("memory_config"),
                      QJsonObject{{QStringLiteral("size_in_bytes"), double(l1Bytes)},
                                  {QStringLiteral("shm_name"),
                                   QStringLiteral("lmcache_l1_pool_%1").arg(l1Bytes % 9973)}}}}}};
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

/** Writes the workload to `path` (about `records` records); false when it cannot. */
bool writeWorkload(const QString &path, qint64 records, int keysPerPrompt, qint64 l1Bytes,
                   const char *policy, quint64 seed) {
    QFile f(path + QStringLiteral(".part"));
    if (!f.open(QIODevice::WriteOnly)) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(f.fileName()));
        return false;
    }
    CacheTraceWriter w(2, configJson(l1Bytes, policy));
    constexpr quint32 kHotPrompts = 40000;
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<quint8> stored(kHotPrompts, 0);
    quint32 nextOneOff = kHotPrompts;
    const std::vector<qint64> shape{2, 16, 8, 128};  // 64 KiB per object in bfloat16
    double t = 0.0;
    qint64 written = 0;
    std::vector<TKey> keys(static_cast<size_t>(keysPerPrompt));
    while (written < records) {
        const bool oneOff = u(rng) < 0.1;
        // Zipf-like: the prompt's rank from a power of a uniform number
        const quint32 prompt =
            oneOff ? nextOneOff++ : quint32(std::pow(u(rng), 3.0) * double(kHotPrompts - 1));
        for (int k = 0; k < keysPerPrompt; ++k) {
            keys[size_t(k)].hash = hashOf(prompt * quint32(keysPerPrompt) + quint32(k));
        }
        const QString rid = QStringLiteral("r%1").arg(written);
        w.call(t, QStringLiteral("submit_prefetch_task"), keys, KeysAt::Spec, rid);
        t += 0.0004;
        const bool known = !oneOff && stored[prompt];
        if (!known) {
            w.reserveWithLayout(t, keys, shape);
            t += 0.002;
            w.call(t, QStringLiteral("finish_write"), keys);
            t += 0.0002;
            written += 2;
            if (!oneOff) {
                stored[prompt] = 1;
            }
        }
        w.call(t, QStringLiteral("read_prefetched_results.__enter__"), keys);
        w.finishRead(t + 0.0001, keys);
        t += 0.0015;
        w.call(t, QStringLiteral("read_prefetched_results.__exit__"), keys);
        t += 0.0003;
        written += 4;
        if (w.bytes().size() > (64 << 20)) {
            const QByteArray b = w.takeBytes();
            if (f.write(b) != b.size()) {
                return false;
            }
        }
    }
    const QByteArray b = w.takeBytes();
    if (f.write(b) != b.size()) {
        return false;
    }
    f.close();
    QFile::remove(path);
    return QFile::rename(f.fileName(), path);
}

}  // namespace

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.addHelpOption();
    p.addOption({"records", "Records per trace (about).", "N", "10000000"});
    p.addOption({"keys", "Chunk keys per prompt (per record).", "N", "2"});
    p.addOption({"runs", "Comparisons timed (median).", "N", "1"});
    p.addOption({"dir", "Where the traces are kept (default: a temporary directory).", "DIR"});
    p.addOption({"no-whatif", "Skip the what-if curves (as lmct compare --no-whatif)."});
    p.process(app);
    const qint64 n = std::max<qint64>(100, p.value("records").toLongLong());
    const int keys = std::clamp(p.value("keys").toInt(), 1, 64);
    const int runs = std::max(1, p.value("runs").toInt());
    QTemporaryDir tmp;
    const QString dir = p.isSet("dir") ? p.value("dir") : tmp.path();

    const QString pathA = QStringLiteral("%1/compare-a-%2.lct").arg(dir).arg(n);
    const QString pathB = QStringLiteral("%1/compare-b-%2.lct").arg(dir).arg(n);
    // 64 KiB objects: A's L1 holds 16384 of them, B's half; B evicts FIFO
    const qint64 l1 = qint64(16384) * 65536 * keys;
    for (const auto &[path, bytes, policy] :
         {std::tuple{pathA, l1, "LRU"}, std::tuple{pathB, l1 / 2, "FIFO"}}) {
        if (QFileInfo(path).size() > 0) {
            continue;
        }
        QElapsedTimer t;
        t.start();
        if (!writeWorkload(path, n, keys, bytes, policy, 20261202)) {
            return 1;
        }
        std::printf("wrote %s (%.0f MiB) in %.1f s\n", qPrintable(path),
                    double(QFileInfo(path).size()) / 1048576.0, double(t.elapsed()) / 1e3);
    }

    const qint64 rss0 = procStatus("RssAnon:");
    std::shared_ptr<const TraceDocument> docs[2];
    for (int i = 0; i < 2; ++i) {
        QString why;
        const double c0 = bench::cpuSeconds();
        QElapsedTimer t;
        t.start();
        docs[i] = TraceLoader::load(i == 0 ? pathA : pathB, &why);
        if (!docs[i]) {
            std::fprintf(stderr, "%s\n", qPrintable(why));
            return 2;
        }
        std::printf("load %c: %d records, %.0f MiB: %.2f s wall, %.2f s CPU\n", 'A' + i,
                    docs[i]->records().size(), double(docs[i]->fileSize()) / 1048576.0,
                    double(t.elapsed()) / 1e3, bench::cpuSeconds() - c0);
    }
    const double records = double(docs[0]->records().size() + docs[1]->records().size());
    const qint64 rssLoaded = procStatus("RssAnon:");
    std::printf("anonymous resident after both loads: %.0f MiB (+%.1f bytes/record)\n",
                double(rssLoaded) / 1048576.0, double(rssLoaded - rss0) / records);

    TraceComparison::Options o;
    o.whatIf = !p.isSet("no-whatif");
    std::vector<double> cpu, wall;
    qint64 held = 0, heldMapped = 0;
    for (int r = 0; r < runs; ++r) {
        const qint64 before = procStatus("RssAnon:"), beforeAll = procStatus("VmRSS:");
        const double c0 = bench::cpuSeconds();
        QElapsedTimer t;
        t.start();
        auto c = TraceComparison::run(*docs[0], *docs[1], o);
        wall.push_back(double(t.nsecsElapsed()) / 1e9);
        cpu.push_back(bench::cpuSeconds() - c0);
        if (!c) {
            std::fprintf(stderr, "the comparison failed\n");
            return 3;
        }
        held = procStatus("RssAnon:") - before;
        heldMapped = procStatus("VmRSS:") - beforeAll - held;
        if (r == 0) {
            std::printf(
                "compared: hit ratio at the configured L1 A %.4f, B %.4f; %zu what-if "
                "capacities; distinct keys A %lld, B %lld\n",
                c->cache().a().atCapacity.hitRatio, c->cache().b().atCapacity.hitRatio,
                c->cache().capacities().size(),
                static_cast<long long>(c->a().cache->keys->keyCount()),
                static_cast<long long>(c->b().cache->keys->keyCount()));
        }
    }
    std::printf("TraceComparison::run%s: %.2f s wall, %.2f s CPU (median of %d)\n",
                o.whatIf ? "" : " (no what-if)", bench::median(wall), bench::median(cpu), runs);
    std::printf(
        "  anonymous resident while the result is kept: +%.0f MiB (%.1f bytes/record of "
        "both); file pages still mapped in: +%.0f MiB\n",
        double(held) / 1048576.0, double(held) / records, double(heldMapped) / 1048576.0);
    std::printf("  peak resident of the process:      %.0f MiB\n",
                double(procStatus("VmHWM:")) / 1048576.0);
    return 0;
}
