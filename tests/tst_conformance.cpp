// Conformance to truth files: every `<trace>.truth.json` of the generated reference-shaped traces
// (LMCT_TRACES, always there) and of LMCache's own reference traces (the folder in the
// environment's LMCT_REFERENCE_TRACES_DIR when the test runs, else the configured one that CTest
// passes as LMCT_REFERENCE_TRACES; skipped when it holds none) against what
// TraceLoader and `lmct info --json` report: record count, per-qualname counts, duration
// (largest t_mono), every header field, whether the file opens, and the expected diagnostic
// kinds. The truth files are found at run time, so a new one needs no code change.

#include "testutil.h"
#include "trace/diagnostic.h"
#include "trace/recordstore.h"
#include "trace/traceinfo.h"
#include "trace/traceloader.h"
#include "truthcompare.h"

#include <QDir>
#include <QJsonArray>
#include <QSet>
#include <QTest>

using namespace lmct;
using namespace lmct::test;
using Severity = Diagnostic::Severity;

namespace {

/**
 * LMCache's reference traces: the user's LMCT_REFERENCE_TRACES_DIR as the test runs (CTest does
 * not set it, so `LMCT_REFERENCE_TRACES_DIR=DIR ctest` reaches here), else the configured folder
 * (CTest's LMCT_REFERENCE_TRACES, or the one compiled in).
 */
const QString kReferenceDir = qEnvironmentVariable(
    "LMCT_REFERENCE_TRACES_DIR",
    qEnvironmentVariable("LMCT_REFERENCE_TRACES", QStringLiteral(LMCT_REFERENCE_TRACES)));

/** Whether the user named the reference folder for this run (LMCT_REFERENCE_TRACES_DIR). */
bool askedForByName() {
    return !qEnvironmentVariable("LMCT_REFERENCE_TRACES_DIR").isEmpty();
}

QString absentByName() {
    return QStringLiteral("LMCT_REFERENCE_TRACES_DIR=%1 holds no reference traces (*.truth.json)")
        .arg(kReferenceDir);
}

QString describe(const TraceDocument &doc) {
    QStringList out;
    for (const Diagnostic &d : doc.diagnostics()) {
        out.append(QStringLiteral("[%1 @%2] %3")
                       .arg(Diagnostic::kindName(d.kind))
                       .arg(d.offset)
                       .arg(d.message));
    }
    return out.join(QLatin1Char('\n'));
}

/** The `*.truth.json` files in `dir`, as the trace names they describe. */
QStringList tracesWithTruth(const QString &dir) {
    QStringList out;
    for (const QString &t :
         QDir(dir).entryList({QStringLiteral("*.truth.json")}, QDir::Files, QDir::Name)) {
        out.append(t.chopped(int(strlen(".truth.json"))));
    }
    return out;
}

/** Rows `file` (absolute trace path) for every truth file in `dir`. */
void addRows(const QString &dir) {
    QTest::addColumn<QString>("file");
    for (const QString &name : tracesWithTruth(dir)) {
        QTest::newRow(qPrintable(name)) << QDir(dir).filePath(name);
    }
}

/** `file` through TraceLoader against its truth file. */
void loaderMatchesTruth(const QString &file) {
    const QJsonObject truth = readJson(file + QStringLiteral(".truth.json"));
    QVERIFY2(!truth.isEmpty(), qPrintable(file + QStringLiteral(".truth.json")));
    QString error;
    auto doc = TraceLoader::load(file, &error);
    QCOMPARE(doc != nullptr, truth[QStringLiteral("opens")].toBool(true));
    if (!doc) {
        QVERIFY2(error.contains(file), qPrintable(error));
        return;
    }
    QCOMPARE(doc->records().size(), truth[QStringLiteral("records")].toInt());
    QVERIFY2(sameJsonNumbers(qualnameCounts(*doc), truth[QStringLiteral("qualnames")].toObject()),
             qPrintable(QJsonDocument(qualnameCounts(*doc)).toJson()));
    // Exactly: the largest t_mono as written.
    QCOMPARE(doc->duration(), truth[QStringLiteral("duration_s")].toDouble());
    QCOMPARE(headerJson(*doc), truth[QStringLiteral("header")].toObject());

    QSet<QString> kinds;
    for (const Diagnostic &d : doc->diagnostics()) {
        kinds.insert(Diagnostic::kindName(d.kind));
        QVERIFY2(d.offset >= -1 && d.offset <= doc->fileSize(), qPrintable(d.message));
        QVERIFY(!d.message.isEmpty());
    }
    const QJsonArray expected = truth[QStringLiteral("diagnostics")].toArray();
    for (const QJsonValue &k : expected) {
        QVERIFY2(kinds.contains(k.toString()),
                 qPrintable(k.toString() + QStringLiteral(" not among\n") + describe(*doc)));
    }
    if (expected.isEmpty()) {
        // An undamaged trace opens without an error or a warning.
        for (const Diagnostic &d : doc->diagnostics()) {
            QVERIFY2(d.severity == Severity::Info, qPrintable(describe(*doc)));
        }
    }
    // Record frames lie in the file in ascending order after the header.
    const RecordStore &rs = doc->records();
    qint64 prevEnd = doc->recordsStart();
    for (int i = 0; i < rs.size(); ++i) {
        QVERIFY(rs.frameOffset(i) >= prevEnd);
        prevEnd = rs.frameOffset(i) + 4 + rs.bodyLength(i);
        QVERIFY(prevEnd <= doc->fileSize());
    }
    // A sample of records decodes completely.
    for (int i = 0; i < rs.size(); i += 97) {
        const auto args = doc->args(i);
        QVERIFY2(args->error.isEmpty(), qPrintable(args->error));
    }
}

/** `lmct info --json file` against its truth file. */
void infoJsonMatchesTruth(const QString &file) {
    const QJsonObject truth = readJson(file + QStringLiteral(".truth.json"));
    const bool opens = truth[QStringLiteral("opens")].toBool(true);
    const ProcessRun r = runLmct({QStringLiteral("info"), QStringLiteral("--json"), file});
    QCOMPARE(r.exitCode == 0, opens);
    const auto lines = r.jsonLines();
    QCOMPARE(lines.size(), 1);
    const QJsonObject j = lines.first();
    QCOMPARE(j[QStringLiteral("file")].toString(), file);
    QCOMPARE(j[QStringLiteral("ok")].toBool(), opens);
    if (!opens) {
        return;
    }
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    QVERIFY(j[QStringLiteral("error")].isNull());
    QCOMPARE(j[QStringLiteral("records")].toInt(), truth[QStringLiteral("records")].toInt());
    QCOMPARE(j[QStringLiteral("qualnames")].toObject(),
             truth[QStringLiteral("qualnames")].toObject());
    QCOMPARE(j[QStringLiteral("duration_s")].toDouble(),
             truth[QStringLiteral("duration_s")].toDouble());
    QJsonObject header = j[QStringLiteral("header")].toObject();
    QCOMPARE(header[QStringLiteral("magic")].toString(), QStringLiteral("LMCT"));
    header.remove(QStringLiteral("type"));
    QCOMPARE(header, truth[QStringLiteral("header")].toObject());
    QSet<QString> kinds;
    for (const QJsonValue &d : j[QStringLiteral("diagnostics")].toArray()) {
        const QJsonObject o = d.toObject();
        const QStringList dk = o.keys();
        QCOMPARE(QSet<QString>(dk.begin(), dk.end()),
                 (QSet<QString>{"severity", "offset", "kind", "message"}));
        kinds.insert(o[QStringLiteral("kind")].toString());
    }
    for (const QJsonValue &k : truth[QStringLiteral("diagnostics")].toArray()) {
        QVERIFY2(kinds.contains(k.toString()), qPrintable(k.toString()));
    }
}

bool haveReference() {
    return !tracesWithTruth(kReferenceDir).isEmpty();
}

}  // namespace

class TestConformance : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY2(QFile::exists(lmctPath()), "build the lmct target");
        // The generated set covers every shape of the reference set, under the same names.
        const QStringList generated = tracesWithTruth(QStringLiteral(LMCT_TRACES));
        QVERIFY2(generated.size() >= 11, "build the lmct-fixtures target");
        for (const QString &name : tracesWithTruth(kReferenceDir)) {
            QVERIFY2(
                generated.contains(name),
                qPrintable(QStringLiteral("no generated trace has the shape of %1").arg(name)));
        }
    }

    // --- generated reference-shaped traces (always) ----------------------------------------

    void generatedLoader_data() { addRows(QStringLiteral(LMCT_TRACES)); }
    void generatedLoader() {
        QFETCH(QString, file);
        loaderMatchesTruth(file);
    }

    void generatedInfoJson_data() { addRows(QStringLiteral(LMCT_TRACES)); }
    void generatedInfoJson() {
        QFETCH(QString, file);
        infoJsonMatchesTruth(file);
    }

    // --- LMCache's reference traces (when the folder is there) -----------------------------

    void referenceLoader_data() {
        if (!haveReference()) {
            QTest::addColumn<QString>("file");
            QTest::newRow("absent") << QString();
            return;
        }
        addRows(kReferenceDir);
    }
    void referenceLoader() {
        if (!haveReference()) {
            // a folder asked for by name must hold what it is asked for: a mistyped one fails
            QVERIFY2(!askedForByName(), qPrintable(absentByName()));
            QSKIP(qPrintable(QStringLiteral("no reference traces (*.truth.json) at %1: configure "
                                            "with -DLMCT_REFERENCE_TRACES_DIR=DIR, or run with "
                                            "LMCT_REFERENCE_TRACES_DIR=DIR, to check them")
                                 .arg(kReferenceDir)));
        }
        QFETCH(QString, file);
        loaderMatchesTruth(file);
    }

    void referenceInfoJson_data() { referenceLoader_data(); }
    void referenceInfoJson() {
        if (!haveReference()) {
            // a folder asked for by name must hold what it is asked for: a mistyped one fails
            QVERIFY2(!askedForByName(), qPrintable(absentByName()));
            QSKIP(qPrintable(QStringLiteral("no reference traces (*.truth.json) at %1: configure "
                                            "with -DLMCT_REFERENCE_TRACES_DIR=DIR, or run with "
                                            "LMCT_REFERENCE_TRACES_DIR=DIR, to check them")
                                 .arg(kReferenceDir)));
        }
        QFETCH(QString, file);
        infoJsonMatchesTruth(file);
    }
};

QTEST_GUILESS_MAIN(TestConformance)
#include "tst_conformance.moc"
