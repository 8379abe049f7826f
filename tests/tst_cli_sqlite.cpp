// `lmct export --sqlite` as a user runs it: the database's row counts equal `lmct dump
// --jsonl`'s lines and `lmct keys --json`'s keys, joins give the CLI's state counts, --filter
// and --range restrict the records, and bad targets (missing folder, a directory, a read-only
// folder, a full disk) exit 2 and leave nothing behind.

#include "sqlitequery.h"
#include "testutil.h"

#include <unistd.h>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace lmct::test;

namespace {

const QString kRelease = QStringLiteral(LMCT_TRACES "/late2026-release.lct");
const QString kCancel = QStringLiteral(LMCT_TRACES "/late2026-tp1-cancel.lct");

qint64 dumpLines(const QStringList &extra, const QString &trace) {
    const ProcessRun r =
        runLmct(QStringList{QStringLiteral("dump"), QStringLiteral("--jsonl")} << extra << trace);
    return r.exitCode == 0 ? qint64(r.jsonLines().size()) : -1;
}

QStringList entries(const QString &dir) {
    return QDir(dir).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden |
                               QDir::System);
}

}  // namespace

class TestCliSqlite : public QObject {
    Q_OBJECT
private slots:
    void countsEqualTheCli_data() {
        QTest::addColumn<QString>("trace");
        QTest::newRow("release") << kRelease;
        QTest::newRow("cancel") << kCancel;
    }
    void countsEqualTheCli() {
        QFETCH(QString, trace);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("t.db"));
        const ProcessRun r =
            runLmct({QStringLiteral("export"), QStringLiteral("--sqlite"), out, trace});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(" records, "), r.err.constData());
        SqliteQuery db(out);
        QVERIFY2(db.isOpen(), qPrintable(db.error()));
        const qint64 lines = dumpLines({}, trace);
        QVERIFY(lines > 100);
        QCOMPARE(db.integer(QStringLiteral("select count(*) from records")), lines);

        const ProcessRun k = runLmct({QStringLiteral("keys"), QStringLiteral("--json"), trace});
        QCOMPARE(k.exitCode, 0);
        const QJsonObject keys = QJsonDocument::fromJson(k.out).object();
        QCOMPARE(db.integer(QStringLiteral("select count(*) from keys")),
                 keys.value(QStringLiteral("distinct_keys")).toInteger());
        QCOMPARE(db.integer(QStringLiteral("select count(*) from requests")),
                 keys.value(QStringLiteral("requests"))
                     .toObject()
                     .value(QStringLiteral("count"))
                     .toInteger());
        QCOMPARE(db.integer(QStringLiteral("select count(*) from requests where cancelled = 1")),
                 keys.value(QStringLiteral("requests"))
                     .toObject()
                     .value(QStringLiteral("cancelled"))
                     .toInteger());
        // key_uses ⋈ keys grouped by state: the states `lmct keys` counts.
        const QJsonObject states = keys.value(QStringLiteral("states")).toObject();
        for (auto it = states.begin(); it != states.end(); ++it) {
            QCOMPARE(db.integer(QStringLiteral("select count(distinct u.key_id) from key_uses u "
                                               "join keys k on k.id = u.key_id "
                                               "where k.state = '%1'")
                                    .arg(it.key())),
                     it.value().toInteger());
        }
        // Each key's row: the counts of `lmct keys --json`, by chunk hash.
        const QJsonArray list = keys.value(QStringLiteral("keys")).toArray();
        const QList<QVariantList> rows = db.rows(QStringLiteral(
            "select chunk_hash, reserves, finishes, aborts, prefetches, reads, state, "
            "first_record from keys order by id"));
        QCOMPARE(rows.size(), list.size());
        for (int i = 0; i < list.size(); ++i) {
            const QJsonObject o = list[i].toObject();
            const QJsonObject c = o.value(QStringLiteral("counts")).toObject();
            QCOMPARE(rows[i][0].toString(), o.value(QStringLiteral("chunk_hash")).toString());
            QCOMPARE(rows[i][1].toLongLong(), c.value(QStringLiteral("reserve")).toInteger());
            QCOMPARE(rows[i][2].toLongLong(), c.value(QStringLiteral("finish")).toInteger());
            QCOMPARE(rows[i][3].toLongLong(), c.value(QStringLiteral("abort")).toInteger());
            QCOMPARE(rows[i][4].toLongLong(), c.value(QStringLiteral("prefetch")).toInteger());
            QCOMPARE(rows[i][5].toLongLong(), c.value(QStringLiteral("read")).toInteger());
            QCOMPARE(rows[i][6].toString(), o.value(QStringLiteral("state")).toString());
            QCOMPARE(rows[i][7].toLongLong(), o.value(QStringLiteral("first_record")).toInteger());
        }
        // Records per call: `lmct stats --json`'s counts.
        const ProcessRun s = runLmct({QStringLiteral("stats"), QStringLiteral("--json"), trace});
        QCOMPARE(s.exitCode, 0);
        const QJsonObject stats = QJsonDocument::fromJson(s.out).object();
        const QJsonArray calls = stats.value(QStringLiteral("calls")).toArray();
        QVERIFY(!calls.isEmpty());
        for (const QJsonValue &v : calls) {
            const QJsonObject c = v.toObject();
            QCOMPARE(db.integer(QStringLiteral("select count(*) from records where qualname = '%1'")
                                    .arg(c.value(QStringLiteral("qualname")).toString())),
                     c.value(QStringLiteral("count")).toInteger());
        }
    }

    void filterAndRange() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("f.db"));
        const QStringList sel{QStringLiteral("--filter"),
                              QStringLiteral("call == reserve_write || call == finish_write"),
                              QStringLiteral("--range"), QStringLiteral("2:12")};
        const ProcessRun r =
            runLmct(QStringList{QStringLiteral("export"), QStringLiteral("--sqlite"), out}
                    << sel << kRelease);
        QCOMPARE(r.exitCode, 0);
        SqliteQuery db(out);
        const qint64 lines = dumpLines(sel, kRelease);
        QVERIFY(lines > 10);
        QVERIFY(lines < dumpLines({}, kRelease));
        QCOMPARE(db.integer(QStringLiteral("select count(*) from records")), lines);
        QCOMPARE(db.integer(QStringLiteral(
                     "select count(*) from key_uses where record not in (select record from "
                     "records)")),
                 qint64(0));
        QCOMPARE(db.integer(QStringLiteral(
                     "select count(*) from key_uses where call not in ('reserve_write', "
                     "'finish_write')")),
                 qint64(0));
        QVERIFY(db.integer(QStringLiteral("select count(*) from key_uses")) > 0);
        QCOMPARE(db.rows(QStringLiteral("select value from header where key = 'lmct.range'"))
                     .value(0)
                     .value(0)
                     .toString(),
                 QStringLiteral("\"2:12\""));
    }

    void badTargets_data() {
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing folder")
            << QStringLiteral("@DIR@/missing/out.db") << QStringLiteral("does not exist");
        QTest::newRow("a directory") << QStringLiteral("@DIR@") << QStringLiteral("directory");
    }
    void badTargets() {
        QFETCH(QString, out);
        QFETCH(QString, message);
        QTemporaryDir dir;
        out.replace(QStringLiteral("@DIR@"), dir.path());
        const ProcessRun r =
            runLmct({QStringLiteral("export"), QStringLiteral("--sqlite"), out, kRelease});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("lmct export: cannot write " + out.toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(entries(dir.path()).isEmpty());
    }

    void readOnlyFolderLeavesNothing() {
        if (::geteuid() == 0) {
            QSKIP("running as root: permissions do not stop writes");
        }
        QTemporaryDir dir;
        QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::ExeOwner));
        const QString out = dir.filePath(QStringLiteral("x.db"));
        const ProcessRun r =
            runLmct({QStringLiteral("export"), QStringLiteral("--sqlite"), out, kRelease});
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("cannot write"), r.err.constData());
        QVERIFY(entries(dir.path()).isEmpty());
    }

    void fullDiskLeavesNothing() {
        // A file size limit of 64 blocks stands for a full disk: libsqlite3's writes fail
        // part-way (SIGXFSZ ignored, so write() returns EFBIG).
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("full.db"));
        const QString old = writeFile(dir, QStringLiteral("full.db"), "the earlier export");
        QVERIFY(!old.isEmpty());
        const ProcessRun r = runProgram(
            QStringLiteral("/bin/sh"),
            {QStringLiteral("-c"),
             QStringLiteral("ulimit -f 64 && trap '' XFSZ && exec \"$0\" export --sqlite \"$1\" "
                            "\"$2\""),
             lmctPath(), out, kRelease});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("lmct export: cannot write " + out.toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains("disk I/O error ("), r.err.constData());  // with the reason
        QCOMPARE(readAll(out), QByteArray("the earlier export"));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("full.db")});
    }

    void usage() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("u.db"));
        const ProcessRun r = runLmct({QStringLiteral("export"), QStringLiteral("--sqlite"), out,
                                      QStringLiteral("--csv"), out, kRelease});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("--sqlite"), r.err.constData());
        const ProcessRun h = runLmct({QStringLiteral("export"), QStringLiteral("--help")});
        QVERIFY(h.out.contains("--sqlite <OUT>"));
        QVERIFY(entries(dir.path()).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliSqlite)
#include "tst_cli_sqlite.moc"
