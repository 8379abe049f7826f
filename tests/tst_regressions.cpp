// Regression tests for bugs found by fuzzing (tests/fuzz) and by hand; each on the smallest
// input that showed it.

#include "argumenttree.h"
#include "recordsummary.h"
#include "valuedecoder.h"
#include "valueformatter.h"

#include <QTest>

using namespace lmct;

class TestRegressions : public QObject {
    Q_OBJECT

private slots:
    // Fuzzer crash aa3da2be: a map cut short got its "decoding stopped" marker appended without a
    // key, so Value::keyAt() read past the keys (UBSan: reference binding to null pointer).
    void truncatedMapKeepsKeysAndValuesAligned() {
        const QByteArray bytes("\x82\xa1k\x01\xa1j", 6);  // {k: 1, j: <missing>}
        const ValueDecoder::Result r = ValueDecoder::decode(bytes);
        QCOMPARE(r.status, ValueDecoder::Status::Truncated);
        QVERIFY(r.value.isMap());
        QCOMPARE(int(r.value.keys().size()), r.value.size());
        QCOMPARE(r.value.keyAt(0), QStringLiteral("k"));
        QCOMPARE(r.value.at(r.value.size() - 1).type(), Value::Type::Truncated);
        QVERIFY(!RecordSummary::summarize(r.value).isEmpty());
        QCOMPARE(int(ArgumentTree::build(r.value)->children.size()), r.value.size());
        QVERIFY(ValueFormatter::display(r.value).contains(QStringLiteral("k: 1")));
    }
};

QTEST_GUILESS_MAIN(TestRegressions)
#include "tst_regressions.moc"
