// UseSequence from crafted traces (uses, scopes, counted prefetches, sizes from layouts) and
// WhatIfAnalysis against the per-capacity simulators: every policy's curve, LRU's exact curve
// against its simulator, SHARDS sampling, cancel and the per-policy callback.

#include "cache/keyanalysis.h"
#include "cachetracewriter.h"
#include "trace/traceloader.h"
#include "whatif/cachepolicy.h"
#include "whatif/usesequence.h"
#include "whatif/whatifanalysis.h"

#include <QMutex>
#include <QtTest>
#include <cmath>
#include <map>
#include <random>

using namespace lmct;
using namespace lmct::test;
using Kind = CachePolicy::Kind;

namespace {

std::shared_ptr<const TraceDocument> load(const QByteArray &bytes) {
    QString error;
    auto doc = TraceLoader::loadBytes(bytes, QStringLiteral("whatif.lct"), &error);
    if (!doc) {
        qWarning("%s", qPrintable(error));
    }
    return doc;
}

/** Key n of `model` with cache_salt `salt`, none when `salt` is null. */
TKey keyOf(int n, const QString &model, const char *salt) {
    TKey k = key(n);
    k.model = model;
    if (salt) {
        k.salt = QString::fromLatin1(salt);
    } else {
        k.salt.reset();
    }
    return k;
}

/** A random stream of `uses` uses over `keys` keys (skewed), kinds random. */
struct Stream {
    std::vector<quint32> keys;
    std::vector<quint8> kinds;
    std::vector<quint64> sizes;
};

Stream randomStream(quint32 seed, int uses, quint32 keys, int sizes, double skew = 3.0) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    Stream s;
    for (int i = 0; i < uses; ++i) {
        const double x = u(rng);
        s.keys.push_back(std::min(keys - 1, quint32(double(keys) * std::pow(x, skew))));
        const quint32 r = rng() % 10;
        s.kinds.push_back(r < 3 ? UseSequence::Write
                                : (r < 8 ? UseSequence::Prefetch : UseSequence::Read));
    }
    if (sizes == 1) {  // all equal
        s.sizes.assign(keys, 4096);
    } else if (sizes == 2) {  // random
        for (quint32 k = 0; k < keys; ++k) {
            s.sizes.push_back(1000 + rng() % 9000);
        }
    }
    return s;
}

/** The per-capacity simulator, fed by access(). */
CachePolicy::Tally simulate(Kind kind, const UseSequence &seq, quint64 cap, bool inBytes) {
    auto sim = CachePolicy::create(kind, cap, seq);
    CachePolicy::Tally t;
    for (quint32 i = 0; i < seq.size(); ++i) {
        const quint32 k = seq.keyAt(i);
        const bool hit = sim->access(k, inBytes ? seq.sizeOf(k) : 1, i);
        t.misses += hit ? 0 : 1;
        t.prefetchHits += hit && seq.isCounted(i) ? 1 : 0;
    }
    return t;
}

}  // namespace

class TestWhatIfAnalysis : public QObject {
    Q_OBJECT

private slots:
    void sequenceFromTrace() {
        const QString a = QStringLiteral("Qwen/Qwen3-8B"), b = QStringLiteral("meta/Llama-70B");
        const TKey a1 = keyOf(1, a, "t1"), a2 = keyOf(2, a, "t2");
        const TKey a3 = keyOf(3, a, nullptr), b1 = keyOf(11, b, "t1");
        CacheTraceWriter w;
        w.call(0.5, QStringLiteral("submit_prefetch_task"), {a1}, KeysAt::Spec);  // not counted
        w.reserveWithLayout(1.0, {a1, a2}, {2, 4});                           // 16 bytes per object
        w.reserveWithLayout(1.1, {b1}, {4, 4}, "reserve_write_with_status");  // 32
        w.call(2.0, QStringLiteral("finish_write"), {a1, a2, a3});
        w.call(2.5, QStringLiteral("finish_write"), {b1});
        w.call(3.0, QStringLiteral("submit_prefetch_task"), {a1, a2, a1}, KeysAt::Spec);
        w.call(4.0, QStringLiteral("read_prefetched_results.__enter__"), {a1, a2});
        w.finishRead(4.5, {a1, a2});  // not a use
        w.call(5.0, QStringLiteral("submit_prefetch_task"), {b1, a3}, KeysAt::Grouped);
        w.plain(6.0);  // abort_write, no keys
        const auto doc = load(w.bytes());
        QVERIFY(doc);
        const auto ka = KeyAnalysis::build(*doc);
        const auto all = UseSequence::build(*doc, ka);
        QVERIFY(all);
        // 1 + 3 + 1 + 3 + 2 + 2 uses.
        QCOMPARE(all->size(), quint32(12));
        QCOMPARE(all->keyCount(), quint32(4));
        QCOMPARE(all->prefetchOccurrences(), qint64(6));
        int counted = 0;
        for (quint32 i = 0; i < all->size(); ++i) {
            counted += all->isCounted(i) ? 1 : 0;
            QCOMPARE(all->timeAt(i), ka->timeAt(all->keyRecordAt(i)));
        }
        QCOMPARE(counted, 5);  // all but the first submit
        QVERIFY(!all->isCounted(0));
        QCOMPARE(all->kindAt(0), UseSequence::Prefetch);
        QCOMPARE(all->kindAt(1), UseSequence::Write);
        QCOMPARE(all->timeAt(8), 4.0);
        QCOMPARE(all->kindAt(8), UseSequence::Read);
        // Local ids in order of first use: a1, a2, a3, b1; a record naming a1 twice: two uses.
        QCOMPARE(all->keyAt(0), quint32(0));
        QCOMPARE(all->keyAt(5), quint32(0));
        QCOMPARE(all->keyAt(7), quint32(0));
        QCOMPARE(all->keyAt(4), quint32(3));
        QVERIFY(all->hasSizes());
        QCOMPARE(all->sizeOf(0), quint64(16));
        QCOMPARE(all->sizeOf(2), quint64(16));  // a3: its model's layout
        QCOMPARE(all->sizeOf(3), quint64(32));
        QCOMPARE(all->totalBytes(), quint64(16 * 3 + 32));
        const auto next = all->nextUse();
        QCOMPARE(next[0], quint32(1));
        QCOMPARE(next[11], UseSequence::kNever);

        const int ma = int(ka->models().indexOf(a)), mb = int(ka->models().indexOf(b));
        const auto onlyA = UseSequence::build(*doc, ka, {ma, UseSequence::kAll});
        QCOMPARE(onlyA->size(), quint32(10));
        QCOMPARE(onlyA->keyCount(), quint32(3));
        QCOMPARE(onlyA->prefetchOccurrences(), qint64(5));
        const auto onlyB = UseSequence::build(*doc, ka, {mb, UseSequence::kAll});
        QCOMPARE(onlyB->size(), quint32(2));
        QCOMPARE(onlyB->sizeOf(0), quint64(32));
        QCOMPARE(onlyB->scope().model, mb);
        const int t1 = int(ka->salts().indexOf(QStringLiteral("t1")));
        const auto tenant1 = UseSequence::build(*doc, ka, {UseSequence::kAll, t1});
        QCOMPARE(tenant1->size(), quint32(1 + 1 + 1 + 2 + 1 + 1));  // a1 ×5, b1 ×2
        QCOMPARE(tenant1->keyCount(), quint32(2));
        const auto t1a = UseSequence::build(*doc, ka, {ma, t1});
        QCOMPARE(t1a->size(), quint32(5));
        const auto noSalt = UseSequence::build(*doc, ka, {UseSequence::kAll, UseSequence::kNoSalt});
        QCOMPARE(noSalt->size(), quint32(2));  // a3: finish, submit
        QCOMPARE(noSalt->prefetchOccurrences(), qint64(1));
        QVERIFY(noSalt->isCounted(1));
    }

    void sequenceWithoutLayouts() {
        CacheTraceWriter w;
        w.call(1.0, QStringLiteral("reserve_write"), {key(1)});
        w.call(2.0, QStringLiteral("finish_write"), {key(1)});
        w.call(3.0, QStringLiteral("submit_prefetch_task"), {key(1)}, KeysAt::Spec);
        const auto doc = load(w.bytes());
        const auto ka = KeyAnalysis::build(*doc);
        const auto seq = UseSequence::build(*doc, ka);
        QCOMPARE(seq->size(), quint32(2));
        QVERIFY(!seq->hasSizes());
        QCOMPARE(seq->sizeOf(0), quint64(0));
        QCOMPARE(seq->totalBytes(), quint64(0));
        WhatIfAnalysis::Options o;
        o.unit = WhatIfAnalysis::Unit::Bytes;
        const auto wa = WhatIfAnalysis::run(seq, o);
        QVERIFY(!wa->error().isEmpty());
        QCOMPARE(wa->curves().size(), size_t(CachePolicy::kKindCount));
        for (const auto &c : wa->curves()) {
            QVERIFY(c.capacities.empty() && c.prefetchHits.empty());
        }
        // In chunks the same sequence works.
        const auto chunks = WhatIfAnalysis::run(seq, {});
        QVERIFY(chunks->error().isEmpty());
        QCOMPARE(chunks->curve(Kind::Lru)->prefetchHits.front(), qint64(1));
    }

    void cancelledBuild() {
        CacheTraceWriter w;
        w.call(2.0, QStringLiteral("finish_write"), {key(1)});
        const auto doc = load(w.bytes());
        std::atomic_bool cancel{true};
        QVERIFY(!UseSequence::build(*doc, KeyAnalysis::build(*doc), {}, {}, &cancel));
    }

    void fromKeys() {
        const std::vector<quint32> keys = {3, 0, 3, 3};
        const std::vector<quint8> kinds = {UseSequence::Prefetch, UseSequence::Write,
                                           UseSequence::Write, UseSequence::Prefetch};
        const auto seq = UseSequence::fromKeys(keys, kinds);
        QCOMPARE(seq->keyCount(), quint32(4));
        QCOMPARE(seq->prefetchOccurrences(), qint64(2));
        QVERIFY(!seq->isCounted(0));
        QVERIFY(seq->isCounted(3));
        QVERIFY(!seq->hasSizes());
        QCOMPARE(seq->sizeOf(3), quint64(1));
        QVERIFY(std::isnan(seq->timeAt(0)));
        QCOMPARE(seq->keyRecordAt(0), -1);
    }

    void defaultCapacities() {
        const Stream s = randomStream(1, 100, 100, 2);
        const auto seq = UseSequence::fromKeys(s.keys, s.kinds, s.sizes);
        const auto c = WhatIfAnalysis::defaultCapacities(*seq, WhatIfAnalysis::Unit::Chunks);
        QCOMPARE(c.front(), quint64(1));
        QVERIFY(c.back() >= seq->keyCount() && c.back() / 2 < seq->keyCount());
        const auto b = WhatIfAnalysis::defaultCapacities(*seq, WhatIfAnalysis::Unit::Bytes);
        const quint64 largest = *std::max_element(s.sizes.begin(), s.sizes.end());
        QCOMPARE(b.size(), c.size());
        QCOMPARE(b.back(), c.back() * largest);
    }

    /** Every policy's curve equals its simulator run capacity by capacity. */
    void curvesEqualSimulators_data() {
        QTest::addColumn<int>("sizes");
        QTest::addColumn<bool>("inBytes");
        QTest::newRow("chunks") << 0 << false;
        QTest::newRow("bytes-uniform") << 1 << true;
        QTest::newRow("bytes-random") << 2 << true;
    }
    void curvesEqualSimulators() {
        QFETCH(int, sizes);
        QFETCH(bool, inBytes);
        const Stream s = randomStream(5, 4000, 300, sizes);
        const auto seq = UseSequence::fromKeys(s.keys, s.kinds, s.sizes);
        WhatIfAnalysis::Options o;
        o.unit = inBytes ? WhatIfAnalysis::Unit::Bytes : WhatIfAnalysis::Unit::Chunks;
        const quint64 unit = inBytes ? 10000 : 1;  // at least the largest key
        o.capacities = {300 * unit, unit, 7 * unit, 40 * unit, 100 * unit};  // any order
        const auto wa = WhatIfAnalysis::run(seq, o);
        QVERIFY(wa);
        QCOMPARE(wa->curves().size(), size_t(CachePolicy::kKindCount));
        for (const auto &c : wa->curves()) {
            QVERIFY(std::is_sorted(c.capacities.begin(), c.capacities.end()));
            QCOMPARE(c.capacities.size(), size_t(5));
            for (size_t j = 0; j < c.capacities.size(); ++j) {
                const auto want = simulate(c.policy, *seq, c.capacities[j], inBytes);
                QCOMPARE(c.prefetchHits[j], want.prefetchHits);
                QCOMPARE(c.misses[j], want.misses);
                QCOMPARE(c.prefetchHitRatio[j],
                         double(want.prefetchHits) / double(seq->prefetchOccurrences()));
                QCOMPARE(c.missRatio[j], double(want.misses) / double(seq->size()));
            }
            QVERIFY(c.usesPerSecond > 0);
        }
        const auto *opt = wa->curve(Kind::Opt);
        for (const auto &c : wa->curves()) {
            for (size_t j = 0; j < c.capacities.size() && !inBytes; ++j) {
                QVERIFY(opt->misses[j] <= c.misses[j]);
            }
        }
    }

    /** LRU's exact curve (stack distances) against its simulator at every capacity. */
    void lruExact_data() {
        QTest::addColumn<int>("sizes");
        QTest::newRow("chunks") << 0;
        QTest::newRow("bytes-uniform") << 1;
        QTest::newRow("bytes-random") << 2;
    }
    void lruExact() {
        QFETCH(int, sizes);
        const bool inBytes = sizes > 0;
        const Stream s = randomStream(9, 1500, 60, sizes);
        const auto seq = UseSequence::fromKeys(s.keys, s.kinds, s.sizes);
        WhatIfAnalysis::Options o;
        o.policies = {Kind::Lru};
        o.unit = inBytes ? WhatIfAnalysis::Unit::Bytes : WhatIfAnalysis::Unit::Chunks;
        const auto wa = WhatIfAnalysis::run(seq, o);
        QCOMPARE(wa->curves().size(), size_t(1));
        const quint64 largest = inBytes ? *std::max_element(s.sizes.begin(), s.sizes.end()) : 1;
        const quint64 top = inBytes ? seq->totalBytes() + 1 : seq->keyCount() + 1;
        const quint64 step = inBytes ? 997 : 1;
        qint64 lastHits = -1;
        for (quint64 cap = largest; cap <= top; cap += step) {
            const auto want = simulate(Kind::Lru, *seq, cap, inBytes);
            QCOMPARE(wa->lruPrefetchHits(cap), want.prefetchHits);
            QCOMPARE(wa->lruMisses(cap), want.misses);
            if (want.prefetchHits > lastHits) {
                // The smallest capacity reaching these hits is at most this one.
                const quint64 c = wa->lruCapacityFor(want.prefetchHits);
                QVERIFY(c > 0 && c <= cap);
                QVERIFY(simulate(Kind::Lru, *seq, c, inBytes).prefetchHits >= want.prefetchHits);
                if (c > largest) {
                    QVERIFY(simulate(Kind::Lru, *seq, c - 1, inBytes).prefetchHits <
                            want.prefetchHits);
                }
                lastHits = want.prefetchHits;
            }
        }
        QCOMPARE(wa->lruCapacityFor(seq->prefetchOccurrences() + 1), quint64(0));
    }

    void sampleRateOneIsExact() {
        const Stream s = randomStream(11, 3000, 200, 0);
        const auto seq = UseSequence::fromKeys(s.keys, s.kinds);
        WhatIfAnalysis::Options o;
        const auto exact = WhatIfAnalysis::run(seq, o);
        o.sampleRate = 1.0;
        const auto one = WhatIfAnalysis::run(seq, o);
        QCOMPARE(one->curves().size(), exact->curves().size());
        for (size_t p = 0; p < one->curves().size(); ++p) {
            QCOMPARE(one->curves()[p].prefetchHits, exact->curves()[p].prefetchHits);
            QCOMPARE(one->curves()[p].misses, exact->curves()[p].misses);
        }
    }

    /** SHARDS at 0.1 on a big stream: the ratios stay close to the exact ones. */
    void sampledCloseToExact() {
        // Popularity spread over many keys: no single key weighs much in the ratio (a key of
        // several percent of all uses is in the sample or not, moving the ratio by as much).
        const Stream s = randomStream(13, 1000000, 100000, 0, 1.5);
        const auto seq = UseSequence::fromKeys(s.keys, s.kinds);
        WhatIfAnalysis::Options o;
        o.policies = {Kind::Lru, Kind::Fifo, Kind::S3Fifo};
        o.capacities = {100, 400, 1600, 6400, 25600};
        const auto exact = WhatIfAnalysis::run(seq, o);
        o.sampleRate = 0.1;
        const auto sampled = WhatIfAnalysis::run(seq, o);
        QVERIFY(sampled);
        double worst = 0.0;
        for (size_t p = 0; p < o.policies.size(); ++p) {
            const auto &e = exact->curves()[p], &a = sampled->curves()[p];
            QCOMPARE(a.policy, e.policy);
            for (size_t j = 0; j < e.capacities.size(); ++j) {
                worst = std::max(worst, std::abs(a.prefetchHitRatio[j] - e.prefetchHitRatio[j]));
                worst = std::max(worst, std::abs(a.missRatio[j] - e.missRatio[j]));
                // Counts are scaled back to the whole sequence.
                QVERIFY(std::abs(double(a.prefetchHits[j]) / double(seq->prefetchOccurrences()) -
                                 a.prefetchHitRatio[j]) < 1e-3);
            }
        }
        QVERIFY2(worst < 0.01, qPrintable(QString::number(worst)));
        // A sample is what it says: about a tenth of the keys, with all their uses.
        const auto sub = seq->sampled(0.1);
        std::vector<quint8> used(seq->keyCount(), 0);
        for (const quint32 k : s.keys) {
            used[k] = 1;
        }
        const double fraction =
            double(sub->keyCount()) / double(std::count(used.begin(), used.end(), 1));
        QVERIFY2(fraction > 0.09 && fraction < 0.11, qPrintable(QString::number(fraction)));
        // Sampled keys keep every use (keys matched by their hash).
        std::map<quint64, int> full, kept;
        for (const quint32 k : s.keys) {
            ++full[seq->sampleHash(k)];
        }
        for (const quint32 k : sub->keys()) {
            ++kept[sub->sampleHash(k)];
        }
        for (const auto &[h, n] : kept) {
            QCOMPARE(n, full[h]);
        }
    }

    void cancelled() {
        const Stream s = randomStream(3, 5000, 100, 0);
        const auto seq = UseSequence::fromKeys(s.keys, s.kinds);
        std::atomic_bool cancel{true};
        QVERIFY(!WhatIfAnalysis::run(seq, {}, {}, {}, &cancel));
    }

    void onCurveOncePerPolicy() {
        const Stream s = randomStream(4, 5000, 100, 0);
        const auto seq = UseSequence::fromKeys(s.keys, s.kinds);
        std::map<int, int> calls;
        QMutex m;
        int lastPercent = -1;
        bool monotone = true;
        const auto wa = WhatIfAnalysis::run(
            seq, {},
            [&](int percent) {
                QMutexLocker lock(&m);
                monotone = monotone && percent >= lastPercent && percent <= 100;
                lastPercent = percent;
            },
            [&](const WhatIfAnalysis::Curve &c) {
                QMutexLocker lock(&m);
                ++calls[int(c.policy)];
                QCOMPARE(c.capacities.size(), c.prefetchHits.size());
            });
        QVERIFY(wa);
        QCOMPARE(calls.size(), size_t(CachePolicy::kKindCount));
        for (const auto &[k, n] : calls) {
            QCOMPARE(n, 1);
        }
        QVERIFY(monotone);
        QCOMPARE(lastPercent, 100);
        // Curves in the order of CachePolicy::all().
        for (size_t p = 0; p < wa->curves().size(); ++p) {
            QCOMPARE(wa->curves()[p].policy, CachePolicy::all()[p]);
        }
    }
};

QTEST_GUILESS_MAIN(TestWhatIfAnalysis)
#include "tst_whatifanalysis.moc"
