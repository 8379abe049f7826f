// `lmct whatif`: the JSON schema (keys, types, ranges, array lengths), LRU and OPT against an
// independent replay of a small stream, capacities through the CLI (counts, sizes converted by
// the layout's bytes per object, sizes in bytes when the keys differ in size, bad lists), the
// scope (--model, --salt), --policy, --sample, the text table and the configured-capacity line,
// sizes that are no whole bytes, the unit and sample rate in the JSON, the damage warning, a
// trace cut while it is read, exit codes.

#include "configsamples.h"
#include "cutwhilerunning.h"
#include "testutil.h"
#include "whatif/configuredrun.h"
#include "whatifclifixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <algorithm>
#include <csignal>

using namespace lmct;
using namespace lmct::test;
using namespace lmct::test::whatifcli;

class TestWhatIfCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::vector<Use> m_stream;
    QString m_plain;            // the stream, layout, no config
    QString m_config;           // the stream, layout, LMCache's config (48 GiB, LRU)
    QString m_noLayout;         // the stream, no layout, LMCache's config
    QString m_twoModels;        // model A (36 MiB per object) and model B (1 MiB), tenants
    QString m_twoModelsConfig;  // the same, with LMCache's config (48 GiB, LRU)

    QString save(const char *name, const QByteArray &bytes) {
        return writeFile(m_dir, QLatin1String(name), bytes);
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_stream = stream(400, 24, 7);
        WhatIfTrace plain;
        plain.uses(m_stream);
        m_plain = save("plain.lct", plain.bytes());
        WhatIfTrace config(QString::fromLatin1(kLmcacheConfig));
        config.uses(m_stream);
        m_config = save("config.lct", config.bytes());
        WhatIfTrace noLayout(QString::fromLatin1(kLmcacheConfig), false);
        noLayout.uses(m_stream);
        m_noLayout = save("nolayout.lct", noLayout.bytes());
        WhatIfTrace two;
        const std::vector<Use> a = stream(60, 6, 11), b = stream(40, 5, 13);
        two.uses(a, kModelA, "tenant-a");
        two.uses(b, kModelB, "tenant-b");
        m_twoModels = save("two.lct", two.bytes());
        WhatIfTrace twoConfig(QString::fromLatin1(kLmcacheConfig));
        twoConfig.uses(a, kModelA, "tenant-a");
        twoConfig.uses(b, kModelB, "tenant-b");
        m_twoModelsConfig = save("two-config.lct", twoConfig.bytes());
        for (const QString &f : {m_plain, m_config, m_noLayout, m_twoModels, m_twoModelsConfig}) {
            QVERIFY(!f.isEmpty());
        }
    }

    void jsonSchema() {
        const Run r = runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), m_config});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());  // no progress: stderr is not a terminal
        QVERIFY(r.out.endsWith('\n'));
        const QJsonObject o = jsonOf(r);
        QStringList top = o.keys();
        std::sort(top.begin(), top.end());
        QCOMPARE(top,
                 QStringList({QStringLiteral("configured"), QStringLiteral("distinct_keys"),
                              QStringLiteral("policies"), QStringLiteral("prefetch_occurrences"),
                              QStringLiteral("unit"), QStringLiteral("uses")}));
        QCOMPARE(o[QStringLiteral("unit")].toString(), QStringLiteral("chunks"));
        QVERIFY(o[QStringLiteral("uses")].isDouble());
        QCOMPARE(o[QStringLiteral("uses")].toInteger(), qint64(m_stream.size()));
        QCOMPARE(o[QStringLiteral("distinct_keys")].toInteger(), qint64(distinctKeys(m_stream)));
        QCOMPARE(o[QStringLiteral("prefetch_occurrences")].toInteger(), prefetches(m_stream));

        const QJsonObject configured = o[QStringLiteral("configured")].toObject();
        QStringList ck = configured.keys();
        std::sort(ck.begin(), ck.end());
        QCOMPARE(ck, QStringList({QStringLiteral("chunks"), QStringLiteral("l1_bytes"),
                                  QStringLiteral("policy")}));
        QCOMPARE(configured[QStringLiteral("l1_bytes")].toInteger(), qint64(51539607552));
        QCOMPARE(configured[QStringLiteral("policy")].toString(), QStringLiteral("LRU"));
        QCOMPARE(configured[QStringLiteral("chunks")].toInteger(), qint64(51539607552 / kBig));

        const QJsonObject policies = o[QStringLiteral("policies")].toObject();
        QStringList names = policies.keys();
        std::sort(names.begin(), names.end());
        QStringList expected = kPolicies;
        std::sort(expected.begin(), expected.end());
        QCOMPARE(names, expected);
        // Default capacities: powers of two from 1 to the first at or above the distinct keys.
        QList<quint64> powers;
        for (quint64 c = 1;; c *= 2) {
            powers << c;
            if (c >= quint64(distinctKeys(m_stream))) {
                break;
            }
        }
        for (const QString &name : kPolicies) {
            const QJsonObject p = policies[name].toObject();
            QStringList pk = p.keys();
            std::sort(pk.begin(), pk.end());
            QCOMPARE(pk, QStringList({QStringLiteral("capacities"), QStringLiteral("miss_ratio"),
                                      QStringLiteral("prefetch_hit_ratio")}));
            const QJsonArray caps = p[QStringLiteral("capacities")].toArray();
            const QJsonArray hit = p[QStringLiteral("prefetch_hit_ratio")].toArray();
            const QJsonArray miss = p[QStringLiteral("miss_ratio")].toArray();
            QCOMPARE(caps.size(), powers.size());
            QCOMPARE(hit.size(), caps.size());
            QCOMPARE(miss.size(), caps.size());
            QCOMPARE(capacitiesOf(o, name), powers);
            for (int i = 0; i < caps.size(); ++i) {
                QVERIFY(caps[i].isDouble());
                QVERIFY(hit[i].isDouble());
                QVERIFY(miss[i].isDouble());
                QVERIFY2(hit[i].toDouble() >= 0.0 && hit[i].toDouble() <= 1.0, qPrintable(name));
                QVERIFY2(miss[i].toDouble() >= 0.0 && miss[i].toDouble() <= 1.0, qPrintable(name));
            }
        }
    }

    void lruAndOptEqualAnIndependentReplay() {
        const QList<quint64> caps = {1, 2, 3, 5, 8, 13, 24, 100};
        const Run r =
            runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), QStringLiteral("--policy"),
                     QStringLiteral("lru,opt"), QStringLiteral("--capacity"),
                     QStringLiteral("100,1,2,3,5,8,13,24,8"), m_plain});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = jsonOf(r);
        const double n = double(m_stream.size());
        const double p = double(prefetches(m_stream));
        QVERIFY(p > 50);
        const std::vector<bool> countedFlags = countedPrefetches(m_stream);
        const qint64 counted = std::count(countedFlags.begin(), countedFlags.end(), true);
        QVERIFY(counted > 20);
        qint64 lruHitsSum = 0;
        for (const QString &name : {QStringLiteral("lru"), QStringLiteral("opt")}) {
            QCOMPARE(capacitiesOf(o, name), caps);  // sorted, repeat dropped
            const QJsonObject c = o[QStringLiteral("policies")][name].toObject();
            for (int i = 0; i < caps.size(); ++i) {
                const Counts want =
                    name == QLatin1String("lru") ? lru(m_stream, caps[i]) : opt(m_stream, caps[i]);
                const double hit = c[QStringLiteral("prefetch_hit_ratio")][i].toDouble();
                const double miss = c[QStringLiteral("miss_ratio")][i].toDouble();
                QVERIFY2(qAbs(hit - double(want.prefetchHits) / p) < 1e-12,
                         qPrintable(QStringLiteral("%1 at %2: %3, want %4/%5")
                                        .arg(name)
                                        .arg(caps[i])
                                        .arg(hit)
                                        .arg(want.prefetchHits)
                                        .arg(p)));
                QVERIFY2(qAbs(miss - double(want.misses) / n) < 1e-12,
                         qPrintable(QStringLiteral("%1 at %2: miss %3, want %4/%5")
                                        .arg(name)
                                        .arg(caps[i])
                                        .arg(miss)
                                        .arg(want.misses)
                                        .arg(n)));
                if (name == QLatin1String("lru")) {
                    lruHitsSum += want.prefetchHits;
                }
            }
            // Everything fits: every counted prefetch hits, every key misses once.
            QCOMPARE(c[QStringLiteral("prefetch_hit_ratio")][caps.size() - 1].toDouble(),
                     double(counted) / p);
            QCOMPARE(c[QStringLiteral("miss_ratio")][caps.size() - 1].toDouble(),
                     double(distinctKeys(m_stream)) / n);
        }
        QVERIFY(lruHitsSum > 0);
        // The stream is not trivial: LRU at 3 chunks misses some reuse that OPT keeps.
        QVERIFY(lru(m_stream, 3).misses > opt(m_stream, 3).misses);
    }

    void optMissesNoMoreThanAnyPolicy() {
        const Run r =
            runLmct({QStringLiteral("whatif"), QStringLiteral("--json"),
                     QStringLiteral("--capacity"), QStringLiteral("1,2,4,6,9,16,24"), m_plain});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = jsonOf(r);
        const QJsonArray optMiss =
            o[QStringLiteral("policies")][QStringLiteral("opt")][QStringLiteral("miss_ratio")]
                .toArray();
        QCOMPARE(optMiss.size(), 7);
        for (const QString &name : kPolicies) {
            const QJsonArray miss =
                o[QStringLiteral("policies")][name][QStringLiteral("miss_ratio")].toArray();
            QCOMPARE(miss.size(), optMiss.size());
            for (int i = 0; i < miss.size(); ++i) {
                QVERIFY2(optMiss[i].toDouble() <= miss[i].toDouble() + 1e-12, qPrintable(name));
            }
        }
    }

    void capacitiesAsCountsAndSizes() {
        // 36 MiB per object: 36MiB is 1 chunk, 72MiB 2 (= the count 2), 1GiB 28 (rounded down),
        // 1.5 GB 39; 1000B rounds to at least 1.
        const Run r =
            runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), QStringLiteral("--policy"),
                     QStringLiteral("lru"), QStringLiteral("--capacity"),
                     QStringLiteral("2, 36MiB,72MiB , 1GiB,1.5 GB,1000B"), m_plain});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = jsonOf(r);
        QCOMPARE(capacitiesOf(o, QStringLiteral("lru")),
                 QList<quint64>({1, 2, 28, quint64(1500000000 / kBig)}));
        const QJsonArray hit = o[QStringLiteral("policies")][QStringLiteral("lru")]
                                [QStringLiteral("prefetch_hit_ratio")]
                                    .toArray();
        QCOMPARE(hit[2].toDouble(),
                 double(lru(m_stream, 28).prefetchHits) / double(prefetches(m_stream)));
        // `--capacity=LIST` works the same.
        const Run eq =
            runLmct({QStringLiteral("whatif"), QStringLiteral("--json"),
                     QStringLiteral("--policy=lru"), QStringLiteral("--capacity=72MiB"), m_plain});
        QCOMPARE(eq.exitCode, 0);
        QCOMPARE(capacitiesOf(jsonOf(eq), QStringLiteral("lru")), QList<quint64>({2}));
    }

    void sizesAsTheViewerWritesThem() {
        // "1.84 GiB" (as the viewer writes sizes) is 1975684956.16 bytes: 1975684956, then 52
        // chunks of 36 MiB (rounded down)
        const Run r =
            runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), QStringLiteral("--policy"),
                     QStringLiteral("lru"), QStringLiteral("--capacity"),
                     QStringLiteral("1.84 GiB,1.5B"), m_plain});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(capacitiesOf(jsonOf(r), QStringLiteral("lru")),
                 QList<quint64>({1, quint64(1975684956) / kBig}));
        // replayed in bytes (keys of two sizes): the rounded bytes themselves, said to be bytes
        const Run b =
            runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), QStringLiteral("--policy"),
                     QStringLiteral("lru"), QStringLiteral("--capacity"), QStringLiteral("1.84GiB"),
                     m_twoModels});
        QCOMPARE(b.exitCode, 0);
        QCOMPARE(capacitiesOf(jsonOf(b), QStringLiteral("lru")), QList<quint64>({1975684956}));
        QCOMPARE(jsonOf(b)[QStringLiteral("unit")].toString(), QStringLiteral("bytes"));
    }

    void hugeCapacities() {
        // 2^64 - 1 chunks: everything fits; its size is past 2^64 bytes; JSON keeps the digits.
        const Run j =
            runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), QStringLiteral("--policy"),
                     QStringLiteral("lru,s3fifo,opt"), QStringLiteral("--capacity"),
                     QStringLiteral("18446744073709551615"), m_plain});
        QCOMPARE(j.exitCode, 0);
        QVERIFY2(j.out.contains("\"capacities\":[18446744073709551615]"), j.out.constData());
        const std::vector<bool> counted = countedPrefetches(m_stream);
        const double every =
            double(std::count(counted.begin(), counted.end(), true)) / double(prefetches(m_stream));
        for (const char *name : {"lru", "s3fifo", "opt"}) {
            QCOMPARE(jsonOf(j)[QStringLiteral("policies")][QLatin1String(name)]
                              [QStringLiteral("prefetch_hit_ratio")][0]
                                  .toDouble(),
                     every);
        }
        const Run t = runLmct({QStringLiteral("whatif"), QStringLiteral("--policy"),
                               QStringLiteral("lru"), QStringLiteral("--capacity"),
                               QStringLiteral("18446744073709551615,16000000TiB"), m_plain});
        QCOMPARE(t.exitCode, 0);
        QVERIFY2(t.out.contains("  18446744073709551615  over 16 EiB"), t.out.constData());
        // 16000000 TiB / 36 MiB = 466033777777 chunks (rounded down), 15.26 EiB
        QVERIFY2(t.out.contains(" 466033777777    15.26 EiB"), t.out.constData());
    }

    void badCapacityLists_data() {
        QTest::addColumn<QString>("list");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown suffix") << "1024,48XB"
                                        << "--capacity: '48XB' at 8: expected a size suffix";
        QTest::newRow("empty item") << "1,,2"
                                    << "--capacity: empty capacity at 3";
        QTest::newRow("empty") << ""
                               << "--capacity: empty capacity at 1";
        QTest::newRow("zero") << "0"
                              << "--capacity: '0' at 1: expected a capacity above zero";
        QTest::newRow("negative")
            << "-4"
            << "--capacity: '-4' at 1: expected a capacity above zero, found a negative";
        QTest::newRow("overflow") << "18446744073709551616"
                                  << "--capacity: '18446744073709551616' at 1: expected at most";
        QTest::newRow("a size that rounds to no byte")
            << "0.4B"
            << "--capacity: '0.4B' at 1: expected a capacity above zero";
        QTest::newRow("fractional count") << "2.5"
                                          << "--capacity: '2.5' at 1: expected a whole chunk count";
        QTest::newRow("two spaces before the suffix")
            << "48  GiB"
            << "--capacity: '48  GiB' at 4: expected a size suffix (B, KiB, MiB, GiB, TiB, KB, "
               "MB, GB or TB) after at most one space, found another space";
        QTest::newRow("garbage") << "lots"
                                 << "--capacity: 'lots' at 1: expected a count or a size such as "
                                    "48GiB, found 'l'";
    }

    void badCapacityLists() {
        QFETCH(QString, list);
        QFETCH(QString, message);
        const Run r =
            runLmct({QStringLiteral("whatif"), QStringLiteral("--capacity=") + list, m_plain});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.startsWith("lmct whatif: " + message.toUtf8()), r.err.constData());
    }

    void sizeWithoutLayoutIsAUsageError() {
        const Run r = runLmct({QStringLiteral("whatif"), QStringLiteral("--capacity"),
                               QStringLiteral("1024,48GiB"), m_noLayout});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains("--capacity: 48 GiB is a size, but ") &&
                     r.err.contains("has no layout for every key (no MemoryLayoutDesc in the "
                                    "reserve_write or submit_prefetch_task records") &&
                     r.err.contains("give chunk counts"),
                 r.err.constData());
        // Counts still work; the configured chunks are unknown.
        const Run c = runLmct({QStringLiteral("whatif"), QStringLiteral("--json"),
                               QStringLiteral("--capacity"), QStringLiteral("4"), m_noLayout});
        QCOMPARE(c.exitCode, 0);
        const QJsonObject configured = jsonOf(c)[QStringLiteral("configured")].toObject();
        QCOMPARE(configured[QStringLiteral("l1_bytes")].toInteger(), qint64(51539607552));
        QVERIFY(configured[QStringLiteral("chunks")].isNull());
        QCOMPARE(configured[QStringLiteral("policy")].toString(), QStringLiteral("LRU"));
        // The text says why there is no chunk count.
        const Run t = runLmct({QStringLiteral("whatif"), QStringLiteral("--capacity"),
                               QStringLiteral("4"), m_noLayout});
        QCOMPARE(t.exitCode, 0);
        QVERIFY2(t.out.contains("you ran LRU at 48 GiB: the trace has no layout"),
                 t.out.constData());
    }

    void configuredIsNullWithoutConfig() {
        const Run r = runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), m_plain});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject configured = jsonOf(r)[QStringLiteral("configured")].toObject();
        QCOMPARE(configured.size(), 3);
        QVERIFY(configured[QStringLiteral("l1_bytes")].isNull());
        QVERIFY(configured[QStringLiteral("policy")].isNull());
        QVERIFY(configured[QStringLiteral("chunks")].isNull());
        const Run t = runLmct({QStringLiteral("whatif"), m_plain});
        QCOMPARE(t.exitCode, 0);
        QVERIFY(!t.out.contains("you ran"));
    }

    void keysOfDifferentSizesRunInBytes() {
        // Model A: 36 MiB per object, model B: 1 MiB. Sizes are replayed in bytes.
        const Run r =
            runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), QStringLiteral("--policy"),
                     QStringLiteral("lru"), QStringLiteral("--capacity"),
                     QStringLiteral("72MiB,37MiB"), m_twoModels});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = jsonOf(r);
        QCOMPARE(capacitiesOf(o, QStringLiteral("lru")), QList<quint64>({37 * kMiB, 72 * kMiB}));
        QCOMPARE(o[QStringLiteral("unit")].toString(), QStringLiteral("bytes"));
        QVERIFY(o[QStringLiteral("configured")][QStringLiteral("chunks")].isNull());  // no config
        // With a config: the L1 in chunks by the one rule the viewer uses too (ChunkSize): the
        // bytes over the mean bytes per key, rounded down.
        const Run c =
            runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), QStringLiteral("--policy"),
                     QStringLiteral("lru"), m_twoModelsConfig});
        QCOMPARE(c.exitCode, 0);
        const QJsonObject co = jsonOf(c);
        const std::vector<Use> a = stream(60, 6, 11), b = stream(40, 5, 13);
        const quint64 keys = quint64(distinctKeys(a) + distinctKeys(b));
        const quint64 total = quint64(distinctKeys(a)) * kBig + quint64(distinctKeys(b)) * kSmall;
        QCOMPARE(co[QStringLiteral("distinct_keys")].toInteger(), qint64(keys));
        QCOMPARE(co[QStringLiteral("configured")][QStringLiteral("chunks")].toInteger(),
                 qint64((unsigned __int128)51539607552 * keys / total));
        QCOMPARE(co[QStringLiteral("unit")].toString(), QStringLiteral("chunks"));
        // the text line names the same count
        const Run t = runLmct({QStringLiteral("whatif"), QStringLiteral("--policy"),
                               QStringLiteral("lru"), m_twoModelsConfig});
        QCOMPARE(t.exitCode, 0);
        const QByteArray ran =
            "you ran LRU at 48 GiB ≈ " +
            QByteArray::number(qint64((unsigned __int128)51539607552 * keys / total)) + " chunks: ";
        QVERIFY2(t.out.contains(ran), t.out.constData());
        // Counts and sizes together need one size per key.
        const Run mixed = runLmct({QStringLiteral("whatif"), QStringLiteral("--capacity"),
                                   QStringLiteral("4,72MiB"), m_twoModels});
        QCOMPARE(mixed.exitCode, 1);
        QVERIFY2(mixed.err.contains("the keys in scope differ in size (1 MiB to 36 MiB per "
                                    "object)"),
                 mixed.err.constData());
        // One model: one size again, sizes become chunk counts.
        const Run one =
            runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), QStringLiteral("--model"),
                     QLatin1String(kModelB), QStringLiteral("--capacity"), QStringLiteral("4,3MiB"),
                     m_twoModels});
        QCOMPARE(one.exitCode, 0);
        QCOMPARE(capacitiesOf(jsonOf(one), QStringLiteral("lru")), QList<quint64>({3, 4}));
    }

    void configuredLineOfTwoModelsIsOneReplay() {
        // Keys of 36 MiB and 1 MiB: the table is in chunks (no sizes given), so every figure of
        // the closing line is of the replay in chunks, where LRU reaches OPT counted in chunks.
        const std::vector<Use> a = stream(60, 6, 11), b = stream(40, 5, 13);
        std::vector<Use> both = a;
        for (Use u : b) {
            u.key += 1000;  // model B's keys are other keys
            both.push_back(u);
        }
        const quint64 keys = quint64(distinctKeys(a) + distinctKeys(b));
        const quint64 total = quint64(distinctKeys(a)) * kBig + quint64(distinctKeys(b)) * kSmall;
        const quint64 l1 = 2 * kBig;
        const quint64 chunks = quint64((unsigned __int128)l1 * keys / total);
        QVERIFY(chunks >= 2 && chunks < keys);
        WhatIfTrace w(configWith(l1, QStringLiteral("LRU")));
        w.uses(a, kModelA, "tenant-a");
        w.uses(b, kModelB, "tenant-b");
        const QString path = save("two-l1.lct", w.bytes());
        const Run r = runLmct({QStringLiteral("whatif"), QStringLiteral("--policy"),
                               QStringLiteral("lru,opt"), path});
        QCOMPARE(r.exitCode, 0);
        const double p = double(prefetches(both));
        const qint64 optHits = opt(both, chunks).prefetchHits;
        quint64 reach = 1;
        while (lru(both, reach).prefetchHits < optHits) {
            ++reach;
        }
        QVERIFY(reach > chunks);
        const QString want =
            QStringLiteral(
                "you ran LRU at 72 MiB ≈ %1 chunks: %2; OPT there: %3; LRU reaches %3 "
                "at %4 chunks (≈ %5) (replayed in chunks, each key one chunk, as the "
                "table)\n")
                .arg(chunks)
                .arg(percent(double(lru(both, chunks).prefetchHits) / p),
                     percent(double(optHits) / p))
                .arg(reach)
                .arg(ConfiguredRun::bytesText(double(reach * total / keys)));
        QVERIFY2(QString::fromUtf8(r.out).endsWith(QStringLiteral("\n\n") + want),
                 qPrintable(QString::fromUtf8(r.out) + QStringLiteral("\nwant: ") + want));
        // Sizes given: the table is in bytes, and so is every figure of the line.
        const Run s = runLmct({QStringLiteral("whatif"), QStringLiteral("--policy"),
                               QStringLiteral("lru,opt"), QStringLiteral("--capacity"),
                               QStringLiteral("72MiB"), path});
        QCOMPARE(s.exitCode, 0);
        const Run j = runLmct({QStringLiteral("whatif"), QStringLiteral("--json"),
                               QStringLiteral("--policy"), QStringLiteral("lru,opt"),
                               QStringLiteral("--capacity"), QStringLiteral("72MiB"), path});
        const double optInBytes = jsonOf(j)[QStringLiteral("policies")][QStringLiteral("opt")]
                                           [QStringLiteral("prefetch_hit_ratio")][0]
                                               .toDouble();
        QVERIFY2(s.out.contains(QStringLiteral("; OPT there: %1; LRU reaches %1 at ")
                                    .arg(percent(optInBytes))
                                    .toUtf8()),
                 s.out.constData());
        QVERIFY2(s.out.endsWith(" (replayed in bytes, each key its own size, as the table)\n"),
                 s.out.constData());
    }

    void modelAndSaltScope() {
        const std::vector<Use> a = stream(60, 6, 11), b = stream(40, 5, 13);
        const Run all = runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), m_twoModels});
        QCOMPARE(all.exitCode, 0);
        QCOMPARE(jsonOf(all)[QStringLiteral("uses")].toInteger(), qint64(a.size() + b.size()));
        QCOMPARE(jsonOf(all)[QStringLiteral("distinct_keys")].toInteger(),
                 qint64(distinctKeys(a) + distinctKeys(b)));
        struct Case {
            QStringList args;
            const std::vector<Use> *uses;
        };
        for (const Case &c : {Case{{QStringLiteral("--model"), QLatin1String(kModelA)}, &a},
                              Case{{QStringLiteral("--model"), QLatin1String(kModelB)}, &b},
                              Case{{QStringLiteral("--salt"), QStringLiteral("tenant-b")}, &b},
                              Case{{QStringLiteral("--model"), QLatin1String(kModelA),
                                    QStringLiteral("--salt"), QStringLiteral("tenant-a")},
                                   &a}}) {
            const Run r = runLmct(QStringList{QStringLiteral("whatif"), QStringLiteral("--json"),
                                              QStringLiteral("--policy"), QStringLiteral("lru"),
                                              QStringLiteral("--capacity"), QStringLiteral("2")} +
                                  c.args + QStringList{m_twoModels});
            QCOMPARE(r.exitCode, 0);
            const QJsonObject o = jsonOf(r);
            QCOMPARE(o[QStringLiteral("uses")].toInteger(), qint64(c.uses->size()));
            QCOMPARE(o[QStringLiteral("distinct_keys")].toInteger(), qint64(distinctKeys(*c.uses)));
            QCOMPARE(o[QStringLiteral("prefetch_occurrences")].toInteger(), prefetches(*c.uses));
            QCOMPARE(o[QStringLiteral("policies")][QStringLiteral("lru")]
                      [QStringLiteral("prefetch_hit_ratio")][0]
                          .toDouble(),
                     double(lru(*c.uses, 2).prefetchHits) / double(prefetches(*c.uses)));
        }
        // A model and a salt that select nothing in common: an empty scope.
        const Run none =
            runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), QStringLiteral("--model"),
                     QLatin1String(kModelA), QStringLiteral("--salt"), QStringLiteral("tenant-b"),
                     m_twoModels});
        QCOMPARE(none.exitCode, 0);
        QCOMPARE(jsonOf(none)[QStringLiteral("uses")].toInteger(), qint64(0));
        QCOMPARE(jsonOf(none)[QStringLiteral("prefetch_occurrences")].toInteger(), qint64(0));
        // A size needs keys in scope to know their bytes per object.
        const Run noKeys =
            runLmct({QStringLiteral("whatif"), QStringLiteral("--model"), QLatin1String(kModelA),
                     QStringLiteral("--salt"), QStringLiteral("tenant-b"),
                     QStringLiteral("--capacity"), QStringLiteral("1GiB"), m_twoModels});
        QCOMPARE(noKeys.exitCode, 1);
        QVERIFY2(noKeys.err.contains("--capacity: 1 GiB is a size, but no keys are in scope"),
                 noKeys.err.constData());
    }

    void unknownModelOrSaltListsTheChoices() {
        const Run m = runLmct({QStringLiteral("whatif"), QStringLiteral("--model"),
                               QStringLiteral("gpt-9"), m_twoModels});
        QCOMPARE(m.exitCode, 1);
        QVERIFY(m.out.isEmpty());
        QVERIFY2(m.err.contains("--model: no model 'gpt-9' in ") &&
                     m.err.contains("(its models: 'Qwen/Qwen3-8B', 'meta-llama/Llama-3.2-1B')"),
                 m.err.constData());
        const Run s = runLmct({QStringLiteral("whatif"), QStringLiteral("--salt"),
                               QStringLiteral("tenant-c"), m_twoModels});
        QCOMPARE(s.exitCode, 1);
        QVERIFY2(s.err.contains("--salt: no cache_salt 'tenant-c' in ") &&
                     s.err.contains("(its cache salts: 'tenant-a', 'tenant-b')"),
                 s.err.constData());
    }

    void policySubsetAndUnknownPolicy() {
        const Run r =
            runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), QStringLiteral("--policy"),
                     QStringLiteral("FIFO, s3-fifo,fifo"), m_plain});
        QCOMPARE(r.exitCode, 0);
        QStringList names = jsonOf(r)[QStringLiteral("policies")].toObject().keys();
        std::sort(names.begin(), names.end());
        QCOMPARE(names, QStringList({QStringLiteral("fifo"), QStringLiteral("s3fifo")}));
        // The text table has the columns in the order asked for.
        const Run t = runLmct({QStringLiteral("whatif"), QStringLiteral("--policy"),
                               QStringLiteral("s3fifo,lru"), m_plain});
        QCOMPARE(t.exitCode, 0);
        QVERIFY2(QRegularExpression(QStringLiteral("\n *CHUNKS +SIZE +S3-FIFO +LRU\n"))
                     .match(QString::fromUtf8(t.out))
                     .hasMatch(),
                 t.out.constData());

        const Run bad = runLmct({QStringLiteral("whatif"), QStringLiteral("--policy"),
                                 QStringLiteral("lru,lfu"), m_plain});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY(bad.out.isEmpty());
        QCOMPARE(bad.err, QByteArray("lmct whatif: --policy: 'lfu' at 5: expected one of lru, "
                                     "fifo, clock, s3fifo, arc, opt\n"));
        const Run spaced = runLmct({QStringLiteral("whatif"), QStringLiteral("--policy"),
                                    QStringLiteral("lru,  lfu"), m_plain});
        QCOMPARE(spaced.exitCode, 1);
        QVERIFY2(spaced.err.contains("--policy: 'lfu' at 7: expected one of"),
                 spaced.err.constData());
        const Run empty = runLmct({QStringLiteral("whatif"), QStringLiteral("--policy"),
                                   QStringLiteral("lru,,opt"), m_plain});
        QCOMPARE(empty.exitCode, 1);
        QVERIFY2(empty.err.contains("--policy: empty policy at 5: expected one of"),
                 empty.err.constData());
    }

    void sampleRate() {
        const Run ok = runLmct({QStringLiteral("whatif"), QStringLiteral("--json"),
                                QStringLiteral("--sample"), QStringLiteral("0.5"), m_plain});
        QCOMPARE(ok.exitCode, 0);
        const QJsonObject o = jsonOf(ok);
        for (const QString &name : kPolicies) {
            const QJsonObject p = o[QStringLiteral("policies")][name].toObject();
            const QJsonArray hit = p[QStringLiteral("prefetch_hit_ratio")].toArray();
            QCOMPARE(hit.size(), p[QStringLiteral("capacities")].toArray().size());
            QCOMPARE(p[QStringLiteral("miss_ratio")].toArray().size(), hit.size());
            for (const QJsonValue &v : hit) {
                QVERIFY(v.toDouble() >= 0.0 && v.toDouble() <= 1.0);
            }
        }
        // the rate is said when asked for, and only then
        QCOMPARE(o[QStringLiteral("sample_rate")].toDouble(), 0.5);
        // Rate 1 replays every key: the same as no --sample, but for the rate said.
        const Run one = runLmct({QStringLiteral("whatif"), QStringLiteral("--json"),
                                 QStringLiteral("--sample"), QStringLiteral("1"), m_plain});
        const Run none = runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), m_plain});
        QCOMPARE(one.exitCode, 0);
        QCOMPARE(jsonOf(one)[QStringLiteral("sample_rate")].toDouble(), 1.0);
        QVERIFY(!jsonOf(none).contains(QStringLiteral("sample_rate")));
        QJsonObject oneWithout = jsonOf(one);
        oneWithout.remove(QStringLiteral("sample_rate"));
        QCOMPARE(oneWithout, jsonOf(none));
        for (const char *bad : {"0", "-0.1", "1.5", "half", "nan", ""}) {
            const Run r = runLmct({QStringLiteral("whatif"),
                                   QStringLiteral("--sample=") + QLatin1String(bad), m_plain});
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains("--sample: expected a rate above 0 and at most 1"),
                     r.err.constData());
        }
        // The text output says what the sample costs: an estimate, no bound.
        const Run text = runLmct(
            {QStringLiteral("whatif"), QStringLiteral("--sample"), QStringLiteral("0.5"), m_plain});
        QCOMPARE(text.exitCode, 0);
        const QRegularExpression note(
            QStringLiteral(
                "\nsampled: 50\\.0 % of the keys \\(SHARDS: \\d+ of %1\\), counts scaled back\n"
                "  an estimate: its error grows with fewer sampled keys and with hot keys \\(no "
                "bound; see docs/cache-behaviour.md, Sampling\\)\n")
                .arg(distinctKeys(m_stream)));
        QVERIFY2(note.match(QString::fromUtf8(text.out)).hasMatch(), text.out.constData());
        // A rate that keeps no key is refused: an empty sample would read as no misses at all.
        const Run empty = runLmct({QStringLiteral("whatif"), QStringLiteral("--json"),
                                   QStringLiteral("--sample"), QStringLiteral("1e-300"), m_plain});
        QCOMPARE(empty.exitCode, 1);
        QVERIFY2(empty.err.contains("keeps none of the"), empty.err.constData());
        QVERIFY(empty.out.isEmpty());
    }

    void textTable() {
        const QList<quint64> caps = {1, 4, 16};
        const Run r = runLmct({QStringLiteral("whatif"), QStringLiteral("--capacity"),
                               QStringLiteral("1,4,16"), m_plain});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        const Run j = runLmct({QStringLiteral("whatif"), QStringLiteral("--json"),
                               QStringLiteral("--capacity"), QStringLiteral("1,4,16"), m_plain});
        const QJsonObject o = jsonOf(j);
        const QString text = QString::fromUtf8(r.out);
        QVERIFY2(text.startsWith(QStringLiteral("plain.lct: %1 uses, %2 distinct keys, %3 "
                                                "prefetch occurrences\n")
                                     .arg(m_stream.size())
                                     .arg(distinctKeys(m_stream))
                                     .arg(prefetches(m_stream))),
                 r.out.constData());
        QVERIFY(text.contains(QStringLiteral("bytes per object: 36 MiB\n")));
        const QStringList lines = text.split(QLatin1Char('\n'));
        const qsizetype head = lines.indexOf(QRegularExpression(QStringLiteral("^ *CHUNKS .*")));
        QVERIFY2(head > 0, r.out.constData());
        QCOMPARE(lines[head].split(QLatin1Char(' '), Qt::SkipEmptyParts),
                 QStringList({QStringLiteral("CHUNKS"), QStringLiteral("SIZE")}) + kLabels);
        const QStringList sizes = {QStringLiteral("36 MiB"), QStringLiteral("144 MiB"),
                                   QStringLiteral("576 MiB")};
        for (int row = 0; row < caps.size(); ++row) {
            // capacity in chunks, its size, then one percent per policy
            QStringList want = {QString::number(caps[row]), sizes[row]};
            for (const QString &name : kPolicies) {
                want << percent(
                    o[QStringLiteral("policies")][name][QStringLiteral("prefetch_hit_ratio")][row]
                        .toDouble());
            }
            QCOMPARE(lines[head + 1 + row].simplified(), want.join(QLatin1Char(' ')));
        }
        QCOMPARE(lines.size(), head + 1 + caps.size() + 1);  // the table ends the output
        // LRU's row values equal the independent replay.
        QVERIFY(lines[head + 2].simplified().contains(
            QStringLiteral("144 MiB %1")
                .arg(percent(double(lru(m_stream, 4).prefetchHits) /
                             double(prefetches(m_stream))))));
    }

    void configuredLine() {
        // L1 of 3 objects: LRU there against OPT there, and where LRU reaches OPT.
        WhatIfTrace w(configWith(3 * kBig, QStringLiteral("LRU")));
        w.uses(m_stream);
        const QString path = save("l1of3.lct", w.bytes());
        const Run r = runLmct(
            {QStringLiteral("whatif"), QStringLiteral("--capacity"), QStringLiteral("1,2"), path});
        QCOMPARE(r.exitCode, 0);
        const double p = double(prefetches(m_stream));
        const qint64 optHits = opt(m_stream, 3).prefetchHits;
        quint64 reach = 1;
        while (lru(m_stream, reach).prefetchHits < optHits) {
            ++reach;
        }
        QVERIFY(reach > 3);  // LRU needs more room than OPT for the same hits
        const QString want =
            QStringLiteral(
                "you ran LRU at 108 MiB ≈ 3 chunks: %1; OPT there: %2; LRU reaches "
                "%2 at %3 chunks (%4)\n")
                .arg(percent(double(lru(m_stream, 3).prefetchHits) / p),
                     percent(double(optHits) / p))
                .arg(reach)
                .arg(QString::number(reach * 36) + QStringLiteral(" MiB"));
        QVERIFY2(QString::fromUtf8(r.out).endsWith(QStringLiteral("\n\n") + want),
                 qPrintable(QString::fromUtf8(r.out) + QStringLiteral("\nwant: ") + want));
        const Run j = runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), path});
        const QJsonObject configured = jsonOf(j)[QStringLiteral("configured")].toObject();
        QCOMPARE(configured[QStringLiteral("l1_bytes")].toInteger(), qint64(3 * kBig));
        QCOMPARE(configured[QStringLiteral("chunks")].toInteger(), qint64(3));

        // LMCache's 48 GiB holds every key: LRU there is every counted prefetch.
        const Run big = runLmct({QStringLiteral("whatif"), m_config});
        QCOMPARE(big.exitCode, 0);
        QVERIFY2(big.out.contains(QStringLiteral("you ran LRU at 48 GiB ≈ 1365 chunks: %1; OPT "
                                                 "there: %1; LRU reaches %1 at ")
                                      .arg(percent(double(lru(m_stream, 1365).prefetchHits) / p))
                                      .toUtf8()),
                 big.out.constData());

        // Another policy is replayed at the configured capacity; an unknown one is named.
        WhatIfTrace fifo(configWith(3 * kBig, QStringLiteral("FIFO")));
        fifo.uses(m_stream);
        const Run f = runLmct({QStringLiteral("whatif"), QStringLiteral("--policy"),
                               QStringLiteral("lru"), save("fifo.lct", fifo.bytes())});
        QCOMPARE(f.exitCode, 0);
        QVERIFY2(f.out.contains("you ran FIFO at 108 MiB ≈ 3 chunks: "), f.out.constData());
        WhatIfTrace lfu(configWith(3 * kBig, QStringLiteral("LFU")));
        lfu.uses(m_stream);
        const Run u = runLmct({QStringLiteral("whatif"), save("lfu.lct", lfu.bytes())});
        QCOMPARE(u.exitCode, 0);
        QVERIFY2(u.out.contains(QStringLiteral("you ran 'LFU' at 108 MiB ≈ 3 chunks (not a "
                                               "policy lmct replays); LRU there: %1; OPT there: ")
                                    .arg(percent(double(lru(m_stream, 3).prefetchHits) / p))
                                    .toUtf8()),
                 u.out.constData());
    }

    void configuredLineWithoutPolicy() {
        WhatIfTrace w(configWith(3 * kBig, QString()));
        w.uses(m_stream);
        const QString path = save("nopolicy.lct", w.bytes());
        const Run r = runLmct({QStringLiteral("whatif"), path});
        QCOMPARE(r.exitCode, 0);
        const double p = double(prefetches(m_stream));
        QVERIFY2(r.out.contains(QStringLiteral("you ran an unknown eviction policy at 108 MiB ≈ 3 "
                                               "chunks; LRU there: %1; OPT there: %2; ")
                                    .arg(percent(double(lru(m_stream, 3).prefetchHits) / p),
                                         percent(double(opt(m_stream, 3).prefetchHits) / p))
                                    .toUtf8()),
                 r.out.constData());
        const Run j = runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), path});
        QVERIFY(jsonOf(j)[QStringLiteral("configured")][QStringLiteral("policy")].isNull());
        QCOMPARE(jsonOf(j)[QStringLiteral("configured")][QStringLiteral("chunks")].toInteger(),
                 qint64(3));
    }

    void damagedTraceIsWarnedOf() {
        // the stream's trace cut inside its last frame: replayed as far as it reads, with a
        // warning on stderr (DamageSummary's, as `lmct compare` words it)
        WhatIfTrace whole;
        whole.uses(m_stream);
        const QString cut = save("cut.lct", whole.bytes().left(whole.bytes().size() - 5));
        for (const bool json : {false, true}) {
            QStringList args{QStringLiteral("whatif"), QStringLiteral("--policy"),
                             QStringLiteral("lru")};
            if (json) {
                args << QStringLiteral("--json");
            }
            const Run r = runLmct(args << cut);
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.err.startsWith("lmct whatif: warning: cut.lct is damaged: its last record "
                                      "cut short"),
                     r.err.constData());
            QVERIFY2(r.err.contains("its figures cover the "), r.err.constData());
            QVERIFY(!r.out.isEmpty());
        }
        // an intact trace: no warning
        const Run ok = runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), m_plain});
        QVERIFY2(ok.err.isEmpty(), ok.err.constData());
    }

    // Regression: a trace cut while `lmct whatif` read it gave figures of zeros read past the new
    // end (twice the distinct keys of the whole file) or of the records still there with a
    // warning counting those of the whole file. lmct is stopped once it has mapped the trace
    // (SIGSTOP; its mapping in /proc/PID/maps), the trace is cut, and lmct goes on: its figures
    // are those of a trace holding only the records still complete, and both outputs say the
    // file shrank.
    void traceCutWhileRead() {
#ifndef Q_OS_LINUX
        QSKIP("needs /proc and SIGSTOP");
#else
        WhatIfTrace whole(QString::fromLatin1(kLmcacheConfig));
        whole.uses(stream(60000, 300, 5));
        const QByteArray bytes = whole.bytes();
        const QList<qint64> ends = frameEnds(bytes);  // frame 0 is the header
        const int kept = 20000;                       // records before the cut
        const qint64 cut = ends[kept] + 10;           // inside record `kept`
        const QString ref = save("ref.lct", bytes.left(ends[kept]));
        const Run refRun = runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), ref});
        QCOMPARE(refRun.exitCode, 0);
        const QJsonObject expected = jsonOf(refRun);
        const QString wholePath = save("whole.lct", bytes);
        const QJsonObject all =
            jsonOf(runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), wholePath}));
        const QByteArray allText =
            runLmct({QStringLiteral("whatif"), wholePath}).out.replace("whole.lct", "cut.lct");
        QVERIFY(expected[QStringLiteral("distinct_keys")].toInteger() <=
                all[QStringLiteral("distinct_keys")].toInteger());
        for (const bool json : {true, false}) {
            // Stopped too late (lmct done reading), the run is tried again.
            bool checked = false;
            for (int attempt = 0; attempt < 5 && !checked; ++attempt) {
                const QString path = save("cut.lct", bytes);
                QStringList args{QStringLiteral("whatif")};
                if (json) {
                    args << QStringLiteral("--json");
                }
                const CutRun c = cutWhileRunning(args << path, path, cut);
                QVERIFY(c.started && c.finished);
                const bool truncated = c.cut;
                const Run r = c.result;
                if (!truncated || (json ? jsonOf(r) == all : r.out == allText)) {
                    continue;  // cut after lmct had read it all: its figures are the file's
                }
                QCOMPARE(r.exitCode, 2);
                const QByteArray shrank = QByteArray("shrank to ") + QByteArray::number(cut);
                QVERIFY2(r.err.count(shrank) == 1, r.err.constData());
                QVERIFY2(r.err.startsWith("lmct whatif: warning: cut.lct is damaged: the file "
                                          "shrank to ") &&
                             r.err.contains(QByteArray("its figures cover the ") +
                                            QByteArray::number(kept) + " records read"),
                         r.err.constData());
                if (json) {
                    QJsonObject o = jsonOf(r);
                    const QJsonObject shrunk = o.take(QStringLiteral("shrunk")).toObject();
                    QCOMPARE(shrunk[QStringLiteral("shrunk_to")].toInteger(), cut);
                    QCOMPARE(shrunk[QStringLiteral("records")].toInteger(), qint64(kept));
                    QVERIFY(shrunk[QStringLiteral("lost_records")].toInteger() >= 0);
                    QCOMPARE(o, expected);
                } else {
                    QVERIFY2(
                        r.out.contains(QByteArray("the file shrank to ") + QByteArray::number(cut) +
                                       " bytes while it was read: these figures cover its "
                                       "first " +
                                       QByteArray::number(kept) + " records"),
                        r.out.constData());
                    const QByteArray head = r.out.left(r.out.indexOf('\n'));
                    QVERIFY2(head.contains(
                                 QByteArray::number(expected[QStringLiteral("uses")].toInteger()) +
                                 " uses, " +
                                 QByteArray::number(
                                     expected[QStringLiteral("distinct_keys")].toInteger()) +
                                 " distinct keys"),
                             head.constData());
                }
                checked = true;
            }
            if (!checked) {
                QSKIP("lmct was never stopped while it read the trace");
            }
        }
#endif
    }

    void optionValueThatIsTheTrace() {
        // "--capacity t1.lct": the option took the trace as its value and no FILE is left.
        for (const QString &option :
             {QStringLiteral("--capacity"), QStringLiteral("--policy"), QStringLiteral("--model"),
              QStringLiteral("--salt"), QStringLiteral("--sample")}) {
            const Run r = runLmct({QStringLiteral("whatif"), option, m_plain});
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains(
                         (option + QStringLiteral(" needs a value: %1 looks like the trace (see "
                                                  "lmct whatif --help)"))
                             .arg(m_plain)
                             .toUtf8()),
                     r.err.constData());
        }
        // a value that is no file: FILE is only missing
        const Run n = runLmct(
            {QStringLiteral("whatif"), QStringLiteral("--capacity"), QStringLiteral("1024")});
        QCOMPARE(n.exitCode, 1);
        QVERIFY2(n.err.contains("no FILE given"), n.err.constData());
    }

    void exitCodes() {
        const Run help = runLmct({QStringLiteral("whatif"), QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("--capacity <LIST>"));
        QVERIFY(help.out.contains("--policy <LIST>"));
        const Run none = runLmct({QStringLiteral("whatif")});
        QCOMPARE(none.exitCode, 1);
        const Run two = runLmct({QStringLiteral("whatif"), m_plain, m_plain});
        QCOMPARE(two.exitCode, 1);
        const Run option = runLmct({QStringLiteral("whatif"), QStringLiteral("--bogus"), m_plain});
        QCOMPARE(option.exitCode, 1);
        const Run missing = runLmct({QStringLiteral("whatif"), m_dir.filePath("missing.lct")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.startsWith("lmct whatif: "));
        const QString junk = save("junk.lct", QByteArray("not a trace at all"));
        const Run refused = runLmct({QStringLiteral("whatif"), QStringLiteral("--json"), junk});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY(refused.out.isEmpty());
        // A bad option value is found before the trace is read.
        const Run early = runLmct({QStringLiteral("whatif"), QStringLiteral("--capacity"),
                                   QStringLiteral("x"), m_dir.filePath("missing.lct")});
        QCOMPARE(early.exitCode, 1);
        const Run usage = runLmct({QStringLiteral("--help")});
        QVERIFY(usage.out.contains("whatif [--policy LIST] [--capacity LIST]"));
    }
};

QTEST_GUILESS_MAIN(TestWhatIfCli)
#include "tst_whatifcli.moc"
