// `lmct keys` and `lmct anomalies`: JSON shapes and values (against Value decoding and the
// crafted anomalies fixture), text output, --help, and exit codes 0/1/2.

#include "anomaliesfixture.h"
#include "codec/objectkey.h"
#include "testutil.h"
#include "trace/traceloader.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace lmct;
using namespace lmct::test;

namespace {

using Run = ProcessRun;

QString trace(const char *name) {
    return tracePath(QString::fromLatin1(name));
}

const QStringList kKinds = {QStringLiteral("finish_without_reserve"),
                            QStringLiteral("reserve_without_finish"),
                            QStringLiteral("exit_without_enter"),
                            QStringLiteral("enter_without_exit"),
                            QStringLiteral("read_never_written"),
                            QStringLiteral("time_backwards"),
                            QStringLiteral("gap"),
                            QStringLiteral("hit_disagrees")};

}  // namespace

class TestCacheCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_anomalies;

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_anomalies = writeFile(m_dir, QStringLiteral("anomalies.lct"), anomaliesTrace());
        QVERIFY(!m_anomalies.isEmpty());
    }

    void keysJson() {
        const QString file = trace("newest-unknown-spec-tp4.lct");
        const Run r = runLmct({QStringLiteral("keys"), QStringLiteral("--json"), file});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &pe);
        QVERIFY2(doc.isObject(), qPrintable(pe.errorString()));
        const QJsonObject o = doc.object();
        const QJsonArray keys = o.value(QStringLiteral("keys")).toArray();
        QCOMPARE(o.value(QStringLiteral("distinct_keys")).toInt(), keys.size());

        // Independently: key occurrences per call through Value decoding.
        QString error;
        const auto trace = TraceLoader::load(file, &error);
        QVERIFY(trace);
        QHash<QString, qint64> perCall;
        QSet<QString> distinct;
        for (int i = 0; i < trace->records().size(); ++i) {
            const QString call = Qualname::shortName(trace->records().qualname(i));
            const QList<ObjectKey> ks = ObjectKey::collect(trace->args(i)->value);
            perCall[call] += ks.size();
            if (call != QLatin1String("read_prefetched_results.__exit__")) {
                for (const ObjectKey &k : ks) {
                    distinct.insert(k.hashHex() + k.modelName + QString::number(k.kvRank));
                }
            }
        }
        QCOMPARE(keys.size(), distinct.size());  // group and salt are constant in this trace
        qint64 reserve = 0, finish = 0, abort = 0, prefetch = 0, read = 0;
        QHash<QString, int> states;
        for (const QJsonValue &v : keys) {
            const QJsonObject k = v.toObject();
            for (const char *field :
                 {"chunk_hash", "model_name", "kv_rank", "rank", "world_size", "object_group_id",
                  "cache_salt", "first_t_mono", "last_t_mono", "counts", "state"}) {
                QVERIFY2(k.contains(QLatin1String(field)), field);
            }
            QCOMPARE(k.value(QStringLiteral("chunk_hash")).toString().size(), 64);
            const qint64 packed = k.value(QStringLiteral("kv_rank")).toInteger();
            QCOMPARE(k.value(QStringLiteral("world_size")).toInt(), int((packed >> 24) & 0xff));
            QCOMPARE(k.value(QStringLiteral("rank")).toInt(), int((packed >> 16) & 0xff));
            QCOMPARE(k.value(QStringLiteral("world_size")).toInt(), 4);
            QCOMPARE(k.value(QStringLiteral("object_group_id")).toInt(), 0);
            QVERIFY(k.value(QStringLiteral("cache_salt")).isString());
            QVERIFY(k.value(QStringLiteral("first_t_mono")).toDouble() <=
                    k.value(QStringLiteral("last_t_mono")).toDouble());
            const QJsonObject c = k.value(QStringLiteral("counts")).toObject();
            QCOMPARE(c.size(), 5);
            reserve += c.value(QStringLiteral("reserve")).toInteger();
            finish += c.value(QStringLiteral("finish")).toInteger();
            abort += c.value(QStringLiteral("abort")).toInteger();
            prefetch += c.value(QStringLiteral("prefetch")).toInteger();
            read += c.value(QStringLiteral("read")).toInteger();
            ++states[k.value(QStringLiteral("state")).toString()];
        }
        QCOMPARE(reserve, perCall.value(QStringLiteral("reserve_write")) +
                              perCall.value(QStringLiteral("reserve_write_with_status")));
        QCOMPARE(finish, perCall.value(QStringLiteral("finish_write")));
        QCOMPARE(abort, perCall.value(QStringLiteral("abort_write")));
        QVERIFY(abort > 0);
        QCOMPARE(prefetch, perCall.value(QStringLiteral("submit_prefetch_task")));
        QCOMPARE(read, perCall.value(QStringLiteral("read_prefetched_results.__enter__")) +
                           perCall.value(QStringLiteral("finish_read_prefetched")));
        const QJsonObject st = o.value(QStringLiteral("states")).toObject();
        for (const QString &s : states.keys()) {
            QVERIFY2(st.contains(s), qPrintable(s));
            QCOMPARE(st.value(s).toInt(), states.value(s));
        }
        QVERIFY(states.value(QStringLiteral("aborted")) > 0);
    }

    void keysText() {
        // As many keys as --json counts (checked against Value decoding in keysJson).
        const QString file = trace("lmcache-first-recorder-storage.lct");
        const Run j = runLmct({QStringLiteral("keys"), QStringLiteral("--json"), file});
        QCOMPARE(j.exitCode, 0);
        const int n =
            QJsonDocument::fromJson(j.out).object().value(QStringLiteral("distinct_keys")).toInt();
        QVERIFY(n > 100);
        const Run r = runLmct({QStringLiteral("keys"), file});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("%1 distinct keys").arg(n).toUtf8()));
        QVERIFY(r.out.contains("CHUNK HASH"));
        // one request per submit, one matched read per __enter__ (the trace's truth file)
        const QJsonObject truth = traceTruth(QStringLiteral("lmcache-first-recorder-storage.lct"));
        QVERIFY(r.out.contains(
            QStringLiteral("%1 requests: %2 reads matched, 0 unmatched\n")
                .arg(truthCount(truth, QStringLiteral("submit_prefetch_task")))
                .arg(truthCount(truth, QStringLiteral("read_prefetched_results.__enter__")))
                .toUtf8()));
        // summary, states, requests, blank, head, keys
        QCOMPARE(r.out.count('\n'), 1 + 5 + 1 + 1 + 1 + n);
    }

    void keysTextCountsFinishReadsBesideReleases() {
        // A release whose finish_read_prefetched is a read (none of a release, none of a read)
        // still gets its line: the roles are what tells it.
        CacheTraceWriter w;
        w.call(0.001, QStringLiteral("reserve_write"), {key(1)});
        w.call(0.002, QStringLiteral("finish_write"), {key(1)});
        THandle h;
        h.externalRequestId = QStringLiteral("r");
        w.release(0.003, h, std::vector<TKey>{key(1)});
        for (int i = 0; i < 17; ++i) {
            w.call(0.004 + 0.001 * i, QStringLiteral("abort_write"), {});
        }
        w.finishRead(0.030, {key(1)});  // too far after the release: a read
        const QString path = writeFile(m_dir, QStringLiteral("frp.lct"), w.bytes());
        const Run r = runLmct({QStringLiteral("keys"), path});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("finish_read_prefetched: 1 read, 0 of a release_prefetch_task, "
                                "0 releasing an earlier read"),
                 r.out.constData());
    }

    void regression_damagedRecordsAreNamed() {
        // A finish_write whose only chunk_hash bin claims 255 bytes was shown as a finish_write
        // without keys by keys and anomalies, with no word of the damage.
        CacheTraceWriter w;
        w.call(0.001, QStringLiteral("reserve_write"), {key(1)});
        w.call(0.002, QStringLiteral("finish_write"), {key(1)});
        QByteArray b = w.bytes();
        const QByteArray marker(
            "\xaa"
            "chunk_hash\xc4\x20",
            13);
        const qsizetype at = b.indexOf(marker, b.indexOf(marker) + 1);
        QVERIFY(at > 0);
        b[at + marker.size() - 1] = char(0xff);
        const QString path = writeFile(m_dir, QStringLiteral("damagedkey.lct"), b);
        for (const char *command : {"keys", "anomalies"}) {
            const Run text = runLmct({QLatin1String(command), path});
            QCOMPARE(text.exitCode, 0);
            QVERIFY2(text.out.contains("1 record with damaged arguments (first: record 1)") &&
                         !text.out.contains("without keys"),
                     text.out.constData());
            const Run json = runLmct({QLatin1String(command), QStringLiteral("--json"), path});
            QCOMPARE(json.exitCode, 0);
            const QJsonObject d = QJsonDocument::fromJson(json.out)
                                      .object()[QStringLiteral("damaged_records")]
                                      .toObject();
            QCOMPARE(d[QStringLiteral("count")].toInt(), 1);
            QCOMPARE(d[QStringLiteral("first_record")].toInt(), 1);
        }
    }

    void terminalControlsAreEscaped() {
        // A model name from the trace with ESC and U+202E reached the terminal raw in the text
        // output of `lmct keys` and `lmct anomalies` (info, dump and stats escaped it).
        const QByteArray hostile("Qwen\xe2\x80\xae\x1b[31mred\r\nnext");
        Mp args;
        args.map(1).str("keys").arr(1).raw(objectKey(1, 33554944, hostile.constData()));
        QByteArray b = frame(headerBody());
        b += frame(recordBody(0.1, 1.7e9, storageQualname("reserve_write"), args.bytes));
        b += frame(recordBody(0.2, 1.7e9, storageQualname("finish_write"), args.bytes));
        b += frame(recordBody(0.3, 1.7e9, storageQualname("finish_write"), args.bytes));
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("ctrl.lct"), b);
        for (const char *command : {"keys", "anomalies"}) {
            const Run r = runLmct({QLatin1String(command), path});
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(!r.out.contains('\x1b') && !r.out.contains(QByteArray("\xe2\x80\xae")),
                     r.out.constData());
        }
        const Run keys = runLmct({QStringLiteral("keys"), path});
        QVERIFY2(keys.out.contains("Qwen\\u{202e}\\x1b[31mred\\x0d\\x0anext"),
                 keys.out.constData());
        // (a line feed in the name broke the key's row in two)
        // summary, states, requests, blank, head, key
        QCOMPARE(keys.out.count('\n'), 1 + 5 + 1 + 1 + 1 + 1);
        // JSON keeps the name as it is (JSON escapes the controls itself).
        const Run json = runLmct({QStringLiteral("keys"), QStringLiteral("--json"), path});
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(
            o[QStringLiteral("keys")].toArray().first()[QStringLiteral("model_name")].toString(),
            QString::fromUtf8(hostile));
    }

    void anomaliesJson() {
        const Run r = runLmct({QStringLiteral("anomalies"), QStringLiteral("--json"), m_anomalies});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonObject counts = o.value(QStringLiteral("counts")).toObject();
        QCOMPARE(counts.keys().size(), kKinds.size());
        const QList<int> expect = {2, 1, 1, 1, 2, 1, 1, 0};
        for (int i = 0; i < kKinds.size(); ++i) {
            QCOMPARE(counts.value(kKinds[i]).toInt(-1), expect[i]);
        }
        const QJsonArray items = o.value(QStringLiteral("items")).toArray();
        QCOMPARE(items.size(), 9);
        QList<QPair<QString, int>> seen;
        for (const QJsonValue &v : items) {
            const QJsonObject it = v.toObject();
            QVERIFY(kKinds.contains(it.value(QStringLiteral("kind")).toString()));
            QVERIFY(it.value(QStringLiteral("records")).isArray());
            QVERIFY(it.value(QStringLiteral("t_mono")).isDouble());
            QVERIFY(!it.value(QStringLiteral("message")).toString().isEmpty());
            seen.append({it.value(QStringLiteral("kind")).toString(),
                         it.value(QStringLiteral("records")).toArray().first().toInt()});
        }
        QVERIFY(seen.contains(qMakePair(QStringLiteral("finish_without_reserve"), 2)));
        QVERIFY(seen.contains(qMakePair(QStringLiteral("reserve_without_finish"), 4)));
        QVERIFY(seen.contains(qMakePair(QStringLiteral("exit_without_enter"), 10)));
        QVERIFY(seen.contains(qMakePair(QStringLiteral("enter_without_exit"), 11)));
        QVERIFY(seen.contains(qMakePair(QStringLiteral("read_never_written"), 13)));
        QVERIFY(seen.contains(qMakePair(QStringLiteral("time_backwards"), 16)));
        QVERIFY(seen.contains(qMakePair(QStringLiteral("gap"), 17)));
        const QJsonObject gap = items.at(items.size() - 1).toObject();  // file order: last
        QCOMPARE(gap.value(QStringLiteral("kind")).toString(), QStringLiteral("gap"));
        QCOMPARE(gap.value(QStringLiteral("records")).toArray(), QJsonArray({17, 18}));
        QVERIFY(qAbs(o.value(QStringLiteral("gap_threshold_s")).toDouble() - 0.02) < 1e-5);
        QCOMPARE(o.value(QStringLiteral("truncated")).toArray().size(), 0);
        QCOMPARE(o.value(QStringLiteral("already_stored")).toInt(-1), 0);
    }

    void late2026Semantics() {
        // Keys skipped as already stored, a read released late, keys without cache_salt under
        // schema 2, and requests with LMCache's account of their hit.
        auto bare = [](int n) {
            TKey k = key(n);
            k.salt.reset();
            return k;
        };
        CacheTraceWriter w;
        w.call(0.001, QStringLiteral("reserve_write"), {bare(1), bare(2)});
        w.call(0.002, QStringLiteral("finish_write"), {bare(1), bare(2)});
        w.call(0.003, QStringLiteral("submit_prefetch_task"), {bare(1), bare(3)}, KeysAt::Spec,
               QStringLiteral("r1"));
        w.call(0.004, QStringLiteral("read_prefetched_results.__enter__"), {bare(1)});
        w.call(0.005, QStringLiteral("read_prefetched_results.__exit__"), {bare(1)});
        w.finishRead(0.006, {bare(1)});
        w.call(0.007, QStringLiteral("reserve_write"), {bare(1), bare(3)});
        w.call(0.008, QStringLiteral("finish_write"), {bare(3)});
        w.call(0.009, QStringLiteral("submit_prefetch_task"), {bare(1), bare(2)}, KeysAt::Spec,
               QStringLiteral("r2"));
        THandle h;
        h.externalRequestId = QStringLiteral("r2");
        h.l1PrefixHitCount = 2;
        h.totalRequestedKeys = 2;
        h.submitTime = CacheTraceWriter::kTMonoStart + 0.009;
        w.cancel(0.010, h);
        const QString path = writeFile(m_dir, QStringLiteral("late.lct"), w.bytes());
        const Run text = runLmct({QStringLiteral("keys"), path});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("1 already stored"), text.out.constData());
        QVERIFY(text.out.contains(
            "note: keys carry no cache_salt: tenants cannot be told apart in this trace"));
        QVERIFY(text.out.contains("1 releasing an earlier read"));
        QVERIFY(
            text.out.contains("2 requests: 1 read matched, 0 unmatched; 0 released, 1 "
                              "cancelled; LMCache's L1 hit agrees on 1, disagrees on 0"));
        const Run json = runLmct({QStringLiteral("keys"), QStringLiteral("--json"), path});
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(o[QStringLiteral("already_stored")].toInt(-1), 1);
        QCOMPARE(o[QStringLiteral("salt_missing")].toBool(), true);
        QCOMPARE(o[QStringLiteral("finish_read_prefetched")][QStringLiteral("of_read")].toInt(), 1);
        QCOMPARE(o[QStringLiteral("requests")][QStringLiteral("cancelled")].toInt(), 1);
        QCOMPARE(o[QStringLiteral("requests")][QStringLiteral("hit_agrees")].toInt(), 1);
        const Run an = runLmct({QStringLiteral("anomalies"), QStringLiteral("--json"), path});
        const QJsonObject a = QJsonDocument::fromJson(an.out).object();
        QCOMPARE(a[QStringLiteral("items")].toArray().size(), 0);
        QCOMPARE(a[QStringLiteral("already_stored")].toInt(-1), 1);
    }

    void anomaliesNone() {
        const Run r = runLmct(
            {QStringLiteral("anomalies"), QStringLiteral("--json"), trace("header-only.lmct")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonObject counts = o.value(QStringLiteral("counts")).toObject();
        QCOMPARE(counts.size(), kKinds.size());
        for (const QString &k : kKinds) {
            QCOMPARE(counts.value(k).toInt(-1), 0);
        }
        QCOMPARE(o.value(QStringLiteral("items")).toArray().size(), 0);
    }

    void anomaliesText() {
        const Run r = runLmct({QStringLiteral("anomalies"), m_anomalies});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("9 anomalies in 31 records"));
        for (const QString &k : kKinds) {
            QVERIFY2(r.out.contains(k.toUtf8()), qPrintable(k));
        }
        QVERIFY(r.out.contains("#17,#18"));
    }

    void exitCodes_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("stream");  // where the message goes
        const QString missing = QStringLiteral("/nonexistent/x.lct");
        for (const QString &cmd : {QStringLiteral("keys"), QStringLiteral("anomalies")}) {
            QTest::newRow(qPrintable(cmd + " no file")) << QStringList{cmd} << 1 << "err";
            QTest::newRow(qPrintable(cmd + " two files"))
                << QStringList{cmd, missing, missing} << 1 << "err";
            QTest::newRow(qPrintable(cmd + " bad option"))
                << QStringList{cmd, QStringLiteral("--bogus"), missing} << 1 << "err";
            QTest::newRow(qPrintable(cmd + " missing")) << QStringList{cmd, missing} << 2 << "err";
            QTest::newRow(qPrintable(cmd + " json missing"))
                << QStringList{cmd, QStringLiteral("--json"), missing} << 2 << "err";
            QTest::newRow(qPrintable(cmd + " not a trace"))
                << QStringList{cmd, QStringLiteral(LMCT_SOURCE_DIR "/CMakeLists.txt")} << 2
                << "err";
            QTest::newRow(qPrintable(cmd + " help"))
                << QStringList{cmd, QStringLiteral("--help")} << 0 << "out";
        }
    }

    void exitCodes() {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, stream);
        const Run r = runLmct(args);
        QCOMPARE(r.exitCode, code);
        const QByteArray text = stream == QLatin1String("out") ? r.out : r.err;
        QVERIFY(!text.isEmpty());
        QVERIFY2(text.contains(("lmct " + args.first()).toUtf8()), text.constData());
        if (code != 0) {
            QVERIFY(r.out.isEmpty());  // nothing half-printed on stdout
        }
    }

    void usageNamesTheCommands() {
        const Run r = runLmct({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("keys [--json] FILE"));
        QVERIFY(r.out.contains("anomalies [--json] FILE"));
    }
};

QTEST_GUILESS_MAIN(TestCacheCli)
#include "tst_cachecli.moc"
