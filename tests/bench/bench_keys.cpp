// bench_keys: how fast the cache-behaviour analyses run on a large trace.
//
//   bench_keys FILE [--repeat N]
//
// Loads FILE (index only, page-cached first), then times KeyAnalysis, AnomalyReport (its key
// pass, ContextPairs and the time checks), ReuseAnalysis and RequestAnalysis, and prints seconds,
// records/s, MB/s and the memory of the key analysis. Generate FILE with
// tests/fixtures/gen_fixtures.py --big N FILE (≈ 1.1 kB per record: N = 1500000 gives ≈ 1.7 GB).

#include "benchutil.h"
#include "cache/anomalyreport.h"
#include "cache/keyanalysis.h"
#include "cache/requestanalysis.h"
#include "cache/reuseanalysis.h"
#include "trace/traceloader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTextStream>
#include <algorithm>
#include <ctime>
#include <vector>

using namespace lmct;
using namespace lmct::bench;

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    const QStringList args = app.arguments();
    if (args.size() < 2) {
        QTextStream(stderr) << "usage: bench_keys FILE [--repeat N]\n";
        return 1;
    }
    const QString file = args[1];
    const int repeat = repeatOption(args);
    pageCache(file);
    QString error;
    TraceLoadOptions opt;
    opt.validateArgs = false;
    QElapsedTimer lt;
    lt.start();
    auto doc = TraceLoader::load(file, &error, opt);
    if (!doc) {
        QTextStream(stderr) << error << "\n";
        return 2;
    }
    const double loadS = lt.nsecsElapsed() / 1e9;
    const qint64 n = doc->records().size();
    const double mb = doc->fileSize() / 1e6;
    out << "file: " << file << "  " << QString::number(mb, 'f', 1) << " MB, " << n
        << " records (index " << QString::number(loadS, 'f', 2) << " s)\n";
    out.flush();

    std::vector<double> keysS, anomS, reuseS, reqS;
    std::vector<double> keysC, anomC, reuseC, reqC;
    std::shared_ptr<const KeyAnalysis> ka;
    std::shared_ptr<const AnomalyReport> ar;
    std::shared_ptr<const ReuseAnalysis> ra;
    std::shared_ptr<const RequestAnalysis> rq;
    for (int r = 0; r < repeat; ++r) {
        QElapsedTimer t;
        auto timed = [&](std::vector<double> &wall, std::vector<double> &cpu, auto &&f) {
            const double c0 = cpuSeconds();
            t.restart();
            f();
            wall.push_back(t.nsecsElapsed() / 1e9);
            cpu.push_back(cpuSeconds() - c0);
        };
        t.start();
        timed(keysS, keysC, [&] { ka = KeyAnalysis::build(*doc); });
        timed(anomS, anomC, [&] { ar = AnomalyReport::build(*doc, ka); });
        timed(reuseS, reuseC, [&] { ra = ReuseAnalysis::build(*ka); });
        timed(reqS, reqC, [&] { rq = RequestAnalysis::build(*ka); });
    }
    out << "load average " << [] {
        QFile f(QStringLiteral("/proc/loadavg"));
        return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readLine()).section(' ', 0, 2)
                                           : QStringLiteral("?");
    }() << " (wall times grow with other load; CPU s = all threads)\n";
    auto line = [&](const char *what, const std::vector<double> &s, const std::vector<double> &c) {
        const double m = median(s);
        out << QStringLiteral("%1 %2 s wall %3 s CPU  %4 records/s  %5 MB/s\n")
                   .arg(QString::fromLatin1(what), -18)
                   .arg(m, 7, 'f', 3)
                   .arg(median(c), 7, 'f', 3)
                   .arg(double(n) / m, 10, 'f', 0)
                   .arg(mb / m, 6, 'f', 0);
    };
    auto sum = [](std::initializer_list<const std::vector<double> *> parts) {
        std::vector<double> v(parts.begin()[0]->size(), 0.0);
        for (const auto *p : parts) {
            for (size_t i = 0; i < v.size(); ++i) {
                v[i] += (*p)[i];
            }
        }
        return v;
    };
    line("KeyAnalysis", keysS, keysC);
    line("AnomalyReport", anomS, anomC);
    line("ReuseAnalysis", reuseS, reuseC);
    line("RequestAnalysis", reqS, reqC);
    line("keys + anomalies", sum({&keysS, &anomS}), sum({&keysC, &anomC}));
    line("all four", sum({&keysS, &anomS, &reuseS, &reqS}), sum({&keysC, &anomC, &reuseC, &reqC}));
    out << "distinct keys " << ka->keyCount() << ", key occurrences " << ka->occurrenceCount()
        << ", key records " << ka->keyRecordCount() << ", anomalies " << ar->totalCount()
        << ", requests " << rq->count() << "\n";
    out << "KeyAnalysis memory " << QString::number(ka->memoryBytes() / 1e6, 'f', 1) << " MB ("
        << QString::number(double(ka->memoryBytes()) / qMax<qint64>(1, ka->keyCount()), 'f', 0)
        << " B per key incl. occurrences)\n";
    out << "hit ratio at C=1000: " << ra->hitRatio(1000) << ", C=100000: " << ra->hitRatio(100000)
        << ", saturation at C=" << ra->saturationCapacity() << " ("
        << ra->hitRatio(ra->saturationCapacity()) << ")\n";
    return 0;
}
