// `lmct info` and the StorageManagerConfig: the summary lines of the text output and the
// `config` object of `--json` (TraceInfo), on traces written here.

#include "configsamples.h"
#include "testutil.h"
#include "trace/traceinfo.h"
#include "trace/traceloader.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace lmct;
using namespace lmct::test;

namespace {

/** A trace of two records whose header carries `json` (and its digest when not empty). */
const QString kIndent(25, QLatin1Char(' '));

}  // namespace

class TestConfigInfo : public QObject {
    Q_OBJECT
private slots:
    void textSaysTheConfigOnePartALine() {
        auto doc = loadWithConfig(QString::fromUtf8(kLmcacheConfig));
        QVERIFY(doc);
        const QString text = TraceInfo::toText(QStringLiteral("x.lct"), *doc);
        const QString expected =
            QStringLiteral("  config:                L1 48 GiB (init 20 GiB, lazy)\n") + kIndent +
            QStringLiteral("LRU eviction at 80 % watermark, ratio 0.2\n") + kIndent +
            QStringLiteral("write TTL 600 s, read TTL 300 s\n") + kIndent +
            QStringLiteral("no L2 adapters\n") + kIndent +
            QStringLiteral("prefetch: 8 in flight, policy default\n") + kIndent +
            QStringLiteral("store policy default\n") + kIndent +
            QStringLiteral("notifier every 5 ms\n");
        QVERIFY2(text.contains(expected), qPrintable(text));
        // right after the digest line
        QVERIFY(text.contains(QRegularExpression(
            QStringLiteral("sm_config_digest: +[0-9a-f]{64} \\[match\\]\\n  config: "))));

        doc = loadWithConfig(QString::fromUtf8(kOlderConfig));
        const QString older = TraceInfo::toText(QStringLiteral("x.lct"), *doc);
        QVERIFY2(older.contains(QStringLiteral("  config:                L1 64 GiB (lazy)\n") +
                                kIndent + QStringLiteral("LRU eviction at 80 % watermark\n") +
                                kIndent + QStringLiteral("write TTL 600 s\n") + kIndent +
                                QStringLiteral("L2: fs /mnt/kvcache\n  file size:")),
                 qPrintable(older));
    }

    void textSaysWhenThereIsNoConfig() {
        auto doc = loadWithConfig(QString());
        QVERIFY(doc);
        QVERIFY(TraceInfo::toText(QStringLiteral("x.lct"), *doc)
                    .contains(QLatin1String(
                        "  config:                no StorageManager config attached\n")));
        doc = loadWithConfig(QStringLiteral("{not json"));
        QVERIFY(doc);
        const QString text = TraceInfo::toText(QStringLiteral("x.lct"), *doc);
        QVERIFY2(text.contains(QLatin1String("  config:                sm_config_json is not "
                                             "valid JSON (")),
                 qPrintable(text));
    }

    void textEscapesTheConfigsStrings() {
        // a policy name is the trace's text: no terminal control gets through
        auto doc = loadWithConfig(QString::fromUtf8(
            "{\"eviction_config\": {\"eviction_policy\": \"LRU\\u001b[31m\\u202e\"}}"));
        QVERIFY(doc);
        const QString text = TraceInfo::toText(QStringLiteral("x.lct"), *doc);
        QVERIFY2(text.contains(QLatin1String("config:                LRU\\x1b[31m\\u{202e} "
                                             "eviction\n")),
                 qPrintable(text));
        QVERIFY(!text.contains(QChar(0x1b)));
    }

    void jsonConfigObject() {
        auto doc = loadWithConfig(QString::fromUtf8(kLmcacheConfig));
        QVERIFY(doc);
        const QJsonObject j = TraceInfo::toJson(QStringLiteral("x.lct"), *doc, true);
        const QJsonObject c = j[QStringLiteral("config")].toObject();
        const QStringList keys = c.keys();
        QCOMPARE(QSet<QString>(keys.begin(), keys.end()),
                 (QSet<QString>{"l1_bytes", "l1_init_bytes", "l1_use_lazy", "eviction_policy",
                                "eviction_ratio", "trigger_watermark", "read_ttl_s", "write_ttl_s",
                                "l2_adapters", "prefetch_max_in_flight", "prefetch_policy",
                                "store_policy", "notifier_interval_ms", "error", "problems"}));
        QCOMPARE(c[QStringLiteral("l1_bytes")].toInteger(), 51539607552LL);
        QCOMPARE(c[QStringLiteral("l1_init_bytes")].toInteger(), 21474836480LL);
        QCOMPARE(c[QStringLiteral("l1_use_lazy")].toBool(false), true);
        QCOMPARE(c[QStringLiteral("eviction_policy")].toString(), QStringLiteral("LRU"));
        QCOMPARE(c[QStringLiteral("eviction_ratio")].toDouble(), 0.2);
        QCOMPARE(c[QStringLiteral("trigger_watermark")].toDouble(), 0.8);
        QCOMPARE(c[QStringLiteral("read_ttl_s")].toInt(), 300);
        QCOMPARE(c[QStringLiteral("write_ttl_s")].toInt(), 600);
        QCOMPARE(c[QStringLiteral("l2_adapters")].toArray(), QJsonArray());
        QVERIFY(c[QStringLiteral("l2_adapters")].isArray());
        QCOMPARE(c[QStringLiteral("prefetch_max_in_flight")].toInt(), 8);
        QCOMPARE(c[QStringLiteral("prefetch_policy")].toString(), QStringLiteral("default"));
        QCOMPARE(c[QStringLiteral("store_policy")].toString(), QStringLiteral("default"));
        QCOMPARE(c[QStringLiteral("notifier_interval_ms")].toDouble(), 5.0);
        QVERIFY(c[QStringLiteral("error")].isNull());
        QCOMPARE(c[QStringLiteral("problems")].toArray(), QJsonArray());
        // plain --json has it too (it is one of the required keys)
        QCOMPARE(TraceInfo::toJson(QStringLiteral("x.lct"), *doc)[QStringLiteral("config")],
                 TraceInfo::toJson(QStringLiteral("x.lct"), *doc, true)[QStringLiteral("config")]);
    }

    // A field of another type or out of range: null, and listed with path, expected, found.
    void jsonListsFieldProblems() {
        auto doc =
            loadWithConfig(QStringLiteral("{\"eviction_config\": {\"trigger_watermark\": -3}}"));
        QVERIFY(doc);
        const QJsonObject c =
            TraceInfo::toJson(QStringLiteral("x.lct"), *doc)[QStringLiteral("config")].toObject();
        QVERIFY(c[QStringLiteral("trigger_watermark")].isNull());
        QCOMPARE(c[QStringLiteral("problems")].toArray(),
                 (QJsonArray{QJsonObject{
                     {QStringLiteral("path"), QStringLiteral("eviction_config.trigger_watermark")},
                     {QStringLiteral("expected"), QStringLiteral("a fraction from 0 to 1")},
                     {QStringLiteral("found"), QStringLiteral("-3")}}}));
        const QString text = TraceInfo::toText(QStringLiteral("x.lct"), *doc);
        QVERIFY2(text.contains(QStringLiteral("⚠ eviction_config.trigger_watermark: expected a "
                                              "fraction from 0 to 1, found -3")),
                 qPrintable(text));
    }

    void jsonNullsForUnknownFields() {
        auto doc = loadWithConfig(QString::fromUtf8(kOlderConfig));
        QVERIFY(doc);
        const QJsonObject c =
            TraceInfo::toJson(QStringLiteral("x.lct"), *doc, true)[QStringLiteral("config")]
                .toObject();
        QCOMPARE(c[QStringLiteral("l1_bytes")].toInteger(), 68719476736LL);
        for (const char *k :
             {"l1_init_bytes", "eviction_ratio", "read_ttl_s", "prefetch_max_in_flight",
              "prefetch_policy", "store_policy", "notifier_interval_ms", "error"}) {
            QVERIFY2(c[QLatin1String(k)].isNull(), k);
        }
        // the adapters as written
        QCOMPARE(c[QStringLiteral("l2_adapters")].toArray(),
                 (QJsonArray{QJsonObject{{QStringLiteral("path"), QStringLiteral("/mnt/kvcache")},
                                         {QStringLiteral("type"), QStringLiteral("fs")}}}));
    }

    void jsonConfigNullWhenNoneOrBad() {
        auto doc = loadWithConfig(QString());
        QVERIFY(doc);
        QJsonObject j = TraceInfo::toJson(QStringLiteral("x.lct"), *doc, true);
        QVERIFY(j.contains(u"config"));
        QVERIFY(j[QStringLiteral("config")].isNull());
        QVERIFY(TraceInfo::configJson(StorageManagerConfig::lost()).isNull());

        doc = loadWithConfig(QStringLiteral("[1, 2]"));
        QVERIFY(doc);
        const QJsonObject c =
            TraceInfo::toJson(QStringLiteral("x.lct"), *doc, true)[QStringLiteral("config")]
                .toObject();
        QVERIFY(c[QStringLiteral("l1_bytes")].isNull());
        QVERIFY(c[QStringLiteral("l2_adapters")].isNull());
        QVERIFY2(c[QStringLiteral("error")].toString().contains(u"JSON array"),
                 qPrintable(c[QStringLiteral("error")].toString()));
    }

    void lmctInfoPrintsIt() {
        QTemporaryDir dir;
        const QString f = writeFile(dir, QStringLiteral("cfg.lct"),
                                    traceWithConfig(QString::fromUtf8(kLmcacheConfig)));
        QVERIFY(!f.isEmpty());
        ProcessRun r = runLmct({QStringLiteral("info"), f});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("  config:                L1 48 GiB (init 20 GiB, lazy)\n"),
                 r.out.constData());
        r = runLmct(
            {QStringLiteral("info"), QStringLiteral("--json"), QStringLiteral("--details"), f});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = r.jsonLines().first();
        QCOMPARE(j[QStringLiteral("config")].toObject()[QStringLiteral("l1_bytes")].toInteger(),
                 51539607552LL);
        QCOMPARE(j[QStringLiteral("digest")].toString(), QStringLiteral("match"));
        r = runLmct({QStringLiteral("info"), QStringLiteral("--json"), f});
        QCOMPARE(r.jsonLines()
                     .first()[QStringLiteral("config")]
                     .toObject()[QStringLiteral("eviction_policy")]
                     .toString(),
                 QStringLiteral("LRU"));
        // --help names the new key
        r = runLmct({QStringLiteral("info"), QStringLiteral("--help")});
        QVERIFY2(r.out.contains("config"), r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestConfigInfo)
#include "tst_configinfo.moc"
