// Issue #7 "never crash" (and print nothing absurd): trailing bytes in a frame body, huge and
// non-finite times in every output, failed writes to standard output. Each on the smallest input.

#include "recordindexer.h"
#include "testutil.h"
#include "timeformat.h"
#include "traceloader.h"

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

QByteArray oneRecord(double t = 0.5) {
    return recordBody(t, 1760000000.5, storageQualname("reserve_write"), keysArgs(1));
}

/** Header, a record whose body has 2 trailing bytes (c0 c0), a good record. */
QByteArray trailingBodyTrace() {
    return frame(headerBody()) + frame(oneRecord(0.1) + QByteArray("\xc0\xc0", 2)) +
           frame(oneRecord(0.2));
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
};

// RecordIndexer finds the two bytes after the record's map in both modes (Index used to stop at
// the start of `args` and accept them).
void TestRobustness::trailingBytesInBodyIndexer() {
    const QByteArray body = oneRecord() + QByteArray("\xc0\xc0", 2);
    for (auto mode : {RecordIndexer::Mode::Index, RecordIndexer::Mode::Full}) {
        const RecordIndexer::Fields f = RecordIndexer::parse(body.constData(), body.size(), mode);
        QCOMPARE(f.status, RecordIndexer::Status::Malformed);
        QVERIFY2(f.message.contains(
                     QStringLiteral("then 2 unexpected bytes (trailing bytes at body offset %1")
                         .arg(body.size() - 2)),
                 qPrintable(f.message));
    }
    const QByteArray good = oneRecord();
    QCOMPARE(RecordIndexer::parse(good.constData(), good.size(), RecordIndexer::Mode::Index).status,
             RecordIndexer::Status::Ok);
}

void TestRobustness::trailingBytesInBodyLoader_data() {
    QTest::addColumn<bool>("check");
    QTest::newRow("index only") << false;
    QTest::newRow("arguments checked") << true;
}

// The frame is skipped as damaged, with the same diagnostic in the fast index path and the full
// (--check) path; the next record is read.
void TestRobustness::trailingBytesInBodyLoader() {
    QFETCH(bool, check);
    const QByteArray bytes = trailingBodyTrace();
    TraceLoadOptions opt;
    opt.validateArgs = check;
    QString error;
    auto doc = TraceLoader::loadBytes(bytes, QStringLiteral("t.lct"), &error, opt);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(doc->records().size(), 1);
    QCOMPARE(doc->records().tMono(0), 0.2);
    QCOMPARE(doc->skippedFrames(), 1);
    QString message;
    qint64 offset = -1;
    QCOMPARE(countKind(*doc, Diagnostic::Kind::Malformed, &message, &offset), 1);
    const qint64 frameOffset = frame(headerBody()).size();
    QCOMPARE(offset, frameOffset);
    QVERIFY2(message.contains(QStringLiteral("offset %1").arg(frameOffset)), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("2 unexpected bytes")), qPrintable(message));
}

// `lmct info` with and without --check agrees: one record, one damaged frame.
void TestRobustness::trailingBytesInBodyCli() {
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("t.lct"), trailingBodyTrace());
    for (const QStringList &extra : {QStringList(), QStringList{QStringLiteral("--check")}}) {
        const ProcessRun r = runLmct(QStringList{QStringLiteral("info"), QStringLiteral("--json"),
                                                 QStringLiteral("--details")} +
                                     extra + QStringList{path});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = r.jsonLines().value(0);
        QCOMPARE(o[QStringLiteral("records")].toInt(), 1);
        QCOMPARE(o[QStringLiteral("damage")].toObject()[QStringLiteral("skipped_frames")].toInt(),
                 1);
        QVERIFY(QString::fromUtf8(r.out).contains(QStringLiteral("2 unexpected bytes")));
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

QTEST_GUILESS_MAIN(TestRobustness)
#include "tst_robustness.moc"
