// Issue #7 "never crash" (and print nothing absurd): trailing bytes in a frame body, huge and
// non-finite times in every output, failed writes to standard output. Each on the smallest input.

#include "testutil.h"
#include "trace/recordindexer.h"
#include "trace/traceloader.h"
#include "util/timeformat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <limits>

using namespace lmct;
using namespace lmct::test;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

QByteArray oneRecord(double t = 0.5) {
    return recordBody(t, 1760000000.5, storageQualname("reserve_write"), keysArgs(1));
}

/** Header, a record whose body has 2 trailing bytes (c0 c0), a good record. */
QByteArray trailingBodyTrace() {
    return frame(headerBody()) + frame(oneRecord(0.1) + QByteArray("\xc0\xc0", 2)) +
           frame(oneRecord(0.2));
}

/** The header of headerBody() with the given start times. */
QByteArray headerWithTimes(double tMono, double tWall) {
    Mp m;
    m.map(9).str("type").str("header");
    m.str("magic").bin("LMCT");
    m.str("format_version").sint(1);
    m.str("level").str("storage");
    m.str("trace_schema_version").sint(2);
    m.str("t_mono_start").f64(tMono);
    m.str("t_wall_start").f64(tWall);
    m.str("sm_config_json").str("");
    m.str("sm_config_digest").str("");
    return m.bytes;
}

/** Records with non-finite and huge times, enter/exit pairs with huge durations among them. */
QByteArray hostileTimesTrace() {
    QByteArray t = frame(headerWithTimes(kNaN, kInf));
    const QString enter = storageQualname("read_prefetched_results.__enter__");
    const QString exit = storageQualname("read_prefetched_results.__exit__");
    const QString reserve = storageQualname("reserve_write");
    const QString finish = storageQualname("finish_write");
    const struct {
        double tMono, tWall;
        const QString &q;
    } recs[] = {{kNaN, kNaN, reserve},      {0.1, 1.0, reserve},    {-5.0, -1e300, finish},
                {kInf, kInf, reserve},      {-kInf, -kInf, finish}, {1e308, 1e308, reserve},
                {0.2, 1760000000.2, enter}, {1.7e308, 1e300, exit}, {0.3, 1e18, enter},
                {9.2e18, 2e18, exit}};
    for (const auto &r : recs) {
        t += frame(recordBody(r.tMono, r.tWall, r.q, keysArgs(1)));
    }
    return t;
}

int countKind(const TraceDocument &doc, Diagnostic::Kind kind, QString *message = nullptr,
              qint64 *offset = nullptr) {
    int n = 0;
    for (const Diagnostic &d : doc.diagnostics()) {
        if (d.kind == kind) {
            ++n;
            if (message) {
                *message = d.message;
            }
            if (offset) {
                *offset = d.offset;
            }
        }
    }
    return n;
}

}  // namespace

class TestRobustness : public QObject {
    Q_OBJECT

private slots:
    void trailingBytesInBodyIndexer();
    void trailingBytesInBodyLoader_data();
    void trailingBytesInBodyLoader();
    void trailingBytesInBodyCli();
    void trailingBytesInHeader();

    void fixedFormatsHugeAndNonFinite();
    void cliHugeAndNonFiniteTimes_data();
    void cliHugeAndNonFiniteTimes();
    void jsonNonFiniteIsNull();

    void writeToFullDevice_data();
    void writeToFullDevice();
    void writeToClosedStandardOutput_data();
    void writeToClosedStandardOutput();
    void readerOfThePipeGone_data();
    void readerOfThePipeGone();
};

// RecordIndexer's Full mode finds the two bytes after the record's map; Index mode stops at the
// start of `args` (walking the arguments to find the value's end cost 60% more indexing time).
void TestRobustness::trailingBytesInBodyIndexer() {
    const QByteArray body = oneRecord() + QByteArray("\xc0\xc0", 2);
    const RecordIndexer::Fields f =
        RecordIndexer::parse(body.constData(), body.size(), RecordIndexer::Mode::Full);
    QCOMPARE(f.status, RecordIndexer::Status::Malformed);
    QCOMPARE(f.trailingAt, body.size() - 2);
    QVERIFY2(f.message.contains(QStringLiteral("then 2 unexpected bytes (trailing bytes at body "
                                               "offset %1")
                                    .arg(body.size() - 2)),
             qPrintable(f.message));
    QCOMPARE(RecordIndexer::parse(body.constData(), body.size(), RecordIndexer::Mode::Index).status,
             RecordIndexer::Status::Ok);
    const QByteArray good = oneRecord();
    const RecordIndexer::Fields g =
        RecordIndexer::parse(good.constData(), good.size(), RecordIndexer::Mode::Full);
    QCOMPARE(g.status, RecordIndexer::Status::Ok);
    QCOMPARE(g.trailingAt, -1);
}

void TestRobustness::trailingBytesInBodyLoader_data() {
    QTest::addColumn<bool>("check");
    QTest::newRow("index only") << false;
    QTest::newRow("arguments checked") << true;
}

// Both paths count the record (the same count with and without the check); the argument check
// flags it and says what is wrong, at the frame's offset.
void TestRobustness::trailingBytesInBodyLoader() {
    QFETCH(bool, check);
    const QByteArray bytes = trailingBodyTrace();
    TraceLoadOptions opt;
    opt.validateArgs = check;
    QString error;
    auto doc = TraceLoader::loadBytes(bytes, QStringLiteral("t.lct"), &error, opt);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(doc->records().size(), 2);
    QCOMPARE(doc->records().tMono(1), 0.2);
    QCOMPARE(doc->skippedFrames(), 0);
    QString message;
    qint64 offset = -1;
    QCOMPARE(countKind(*doc, Diagnostic::Kind::Malformed, &message, &offset), check ? 1 : 0);
    QCOMPARE(bool(doc->records().flags(0) & RecordStore::BadArgs), check);
    if (check) {
        const qint64 frameOffset = frame(headerBody()).size();
        QCOMPARE(offset, frameOffset);
        QVERIFY2(message.contains(QStringLiteral("offset %1").arg(frameOffset)),
                 qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("2 unexpected bytes")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("LMCache's reader rejects")), qPrintable(message));
    }
}

// `lmct info` counts the record with and without --check; --check reports the trailing bytes.
void TestRobustness::trailingBytesInBodyCli() {
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("t.lct"), trailingBodyTrace());
    for (bool check : {false, true}) {
        QStringList args{QStringLiteral("info"), QStringLiteral("--json"),
                         QStringLiteral("--details")};
        if (check) {
            args << QStringLiteral("--check");
        }
        const ProcessRun r = runLmct(args + QStringList{path});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = r.jsonLines().value(0);
        QCOMPARE(o[QStringLiteral("records")].toInt(), 2);
        QCOMPARE(QString::fromUtf8(r.out).contains(QStringLiteral("2 unexpected bytes")), check);
    }
}

// A header map followed by a byte in its frame: the header is read, the byte reported.
void TestRobustness::trailingBytesInHeader() {
    const QByteArray header = headerBody();
    const QByteArray bytes =
        frame(header + QByteArray("\xc0", 1)) + frame(oneRecord(0.1)) + frame(oneRecord(0.2));
    QString error;
    auto doc = TraceLoader::loadBytes(bytes, QStringLiteral("t.lct"), &error);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(doc->header().magic(), QStringLiteral("LMCT"));
    QCOMPARE(doc->records().size(), 2);
    QString message;
    qint64 offset = -1;
    QCOMPARE(countKind(*doc, Diagnostic::Kind::Malformed, &message, &offset), 1);
    QCOMPARE(offset, 4 + header.size());
    QVERIFY2(message.contains(QStringLiteral("1 trailing bytes at offset %1").arg(offset)),
             qPrintable(message));
    QCOMPARE(doc->skippedBytes(), 0);  // inside the header frame: not among the records
}

// Normal values as before; huge ones in 7 significant digits; non-finite ones by name.
void TestRobustness::fixedFormatsHugeAndNonFinite() {
    QCOMPARE(TimeFormat::mono(12.345678), QStringLiteral("12.345678"));
    QCOMPARE(TimeFormat::mono(-5.0), QStringLiteral("-5.000000"));
    QCOMPARE(TimeFormat::mono(999999999999.5), QStringLiteral("999999999999.500000"));
    QCOMPARE(TimeFormat::mono(1e12), QStringLiteral("1e+12"));
    QCOMPARE(TimeFormat::mono(1e308), QStringLiteral("1e+308"));
    QCOMPARE(TimeFormat::mono(-1.7e308), QStringLiteral("-1.7e+308"));
    QCOMPARE(TimeFormat::mono(9.2e18), QStringLiteral("9.2e+18"));
    QCOMPARE(TimeFormat::mono(kNaN), QStringLiteral("nan"));
    QCOMPARE(TimeFormat::mono(kInf), QStringLiteral("inf"));
    QCOMPARE(TimeFormat::mono(-kInf), QStringLiteral("-inf"));
    QCOMPARE(TimeFormat::fixed(1760000000.25, 3), QStringLiteral("1760000000.250"));
    QCOMPARE(TimeFormat::fixed(1.23456789e300, 3), QStringLiteral("1.234568e+300"));
}

void TestRobustness::cliHugeAndNonFiniteTimes_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("json");  // "", "lines" or "document"
    const QString none, lines = QStringLiteral("lines"), document = QStringLiteral("document");
    auto row = [](const char *name, const char *args, const QString &json) {
        QTest::newRow(name) << QString::fromLatin1(args).split(QLatin1Char(' ')) << json;
    };
    row("dump", "dump", none);
    row("dump --jsonl", "dump --jsonl", lines);
    row("dump --csv", "dump --csv", none);
    row("stats", "stats", none);
    row("stats --json", "stats --json", document);
    row("stats --csv", "stats --csv", none);
    row("info", "info", none);
    row("info --check", "info --check", none);
    row("info --json", "info --json --details", lines);
    row("keys", "keys", none);
    row("keys --json", "keys --json", document);
    row("anomalies", "anomalies", none);
    row("anomalies --json", "anomalies --json", document);
    row("export --chrome-json", "export --chrome-json OUT", document);
    row("export --jsonl", "export --jsonl OUT", lines);
    row("export --csv", "export --csv OUT", none);
}

// No command prints a number of 309 digits (t_mono 1e308 used to), and every JSON output still
// parses (non-finite numbers are null).
void TestRobustness::cliHugeAndNonFiniteTimes() {
    QFETCH(QStringList, args);
    QFETCH(QString, json);
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("t.lct"), hostileTimesTrace());
    const QString outPath = dir.filePath(QStringLiteral("out"));
    const bool toFile = args.contains(QStringLiteral("OUT"));
    args.replaceInStrings(QRegularExpression(QStringLiteral("^OUT$")), outPath);
    const ProcessRun r = runLmct(args + QStringList{path});
    QCOMPARE(r.exitCode, 0);
    const QByteArray out = toFile ? readAll(outPath) : r.out;
    QVERIFY(!out.isEmpty());
    const QRegularExpression longNumber(QStringLiteral("[0-9]{20,}"));
    const QRegularExpressionMatch m = longNumber.match(QString::fromUtf8(out));
    QVERIFY2(!m.hasMatch(), qPrintable(m.captured(0)));
    if (json == QLatin1String("document")) {
        QJsonParseError e;
        QJsonDocument::fromJson(out, &e);
        QVERIFY2(e.error == QJsonParseError::NoError, qPrintable(e.errorString()));
    } else if (json == QLatin1String("lines")) {
        for (const QByteArray &line : out.split('\n')) {
            if (line.isEmpty()) {
                continue;
            }
            QJsonParseError e;
            QJsonDocument::fromJson(line, &e);
            QVERIFY2(e.error == QJsonParseError::NoError, line.constData());
        }
    }
}

// The rule for JSON: a non-finite number is null, in records, arguments and the header.
void TestRobustness::jsonNonFiniteIsNull() {
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("t.lct"), hostileTimesTrace());
    const ProcessRun dump = runLmct({QStringLiteral("dump"), QStringLiteral("--jsonl"), path});
    QCOMPARE(dump.exitCode, 0);
    const QList<QJsonObject> recs = dump.jsonLines();
    QCOMPARE(recs.size(), 10);
    QVERIFY(recs[0][QStringLiteral("t_mono")].isNull());
    QVERIFY(recs[3][QStringLiteral("t_wall")].isNull());
    QCOMPARE(recs[5][QStringLiteral("t_mono")].toDouble(), 1e308);
    const ProcessRun info = runLmct({QStringLiteral("info"), QStringLiteral("--json"), path});
    const QJsonObject header = info.jsonLines().value(0)[QStringLiteral("header")].toObject();
    QVERIFY(header.contains(QStringLiteral("t_mono_start")));
    QVERIFY(header[QStringLiteral("t_mono_start")].isNull());
    QVERIFY(header[QStringLiteral("t_wall_start")].isNull());
}

void TestRobustness::writeToFullDevice_data() {
    QTest::addColumn<QStringList>("args");
    auto row = [](const char *args) {
        QTest::newRow(args) << QString::fromLatin1(args).split(QLatin1Char(' '),
                                                               Qt::SkipEmptyParts);
    };
    row("dump FILE");
    row("dump --jsonl FILE");
    row("dump --csv FILE");
    row("info FILE");
    row("info --json FILE");
    row("stats FILE");
    row("stats --json FILE");
    row("stats --csv FILE");
    row("keys FILE");
    row("keys --json FILE");
    row("anomalies FILE");
    row("anomalies --json FILE");
    row("dump --help");
    row("--version");
}

// Standard output on a full device: every command fails with 2 and says why (it exited 0).
void TestRobustness::writeToFullDevice() {
    QFETCH(QStringList, args);
    if (!QFile::exists(QStringLiteral("/dev/full"))) {
        QSKIP("no /dev/full");
    }
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("t.lct"), smallTrace(20).bytes);
    args.replaceInStrings(QRegularExpression(QStringLiteral("^FILE$")), path);
    QProcess p;
    p.setStandardOutputFile(QStringLiteral("/dev/full"));
    p.start(lmctPath(), args);
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QCOMPARE(p.exitCode(), 2);
    QVERIFY2(err.contains(QStringLiteral("lmct: cannot write to standard output: No space left on "
                                         "device")),
             qPrintable(err));
    QCOMPARE(err.count(QStringLiteral("cannot write")), 1);
}

void TestRobustness::writeToClosedStandardOutput_data() {
    QTest::addColumn<QStringList>("args");
    auto row = [](const char *args) {
        QTest::newRow(args) << QString::fromLatin1(args).split(QLatin1Char(' '),
                                                               Qt::SkipEmptyParts);
    };
    row("info FILE");
    row("dump FILE");
    row("dump --jsonl FILE");
    row("stats --json FILE");
    row("--version");
}

// Regression: `lmct info FILE >&-` said "cannot write to standard output: Invalid argument" (the
// closed descriptor 1 had been reused by a descriptor lmct opened itself, which took the
// writes). A closed standard output is "Bad file descriptor".
void TestRobustness::writeToClosedStandardOutput() {
    QFETCH(QStringList, args);
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("t.lct"), smallTrace(20).bytes);
    args.replaceInStrings(QRegularExpression(QStringLiteral("^FILE$")), path);
    const ProcessRun r = runProgram(
        QStringLiteral("/bin/sh"),
        QStringList{QStringLiteral("-c"), QStringLiteral("exec \"$0\" \"$@\" >&-"), lmctPath()} +
            args);
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.out, QByteArray());
    QCOMPARE(QString::fromUtf8(r.err),
             QStringLiteral("lmct: cannot write to standard output: Bad file descriptor\n"));
}

void TestRobustness::readerOfThePipeGone_data() {
    QTest::addColumn<QStringList>("args");
    auto row = [](const char *args) {
        QTest::newRow(args) << QString::fromLatin1(args).split(QLatin1Char(' '),
                                                               Qt::SkipEmptyParts);
    };
    row("dump FILE");
    row("dump --csv FILE");
    row("dump --jsonl FILE");
}

// Regression: `lmct dump FILE | head -1` was killed by SIGPIPE (exit 141) where README says a
// failed write exits 2. SIGPIPE is ignored: the write fails with EPIPE, lmct exits 2 and, since a
// reader going away is normal for `| head`, says nothing.
void TestRobustness::readerOfThePipeGone() {
    QFETCH(QStringList, args);
    QTemporaryDir dir;
    // Far more output than a pipe holds (64 KiB): lmct is still writing when head has gone.
    const QString path = writeFile(dir, QStringLiteral("t.lct"), smallTrace(6000).bytes);
    args.replaceInStrings(QRegularExpression(QStringLiteral("^FILE$")), path);
    // The shell prints lmct's exit status on stderr after lmct's own stderr.
    const ProcessRun r = runProgram(
        QStringLiteral("/bin/sh"),
        QStringList{QStringLiteral("-c"),
                    QStringLiteral("{ \"$0\" \"$@\"; echo \"exit $?\" >&2; } | head -c 100"),
                    lmctPath()} +
            args);
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out.size(), 100);
    QCOMPARE(QString::fromUtf8(r.err), QStringLiteral("exit 2\n"));  // not 141, no message
}

QTEST_GUILESS_MAIN(TestRobustness)
#include "tst_robustness.moc"
