// TraceLoader: every generated fixture against its manifest, every reference trace against its
// truth file, framing details, damage at every byte, header recovery, cancel and progress,
// hostile input.

#include "testutil.h"
#include "traceloader.h"

#include <QRegularExpression>
#include <QTest>

using namespace lmct;
using namespace lmct::test;

class TestTraceLoader : public QObject {
    Q_OBJECT

private slots:
    void regression_shortFileRefusalNamesOffset() {
        // The loader's contract: a refusal reads "FILE: offset N: ...". Empty files and files
        // shorter than a length prefix and a map marker said no offset.
        for (int n = 0; n < 5; ++n) {
            QString error;
            auto doc = TraceLoader::loadBytes(frame(headerBody()).left(n), QStringLiteral("s.lct"),
                                              &error);
            QVERIFY(!doc);
            QVERIFY2(error.startsWith(QLatin1String("s.lct: offset 0: ")), qPrintable(error));
        }
    }

    void regression_offByOneLengthDoesNotHideNextRecord_data() {
        QTest::addColumn<int>("delta");
        for (int d : {-1, 1, 2, 3}) {
            QTest::addRow("%+d", d) << d;
        }
    }
    void regression_offByOneLengthDoesNotHideNextRecord() {
        // A length prefix a few bytes too long made the loader trust it (the bytes after it did
        // not look like a frame) and resync only from its claimed end, which lies inside the
        // next record frame: that good record was lost too.
        QFETCH(int, delta);
        SmallTrace t = smallTrace(5);
        QByteArray b = t.bytes;
        const qint64 at = t.frameStarts[2];
        const quint32 len = qFromBigEndian<quint32>(b.constData() + at);
        b.replace(at, 4, be32(quint32(qint64(len) + delta)));
        QString error;
        auto doc = TraceLoader::loadBytes(b, QStringLiteral("m.lct"), &error);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(doc->records().size(), 4);
        QList<qint64> offsets;
        for (int i = 0; i < doc->records().size(); ++i) {
            offsets.append(doc->records().frameOffset(i));
        }
        QCOMPARE(offsets, (QList<qint64>{t.frameStarts[0], t.frameStarts[1], t.frameStarts[3],
                                         t.frameStarts[4]}));
        QVERIFY(doc->errorCount() >= 1);
        QCOMPARE(doc->skippedBytes(), t.frameEnds[2] - t.frameStarts[2]);
    }
};

QTEST_GUILESS_MAIN(TestTraceLoader)
#include "tst_traceloader.moc"
