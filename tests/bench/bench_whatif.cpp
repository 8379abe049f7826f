// bench_whatif: how fast the what-if replays a large use sequence, and how close SHARDS gets.
//
//   bench_whatif [--uses N] [--capacities N]
//
// Builds a synthetic stream of N uses (default 10,000,000) the way LMCache sees requests: each
// request prefetches the 16 chunk keys of a prompt, then either writes them (finish_write) or
// reads them; prompts are drawn from a skewed hot set of 30,000 prompts, and one request in ten
// is a one-off prompt (a scan of keys never seen again): about a million distinct keys. Then
// times every policy at N capacities (default 24, log-spaced) on ComputePool, LRU's exact curve,
// and SHARDS at rates 0.01 and 0.1, with the mean and largest absolute error of the prefetch hit
// ratio against the exact curves (over every policy and capacity).

#include "benchutil.h"
#include "util/computepool.h"
#include "whatif/usesequence.h"
#include "whatif/whatifanalysis.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace lmct;
using namespace lmct::bench;

namespace {

qint64 option(const QStringList &args, const QString &name, qint64 fallback) {
    const qsizetype i = args.indexOf(name);
    return i > 0 && i + 1 < args.size() ? std::max<qint64>(1, args[i + 1].toLongLong()) : fallback;
}

}  // namespace

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    const QStringList args = app.arguments();
    const qint64 want = option(args, QStringLiteral("--uses"), 10000000);
    const int ncap = int(option(args, QStringLiteral("--capacities"), 24));

    // The stream.
    constexpr quint32 kPrompt = 16, kHotPrompts = 30000;
    std::mt19937_64 rng(20261201);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<quint32> keys;
    std::vector<quint8> kinds;
    keys.reserve(size_t(want) + 64);
    kinds.reserve(size_t(want) + 64);
    std::vector<quint8> stored(kHotPrompts, 0);
    quint32 nextOneOff = kHotPrompts * kPrompt;
    while (qint64(keys.size()) < want) {
        quint32 first;
        bool oneOff = u(rng) < 0.1;
        quint32 prompt = 0;
        if (oneOff) {
            first = nextOneOff;
            nextOneOff += kPrompt;
        } else {
            const double x = u(rng);
            prompt = std::min(kHotPrompts - 1, quint32(double(kHotPrompts) * x * x * x));
            first = prompt * kPrompt;
        }
        for (quint32 j = 0; j < kPrompt; ++j) {
            keys.push_back(first + j);
            kinds.push_back(UseSequence::Prefetch);
        }
        // A prompt seen before is read back (a hit in LMCache), else stored.
        const bool read = !oneOff && stored[prompt] && u(rng) < 0.7;
        for (quint32 j = 0; j < kPrompt; ++j) {
            keys.push_back(first + j);
            kinds.push_back(read ? UseSequence::Read : UseSequence::Write);
        }
        if (!oneOff) {
            stored[prompt] = 1;
        }
    }
    keys.resize(size_t(want));
    kinds.resize(size_t(want));
    const auto seq = UseSequence::fromKeys(keys, kinds);
    std::vector<quint8> seen(seq->keyCount(), 0);
    qint64 distinct = 0;
    for (const quint32 k : keys) {
        distinct += seen[k] ? 0 : 1;
        seen[k] = 1;
    }
    out << "stream: " << seq->size() << " uses, " << distinct << " distinct keys, "
        << seq->prefetchOccurrences() << " prefetch occurrences; "
        << ComputePool::instance()->maxThreadCount() << " threads\n";
    out.flush();

    // Capacities: log-spaced from 256 chunks to the distinct keys.
    std::vector<quint64> caps;
    for (int i = 0; i < ncap; ++i) {
        const double f = ncap > 1 ? double(i) / double(ncap - 1) : 1.0;
        caps.push_back(quint64(std::llround(256.0 * std::pow(double(distinct) / 256.0, f))));
    }

    WhatIfAnalysis::Options o;
    o.capacities = caps;
    QElapsedTimer wall;
    wall.start();
    const double cpu0 = cpuSeconds();
    const auto exact = WhatIfAnalysis::run(seq, o);
    const double exactWall = wall.nsecsElapsed() / 1e9, exactCpu = cpuSeconds() - cpu0;
    out << "every policy at " << ncap << " capacities: " << QString::number(exactWall, 'f', 2)
        << " s wall, " << QString::number(exactCpu, 'f', 2) << " s CPU\n";
    for (const auto &c : exact->curves()) {
        out << "  " << CachePolicy::label(c.policy).leftJustified(8) << " "
            << QString::number(c.usesPerSecond / 1e6, 'f', 1) << " M uses/s per core, "
            << QString::number(c.seconds, 'f', 2) << " s"
            << (c.policy == CachePolicy::Kind::Lru ? "  (exact curve, one pass)" : "") << "  ratio "
            << QString::number(c.prefetchHitRatio.front(), 'f', 3) << " .. "
            << QString::number(c.prefetchHitRatio.back(), 'f', 3) << "\n";
    }
    out.flush();

    for (const double rate : {0.01, 0.1}) {
        WhatIfAnalysis::Options s = o;
        s.sampleRate = rate;
        wall.restart();
        const auto sampled = WhatIfAnalysis::run(seq, s);
        const double sec = wall.nsecsElapsed() / 1e9;
        double sum = 0.0, worst = 0.0, lruSum = 0.0, lruWorst = 0.0;
        int n = 0, lruN = 0;
        for (size_t p = 0; p < exact->curves().size(); ++p) {
            const auto &e = exact->curves()[p], &a = sampled->curves()[p];
            for (size_t j = 0; j < e.capacities.size(); ++j) {
                const double err = std::abs(a.prefetchHitRatio[j] - e.prefetchHitRatio[j]);
                sum += err;
                worst = std::max(worst, err);
                ++n;
                if (e.policy == CachePolicy::Kind::Lru) {
                    lruSum += err;
                    lruWorst = std::max(lruWorst, err);
                    ++lruN;
                }
            }
        }
        out << "SHARDS " << rate << ": " << QString::number(sec, 'f', 2)
            << " s wall; prefetch hit ratio error, all policies: mean "
            << QString::number(sum / std::max(1, n), 'f', 4) << ", max "
            << QString::number(worst, 'f', 4) << "; LRU: mean "
            << QString::number(lruSum / std::max(1, lruN), 'f', 4) << ", max "
            << QString::number(lruWorst, 'f', 4) << "\n";
        out.flush();
    }
    return 0;
}
