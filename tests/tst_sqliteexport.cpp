// SqliteExport read back through libsqlite3: every table's rows against the model (records as
// `lmct dump --jsonl` formats them, KeyAnalysis, the Requests tab's model, the diagnostics,
// the header), joins that give the key figures, the selection, progress, cancel, a shrinking
// trace and bad targets leaving nothing behind.

#include "cache/keyanalysis.h"
#include "cache/requestanalysis.h"
#include "codec/qualname.h"
#include "export/recordexport.h"
#include "export/sqliteexport.h"
#include "filter/filterevaluator.h"
#include "itemmodels/requesttablemodel.h"
#include "sqlitequery.h"
#include "testutil.h"
#include "trace/traceinfo.h"
#include "trace/traceloader.h"

#include <sys/stat.h>
#include <unistd.h>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace lmct;
using namespace lmct::test;

namespace {

const QString kRelease = QStringLiteral(LMCT_TRACES "/late2026-release.lct");
const QString kDamaged = QStringLiteral(LMCT_TRACES "/malformed-record.lmct");

std::shared_ptr<const TraceDocument> load(const QString &path) {
    QString why;
    auto doc = TraceLoader::load(path, &why);
    if (!doc) {
        qWarning("%s", qPrintable(why));
    }
    return doc;
}

std::vector<int> allRows(const TraceDocument &doc) {
    std::vector<int> rows(size_t(doc.records().size()));
    for (size_t i = 0; i < rows.size(); ++i) {
        rows[i] = int(i);
    }
    return rows;
}

QStringList entries(const QString &dir) {
    return QDir(dir).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden |
                               QDir::System);
}

QVariant orNull(double v) {
    return std::isnan(v) ? QVariant() : QVariant(v);
}

}  // namespace

class TestSqliteExport : public QObject {
    Q_OBJECT
private slots:
    void tablesMatchTheModel() {
        const auto doc = load(kRelease);
        QVERIFY(doc);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out.db"));
        SqliteExport::Summary sum;
        QString error;
        QVERIFY2(SqliteExport::write(out, *doc, allRows(*doc), {}, &sum, &error),
                 qPrintable(error));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("out.db")});

        const auto keys = KeyAnalysis::build(*doc);
        const auto requests = RequestAnalysis::build(*keys);
        SqliteQuery db(out);
        QVERIFY2(db.isOpen(), qPrintable(db.error()));
        const RecordStore &rs = doc->records();
        QCOMPARE(db.integer(QStringLiteral("select count(*) from records")), qint64(rs.size()));
        QCOMPARE(sum.records, qint64(rs.size()));
        QCOMPARE(db.integer(QStringLiteral("select count(*) from key_uses")),
                 keys->occurrenceCount());
        QCOMPARE(sum.keyUses, keys->occurrenceCount());
        QCOMPARE(db.integer(QStringLiteral("select count(*) from keys")), qint64(keys->keyCount()));
        QCOMPARE(db.integer(QStringLiteral("select count(*) from requests")),
                 qint64(requests->count()));
        QVERIFY(requests->count() > 100);

        // Records: the JSONL line's fields, and the facts the filter fields name.
        const QList<QVariantList> records = db.rows(QStringLiteral(
            "select record, t_mono, t_wall, call, qualname, args, args_error, frame_offset, "
            "frame_length, keys, request, model_name, kv_rank from records order by record"));
        QCOMPARE(records.size(), qsizetype(rs.size()));
        for (int r = 0; r < rs.size(); ++r) {
            const QVariantList &row = records[r];
            const QJsonObject line =
                QJsonDocument::fromJson(
                    RecordExport::formatRecord(*doc, r, RecordExport::Format::Jsonl))
                    .object();
            QCOMPARE(row[0].toInt(), r);
            QCOMPARE(row[1].toDouble(), rs.tMono(r));
            QCOMPARE(row[2].toDouble(), rs.tWall(r));
            QCOMPARE(row[3].toString(), Qualname::shortName(rs.qualname(r)));
            QCOMPARE(row[4].toString(), rs.qualname(r));
            QCOMPARE(QJsonDocument::fromJson(row[5].toString().toUtf8()).object(),
                     line.value(QStringLiteral("args")).toObject());
            QVERIFY(!row[6].isValid());
            QCOMPARE(row[7].toLongLong(), rs.frameOffset(r));
            QCOMPARE(row[8].toLongLong(), qint64(rs.bodyLength(r)) + 4);
        }
        // The record facts against the filter fields of the same names.
        const QList<QPair<QString, QString>> facts{
            {QStringLiteral("keys.count > 0"), QStringLiteral("keys > 0")},
            {QStringLiteral("request"), QStringLiteral("request is not null and request <> ''")},
            {QStringLiteral("model_name == \"Qwen/Qwen3-8B\""),
             QStringLiteral("model_name = 'Qwen/Qwen3-8B'")},
            {QStringLiteral("bytes > 100000000"), QStringLiteral("bytes > 100000000")},
            {QStringLiteral("rank == 0 && world_size == 1"),
             QStringLiteral("rank = 0 and world_size = 1")},
        };
        for (const auto &[filter, where] : facts) {
            FilterEvaluator ev(doc, FilterExpression::parse(filter));
            const qint64 n = qint64(ev.run(FilterEvaluator::Options()).records.size());
            QVERIFY2(n > 0, qPrintable(filter));
            QCOMPARE(db.integer(QStringLiteral("select count(*) from records where ") + where), n);
        }

        // Keys: every column of `lmct keys --json`'s rows.
        const QList<QVariantList> keyRows = db.rows(QStringLiteral(
            "select id, chunk_hash, model_name, kv_rank, state, reserves, finishes, aborts, "
            "prefetches, reads, first_record, last_record, first_t_mono, last_t_mono, "
            "write_latency_s, first_reuse_s, already_stored, object_group_id, cache_salt "
            "from keys order by id"));
        QCOMPARE(keyRows.size(), qsizetype(keys->keyCount()));
        for (int id = 0; id < keys->keyCount(); ++id) {
            const KeyAnalysis::Key &k = keys->key(id);
            const QVariantList &row = keyRows[id];
            QCOMPARE(row[1].toString(), keys->hashHex(id));
            QCOMPARE(row[2].toString(), keys->modelName(id));
            QCOMPARE(row[3].toLongLong(), k.kvRank);
            QCOMPARE(row[4].toString(), KeyAnalysis::stateName(k.state));
            QCOMPARE(row[5].toLongLong(), qint64(k.reserves));
            QCOMPARE(row[6].toLongLong(), qint64(k.finishes));
            QCOMPARE(row[7].toLongLong(), qint64(k.aborts));
            QCOMPARE(row[8].toLongLong(), qint64(k.prefetches));
            QCOMPARE(row[9].toLongLong(), qint64(k.reads()));
            QCOMPARE(row[10].toInt(), k.firstRecord);
            QCOMPARE(row[11].toInt(), k.lastRecord);
            QCOMPARE(row[12].toDouble(), k.firstT);
            QCOMPARE(row[13].toDouble(), k.lastT);
            QCOMPARE(row[14], orNull(k.writeLatency));
            QCOMPARE(row[15], orNull(k.firstReuse));
            QCOMPARE(row[16].toBool(), k.reservedAgain);
            QCOMPARE(row[17].isValid(), k.hasGroup);
            QCOMPARE(row[18].isValid(), k.salt >= 0);
        }

        // The joins: key_uses ⋈ keys by state gives the state counts; the calls per key the
        // counts of the keys table.
        const auto states = keys->stateCounts();
        const QList<QVariantList> byState = db.rows(
            QStringLiteral("select k.state, count(distinct u.key_id) from key_uses u join keys k "
                           "on k.id = u.key_id group by k.state"));
        qint64 seen = 0;
        for (const QVariantList &row : byState) {
            bool found = false;
            for (int s = 0; s < KeyAnalysis::kStateCount; ++s) {
                if (KeyAnalysis::stateName(KeyAnalysis::State(s)) == row[0].toString()) {
                    QCOMPARE(row[1].toLongLong(), states[size_t(s)]);
                    found = true;
                }
            }
            QVERIFY(found);
            seen += row[1].toLongLong();
        }
        QCOMPARE(seen, qint64(keys->keyCount()));
        QCOMPARE(db.integer(QStringLiteral(
                     "with u as (select key_id, "
                     "sum(call in ('reserve_write', 'reserve_write_with_status')) r, "
                     "sum(call = 'finish_write') f, sum(call = 'abort_write') a, "
                     "sum(call = 'submit_prefetch_task') p, sum(is_read) rd "
                     "from key_uses group by key_id) "
                     "select count(*) from keys k join u on u.key_id = k.id where "
                     "k.reserves = u.r and k.finishes = u.f and k.aborts = u.a and "
                     "k.prefetches = u.p and k.reads = u.rd")),
                 qint64(keys->keyCount()));
        QVERIFY(db.integer(QStringLiteral(
                    "select count(*) from key_uses where finish_role = 'of_release'")) > 0);

        // Requests: the rows of the Requests tab's model.
        RequestTableModel model;
        model.setAnalysis(requests);
        const QList<QVariantList> reqRows = db.rows(QStringLiteral(
            "select request_id, submit_t_mono, requested, prefix_hit, lmcache_hit, hit_check, "
            "read_keys, match_rule, released, cancelled, time_to_read_s, reserved, finished, "
            "time_to_written_s, submit_record from requests order by id"));
        QCOMPARE(reqRows.size(), qsizetype(model.rowCount()));
        using C = RequestTableModel::Column;
        for (int i = 0; i < model.rowCount(); ++i) {
            const QVariantList &row = reqRows[i];
            auto cell = [&](C c, int role = Qt::DisplayRole) {
                return model.index(i, c).data(role);
            };
            auto num = [&](C c) { return cell(c, RequestTableModel::SortRole).toDouble(); };
            auto dur = [&](C c) { return std::isinf(num(c)) ? QVariant() : QVariant(num(c)); };
            QCOMPARE(row[0].toString(), cell(C::RequestIdColumn).toString());
            QCOMPARE(row[1].toDouble(), num(C::SubmitColumn));
            QCOMPARE(row[2].toDouble(), num(C::RequestedColumn));
            QCOMPARE(row[3].toDouble(), num(C::PrefixHitColumn));
            QCOMPARE(row[4].isValid() ? row[4].toDouble() : -1.0, num(C::LmcacheHitColumn));
            QCOMPARE(row[5].toString(), cell(C::HitCheckColumn).toString());
            QCOMPARE(row[6].toDouble(), num(C::ReadKeysColumn));
            QCOMPARE(row[7].toString(), cell(C::MatchColumn).toString());
            QCOMPARE(row[9].toLongLong() * 2 + row[8].toLongLong(), qint64(num(C::EndedColumn)));
            QCOMPARE(row[10], dur(C::TimeToReadColumn));
            QCOMPARE(row[11].toDouble(), num(C::ReservedColumn));
            QCOMPARE(row[12].toDouble(), num(C::FinishedColumn));
            QCOMPARE(row[13], dur(C::TimeToWrittenColumn));
            QCOMPARE(row[14].toInt(),
                     cell(C::RequestIdColumn, RequestTableModel::RecordRole).toInt());
        }
        QVERIFY(db.integer(QStringLiteral("select count(*) from requests where released = 1")) > 0);

        // Diagnostics and header.
        QCOMPARE(db.integer(QStringLiteral("select count(*) from diagnostics")),
                 qint64(doc->diagnostics().size()));
        const QJsonObject fields = TraceInfo::headerJson(doc->header());
        for (auto it = fields.begin(); it != fields.end(); ++it) {
            const QList<QVariantList> v =
                db.rows(QStringLiteral("select value from header where key = '%1'").arg(it.key()));
            QCOMPARE(v.size(), 1);
            const QJsonDocument d =
                QJsonDocument::fromJson("[" + v[0][0].toString().toUtf8() + "]");
            QCOMPARE(d.array().at(0), it.value());
        }
        QCOMPARE(
            db.integer(QStringLiteral(
                "select json_extract(value, '$.l1_bytes') from header where key = 'sm_config'")),
            *doc->header().smConfig().l1Bytes());
        QCOMPARE(db.integer(QStringLiteral("select value from header where key = 'lmct.records'")),
                 qint64(rs.size()));
        // The indices exist.
        QCOMPARE(db.integer(QStringLiteral(
                     "select count(*) from sqlite_master where type = 'index' and name in "
                     "('records_call', 'key_uses_key_id', 'key_uses_record')")),
                 qint64(3));
    }

    void selectionRestrictsRecordsAndKeyUses() {
        const auto doc = load(kRelease);
        QVERIFY(doc);
        auto range = TMonoRange::parse(QStringLiteral("5:15"), nullptr);
        QVERIFY(range);
        FilterEvaluator::Options o;
        o.range = *range;
        FilterEvaluator ev(doc,
                           FilterExpression::parse(QStringLiteral("call == finish_write || "
                                                                  "call == submit_prefetch_task")));
        const std::vector<int> rows = ev.run(o).records;
        QVERIFY(rows.size() > 20);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("sel.db"));
        SqliteExport::Options opts;
        opts.filterText = QStringLiteral("call == finish_write");
        QString error;
        QVERIFY2(SqliteExport::write(out, *doc, rows, opts, nullptr, &error), qPrintable(error));

        const auto keys = KeyAnalysis::build(*doc);
        qint64 uses = 0;
        for (int kr = 0; kr < keys->keyRecordCount(); ++kr) {
            if (std::binary_search(rows.begin(), rows.end(), keys->recordOf(kr))) {
                uses += qint64(keys->keysAt(kr).size());
            }
        }
        SqliteQuery db(out);
        QCOMPARE(db.integer(QStringLiteral("select count(*) from records")), qint64(rows.size()));
        QCOMPARE(db.integer(QStringLiteral(
                     "select count(*) from records where t_mono < 5 or t_mono > 15 or "
                     "call not in ('finish_write', 'submit_prefetch_task')")),
                 qint64(0));
        QCOMPARE(db.integer(QStringLiteral("select count(*) from key_uses")), uses);
        QCOMPARE(db.integer(QStringLiteral(
                     "select count(*) from key_uses u left join records r on r.record = u.record "
                     "where r.record is null")),
                 qint64(0));
        // Keys and requests stay those of the whole trace.
        QCOMPARE(db.integer(QStringLiteral("select count(*) from keys")), qint64(keys->keyCount()));
        QCOMPARE(db.rows(QStringLiteral("select value from header where key = 'lmct.filter'"))
                     .value(0)
                     .value(0)
                     .toString(),
                 QStringLiteral("\"call == finish_write\""));
    }

    void damagedTraceWritesItsDiagnostics() {
        const auto doc = load(kDamaged);
        QVERIFY(doc);
        QVERIFY(doc->errorCount() + doc->warningCount() > 0);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("d.db"));
        QString error;
        QVERIFY2(SqliteExport::write(out, *doc, allRows(*doc), {}, nullptr, &error),
                 qPrintable(error));
        const DiagnosticList diags = doc->diagnostics();
        SqliteQuery db(out);
        const QList<QVariantList> rows = db.rows(
            QStringLiteral("select severity, kind, offset, message from diagnostics order by id"));
        QCOMPARE(rows.size(), diags.size());
        bool damage = false;
        for (int i = 0; i < diags.size(); ++i) {
            QCOMPARE(rows[i][0].toString(), Diagnostic::severityName(diags[i].severity));
            QCOMPARE(rows[i][1].toString(), Diagnostic::kindName(diags[i].kind));
            QCOMPARE(rows[i][2].isValid() ? rows[i][2].toLongLong() : -1, diags[i].offset);
            QCOMPARE(rows[i][3].toString(), diags[i].message);
            damage = damage || diags[i].kind == Diagnostic::Kind::Malformed ||
                     diags[i].kind == Diagnostic::Kind::Damage;
        }
        QVERIFY(damage);
        QVERIFY(db.integer(QStringLiteral(
                    "select count(*) from diagnostics where severity = 'error' and offset >= 0")) >
                0);
    }

    void progressAndCancel() {
        const auto doc = load(kRelease);
        QVERIFY(doc);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("p.db"));
        QList<int> seen;
        SqliteExport::Options o;
        o.progress = [&](int p) { seen.append(p); };
        QString error;
        QVERIFY(SqliteExport::write(out, *doc, allRows(*doc), o, nullptr, &error));
        QVERIFY(seen.size() > 3);
        QCOMPARE(seen.front(), 0);
        QCOMPARE(seen.back(), 100);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));

        // Cancelled while the records are written: the earlier file stays as it was, and no
        // temporary file is left.
        const QByteArray before = readAll(out);
        for (int at : {0, 40, 97}) {
            std::atomic_bool cancel{false};
            SqliteExport::Options c;
            c.cancel = &cancel;
            c.progress = [&](int p) {
                if (p >= at) {
                    cancel = true;
                }
            };
            QVERIFY(!SqliteExport::write(out, *doc, allRows(*doc), c, nullptr, &error));
            QCOMPARE(error, QStringLiteral("cancelled"));
            QCOMPARE(readAll(out), before);
            QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("p.db")});
        }
    }

    void replacesAnExistingFile() {
        const auto doc = load(kRelease);
        QVERIFY(doc);
        QTemporaryDir dir;
        const QString out = writeFile(dir, QStringLiteral("old.db"), "not a database");
        QVERIFY(
            QFile::setPermissions(out, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup));
        QString error;
        QVERIFY2(SqliteExport::write(out, *doc, {0, 1, 2}, {}, nullptr, &error), qPrintable(error));
        SqliteQuery db(out);
        QCOMPARE(db.integer(QStringLiteral("select count(*) from records")), qint64(3));
        struct stat st;
        QCOMPARE(::stat(QFile::encodeName(out).constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t(0640));  // the replaced file's
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("old.db")});
    }

    void shrunkTraceLeavesNothing() {
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("t.lct"));
        QVERIFY(QFile::copy(kRelease, copy));
        const auto doc = load(copy);
        QVERIFY(doc);
        const QString out = dir.filePath(QStringLiteral("s.db"));
        SqliteExport::Options o;
        bool cut = false;
        o.progress = [&](int p) {
            if (p >= 50 && !cut) {
                QFile f(copy);
                cut = f.open(QIODevice::ReadWrite) && f.resize(doc->fileSize() / 2);
            }
        };
        QString error;
        QVERIFY(!SqliteExport::write(out, *doc, allRows(*doc), o, nullptr, &error));
        QVERIFY(cut);
        QVERIFY2(error.startsWith(QStringLiteral("cannot write ") + out), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("shrank")), qPrintable(error));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("t.lct")});
    }

    void badTargetsLeaveNothing() {
        const auto doc = load(kRelease);
        QVERIFY(doc);
        QTemporaryDir dir;
        QString error;
        const std::vector<int> rows{0};
        QVERIFY(!SqliteExport::write(dir.filePath(QStringLiteral("missing/x.db")), *doc, rows, {},
                                     nullptr, &error));
        QVERIFY2(error.contains(QStringLiteral("does not exist")), qPrintable(error));
        QVERIFY(!SqliteExport::write(dir.path(), *doc, rows, {}, nullptr, &error));
        QVERIFY2(error.contains(QStringLiteral("directory")), qPrintable(error));
        SqliteExport::Options o;
        o.inputPath = kRelease;
        QVERIFY(!SqliteExport::write(kRelease, *doc, rows, o, nullptr, &error));
        QVERIFY2(error.contains(QStringLiteral("input trace")), qPrintable(error));
        QVERIFY(entries(dir.path()).isEmpty());
        if (::geteuid() != 0) {
            QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::ExeOwner));
            const bool ok = SqliteExport::write(dir.filePath(QStringLiteral("r.db")), *doc, rows,
                                                {}, nullptr, &error);
            QFile::setPermissions(dir.path(),
                                  QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
            QVERIFY(!ok);
            QVERIFY2(error.contains(QStringLiteral("ermission")), qPrintable(error));
            QVERIFY(entries(dir.path()).isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestSqliteExport)
#include "tst_sqliteexport.moc"
