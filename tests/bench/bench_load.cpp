// bench_load: how fast TraceLoader indexes a trace, and how much memory the index takes.
//
//   bench_load FILE [--repeat N]
//
// Prints, for the page-cached FILE: index time (arguments not checked), index + full argument
// check time, throughput in MB/s and records/s, time until the first records are indexed, and the
// record store's bytes per record. Generate inputs with tests/fixtures/gen_fixtures.py --big N or
// --small N (see docs/performance.md).

#include "benchutil.h"
#include "trace/traceloader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTextStream>
#include <algorithm>
#include <vector>

using namespace lmct;
using namespace lmct::bench;

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    const QStringList args = app.arguments();
    if (args.size() < 2) {
        QTextStream(stderr) << "usage: bench_load FILE [--repeat N]\n";
        return 1;
    }
    const QString file = args[1];
    const int repeat = repeatOption(args);
    pageCache(file);  // the figures are for a cached file
    std::vector<double> indexMs, fullMs;
    double firstMs = 0.0;
    qint64 records = 0, size = 0, storeBytes = 0;
    for (int r = 0; r < repeat; ++r) {
        for (bool validate : {false, true}) {
            QString error;
            TraceLoadOptions opt;
            opt.validateArgs = validate;
            QElapsedTimer t;
            bool first = true;
            opt.progress = [&](qint64, qint64, qint64 n) {
                if (first && n > 0) {
                    firstMs = t.nsecsElapsed() / 1e6;
                    first = false;
                }
            };
            t.start();
            auto doc = TraceLoader::load(file, &error, opt);
            const double ms = t.nsecsElapsed() / 1e6;
            if (!doc) {
                QTextStream(stderr) << error << "\n";
                return 2;
            }
            (validate ? fullMs : indexMs).push_back(ms);
            records = doc->records().size();
            size = doc->fileSize();
            storeBytes = doc->records().memoryBytes();
        }
    }
    const double mb = size / 1e6;
    const double idx = median(indexMs), full = median(fullMs);
    out << "file                 " << file << "\n"
        << "size                 " << QString::number(mb, 'f', 1) << " MB, " << records
        << " records\n"
        << "index                " << QString::number(idx, 'f', 1) << " ms  ("
        << QString::number(mb / (idx / 1e3), 'f', 0) << " MB/s, "
        << QString::number(records / (idx / 1e3) / 1e6, 'f', 2) << " M records/s)\n"
        << "index + arg check    " << QString::number(full, 'f', 1) << " ms  ("
        << QString::number(mb / (full / 1e3), 'f', 0) << " MB/s)\n"
        << "first progress       " << QString::number(firstMs, 'f', 1) << " ms\n"
        << "record store         "
        << QString::number(double(storeBytes) / qMax<qint64>(1, records), 'f', 1)
        << " bytes/record\n";
    return 0;
}
