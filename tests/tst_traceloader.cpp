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
};

QTEST_GUILESS_MAIN(TestTraceLoader)
#include "tst_traceloader.moc"
