// ConfiguredRun: the configured L1 capacity and policy (sm_config_json) read against the what-if
// curves, and the sentence the What-if tab writes about them.

#include "configsamples.h"
#include "trace/storagemanagerconfig.h"
#include "whatif/configuredrun.h"
#include "whatif/usesequence.h"
#include "whatif/whatifanalysis.h"

#include <QLocale>
#include <QtTest>

using namespace lmct;
using namespace lmct::test;
using Unit = WhatIfAnalysis::Unit;
using Kind = CachePolicy::Kind;

namespace {

constexpr quint64 kMiB = quint64(1) << 20;
constexpr quint64 kGiB = quint64(1) << 30;

/** 1000 keys of `perKey` bytes each. */
ChunkSize sized(quint64 perKey) {
    return ChunkSize(1000, 1000 * perKey, perKey, perKey);
}

WhatIfAnalysis::Curve curve(Kind kind, std::vector<quint64> caps, std::vector<qint64> hits,
                            qint64 prefetches) {
    WhatIfAnalysis::Curve c;
    c.policy = kind;
    c.capacities = std::move(caps);
    c.prefetchHits = std::move(hits);
    for (qint64 h : c.prefetchHits) {
        c.prefetchHitRatio.push_back(double(h) / double(prefetches));
    }
    return c;
}

}  // namespace

class TestConfiguredRun : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void readsTheHeadersConfig() {
        const auto run = ConfiguredRun::fromConfig(StorageManagerConfig::fromJson(kLmcacheConfig));
        QVERIFY(run);
        QCOMPARE(run->l1Bytes(), 48 * kGiB);
        QCOMPARE(run->policyText(), QStringLiteral("LRU"));
        QCOMPARE(run->policy(), std::optional<Kind>(Kind::Lru));
        // no config, or no L1 size: nothing configured to mark
        QVERIFY(!ConfiguredRun::fromConfig(StorageManagerConfig::fromJson(QString())));
        QVERIFY(!ConfiguredRun::fromConfig(
            StorageManagerConfig::fromJson(QStringLiteral(R"({"eviction_config": {}})"))));
        QVERIFY(!ConfiguredRun::fromConfig(StorageManagerConfig::fromJson(
            QStringLiteral(R"({"l1_manager_config": {"memory_config": {"size_in_bytes": -3}}})"))));
        // a policy the what-if does not simulate
        const ConfiguredRun mru(kGiB, QStringLiteral("MRU"));
        QVERIFY(!mru.policy());
        QCOMPARE(ConfiguredRun(kGiB, QStringLiteral("s3-fifo")).policy(),
                 std::optional<Kind>(Kind::S3Fifo));
    }

    void capacityInChunksAndBytes() {
        const ConfiguredRun run(48 * kGiB, QStringLiteral("LRU"));
        QCOMPARE(run.capacityIn(Unit::Bytes, ChunkSize()), 48 * kGiB);
        QCOMPARE(run.capacityIn(Unit::Chunks, sized(2 * kMiB)), quint64(24576));
        QCOMPARE(run.capacityIn(Unit::Chunks, sized(5 * kMiB)),
                 quint64(48 * 1024 / 5));                                 // rounds down
        QCOMPARE(run.capacityIn(Unit::Chunks, ChunkSize()), quint64(0));  // key sizes unknown
        QCOMPARE(ConfiguredRun(100, QString()).capacityIn(Unit::Chunks, sized(kMiB)), quint64(1));
        // keys of two sizes (two models): the bytes over the mean size, ChunkSize's one rule
        const ChunkSize mixed(3, 2 * kMiB + 36 * kMiB + 36 * kMiB, 2 * kMiB, 36 * kMiB);
        QCOMPARE(run.capacityIn(Unit::Chunks, mixed), *mixed.chunksFor(48 * kGiB));
        QCOMPARE(run.capacityIn(Unit::Chunks, mixed), quint64(48 * 1024 * 3 / 74));
    }

    void bytesText() {
        QCOMPARE(ConfiguredRun::bytesText(double(48 * kGiB)), QStringLiteral("48 GiB"));
        QCOMPARE(ConfiguredRun::bytesText(2.54 * double(kGiB)), QStringLiteral("2.54 GiB"));
        QCOMPARE(ConfiguredRun::bytesText(312.4 * double(kMiB)), QStringLiteral("312 MiB"));
        QCOMPARE(ConfiguredRun::bytesText(58.59375 * double(kGiB)), QStringLiteral("58.6 GiB"));
        QCOMPARE(ConfiguredRun::bytesText(100), QStringLiteral("100 B"));
        QCOMPARE(ConfiguredRun::bytesText(1023.9 * 1024), QStringLiteral("1 MiB"));
        QCOMPARE(ConfiguredRun::percentText(0.412), QStringLiteral("41.2%"));
        // no digit grouping, a point for the decimals: what `lmct whatif --capacity` reads
        QCOMPARE(ConfiguredRun::bytesText(1000.0 * 1024), QStringLiteral("1000 KiB"));
        QCOMPARE(ConfiguredRun::chunksText(24576), QStringLiteral("24576 chunks"));
        QCOMPARE(ConfiguredRun::chunksText(1), QStringLiteral("1 chunk"));
        const QLocale previous;
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        QCOMPARE(ConfiguredRun::bytesText(1.84 * double(kGiB)), QStringLiteral("1.84 GiB"));
        QCOMPARE(ConfiguredRun::bytesText(1000.0 * 1024), QStringLiteral("1000 KiB"));
        QCOMPARE(ConfiguredRun::chunksText(1850), QStringLiteral("1850 chunks"));
        QLocale::setDefault(previous);
    }

    void hitsAtReadsTheSampleBelow() {
        const auto c = curve(Kind::Fifo, {4, 8, 16}, {1, 5, 9}, 10);
        bool exact = false;
        QCOMPARE(ConfiguredRun::hitsAt(c, 8, &exact), std::optional<qint64>(5));
        QVERIFY(exact);
        QCOMPARE(ConfiguredRun::hitsAt(c, 12, &exact), std::optional<qint64>(5));
        QVERIFY(!exact);
        QCOMPARE(ConfiguredRun::hitsAt(c, 100, &exact), std::optional<qint64>(9));
        QVERIFY(!ConfiguredRun::hitsAt(c, 3));
        QVERIFY(!ConfiguredRun::hitsAt(WhatIfAnalysis::Curve(), 3));
    }

    void sentenceInChunks() {
        // 2 MiB per key: 48 GiB hold 24576 chunks, one of the curves' samples.
        const ConfiguredRun run(48 * kGiB, QStringLiteral("LRU"));
        const ConfiguredRun::Scope scope{sized(2 * kMiB), 1000};
        const std::vector<WhatIfAnalysis::Curve> curves{
            curve(Kind::Lru, {1024, 24576, 32768}, {100, 412, 630}, 1000),
            curve(Kind::Opt, {1024, 24576, 32768}, {300, 630, 630}, 1000)};
        // LRU's exact capacity for OPT's hits, from the finished run
        QCOMPARE(run.sentence(Unit::Chunks, scope, curves,
                              [](qint64 hits) { return hits == 630 ? quint64(30000) : 0; }),
                 QStringLiteral("You ran LRU at 48 GiB ≈ 24576 chunks: 41.2% of prefetched keys "
                                "hit; OPT there: 63.0%; LRU reaches 63.0% at 30000 chunks ≈ "
                                "58.6 GiB"));
        // before the run ends: the first LRU sample that reaches it
        QCOMPARE(run.sentence(Unit::Chunks, scope, curves),
                 QStringLiteral("You ran LRU at 48 GiB ≈ 24576 chunks: 41.2% of prefetched keys "
                                "hit; OPT there: 63.0%; LRU reaches 63.0% at 32768 chunks ≈ "
                                "64 GiB or less"));
        // only LRU's curve so far: no OPT part
        QCOMPARE(run.sentence(Unit::Chunks, scope, {curves[0]}),
                 QStringLiteral("You ran LRU at 48 GiB ≈ 24576 chunks: 41.2% of prefetched keys "
                                "hit"));
        // no curves yet
        QCOMPARE(run.sentence(Unit::Chunks, scope, {}),
                 QStringLiteral("You ran LRU at 48 GiB ≈ 24576 chunks"));
        // the configured capacity not among the samples: read below it, marked
        const std::vector<WhatIfAnalysis::Curve> coarse{
            curve(Kind::Lru, {1024, 32768}, {100, 630}, 1000),
            curve(Kind::Opt, {1024, 32768}, {300, 630}, 1000)};
        QCOMPARE(run.sentence(Unit::Chunks, scope, coarse),
                 QStringLiteral("You ran LRU at 48 GiB ≈ 24576 chunks: ≈ 10.0% of prefetched "
                                "keys hit; OPT there: ≈ 30.0%; LRU reaches ≈ 30.0% at 32768 "
                                "chunks ≈ 64 GiB or less"));
    }

    void figuresAreOfOneReplay() {
        // Keys of two sizes (mean 2 MiB): the figures are read from the chunk curves only, and
        // the capacity where LRU reaches OPT is the chunk count lruCapacityFor gives.
        const ConfiguredRun run(48 * kGiB, QStringLiteral("LRU"));
        const ConfiguredRun::Scope scope{ChunkSize(1000, 2000 * kMiB, kMiB, 3 * kMiB), 1000};
        const std::vector<WhatIfAnalysis::Curve> curves{curve(Kind::Lru, {24576}, {412}, 1000),
                                                        curve(Kind::Opt, {24576}, {630}, 1000)};
        const ConfiguredRun::Figures f = run.figures(
            Unit::Chunks, scope, curves, [](qint64 hits) { return hits == 630 ? 30000 : 0; });
        QCOMPARE(f.capacity, quint64(24576));
        QCOMPARE(f.chunks, std::optional<quint64>(24576));
        QVERIFY(f.mine && f.mine->exact && f.mine->hits == 412);
        QVERIFY(f.opt && f.opt->exact && qFuzzyCompare(f.opt->ratio, 0.63));
        QCOMPARE(f.reach, ConfiguredRun::Reach::At);
        QCOMPARE(f.reachAt, quint64(30000));
        // LRU has OPT's hits there already: said so, and the smallest such capacity kept
        const std::vector<WhatIfAnalysis::Curve> equal{curve(Kind::Lru, {24576}, {630}, 1000),
                                                       curve(Kind::Opt, {24576}, {630}, 1000)};
        const ConfiguredRun::Figures g =
            run.figures(Unit::Chunks, scope, equal, [](qint64) { return quint64(20000); });
        QCOMPARE(g.reach, ConfiguredRun::Reach::There);
        QCOMPARE(g.reachAt, quint64(20000));
    }

    void sentenceInBytes() {
        const ConfiguredRun run(48 * kGiB, QStringLiteral("FIFO"));
        const ConfiguredRun::Scope scope{sized(2 * kMiB), 200};
        const std::vector<WhatIfAnalysis::Curve> curves{
            curve(Kind::Fifo, {kGiB, 48 * kGiB}, {50, 120}, 200),
            curve(Kind::Opt, {kGiB, 48 * kGiB}, {90, 150}, 200),
            curve(Kind::Lru, {kGiB, 48 * kGiB}, {60, 130}, 200)};
        QCOMPARE(
            run.sentence(Unit::Bytes, scope, curves, [](qint64) { return quint64(64) * kGiB; }),
            QStringLiteral("You ran FIFO at 48 GiB ≈ 24576 chunks: 60.0% of prefetched keys "
                           "hit; OPT there: 75.0%; LRU reaches 75.0% at 64 GiB ≈ 32768 "
                           "chunks"));
        // LRU never gets there (a sampled run)
        QVERIFY(run.sentence(Unit::Bytes, scope, curves, [](qint64) { return quint64(0); })
                    .endsWith(QStringLiteral("; LRU never reaches 75.0%")));
    }

    void sentenceEdges() {
        const ConfiguredRun::Scope scope{sized(2 * kMiB), 10};
        const std::vector<WhatIfAnalysis::Curve> curves{curve(Kind::Lru, {8, 24576}, {2, 7}, 10),
                                                        curve(Kind::Opt, {8, 24576}, {4, 7}, 10)};
        // OPT configured: no "OPT there"; LRU equals OPT at the configured capacity
        QCOMPARE(
            ConfiguredRun(48 * kGiB, QStringLiteral("OPT")).sentence(Unit::Chunks, scope, curves),
            QStringLiteral("You ran OPT at 48 GiB ≈ 24576 chunks: 70.0% of prefetched keys "
                           "hit; LRU reaches it there too"));
        // a policy not simulated is named as written
        QCOMPARE(
            ConfiguredRun(48 * kGiB, QStringLiteral("MRU")).sentence(Unit::Chunks, scope, curves),
            QStringLiteral("You ran MRU (not simulated) at 48 GiB ≈ 24576 chunks; OPT "
                           "there: 70.0%; LRU reaches it there too"));
        // no policy in the config
        QVERIFY(ConfiguredRun(48 * kGiB, QString())
                    .sentence(Unit::Chunks, scope, {})
                    .startsWith(QStringLiteral("You ran an L1 of 48 GiB ≈ 24576 chunks")));
        // chunks without key sizes
        QCOMPARE(ConfiguredRun(48 * kGiB, QStringLiteral("LRU"))
                     .sentence(Unit::Chunks, {ChunkSize(), 10}, curves),
                 QStringLiteral("You ran LRU at 48 GiB; without a memory layout for every key, its "
                                "size in chunks is unknown"));
        // no prefetches in the scope
        QCOMPARE(ConfiguredRun(48 * kGiB, QStringLiteral("LRU"))
                     .sentence(Unit::Bytes, {ChunkSize(), 0}, {}),
                 QStringLiteral("You ran LRU at 48 GiB; the scope has no prefetches to hit"));
    }

    void sentenceOfARealRun() {
        // Keys 0..3 of 1 MiB written, then prefetched in a loop: LRU at 3 chunks misses every
        // prefetch of the loop, OPT keeps two keys, FIFO is LRU here.
        std::vector<quint32> keys;
        std::vector<quint8> kinds;
        for (quint32 k = 0; k < 4; ++k) {
            keys.push_back(k);
            kinds.push_back(UseSequence::Write);
        }
        for (int round = 0; round < 5; ++round) {
            for (quint32 k = 0; k < 4; ++k) {
                keys.push_back(k);
                kinds.push_back(UseSequence::Prefetch);
            }
        }
        const std::vector<quint64> sizes(4, kMiB);
        const auto uses = UseSequence::fromKeys(keys, kinds, sizes);
        QVERIFY(uses && uses->hasSizes());
        const ConfiguredRun run(3 * kMiB, QStringLiteral("LRU"));
        const ChunkSize bpc = ChunkSize::of(*uses);
        QCOMPARE(bpc.perKey(), kMiB);
        WhatIfAnalysis::Options o;
        o.policies = {Kind::Lru, Kind::Opt};
        o.capacities = {1, 2, run.capacityIn(Unit::Chunks, bpc), 4};
        const auto result = WhatIfAnalysis::run(uses, o);
        QVERIFY(result);
        const QString s =
            run.sentence(Unit::Chunks, {bpc, uses->prefetchOccurrences()}, result->curves(),
                         [&](qint64 hits) { return result->lruCapacityFor(hits); });
        // 20 prefetches; LRU at 3: none hit; OPT at 3 keeps 2 of the 3 others: 2 in 3 after the
        // first round
        const qint64 optHits = result->curve(Kind::Opt)->prefetchHits[2];
        QVERIFY(optHits > 0);
        QCOMPARE(s, QStringLiteral("You ran LRU at 3 MiB ≈ 3 chunks: 0.0% of prefetched keys hit; "
                                   "OPT there: %1; LRU reaches %1 at 4 chunks ≈ 4 MiB")
                        .arg(ConfiguredRun::percentText(double(optHits) / 20.0)));
    }
};

QTEST_GUILESS_MAIN(TestConfiguredRun)
#include "tst_configuredrun.moc"
