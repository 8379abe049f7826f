// ConfigDiff: the fields in which two StorageManagerConfig JSON texts differ, volatile fields
// (shm_name, which embeds the server's PID) told apart from real differences.

#include "codec/value.h"
#include "trace/configdiff.h"
#include "trace/traceheader.h"

#include <QCryptographicHash>
#include <QtTest>

using namespace lmct;
using Kind = ConfigDiff::Change::Kind;

namespace {

/** A config as LMCache writes it, with the given PID, L1 size and adapters. */
QString config(int pid, qint64 l1 = 51539607552LL, const QString &adapters = QString()) {
    return QStringLiteral(
               "{\"eviction_config\": {\"eviction_policy\": \"LRU\", \"trigger_watermark\": 0.8}, "
               "\"l1_manager_config\": {\"memory_config\": {\"shm_name\": "
               "\"lmcache_l1_pool_%1\", \"size_in_bytes\": %2, \"use_lazy\": true}, "
               "\"write_ttl_seconds\": 600}, \"l2_adapter_config\": {\"adapters\": [%3]}}")
        .arg(pid)
        .arg(l1)
        .arg(adapters);
}

QString sha256(const QString &s) {
    return QString::fromLatin1(
        QCryptographicHash::hash(s.toUtf8(), QCryptographicHash::Sha256).toHex());
}

TraceHeader header(const QString &json, const QString &digest) {
    Value fields = Value::map();
    fields.insert(QStringLiteral("sm_config_json"), Value::string(json));
    fields.insert(QStringLiteral("sm_config_digest"), Value::string(digest));
    return TraceHeader(fields);
}

TraceHeader header(const QString &json) {
    return header(json, json.isEmpty() ? QString() : sha256(json));
}

}  // namespace

class TestConfigDiff : public QObject {
    Q_OBJECT
private slots:
    void identicalTexts() {
        const ConfigDiff d = ConfigDiff::compare(config(1), config(1));
        QVERIFY(d.isIdentical());
        QVERIFY(d.isEqualIgnoringVolatile());
        QCOMPARE(d.explanation(), QStringLiteral("identical"));
        QVERIFY(ConfigDiff::equalIgnoringVolatile(config(1), config(1)));
    }

    void sameValuesWrittenDifferently() {
        // key order, spacing, 600 and 600.0: the same configuration
        const ConfigDiff d = ConfigDiff::compare(
            QStringLiteral("{\"b\": {\"x\": 600, \"y\": [1, 2]}, \"a\": \"LRU\"}"),
            QStringLiteral("{\"a\":\"LRU\",\"b\":{\"y\":[1,2.0],\"x\":600.0}}"));
        QVERIFY2(d.isIdentical(), qPrintable(d.explanation()));
    }

    void onlyShmNameDiffers() {
        const ConfigDiff d = ConfigDiff::compare(config(9101), config(4242));
        QVERIFY(!d.isIdentical());
        QVERIFY(d.isEqualIgnoringVolatile());
        QVERIFY(ConfigDiff::equalIgnoringVolatile(config(9101), config(4242)));
        QCOMPARE(d.changes().size(), 1);
        const ConfigDiff::Change &c = d.changes().first();
        QCOMPARE(c.kind, Kind::Changed);
        QCOMPARE(c.path, QStringLiteral("l1_manager_config.memory_config.shm_name"));
        QCOMPARE(c.a.toString(), QStringLiteral("lmcache_l1_pool_9101"));
        QCOMPARE(c.b.toString(), QStringLiteral("lmcache_l1_pool_4242"));
        QVERIFY(c.isVolatile);
        QVERIFY(d.realChanges().isEmpty());
        QCOMPARE(d.explanation(), QStringLiteral("differs only in volatile fields (shm_name)"));
    }

    void realDifferenceBesideShmName() {
        const ConfigDiff d = ConfigDiff::compare(config(9101), config(4242, 68719476736LL));
        QVERIFY(!d.isEqualIgnoringVolatile());
        QVERIFY(!ConfigDiff::equalIgnoringVolatile(config(9101), config(4242, 68719476736LL)));
        QCOMPARE(d.changes().size(), 2);
        const QList<ConfigDiff::Change> real = d.realChanges();
        QCOMPARE(real.size(), 1);
        QCOMPARE(real.first().path,
                 QStringLiteral("l1_manager_config.memory_config.size_in_bytes"));
        QCOMPARE(real.first().a.toInteger(), 51539607552LL);
        QCOMPARE(real.first().b.toInteger(), 68719476736LL);
        QVERIFY(!real.first().isVolatile);
        QCOMPARE(d.explanation(),
                 QStringLiteral("differs in 1 field: l1_manager_config.memory_config."
                                "size_in_bytes: 51539607552 → 68719476736"));
    }

    void addedRemovedAndArrays() {
        const QString a = config(1, 1024, QStringLiteral("{\"type\": \"fs\", \"path\": \"/a\"}"));
        const QString b = config(1, 1024,
                                 QStringLiteral("{\"type\": \"fs\", \"path\": \"/b\"}, "
                                                "{\"type\": \"s3\"}"));
        ConfigDiff d = ConfigDiff::compare(a, b);
        QCOMPARE(d.changes().size(), 2);
        QCOMPARE(d.changes()[0].path, QStringLiteral("l2_adapter_config.adapters[0].path"));
        QCOMPARE(d.changes()[0].kind, Kind::Changed);
        QCOMPARE(d.changes()[1].path, QStringLiteral("l2_adapter_config.adapters[1]"));
        QCOMPARE(d.changes()[1].kind, Kind::Added);
        QVERIFY(d.changes()[1].a.isUndefined());
        QCOMPARE(d.changes()[1].b.toObject().value(QLatin1String("type")).toString(),
                 QStringLiteral("s3"));
        QCOMPARE(ConfigDiff::describe(d.changes()[1]),
                 QStringLiteral("l2_adapter_config.adapters[1]: added ({\"type\":\"s3\"})"));
        // the other way round: removed
        d = ConfigDiff::compare(b, a);
        QCOMPARE(d.changes()[1].kind, Kind::Removed);
        QVERIFY(d.changes()[1].b.isUndefined());

        // a key only in one, a null against a value
        d = ConfigDiff::compare(QStringLiteral("{\"chunk_size\": 256, \"gds\": null}"),
                                QStringLiteral("{\"gds\": {\"size_in_bytes\": 1}, \"x\": true}"));
        QCOMPARE(d.changes().size(), 3);
        QCOMPARE(d.changes()[0].path, QStringLiteral("chunk_size"));
        QCOMPARE(d.changes()[0].kind, Kind::Removed);
        QCOMPARE(d.changes()[1].path, QStringLiteral("gds"));
        QCOMPARE(d.changes()[1].kind, Kind::Changed);
        QVERIFY(d.changes()[1].a.isNull());
        QCOMPARE(d.changes()[2].path, QStringLiteral("x"));
        QCOMPARE(d.changes()[2].kind, Kind::Added);
        QCOMPARE(d.explanation(2), QStringLiteral("differs in 3 fields: chunk_size: removed (256); "
                                                  "gds: null → {\"size_in_bytes\":1}; and 1 more"));
    }

    void textsThatAreNoObjects() {
        // no config on either side: the same (nothing)
        QVERIFY(ConfigDiff::compare(QString(), QString()).isIdentical());
        // attached on one side only: one change of the whole config
        ConfigDiff d = ConfigDiff::compare(QString(), config(1));
        QCOMPARE(d.changes().size(), 1);
        QCOMPARE(d.changes().first().path, QString());
        QVERIFY(d.changes().first().a.isNull());
        QVERIFY(d.changes().first().b.isObject());
        QVERIFY(!d.isEqualIgnoringVolatile());
        QVERIFY(ConfigDiff::describe(d.changes().first()).startsWith(u"the whole config: null → "));
        // not JSON: compared as text
        QVERIFY(ConfigDiff::compare(QStringLiteral("{bad"), QStringLiteral("{bad")).isIdentical());
        d = ConfigDiff::compare(QStringLiteral("{bad"), QStringLiteral("{worse"));
        QCOMPARE(d.changes().size(), 1);
        QCOMPARE(d.changes().first().a.toString(), QStringLiteral("{bad"));
        QCOMPARE(d.changes().first().b.toString(), QStringLiteral("{worse"));
    }

    void volatilePaths() {
        QVERIFY(
            ConfigDiff::isVolatilePath(QStringLiteral("l1_manager_config.memory_config.shm_name")));
        QVERIFY(ConfigDiff::isVolatilePath(QStringLiteral("shm_name")));
        QVERIFY(ConfigDiff::isVolatilePath(QStringLiteral("l1s[0].memory_config.shm_name")));
        QVERIFY(!ConfigDiff::isVolatilePath(QStringLiteral("l1_manager_config.memory_config")));
        QVERIFY(!ConfigDiff::isVolatilePath(QStringLiteral("shm_name_prefix")));
        QVERIFY(!ConfigDiff::isVolatilePath(QString()));
        QCOMPARE(ConfigDiff::volatileKeys(), QStringList{QStringLiteral("shm_name")});
    }

    void explainDigestsOfTwoTraces() {
        // two runs with the same settings: digests differ, only shm_name does
        const TraceHeader run1 = header(config(9101));
        const TraceHeader run2 = header(config(4242));
        QVERIFY(run1.smConfigDigest() != run2.smConfigDigest());
        QCOMPARE(ConfigDiff::explainDigests(run1, run2),
                 QStringLiteral("the same settings: the configs differ only in volatile fields "
                                "(shm_name), which change with every server process, so the "
                                "digests differ"));
        // the same process's config: the same digest
        QCOMPARE(ConfigDiff::explainDigests(run1, header(config(9101))),
                 QStringLiteral("the same config"));
        // a real difference
        QCOMPARE(ConfigDiff::explainDigests(run1, header(config(4242, 1024))),
                 QStringLiteral("different configs: differs in 1 field: l1_manager_config."
                                "memory_config.size_in_bytes: 51539607552 → 1024"));
        // the same text, one digest wrong
        QCOMPARE(
            ConfigDiff::explainDigests(run1, header(config(9101), sha256(QStringLiteral("x")))),
            QStringLiteral("the same config, but a digest does not match it"));
        // no config
        const TraceHeader none = header(QString());
        QCOMPARE(ConfigDiff::explainDigests(none, none),
                 QStringLiteral("neither trace has a StorageManager config attached"));
        QCOMPARE(ConfigDiff::explainDigests(none, run1),
                 QStringLiteral("only the second trace has a StorageManager config attached"));
        // lost
        TraceHeader lost = header(QString());
        lost.setConfigLost(true);
        QCOMPARE(ConfigDiff::explainDigests(run1, lost),
                 QStringLiteral("cannot compare: the config of the second trace was overwritten "
                                "(header rewritten in place)"));
    }
};

QTEST_GUILESS_MAIN(TestConfigDiff)
#include "tst_configdiff.moc"
