// `lmct export` as a user runs it: Chrome trace-event JSON (one event per record, enter/exit
// pairs merged), JSONL/CSV row counts and values, exit codes and messages for bad paths and
// filters, and that a failed export leaves no file.

#include "codec/valueformatter.h"
#include "filter/filterevaluator.h"
#include "testutil.h"
#include "trace/traceloader.h"

#include <sys/stat.h>
#include <unistd.h>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

using namespace lmct;
using namespace lmct::test;

namespace {

const QString kTrace = QStringLiteral(LMCT_TRACES "/malformed-record.lmct");
const QString kBig = QStringLiteral(LMCT_TRACES "/schema2-prefetch-spec-tp2.lct");

using Run = ProcessRun;

std::vector<int> select(const std::shared_ptr<const TraceDocument> &doc, const QString &filter) {
    FilterEvaluator ev(doc, FilterExpression::parse(filter));
    return ev.run(FilterEvaluator::Options()).records;
}

/** matched pairs as `lmct stats --json` (TraceStatistics::ContextPairs) counts them. */
qint64 statsPairs(const QString &trace, const QString &filter = {}) {
    QStringList args{QStringLiteral("stats"), QStringLiteral("--json")};
    if (!filter.isEmpty()) {
        args << QStringLiteral("--filter") << filter;
    }
    const Run r = runLmct(args << trace);
    return QJsonDocument::fromJson(r.out)
        .object()
        .value(QStringLiteral("context_pairs"))
        .toObject()
        .value(QStringLiteral("matched"))
        .toInteger(-1);
}

}  // namespace

class TestCliExport : public QObject {
    Q_OBJECT
private slots:
    void chromeJson_data() {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<QString>("filter");
        QTest::newRow("malformed-record") << kTrace << QString();
        QTest::newRow("malformed-record, reads only")
            << kTrace << QStringLiteral("qualname contains read_prefetched");
        QTest::newRow("schema2") << kBig << QString();
    }
    void chromeJson() {
        QFETCH(QString, trace);
        QFETCH(QString, filter);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("chrome.json"));
        QStringList args{QStringLiteral("export"), QStringLiteral("--chrome-json"), out};
        if (!filter.isEmpty()) {
            args << QStringLiteral("--filter") << filter;
        }
        const Run r = runLmct(args << trace);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("events"), r.err.constData());

        QString why;
        const auto doc = TraceLoader::load(trace, &why);
        QVERIFY2(doc, qPrintable(why));
        const std::vector<int> rows = select(doc, filter);
        const qint64 pairs = statsPairs(trace, filter);
        QVERIFY(pairs >= 0);

        QJsonParseError pe;
        const QJsonDocument d = QJsonDocument::fromJson(readAll(out), &pe);
        QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));
        const QJsonArray events = d.object().value(QStringLiteral("traceEvents")).toArray();
        qint64 instants = 0, complete = 0, threads = 0;
        QSet<QString> qualnames;
        QSet<int> indices;
        const RecordStore &rs = doc->records();
        for (const QJsonValue &v : events) {
            const QJsonObject e = v.toObject();
            const QString ph = e.value(QStringLiteral("ph")).toString();
            if (ph == QLatin1String("M")) {
                threads += e.value(QStringLiteral("name")) == QStringLiteral("thread_name");
                continue;
            }
            const QJsonObject a = e.value(QStringLiteral("args")).toObject();
            if (ph == QLatin1String("i")) {
                ++instants;
                const int idx = a.value(QStringLiteral("record_index")).toInt(-1);
                QVERIFY(idx >= 0 && idx < rs.size());
                indices.insert(idx);
                QCOMPARE(e.value(QStringLiteral("cat")).toString(), rs.qualname(idx));
                QCOMPARE(e.value(QStringLiteral("ts")).toDouble(), rs.tMono(idx) * 1e6);
            } else if (ph == QLatin1String("X")) {
                ++complete;
                QCOMPARE(e.value(QStringLiteral("name")).toString(),
                         QStringLiteral("read_prefetched_results"));
                QVERIFY(e.value(QStringLiteral("dur")).toDouble() >= 0);
                indices.insert(a.value(QStringLiteral("enter_index")).toInt());
                indices.insert(a.value(QStringLiteral("exit_index")).toInt());
            } else {
                QFAIL(qPrintable(QStringLiteral("unexpected ph ") + ph));
            }
            qualnames.insert(e.value(QStringLiteral("cat")).toString());
        }
        QCOMPARE(complete, pairs);
        QCOMPARE(instants + complete, qint64(rows.size()) - pairs);
        QCOMPARE(qint64(indices.size()), qint64(rows.size()));  // every record is in an event
        QCOMPARE(threads, qint64(qualnames.size()));
        if (filter.isEmpty() && trace == kTrace) {
            // Every __enter__ and __exit__ matched: the truth file's counts, the manifest's pairs.
            const QJsonObject truth = traceTruth(QStringLiteral("malformed-record.lmct"));
            const int enters =
                truthCount(truth, QStringLiteral("read_prefetched_results.__enter__"));
            QVERIFY(enters > 0);
            QCOMPARE(truthCount(truth, QStringLiteral("read_prefetched_results.__exit__")), enters);
            QCOMPARE(pairs, enters);
            QCOMPARE(pairs, traceManifest()[QStringLiteral("malformed-record.lmct")]
                                .toObject()[QStringLiteral("context_pairs")]
                                .toObject()[QStringLiteral("matched")]
                                .toInt());
        }
    }

    void recordsJsonlAndCsv() {
        QTemporaryDir dir;
        const QString filter = QStringLiteral("call == reserve_write || call == finish_write");
        const QString jsonl = dir.filePath(QStringLiteral("r.jsonl"));
        const QString csv = dir.filePath(QStringLiteral("r.csv"));
        QCOMPARE(runLmct({QStringLiteral("export"), QStringLiteral("--jsonl"), jsonl,
                          QStringLiteral("--filter"), filter, kTrace})
                     .exitCode,
                 0);
        QCOMPARE(runLmct({QStringLiteral("export"), QStringLiteral("--csv"), csv,
                          QStringLiteral("--filter"), filter, kTrace})
                     .exitCode,
                 0);
        QString why;
        const auto doc = TraceLoader::load(kTrace, &why);
        QVERIFY(doc);
        const std::vector<int> rows = select(doc, filter);
        QVERIFY(rows.size() > 100);
        const QList<QByteArray> lines = readAll(jsonl).split('\n');
        QCOMPARE(lines.size(), qsizetype(rows.size()) + 1);  // trailing newline
        QVERIFY(lines.last().isEmpty());
        for (size_t k = 0; k < rows.size(); ++k) {
            const QJsonObject o = QJsonDocument::fromJson(lines[qsizetype(k)]).object();
            const int r = rows[k];
            QCOMPARE(o.value(QStringLiteral("index")).toInt(), r);
            QCOMPARE(o.value(QStringLiteral("qualname")).toString(), doc->records().qualname(r));
            QCOMPARE(o.value(QStringLiteral("t_mono")).toDouble(), doc->records().tMono(r));
            // The args as the viewer's model decodes and shows them.
            const auto args = doc->args(r);
            QVERIFY(args);
            QCOMPARE(o.value(QStringLiteral("args")), ValueFormatter::toJson(args->value));
        }
        const QByteArray csvText = readAll(csv);
        QVERIFY(csvText.startsWith("index,t_mono,t_wall,qualname,call,summary,args_json\r\n"));
        // No field holds CRLF (args_json is compact), so rows are CRLF-separated lines.
        QCOMPARE(csvText.count("\r\n"), qsizetype(rows.size()) + 1);
    }

    void badPaths_data() {
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing folder")
            << QStringLiteral("/nonexistent/dir/out.json") << QStringLiteral("does not exist");
        QTest::newRow("a directory") << QStringLiteral("@DIR@") << QStringLiteral("directory");
    }
    void badPaths() {
        QFETCH(QString, out);
        QFETCH(QString, message);
        QTemporaryDir dir;
        out.replace(QStringLiteral("@DIR@"), dir.path());
        for (const char *fmt : {"--chrome-json", "--jsonl", "--csv"}) {
            const Run r = runLmct({QStringLiteral("export"), QLatin1String(fmt), out, kTrace});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.startsWith("lmct export: cannot write " + out.toUtf8()),
                     r.err.constData());
            QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        }
        QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size(), 0);
    }

    void regression_deviceOrFifoIsNotReplaced() {
        // QSaveFile renamed its temporary file over the FIFO (or a device node: /dev/null as
        // root) and reported success.
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("out.fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const Run r = runLmct({QStringLiteral("export"), QStringLiteral("--csv"), fifo, kTrace});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("not a regular file"), r.err.constData());
        QVERIFY(!QFileInfo(fifo).isFile());
        QVERIFY(QFileInfo(fifo).exists());
        QCOMPARE(QDir(dir.path())
                     .entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::System)
                     .size(),
                 1);
    }

    void unwritableLeavesNoFile() {
        if (::geteuid() == 0) {
            QSKIP("running as root: permissions do not stop writes");
        }
        QTemporaryDir dir;
        QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::ExeOwner));
        const QString out = dir.filePath(QStringLiteral("x.json"));
        const Run r =
            runLmct({QStringLiteral("export"), QStringLiteral("--chrome-json"), out, kTrace});
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("cannot write"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size(), 0);
    }

    void neverWritesTheInput() {
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("t.lmct"));
        QVERIFY(QFile::copy(kTrace, copy));
        const QByteArray before = readAll(copy);
        const Run r =
            runLmct({QStringLiteral("export"), QStringLiteral("--chrome-json"), copy, copy});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("input trace"), r.err.constData());
        QCOMPARE(readAll(copy), before);
    }

    void usageErrors() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("o.json"));
        Run r = runLmct({QStringLiteral("export"), QStringLiteral("--chrome-json"), out,
                         QStringLiteral("--filter"), QStringLiteral("call =="), kTrace});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("invalid filter"), r.err.constData());
        QVERIFY(!QFile::exists(out));
        r = runLmct({QStringLiteral("export"), kTrace});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("exactly one"));
        r = runLmct({QStringLiteral("export"), QStringLiteral("--csv"), out,
                     QStringLiteral("--jsonl"), out, kTrace});
        QCOMPARE(r.exitCode, 1);
        r = runLmct({QStringLiteral("export"), QStringLiteral("--chrome-json"), out,
                     QStringLiteral("/nonexistent/trace.lct")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!QFile::exists(out));
        r = runLmct({QStringLiteral("export"), QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("lmct export"));
        QVERIFY(r.out.contains("--chrome-json"));
    }
};

QTEST_GUILESS_MAIN(TestCliExport)
#include "tst_cli_export.moc"
