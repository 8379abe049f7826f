// `lmct dump` and `lmct stats` as a user runs them: row counts equal the evaluator's count,
// JSONL and CSV parse back, exit codes 0 / 1 (usage, invalid filter or range) / 2 (unreadable).

#include "codec/value.h"
#include "filter/filterevaluator.h"
#include "testutil.h"
#include "trace/traceloader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace lmct;
using namespace lmct::test;

namespace {

const QString kTraceName = QStringLiteral("schema2-prefetch-spec-tp2.lct");
const QString kTrace = QStringLiteral(LMCT_TRACES "/schema2-prefetch-spec-tp2.lct");

using Run = ProcessRun;

/** RFC 4180 reader for the test: records of fields, CRLF line ends, "" inside quotes. */
QList<QStringList> parseCsv(const QByteArray &data, bool *ok) {
    QList<QStringList> rows;
    QStringList row;
    QByteArray field;
    bool quoted = false, wasQuoted = false;
    *ok = true;
    for (qsizetype i = 0; i < data.size(); ++i) {
        const char c = data[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < data.size() && data[i + 1] == '"') {
                    field.append('"');
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field.append(c);
            }
            continue;
        }
        if (c == '"') {
            if (!field.isEmpty()) {
                *ok = false;  // a quote inside an unquoted field
            }
            quoted = wasQuoted = true;
        } else if (c == ',') {
            row.append(QString::fromUtf8(field));
            field.clear();
            wasQuoted = false;
        } else if (c == '\r') {
            if (i + 1 >= data.size() || data[i + 1] != '\n') {
                *ok = false;
            }
        } else if (c == '\n') {
            if (i == 0 || data[i - 1] != '\r') {
                *ok = false;  // records end with CRLF
            }
            row.append(QString::fromUtf8(field));
            rows.append(row);
            row.clear();
            field.clear();
            wasQuoted = false;
        } else {
            field.append(c);
        }
    }
    if (quoted || !field.isEmpty() || !row.isEmpty() || wasQuoted) {
        *ok = false;  // unterminated quote or missing final CRLF
    }
    return rows;
}

}  // namespace

class TestCliDump : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void dumpJsonlRowsAreTheFilteredRecords_data();
    void dumpJsonlRowsAreTheFilteredRecords();
    void dumpCsvParsesBack();
    void dumpTextLinesAndRange();
    void statsCountsMatchTheFilter();
    void statsCsvTables();
    void statsCsvGroupTablesHaveTheJsonColumns();
    void invalidFilterExitsOneWithColumn();
    void usageErrors();
    void unreadableInputExitsTwo();
    void helpOnEveryCommand();
    void cutStringIsToldLikeACutBinary();

private:
    std::shared_ptr<const TraceDocument> m_doc;
    std::vector<int> select(const QString &filter, TMonoRange range = TMonoRange()) const {
        FilterEvaluator::Options o;
        o.range = range;
        return FilterEvaluator(m_doc, FilterExpression::parse(filter)).run(o).records;
    }
};

void TestCliDump::initTestCase() {
    QString error;
    m_doc = TraceLoader::load(kTrace, &error);
    QVERIFY2(m_doc, qPrintable(error));
    QVERIFY(QFileInfo::exists(QStringLiteral(LMCT_BIN_DIR "/lmct")));
}

void TestCliDump::dumpJsonlRowsAreTheFilteredRecords_data() {
    QTest::addColumn<QString>("filter");
    QTest::newRow("call") << "call == reserve_write";
    QTest::newRow("model and rank") << "model_name == \"Qwen/Qwen3-8B\" && rank == 1";
    QTest::newRow("many keys") << "keys.count > 40";
    QTest::newRow("request regex") << "request matches \"^chatcmpl-0\"";
}

void TestCliDump::dumpJsonlRowsAreTheFilteredRecords() {
    QFETCH(QString, filter);
    const std::vector<int> want = select(filter);
    QVERIFY(!want.empty());
    const Run r = runLmct({QStringLiteral("dump"), QStringLiteral("--jsonl"),
                           QStringLiteral("--filter"), filter, kTrace});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.err.isEmpty());
    QVERIFY(r.out.endsWith('\n'));
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(size_t(lines.size()), want.size());
    const RecordStore &rs = m_doc->records();
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QJsonParseError pe;
        const QJsonDocument d = QJsonDocument::fromJson(lines[i], &pe);
        QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));
        const QJsonObject o = d.object();
        const int index = o.value(QStringLiteral("index")).toInt(-1);
        QCOMPARE(index, want[size_t(i)]);  // file order
        QCOMPARE(o.value(QStringLiteral("qualname")).toString(), rs.qualname(index));
        QCOMPARE(o.value(QStringLiteral("t_mono")).toDouble(), rs.tMono(index));  // exact
        QCOMPARE(o.value(QStringLiteral("t_wall")).toDouble(), rs.tWall(index));
        const QJsonObject args = o.value(QStringLiteral("args")).toObject();
        QVERIFY(!args.isEmpty());
        QVERIFY(!o.contains(QStringLiteral("args_error")));
        if (i == 0) {
            // Bytes as hex inside codec-tagged keys.
            const QJsonArray keys = args.contains(QStringLiteral("keys"))
                                        ? args.value(QStringLiteral("keys")).toArray()
                                        : args.value(QStringLiteral("spec"))
                                              .toObject()
                                              .value(QStringLiteral("v"))
                                              .toObject()
                                              .value(QStringLiteral("keys"))
                                              .toArray();
            QVERIFY(!keys.isEmpty());
            const QJsonObject key = keys[0].toObject();
            QCOMPARE(key.value(QStringLiteral("__t__")).toString(), QStringLiteral("ObjectKey"));
            const QString hash = key.value(QStringLiteral("v"))
                                     .toObject()
                                     .value(QStringLiteral("chunk_hash"))
                                     .toString();
            QCOMPARE(hash.size(), 64);
            QVERIFY(QRegularExpression(QStringLiteral("^[0-9a-f]{64}$")).match(hash).hasMatch());
        }
    }
}

void TestCliDump::dumpCsvParsesBack() {
    const QString filter = QStringLiteral("call == submit_prefetch_task && keys.count >= 30");
    const std::vector<int> want = select(filter);
    QVERIFY(!want.empty());
    const Run r = runLmct({QStringLiteral("dump"), QStringLiteral("--csv"),
                           QStringLiteral("--filter"), filter, kTrace});
    QCOMPARE(r.exitCode, 0);
    bool ok = false;
    const QList<QStringList> rows = parseCsv(r.out, &ok);
    QVERIFY(ok);
    QCOMPARE(size_t(rows.size()), want.size() + 1);
    QCOMPARE(rows[0], (QStringList{"index", "t_mono", "t_wall", "qualname", "call", "summary",
                                   "args_json"}));
    const RecordStore &rs = m_doc->records();
    for (qsizetype i = 1; i < rows.size(); ++i) {
        const QStringList &row = rows[i];
        QCOMPARE(row.size(), 7);
        const int index = row[0].toInt();
        QCOMPARE(index, want[size_t(i - 1)]);
        QCOMPARE(row[1].toDouble(), rs.tMono(index));
        QCOMPARE(row[2].toDouble(), rs.tWall(index));
        QCOMPARE(row[3], rs.qualname(index));
        QCOMPARE(row[4], QStringLiteral("submit_prefetch_task"));
        QVERIFY(row[5].contains(QStringLiteral(" keys")));  // "46 keys · Qwen/... · ..."
        const QJsonDocument args = QJsonDocument::fromJson(row[6].toUtf8());
        QVERIFY(args.isObject());
        QVERIFY(args.object().contains(QStringLiteral("spec")));
    }
    // Summaries and JSON contain commas and quotes: the quoting had work to do.
    QVERIFY(r.out.contains("\"{\"\""));
}

void TestCliDump::dumpTextLinesAndRange() {
    const Run all = runLmct({QStringLiteral("dump"), kTrace});
    QCOMPARE(all.exitCode, 0);
    QCOMPARE(all.out.count('\n'), m_doc->records().size());

    const std::vector<int> from5 = select(QString(), TMonoRange{5.0, TMonoRange().to});
    const Run open =
        runLmct({QStringLiteral("dump"), QStringLiteral("--range"), QStringLiteral("5:"), kTrace});
    QCOMPARE(open.exitCode, 0);
    QCOMPARE(size_t(open.out.count('\n')), from5.size());
    QCOMPARE(from5.size(), select(QStringLiteral("t_mono >= 5")).size());

    const std::vector<int> window =
        select(QStringLiteral("call == finish_write && t_mono >= 2 && t_mono <= 2.5"));
    QVERIFY(!window.empty());
    const Run both =
        runLmct({QStringLiteral("dump"), QStringLiteral("--jsonl"), QStringLiteral("--range"),
                 QStringLiteral("2s:2500ms"), QStringLiteral("--filter"),
                 QStringLiteral("call == finish_write"), kTrace});
    QCOMPARE(both.exitCode, 0);
    QCOMPARE(size_t(both.out.count('\n')), window.size());

    const Run none = runLmct({QStringLiteral("dump"), QStringLiteral("--filter"),
                              QStringLiteral("call == no_such_call"), kTrace});
    QCOMPARE(none.exitCode, 0);
    QVERIFY(none.out.isEmpty());
}

void TestCliDump::statsCountsMatchTheFilter() {
    const QString filter = QStringLiteral("model_name == \"Qwen/Qwen3-8B\"");
    const std::vector<int> want = select(filter);
    const Run r = runLmct({QStringLiteral("stats"), QStringLiteral("--json"),
                           QStringLiteral("--filter"), filter, kTrace});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value(QStringLiteral("records")).toInteger(), qint64(want.size()));
    QCOMPARE(o.value(QStringLiteral("filter")).toString(), filter);
    qint64 sum = 0;
    for (const QJsonValue &c : o.value(QStringLiteral("calls")).toArray()) {
        sum += c.toObject().value(QStringLiteral("count")).toInteger();
    }
    QCOMPARE(sum, qint64(want.size()));
    // Every selected record has a Qwen key: the Qwen model row counts all of them.
    const QJsonArray models = o.value(QStringLiteral("models")).toArray();
    bool found = false;
    for (const QJsonValue &m : models) {
        if (m.toObject().value(QStringLiteral("name")).toString() ==
            QLatin1String("Qwen/Qwen3-8B")) {
            QCOMPARE(m.toObject().value(QStringLiteral("calls")).toInteger(), qint64(want.size()));
            found = true;
        }
    }
    QVERIFY(found);
    // The whole trace: the truth file's record count and the manifest's enter/exit pairs.
    const qint64 records = traceTruth(kTraceName)[QStringLiteral("records")].toInteger();
    const qint64 pairs = traceManifest()[kTraceName]
                             .toObject()[QStringLiteral("context_pairs")]
                             .toObject()[QStringLiteral("matched")]
                             .toInteger();
    QVERIFY(records > 0 && pairs > 0);
    const Run whole = runLmct({QStringLiteral("stats"), QStringLiteral("--json"), kTrace});
    QCOMPARE(whole.exitCode, 0);
    const QJsonObject w = QJsonDocument::fromJson(whole.out).object();
    QCOMPARE(w.value(QStringLiteral("records")).toInteger(), records);
    QCOMPARE(w.value(QStringLiteral("context_pairs")).toObject().value("matched").toInteger(),
             pairs);
    // Text output names the selection.
    const Run text = runLmct({QStringLiteral("stats"), QStringLiteral("--filter"), filter, kTrace});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains(
        QStringLiteral("records:   %1 of %2").arg(want.size()).arg(records).toUtf8()));
}

void TestCliDump::statsCsvTables() {
    const Run calls = runLmct({QStringLiteral("stats"), QStringLiteral("--csv"), kTrace});
    QCOMPARE(calls.exitCode, 0);
    bool ok = false;
    const QList<QStringList> rows = parseCsv(calls.out, &ok);
    QVERIFY(ok);
    QCOMPARE(rows.size(), 1 + 6 + 1);  // header, six calls, totals
    QCOMPARE(rows[0][0], QStringLiteral("call"));
    QCOMPARE(rows.last()[0], QStringLiteral("total"));
    QCOMPARE(rows.last()[2],
             QString::number(traceTruth(kTraceName)[QStringLiteral("records")].toInt()));
    const Run ranks = runLmct({QStringLiteral("stats"), QStringLiteral("--csv"),
                               QStringLiteral("--table"), QStringLiteral("ranks"), kTrace});
    QCOMPARE(ranks.exitCode, 0);
    const QList<QStringList> rr = parseCsv(ranks.out, &ok);
    QVERIFY(ok);
    QCOMPARE(rr.size(), 3);
    QCOMPARE(rr[1][0], QStringLiteral("rank 0/2"));
}

// Regression: the models, ranks and salts tables of `stats --csv` lacked the `releases` column
// of `stats --json`. Every key of a JSON group row is a CSV column with the same value, and the
// header is the one docs/cli.md lists.
void TestCliDump::statsCsvGroupTablesHaveTheJsonColumns() {
    const QString trace = QStringLiteral(LMCT_TRACES "/late2026-release.lct");
    const Run json = runLmct({QStringLiteral("stats"), QStringLiteral("--json"), trace});
    QCOMPARE(json.exitCode, 0);
    const QJsonObject o = QJsonDocument::fromJson(json.out).object();
    QVERIFY(o.value(QStringLiteral("releases")).toInteger() > 0);
    const QString doc = QString::fromUtf8(readAll(QStringLiteral(LMCT_SOURCE_DIR "/docs/cli.md")));
    for (const QString &table :
         {QStringLiteral("models"), QStringLiteral("ranks"), QStringLiteral("salts")}) {
        const Run csv = runLmct({QStringLiteral("stats"), QStringLiteral("--csv"),
                                 QStringLiteral("--table"), table, trace});
        QCOMPARE(csv.exitCode, 0);
        bool ok = false;
        const QList<QStringList> rows = parseCsv(csv.out, &ok);
        QVERIFY(ok);
        const QJsonArray groups = o.value(table).toArray();
        QCOMPARE(rows.size(), 1 + groups.size());
        const QStringList header = rows[0];
        QVERIFY2(doc.contains(QStringLiteral("| `%1` | `%2` |").arg(table, header.join(u','))),
                 qPrintable(table + QStringLiteral(": ") + header.join(u',')));
        qint64 releases = 0;
        for (int i = 0; i < groups.size(); ++i) {
            const QJsonObject g = groups[i].toObject();
            for (auto it = g.begin(); it != g.end(); ++it) {
                const qsizetype c = header.indexOf(it.key());
                QVERIFY2(c >= 0, qPrintable(table + QStringLiteral(": no column ") + it.key()));
                const QString cell = rows[i + 1][c];
                if (it.value().isNull()) {
                    QVERIFY(cell.isEmpty());
                } else if (it.value().isString()) {
                    QCOMPARE(cell, it.value().toString());
                } else {
                    QCOMPARE(cell.toDouble(), it.value().toDouble());
                }
            }
            releases += g.value(QStringLiteral("releases")).toInteger();
        }
        QVERIFY2(releases > 0, qPrintable(table));
    }
}

void TestCliDump::invalidFilterExitsOneWithColumn() {
    for (const QString &cmd : {QStringLiteral("dump"), QStringLiteral("stats")}) {
        const Run r =
            runLmct({cmd, QStringLiteral("--filter"), QStringLiteral("model_name =="), kTrace});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains("invalid filter: column 14: expected a value after '==', found end "
                                "of input"),
                 r.err.constData());
        QVERIFY(r.err.contains("  model_name ==\n" + QByteArray(15, ' ') + "^\n"));
    }
    const Run hex = runLmct({QStringLiteral("dump"), QStringLiteral("--filter"),
                             QStringLiteral("chunk_hash == nothex"), kTrace});
    QCOMPARE(hex.exitCode, 1);
    QVERIFY(hex.err.contains("column 15"));
    // An invalid filter is reported even when the file cannot be read: nothing is applied.
    const Run both = runLmct({QStringLiteral("dump"), QStringLiteral("--filter"),
                              QStringLiteral("("), QStringLiteral("/nonexistent/trace.lct")});
    QCOMPARE(both.exitCode, 1);
}

void TestCliDump::usageErrors() {
    QCOMPARE(runLmct({QStringLiteral("dump")}).exitCode, 1);                  // no FILE
    QCOMPARE(runLmct({QStringLiteral("dump"), kTrace, kTrace}).exitCode, 1);  // two FILEs
    QCOMPARE(runLmct({QStringLiteral("dump"), QStringLiteral("--bogus"), kTrace}).exitCode, 1);
    QCOMPARE(runLmct({QStringLiteral("dump"), QStringLiteral("--jsonl"), QStringLiteral("--csv"),
                      kTrace})
                 .exitCode,
             1);
    const Run range =
        runLmct({QStringLiteral("dump"), QStringLiteral("--range"), QStringLiteral("9:3"), kTrace});
    QCOMPARE(range.exitCode, 1);
    QVERIFY(range.err.contains("invalid --range"));
    const Run hexRange = runLmct(
        {QStringLiteral("dump"), QStringLiteral("--range"), QStringLiteral("0x10:20"), kTrace});
    QCOMPARE(hexRange.exitCode, 1);  // 0x10 is no time (it was read as 16 s)
    QVERIFY2(hexRange.err.contains("found '0x10'"), hexRange.err.constData());
    QCOMPARE(
        runLmct({QStringLiteral("stats"), QStringLiteral("--range"), QStringLiteral("abc"), kTrace})
            .exitCode,
        1);
    QCOMPARE(runLmct({QStringLiteral("stats"), QStringLiteral("--csv"), QStringLiteral("--table"),
                      QStringLiteral("nope"), kTrace})
                 .exitCode,
             1);
    QCOMPARE(runLmct({QStringLiteral("stats"), QStringLiteral("--json"), QStringLiteral("--csv"),
                      kTrace})
                 .exitCode,
             1);
    QCOMPARE(runLmct({QStringLiteral("frobnicate")}).exitCode, 1);
}

void TestCliDump::unreadableInputExitsTwo() {
    for (const QString &cmd : {QStringLiteral("dump"), QStringLiteral("stats")}) {
        const Run missing = runLmct({cmd, QStringLiteral("/nonexistent/trace.lct")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(!missing.err.isEmpty());
        const Run notTrace = runLmct({cmd, QStringLiteral(LMCT_FIXTURES "/not-a-trace.bin")});
        QCOMPARE(notTrace.exitCode, 2);
        const Run empty = runLmct({cmd, QStringLiteral(LMCT_FIXTURES "/empty.lct")});
        QCOMPARE(empty.exitCode, 2);
    }
    // A header-only trace is valid: no records, exit 0.
    const Run headerOnly =
        runLmct({QStringLiteral("dump"), QStringLiteral(LMCT_TRACES "/header-only.lmct")});
    QCOMPARE(headerOnly.exitCode, 0);
    QVERIFY(headerOnly.out.isEmpty());
    // `lmct info` is still there.
    QCOMPARE(runLmct({QStringLiteral("info"), kTrace}).exitCode, 0);
}

void TestCliDump::helpOnEveryCommand() {
    for (const QString &cmd :
         {QStringLiteral("info"), QStringLiteral("dump"), QStringLiteral("stats")}) {
        const Run r = runLmct({cmd, QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("lmct %1").arg(cmd).toUtf8()), r.out.constData());
    }
    const Run top = runLmct({QStringLiteral("--help")});
    QCOMPARE(top.exitCode, 0);
    QVERIFY(top.out.contains("dump") && top.out.contains("stats"));
    QVERIFY(runLmct({QStringLiteral("dump"), QStringLiteral("--help")}).out.contains("--filter"));
}

// Regression: a string over 1 MiB came out of `lmct dump --jsonl` as its first 1 MiB with "…
// (2000000 bytes in all; the first 1048576 are shown)" appended inside the string
// (indistinguishable from content) and in the text summary as "s=AAAA…" without its size. Now as
// binaries: JSON
// {"__cut__": the kept text, "size": N}, the summary ends with "(N bytes)".
void TestCliDump::cutStringIsToldLikeACutBinary() {
    const qint64 n = 2000000;
    Mp args;
    args.map(1).str("s");
    args.bytes += char(0xdb);
    args.bytes += be32(quint32(n));
    args.bytes += QByteArray(n, 'A');
    QTemporaryDir dir;
    const QString path = writeFile(
        dir, QStringLiteral("huge-string.lct"),
        frame(headerBody()) +
            frame(recordBody(1.0, 1760000001.0, storageQualname("reserve_write"), args.bytes)));
    QVERIFY(!path.isEmpty());

    const Run jsonl = runLmct({QStringLiteral("dump"), QStringLiteral("--jsonl"), path});
    QCOMPARE(jsonl.exitCode, 0);
    const QList<QJsonObject> lines = jsonl.jsonLines();
    QCOMPARE(lines.size(), 1);
    const QJsonObject cut =
        lines[0][QStringLiteral("args")].toObject()[QStringLiteral("s")].toObject();
    QCOMPARE(cut.keys(), (QStringList{QStringLiteral("__cut__"), QStringLiteral("size")}));
    QCOMPARE(cut[QStringLiteral("__cut__")].toString(),
             QString(Value::kMaxKeptBytes, QLatin1Char('A')));
    QCOMPARE(cut[QStringLiteral("size")].toInteger(), n);

    const Run text = runLmct({QStringLiteral("dump"), path});
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(
        text.out.trimmed().endsWith(
            QStringLiteral("s=%1… (%2 bytes)").arg(QString(39, QLatin1Char('A'))).arg(n).toUtf8()),
        text.out.right(120).constData());
}

QTEST_GUILESS_MAIN(TestCliDump)
#include "tst_cli_dump.moc"
