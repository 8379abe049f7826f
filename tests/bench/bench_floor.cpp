// bench_floor: the least time indexing a trace can take, the floor `lmct info` is measured
// against.
//
//   bench_floor FILE... [--repeat N]
//
// On one thread, per run: maps FILE (page-cached first), follows the length prefixes from frame
// to frame fetching 2 KiB ahead of the hop line by line (as TraceScanner::hop does) and touches
// the first cache line of each body (a load of its first byte), then unmaps it. No parse, no
// store, no second thread: what any index of the frames pays for its memory traffic and page
// faults. Prints per file the frames, the wall time (median of N runs, default 5) and the
// nanoseconds per frame. bench_vs_reference.sh divides `lmct info`'s time by it.

#include "benchutil.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTextStream>
#include <QtEndian>
#include <vector>

using namespace lmct::bench;

namespace {

struct Hop {
    qint64 frames = 0;
    quint64 touched = 0;  // sum of the first byte of each body: keeps the loads
};

/** The hop over `data[0, size)` with TraceScanner's fetch-ahead, touching each body. */
Hop hop(const uchar *data, qint64 size) {
    static constexpr qint64 kFetchAhead = 2048, kCacheLine = 64;
    Hop h;
    qint64 p = 0;
    qint64 fetched = 0;
    while (size - p >= 4) {
        const quint32 len = qFromBigEndian<quint32>(data + p);
        if (len == 0 || qint64(len) > size - p - 4) {
            break;
        }
        h.touched += data[p + 4];
        ++h.frames;
        p += 4 + qint64(len);
        fetched = std::max(fetched, p);
        for (const qint64 to = std::min(p + kFetchAhead, size); fetched < to;
             fetched += kCacheLine) {
            __builtin_prefetch(data + fetched);
        }
    }
    return h;
}

}  // namespace

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    QStringList files = app.arguments().mid(1);
    const int repeat = repeatOption(app.arguments(), 5);
    if (const qsizetype i = files.indexOf(QStringLiteral("--repeat")); i >= 0) {
        files.remove(i, qMin<qsizetype>(2, files.size() - i));
    }
    if (files.isEmpty()) {
        QTextStream(stderr) << "usage: bench_floor FILE... [--repeat N]\n";
        return 1;
    }
    quint64 sink = 0;
    for (const QString &path : files) {
        pageCache(path);
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly) || f.size() == 0) {
            QTextStream(stderr) << path << ": cannot read it\n";
            return 2;
        }
        std::vector<double> seconds;
        qint64 frames = 0;
        for (int r = 0; r < repeat; ++r) {
            QElapsedTimer t;
            t.start();
            uchar *data = f.map(0, f.size());
            if (!data) {
                QTextStream(stderr) << path << ": cannot map it\n";
                return 2;
            }
            const Hop h = hop(data, f.size());
            f.unmap(data);
            seconds.push_back(double(t.nsecsElapsed()) / 1e9);
            frames = h.frames;
            sink += h.touched;
        }
        const double s = median(seconds);
        out << "file   " << path << " (" << f.size() / 1000000 << " MB, " << frames << " frames)\n"
            << "floor  " << QString::number(s, 'f', 3) << " s (median of " << repeat << "), "
            << QString::number(s * 1e9 / double(qMax<qint64>(frames, 1)), 'f', 1)
            << " ns per frame\n";
    }
    out << "(checksum " << sink << ")\n";
    return 0;
}
