// StorageManagerConfig: the header's sm_config_json read once (spec §7a), every field optional.

#include "codec/value.h"
#include "configsamples.h"
#include "itemmodels/headertree.h"
#include "testutil.h"
#include "trace/storagemanagerconfig.h"
#include "trace/traceheader.h"
#include "trace/traceloader.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace lmct;
using namespace lmct::test;
using State = StorageManagerConfig::State;

namespace {

StorageManagerConfig parse(const char *json) {
    return StorageManagerConfig::fromJson(QString::fromUtf8(json));
}

/** kLmcacheConfig with `path` (a dotted path of objects) set to `value` (Undefined: removed). */
QString withField(const QString &path, const QJsonValue &value) {
    QJsonObject root = QJsonDocument::fromJson(kLmcacheConfig).object();
    const QStringList keys = path.split(QLatin1Char('.'));
    std::function<void(QJsonObject &, int)> set = [&](QJsonObject &o, int i) {
        if (i == keys.size() - 1) {
            if (value.isUndefined()) {
                o.remove(keys[i]);
            } else {
                o.insert(keys[i], value);
            }
            return;
        }
        QJsonObject child = o.value(keys[i]).toObject();
        set(child, i + 1);
        o.insert(keys[i], child);
    };
    set(root, 0);
    return QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Compact));
}

}  // namespace

class TestStorageManagerConfig : public QObject {
    Q_OBJECT
private slots:
    void lmcacheConfigEveryField() {
        const StorageManagerConfig c = parse(kLmcacheConfig);
        QCOMPARE(c.state(), State::Valid);
        QVERIFY(c.isAttached());
        QVERIFY(c.isValid());
        QCOMPARE(c.l1Bytes(), std::optional<qint64>(51539607552LL));
        QCOMPARE(c.l1InitBytes(), std::optional<qint64>(21474836480LL));
        QCOMPARE(c.l1UseLazy(), std::optional<bool>(true));
        QCOMPARE(c.evictionPolicy(), std::optional<QString>(QStringLiteral("LRU")));
        QCOMPARE(c.evictionRatio(), std::optional<double>(0.2));
        QCOMPARE(c.triggerWatermark(), std::optional<double>(0.8));
        QCOMPARE(c.readTtlSeconds(), std::optional<qint64>(300));
        QCOMPARE(c.writeTtlSeconds(), std::optional<qint64>(600));
        QVERIFY(c.l2Adapters());
        QVERIFY(c.l2Adapters()->isEmpty());
        QCOMPARE(c.prefetchMaxInFlight(), std::optional<qint64>(8));
        QCOMPARE(c.prefetchPolicy(), std::optional<QString>(QStringLiteral("default")));
        QCOMPARE(c.storePolicy(), std::optional<QString>(QStringLiteral("default")));
        QCOMPARE(c.notifierIntervalMs(), std::optional<double>(5.0));
        QCOMPARE(c.shmName(), QStringLiteral("lmcache_l1_pool_9101"));
        QCOMPARE(c.object()
                     .value(QLatin1String("eviction_config"))
                     .toObject()
                     .value(QLatin1String("extra_logging_interval"))
                     .toDouble(),
                 10.0);
        QCOMPARE(c.summary(),
                 QStringLiteral("L1 48 GiB (init 20 GiB, lazy) · LRU eviction at 80 % watermark, "
                                "ratio 0.2 · write TTL 600 s, read TTL 300 s · no L2 adapters · "
                                "prefetch: 8 in flight, policy default · store policy default · "
                                "notifier every 5 ms"));
    }

    void olderShapeHasFewerFields() {
        const StorageManagerConfig c = parse(kOlderConfig);
        QCOMPARE(c.state(), State::Valid);
        QCOMPARE(c.l1Bytes(), std::optional<qint64>(68719476736LL));
        QCOMPARE(c.l1InitBytes(), std::nullopt);
        QCOMPARE(c.evictionRatio(), std::nullopt);
        QCOMPARE(c.readTtlSeconds(), std::nullopt);
        QCOMPARE(c.prefetchMaxInFlight(), std::nullopt);
        QCOMPARE(c.prefetchPolicy(), std::nullopt);
        QCOMPARE(c.storePolicy(), std::nullopt);
        QCOMPARE(c.notifierIntervalMs(), std::nullopt);
        QVERIFY(c.shmName().isEmpty());
        QVERIFY(c.l2Adapters());
        QCOMPARE(c.l2Adapters()->size(), 1);
        QCOMPARE(c.l2Adapters()->first().type, QStringLiteral("fs"));
        QCOMPARE(c.l2Adapters()->first().location, QStringLiteral("/mnt/kvcache"));
        QCOMPARE(c.l2Adapters()->first().fields.size(), 2);
        // chunk_size and world_size are no config fields LMCache writes: kept, not read
        QCOMPARE(c.object().value(QLatin1String("world_size")).toInt(), 2);
        QCOMPARE(c.summary(), QStringLiteral("L1 64 GiB (lazy) · LRU eviction at 80 % watermark · "
                                             "write TTL 600 s · L2: fs /mnt/kvcache"));
    }

    void emptyIsNoConfigAttached() {
        const StorageManagerConfig c = StorageManagerConfig::fromJson(QString());
        QCOMPARE(c.state(), State::None);
        QVERIFY(!c.isAttached());
        QVERIFY(!c.isValid());
        QCOMPARE(c.l1Bytes(), std::nullopt);
        QCOMPARE(c.summary(), QStringLiteral("no StorageManager config attached"));
        QCOMPARE(StorageManagerConfig::fromHeaderField(nullptr).state(), State::None);
        const Value empty = Value::string(QString());
        QCOMPARE(StorageManagerConfig::fromHeaderField(&empty).state(), State::None);
        QCOMPARE(StorageManagerConfig().state(), State::None);
    }

    void notJsonIsToldFromNoConfig() {
        const StorageManagerConfig c = StorageManagerConfig::fromJson(QStringLiteral("{not json"));
        QCOMPARE(c.state(), State::NotJson);
        QVERIFY(c.isAttached());
        QVERIFY(!c.isValid());
        QJsonParseError expected;
        QJsonDocument::fromJson("{not json", &expected);
        QCOMPARE(c.parseError(), expected.errorString());
        QCOMPARE(c.parseOffset(), qint64(expected.offset));
        QCOMPARE(c.byteSize(), qint64(9));
        QCOMPARE(c.l1Bytes(), std::nullopt);
        QCOMPARE(c.summary(), QStringLiteral("sm_config_json is not valid JSON (%1 at byte offset "
                                             "%2 of 9): the config is unknown")
                                  .arg(expected.errorString())
                                  .arg(expected.offset));

        const StorageManagerConfig array = StorageManagerConfig::fromJson(QStringLiteral("[1, 2]"));
        QCOMPARE(array.state(), State::NotObject);
        QCOMPARE(array.jsonKind(), QStringLiteral("array"));
        QVERIFY(array.summary().contains(QLatin1String("JSON array, not the config object")));
        QVERIFY(array.object().isEmpty());
    }

    void headerFieldOfAnotherTypeOrCut() {
        const Value number = Value::integer(5);
        const StorageManagerConfig n = StorageManagerConfig::fromHeaderField(&number);
        QCOMPARE(n.state(), State::NotString);
        QVERIFY(n.isAttached());
        QVERIFY(n.summary().contains(QLatin1String("not a string")));
        // A text cut when decoded (over Value::kMaxKeptBytes) is not parsed: its start may be
        // a valid-looking prefix.
        const Value cut = Value::cutString(QString::fromUtf8(kLmcacheConfig).left(40), 3 << 20);
        const StorageManagerConfig c = StorageManagerConfig::fromHeaderField(&cut);
        QCOMPARE(c.state(), State::Cut);
        QCOMPARE(c.byteSize(), qint64(3 << 20));
        QVERIFY(c.summary().contains(QLatin1String("3145728 bytes")));
        const Value whole = Value::string(QString::fromUtf8(kLmcacheConfig));
        QCOMPARE(StorageManagerConfig::fromHeaderField(&whole).l1Bytes(),
                 std::optional<qint64>(51539607552LL));
    }

    // Absent, null, or of another type: that field unknown, the others still read.
    void eachFieldOptional_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("unknown");   // the accessor expected to be unknown
        QTest::addColumn<bool>("othersKnown");  // every other field still read
        const QJsonValue absent(QJsonValue::Undefined);
        const QJsonValue null(QJsonValue::Null);
        struct Field {
            const char *path;
            const char *name;
        } fields[] = {
            {"l1_manager_config.memory_config.size_in_bytes", "l1Bytes"},
            {"l1_manager_config.memory_config.init_size_in_bytes", "l1InitBytes"},
            {"l1_manager_config.memory_config.use_lazy", "l1UseLazy"},
            {"eviction_config.eviction_policy", "evictionPolicy"},
            {"eviction_config.eviction_ratio", "evictionRatio"},
            {"eviction_config.trigger_watermark", "triggerWatermark"},
            {"l1_manager_config.read_ttl_seconds", "readTtlSeconds"},
            {"l1_manager_config.write_ttl_seconds", "writeTtlSeconds"},
            {"l2_adapter_config.adapters", "l2Adapters"},
            {"prefetch_max_in_flight", "prefetchMaxInFlight"},
            {"prefetch_policy", "prefetchPolicy"},
            {"store_policy", "storePolicy"},
            {"periodic_notifier_interval_ms", "notifierIntervalMs"},
        };
        for (const Field &f : fields) {
            QTest::addRow("%s absent", f.name) << f.path << absent << f.name << true;
            QTest::addRow("%s null", f.name) << f.path << null << f.name << true;
            // a string where a number is, an object where a string or bool is
            const bool numeric =
                QByteArray(f.name) != "evictionPolicy" && QByteArray(f.name) != "prefetchPolicy" &&
                QByteArray(f.name) != "storePolicy" && QByteArray(f.name) != "l1UseLazy" &&
                QByteArray(f.name) != "l2Adapters";
            QTest::addRow("%s wrong type", f.name)
                << f.path
                << (numeric ? QJsonValue(QStringLiteral("48G")) : QJsonValue(QJsonObject()))
                << f.name << true;
        }
        // counts that are no counts
        QTest::newRow("negative size") << "l1_manager_config.memory_config.size_in_bytes"
                                       << QJsonValue(-1) << "l1Bytes" << true;
        QTest::newRow("fractional size") << "l1_manager_config.memory_config.size_in_bytes"
                                         << QJsonValue(1.5) << "l1Bytes" << true;
        QTest::newRow("fractional TTL")
            << "l1_manager_config.read_ttl_seconds" << QJsonValue(2.5) << "readTtlSeconds" << true;
        QTest::newRow("bool in flight")
            << "prefetch_max_in_flight" << QJsonValue(true) << "prefetchMaxInFlight" << true;
        // a whole level of the wrong type: everything under it unknown
        QTest::newRow("memory_config an array")
            << "l1_manager_config.memory_config" << QJsonValue(QJsonArray{1}) << "l1Bytes" << false;
        QTest::newRow("eviction_config null")
            << "eviction_config" << null << "evictionPolicy" << false;
        QTest::newRow("l2_adapter_config a string")
            << "l2_adapter_config" << QJsonValue(QStringLiteral("fs")) << "l2Adapters" << true;
    }
    void eachFieldOptional() {
        QFETCH(QString, path);
        QFETCH(QJsonValue, value);
        QFETCH(QString, unknown);
        QFETCH(bool, othersKnown);
        const StorageManagerConfig c = StorageManagerConfig::fromJson(withField(path, value));
        QCOMPARE(c.state(), State::Valid);
        const QHash<QString, bool> known = {
            {QStringLiteral("l1Bytes"), bool(c.l1Bytes())},
            {QStringLiteral("l1InitBytes"), bool(c.l1InitBytes())},
            {QStringLiteral("l1UseLazy"), bool(c.l1UseLazy())},
            {QStringLiteral("evictionPolicy"), bool(c.evictionPolicy())},
            {QStringLiteral("evictionRatio"), bool(c.evictionRatio())},
            {QStringLiteral("triggerWatermark"), bool(c.triggerWatermark())},
            {QStringLiteral("readTtlSeconds"), bool(c.readTtlSeconds())},
            {QStringLiteral("writeTtlSeconds"), bool(c.writeTtlSeconds())},
            {QStringLiteral("l2Adapters"), bool(c.l2Adapters())},
            {QStringLiteral("prefetchMaxInFlight"), bool(c.prefetchMaxInFlight())},
            {QStringLiteral("prefetchPolicy"), bool(c.prefetchPolicy())},
            {QStringLiteral("storePolicy"), bool(c.storePolicy())},
            {QStringLiteral("notifierIntervalMs"), bool(c.notifierIntervalMs())},
        };
        QVERIFY(known.contains(unknown));
        QVERIFY2(!known.value(unknown), qPrintable(unknown));
        if (othersKnown) {
            int knownCount = 0;
            for (bool k : known) {
                knownCount += k ? 1 : 0;
            }
            QCOMPARE(knownCount, int(known.size()) - 1);
        }
        QVERIFY(!c.summary().isEmpty());
    }

    void summaryLeavesOutWhatIsUnknown() {
        // nothing known: says what keys there are
        QCOMPARE(StorageManagerConfig::fromJson(QStringLiteral("{\"chunk_size\": 256}")).summary(),
                 QStringLiteral("none of the known config fields (keys: chunk_size)"));
        QCOMPARE(StorageManagerConfig::fromJson(QStringLiteral("{}")).summary(),
                 QStringLiteral("an empty config object"));
        // watermark without a policy; ratio alone
        QCOMPARE(StorageManagerConfig::fromJson(
                     QStringLiteral("{\"eviction_config\": {\"trigger_watermark\": 0.95}}"))
                     .summary(),
                 QStringLiteral("eviction at 95 % watermark"));
        // eager L1: no init size (only a lazy L1 starts smaller)
        QCOMPARE(StorageManagerConfig::fromJson(
                     withField("l1_manager_config.memory_config.use_lazy", false))
                     .summaryParts()
                     .first(),
                 QStringLiteral("L1 48 GiB (eager)"));
        QCOMPARE(StorageManagerConfig::fromJson(
                     QStringLiteral("{\"l1_manager_config\": {\"memory_config\": "
                                    "{\"init_size_in_bytes\": 1073741824}}}"))
                     .summary(),
                 QStringLiteral("L1 size unknown (init 1 GiB)"));
        // several adapters, one without a type, one that is not an object
        const StorageManagerConfig c = StorageManagerConfig::fromJson(QStringLiteral(
            "{\"l2_adapter_config\": {\"adapters\": [{\"type\": \"s3\", \"url\": \"s3://b\"}, "
            "{\"path\": \"/x\"}, 7]}}"));
        QCOMPARE(c.l2Adapters()->size(), 3);
        QVERIFY(c.l2Adapters()->at(2).fields.isEmpty());
        QCOMPARE(c.summary(), QStringLiteral("L2: s3 s3://b, (no type) /x, (no type) · ⚠ "
                                             "l2_adapter_config.adapters[2]: expected an adapter "
                                             "object, found 7"));
    }

    // A known field of another type or out of range: unknown, and named with what was
    // expected and what was found (not dropped without a word, not shown as the config).
    void fieldProblemsNameTheFieldExpectedAndFound_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("found");
        const QString size = QStringLiteral("l1_manager_config.memory_config.size_in_bytes");
        const QString bytes = QStringLiteral("a whole number of bytes from 0 to 2^63 − 1");
        const QString fraction = QStringLiteral("a fraction from 0 to 1");
        QTest::newRow("size a string")
            << size << QJsonValue(QStringLiteral("48GiB")) << bytes << "the string \"48GiB\"";
        QTest::newRow("size negative") << size << QJsonValue(-4096) << bytes << "-4096";
        QTest::newRow("size fractional") << size << QJsonValue(1.5) << bytes << "1.5";
        QTest::newRow("size 1e20") << size << QJsonValue(1e20) << bytes << "1e+20";
        QTest::newRow("size 2^64")
            << size << QJsonValue(18446744073709551616.0) << bytes << "1.8446744073709552e+19";
        QTest::newRow("watermark negative")
            << "eviction_config.trigger_watermark" << QJsonValue(-3) << fraction << "-3";
        QTest::newRow("ratio 2") << "eviction_config.eviction_ratio" << QJsonValue(2.0) << fraction
                                 << "2";
        QTest::newRow("lazy a string") << "l1_manager_config.memory_config.use_lazy"
                                       << QJsonValue(QStringLiteral("yes")) << "true or false"
                                       << "the string \"yes\"";
        QTest::newRow("policy a number")
            << "eviction_config.eviction_policy" << QJsonValue(5) << "a string"
            << "5";
        QTest::newRow("TTL a list")
            << "l1_manager_config.read_ttl_seconds" << QJsonValue(QJsonArray{1})
            << "a whole number of seconds from 0 to 2^63 − 1"
            << "a list";
        QTest::newRow("adapters a string")
            << "l2_adapter_config.adapters" << QJsonValue(QStringLiteral("none"))
            << "a list of adapter objects"
            << "the string \"none\"";
        QTest::newRow("memory_config a list")
            << "l1_manager_config.memory_config" << QJsonValue(QJsonArray{1}) << "an object"
            << "a list";
    }
    void fieldProblemsNameTheFieldExpectedAndFound() {
        QFETCH(QString, path);
        QFETCH(QJsonValue, value);
        QFETCH(QString, expected);
        QFETCH(QString, found);
        const StorageManagerConfig c = StorageManagerConfig::fromJson(withField(path, value));
        QCOMPARE(c.state(), State::Valid);
        const StorageManagerConfig::FieldProblem problem{path, expected, found};
        QCOMPARE(c.fieldProblems(), QList<StorageManagerConfig::FieldProblem>{problem});
        QCOMPARE(problem.toString(), path + QStringLiteral(": expected ") + expected +
                                         QStringLiteral(", found ") + found);
        QVERIFY2(c.summaryParts().contains(QStringLiteral("⚠ ") + problem.toString()),
                 qPrintable(c.summary()));
        // the field itself is unknown
        if (path.endsWith(QLatin1String("size_in_bytes"))) {
            QCOMPARE(c.l1Bytes(), std::nullopt);
        } else if (path.endsWith(QLatin1String("trigger_watermark"))) {
            QCOMPARE(c.triggerWatermark(), std::nullopt);
            QVERIFY(c.summary().contains(QLatin1String("LRU eviction, ratio 0.2")));
        } else if (path.endsWith(QLatin1String("eviction_ratio"))) {
            QCOMPARE(c.evictionRatio(), std::nullopt);
        }
        // null is what LMCache writes for an unset field: no problem
        QVERIFY(StorageManagerConfig::fromJson(withField(path, QJsonValue(QJsonValue::Null)))
                    .fieldProblems()
                    .isEmpty());
    }

    void lmcachesConfigHasNoFieldProblems() {
        QVERIFY(parse(kLmcacheConfig).fieldProblems().isEmpty());
        QVERIFY(parse(kOlderConfig).fieldProblems().isEmpty());
    }

    // Fields all of the wrong type: said so, not "none of the known config fields".
    void everyFieldOfTheWrongType() {
        const StorageManagerConfig c = StorageManagerConfig::fromJson(
            QStringLiteral("{\"eviction_config\": {\"eviction_policy\": 5}, \"l1_manager_config\": "
                           "{\"memory_config\": {\"size_in_bytes\": \"48GiB\"}}}"));
        QCOMPARE(c.fieldProblems().size(), 2);
        QCOMPARE(c.summaryParts().first(), QStringLiteral("no config field readable"));
        QVERIFY(!c.summary().contains(QLatin1String("none of the known")));
        QCOMPARE(StorageManagerConfig::fromJson(
                     QStringLiteral("{\"eviction_config\": null, \"store_policy\": null}"))
                     .summary(),
                 QStringLiteral("every known config field is null or absent (keys: "
                                "eviction_config, store_policy)"));
    }

    // Python's json.dumps writes NaN and Infinity; JSON has neither: named at its offset.
    void nanIsNotJson() {
        const QString json = QStringLiteral(
            "{\"eviction_config\": {\"eviction_ratio\": NaN, \"trigger_watermark\": "
            "Infinity}}");
        const StorageManagerConfig c = StorageManagerConfig::fromJson(json);
        QCOMPARE(c.state(), State::NotJson);
        QCOMPARE(c.parseError(), QStringLiteral("NaN is not JSON"));
        QCOMPARE(c.parseOffset(), qint64(json.indexOf(QLatin1String("NaN"))));
        const StorageManagerConfig inf =
            StorageManagerConfig::fromJson(QStringLiteral("{\"a\": \"NaN\", \"b\": -Infinity}"));
        QCOMPARE(inf.parseError(), QStringLiteral("-Infinity is not JSON"));
        QCOMPARE(inf.parseOffset(), qint64(18));
    }

    // The loader warns about each field problem, where it warns about sm_config_json.
    void loaderWarnsAboutFieldProblems() {
        HeaderSpec h;
        h.configJson = withField(QStringLiteral("eviction_config.trigger_watermark"), -3);
        QString error;
        auto doc = TraceLoader::loadBytes(
            frame(headerBody(h)) + smallTrace(2).bytes.mid(smallTrace(2).headerEnd),
            QStringLiteral("x.lct"), &error);
        QVERIFY2(doc, qPrintable(error));
        const DiagnosticList diags = doc->diagnostics();
        QCOMPARE(diags.size(), 1);
        QCOMPARE(diags[0].severity, Diagnostic::Severity::Warning);
        QCOMPARE(diags[0].kind, Diagnostic::Kind::Header);
        QCOMPARE(diags[0].message,
                 QStringLiteral("header field sm_config_json: eviction_config.trigger_watermark: "
                                "expected a fraction from 0 to 1, found -3 (the field is left "
                                "unknown)"));
        // and the header pane's tree marks the field's row
        auto root = HeaderTree::build(doc->header());
        const TreeNode *cfg = nullptr;
        for (const auto &c : root->children) {
            if (c->name == QLatin1String("sm_config_json")) {
                cfg = c.get();
            }
        }
        QVERIFY(cfg && cfg->problem);
        const TreeNode *eviction = nullptr;
        for (const auto &c : cfg->children) {
            if (c->name == QLatin1String("eviction_config")) {
                eviction = c.get();
            }
        }
        QVERIFY(eviction);
        bool marked = false;
        for (const auto &c : eviction->children) {
            if (c->name == QLatin1String("trigger_watermark")) {
                marked = c->problem &&
                         c->value == QStringLiteral("-3  ⚠ expected a fraction from 0 to 1");
            }
        }
        QVERIFY(marked);
    }

    void formatBytes_data() {
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("0") << qint64(0) << "0 B";
        QTest::newRow("1023") << qint64(1023) << "1023 B";
        QTest::newRow("1 KiB") << qint64(1024) << "1 KiB";
        QTest::newRow("1.5 MiB") << qint64(3 << 19) << "1.5 MiB";
        QTest::newRow("48 GiB") << qint64(51539607552LL) << "48 GiB";
        QTest::newRow("20 GiB") << qint64(21474836480LL) << "20 GiB";
        QTest::newRow("1.33 GiB") << qint64(1431655765LL) << "1.33 GiB";
        QTest::newRow("2 TiB") << (qint64(2) << 40) << "2 TiB";
    }
    void formatBytes() {
        QFETCH(qint64, bytes);
        QFETCH(QString, text);
        QCOMPARE(StorageManagerConfig::formatBytes(bytes), text);
    }

    void volatileNoteNamesThePid() {
        const QString note = parse(kLmcacheConfig).volatileNote();
        QVERIFY2(note.contains(QLatin1String("\"lmcache_l1_pool_9101\" embeds the server's PID "
                                             "(9101)")),
                 qPrintable(note));
        QVERIFY(note.contains(QLatin1String("changes with every server process")));
        QVERIFY(parse(kOlderConfig).volatileNote().isEmpty());
        const QString named =
            StorageManagerConfig::fromJson(withField("l1_manager_config.memory_config."
                                                     "shm_name",
                                                     QStringLiteral("my_pool")))
                .volatileNote();
        QVERIFY2(named.contains(QLatin1String("\"my_pool\" is set per server process")),
                 qPrintable(named));
        // shm_name "" (SHM disabled): nothing varies
        QVERIFY(StorageManagerConfig::fromJson(
                    withField("l1_manager_config.memory_config.shm_name", QString()))
                    .volatileNote()
                    .isEmpty());
    }

    // The header parses sm_config_json once; a loaded trace offers it.
    void headerOffersTheParsedConfig() {
        HeaderSpec h;
        h.configJson = QString::fromUtf8(kLmcacheConfig);
        QString error;
        auto doc = TraceLoader::loadBytes(
            frame(headerBody(h)) + smallTrace(2).bytes.mid(smallTrace(2).headerEnd),
            QStringLiteral("x.lct"), &error);
        QVERIFY2(doc, qPrintable(error));
        const StorageManagerConfig &c = doc->header().smConfig();
        QCOMPARE(c.state(), State::Valid);
        QCOMPARE(c.l1Bytes(), std::optional<qint64>(51539607552LL));
        QCOMPARE(c.evictionPolicy(), std::optional<QString>(QStringLiteral("LRU")));
        // the same object that is in the header, not parsed again by each caller
        QCOMPARE(&doc->header().smConfig(), &c);

        auto placeholder =
            TraceLoader::loadBytes(frame(headerBody()), QStringLiteral("p.lct"), &error);
        QVERIFY(placeholder);
        QCOMPARE(placeholder->header().smConfig().state(), State::None);

        Value fields = Value::map();
        fields.insert(QStringLiteral("sm_config_json"),
                      Value::string(QString::fromUtf8(kOlderConfig)));
        TraceHeader header(fields);
        QCOMPARE(header.smConfig().l1Bytes(), std::optional<qint64>(68719476736LL));
        TraceHeader copy = header;
        QCOMPARE(copy.smConfig().l1Bytes(), std::optional<qint64>(68719476736LL));
        header.setConfigLost(true);
        QCOMPARE(header.smConfig().state(), State::Lost);
        QVERIFY(!header.smConfig().isAttached());
        QVERIFY(header.smConfig().summary().contains(QLatin1String("overwritten")));
        header.setConfigLost(false);
        QCOMPARE(header.smConfig().state(), State::Valid);
    }

    // The header pane's tree shows the parsed config; its digest row says why the digest
    // changes with every server process.
    void headerTreeUsesTheParsedConfig() {
        Value fields = Value::map();
        const QString json = QString::fromUtf8(kLmcacheConfig);
        fields.insert(QStringLiteral("sm_config_json"), Value::string(json));
        fields.insert(
            QStringLiteral("sm_config_digest"),
            Value::string(QString::fromLatin1(
                QCryptographicHash::hash(json.toUtf8(), QCryptographicHash::Sha256).toHex())));
        auto root = HeaderTree::build(TraceHeader(fields));
        const TreeNode *cfg = nullptr;
        const TreeNode *digest = nullptr;
        for (const auto &c : root->children) {
            if (c->name == QLatin1String("sm_config_json")) {
                cfg = c.get();
            } else if (c->name == QLatin1String("digest check")) {
                digest = c.get();
            }
        }
        QVERIFY(cfg && digest);
        QCOMPARE(cfg->children.size(), size_t(7));  // the seven top-level keys
        QVERIFY(digest->value.startsWith(u"✓ match"));
        QVERIFY2(digest->toolTip.contains(QLatin1String("embeds the server's PID (9101)")),
                 qPrintable(digest->toolTip));
        QVERIFY(digest->toolTip.startsWith(digest->value));

        // no shm_name: no note (the value is the tool tip)
        fields = Value::map();
        fields.insert(QStringLiteral("sm_config_json"),
                      Value::string(QString::fromUtf8(kOlderConfig)));
        root = HeaderTree::build(TraceHeader(fields));
        QVERIFY(root->children.back()->toolTip.isEmpty());

        // a text cut when read: says so instead of a parse error at its cut end
        fields = Value::map();
        fields.insert(QStringLiteral("sm_config_json"), Value::cutString(json.left(40), 3 << 20));
        root = HeaderTree::build(TraceHeader(fields));
        cfg = root->children.front().get();
        QCOMPARE(cfg->children.size(), size_t(1));
        QVERIFY(cfg->children[0]->problem);
        QCOMPARE(cfg->children[0]->value,
                 QStringLiteral("not parsed: 3145728 bytes, only the start was read"));
    }
};

QTEST_GUILESS_MAIN(TestStorageManagerConfig)
#include "tst_storagemanagerconfig.moc"
