#pragma once

// Helpers shared by the benchmark programs: CPU time of the whole process, medians, the
// `--repeat N` option and page-caching a file before timing reads of it.

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <ctime>
#include <vector>

namespace lmct::bench {

/** CPU seconds used by every thread of this process so far (wall times on a shared machine
 *  mislead). */
inline double cpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

/** CPU milliseconds used by the calling thread so far (the GUI thread's share of a replot). */
inline double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

/** Runs events until `done()` or `ms` pass; whether `done()`. */
template <typename F>
bool waitFor(F done, int ms) {
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < ms) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    return done();
}

/** The median of `v` (the upper one for an even count); `v` must not be empty. */
inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/** The value of `--repeat N` in `args` (at least 1), or `fallback` without one. */
inline int repeatOption(const QStringList &args, int fallback = 3) {
    if (const qsizetype i = args.indexOf(QStringLiteral("--repeat"));
        i > 0 && i + 1 < args.size()) {
        return std::max(1, args[i + 1].toInt());
    }
    return fallback;
}

/** Reads `path` once so that the figures are for a page-cached file; errors are ignored. */
inline void pageCache(const QString &path) {
    QFile f(path);
    if (f.open(QIODevice::ReadOnly)) {
        while (!f.read(1 << 24).isEmpty()) {
        }
    }
}

}  // namespace lmct::bench
