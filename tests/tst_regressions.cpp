// Regression tests for bugs found by fuzzing (tests/fuzz) and by hand; each on the smallest
// input that showed it.

#include "codec/objectkey.h"
#include "codec/rawkeyscanner.h"
#include "codec/recordsummary.h"
#include "codec/valuedecoder.h"
#include "codec/valueformatter.h"
#include "itemmodels/argumenttree.h"

#include <QTest>
#include <QtEndian>
#include <cstring>
#include <limits>

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

    // Fuzzer crash 2ef391bf: an ObjectKey whose kv_rank was the float64 5.6e228. RawKeyScanner
    // (and Value::toInt) converted the double to qint64 (UBSan: outside the range of
    // representable values); now floats read as integers saturate, NaN reads as 0.
    void floatKvRankOutOfIntRange() {
        auto payload = [](uchar tag, const QByteArray &be) {
            // {chunk_hash: bin(ab), model_name: "m", kv_rank: <tag><be>}
            static const char head[] =
                "\x83\xaa"
                "chunk_hash\xc4\x01\xab\xaa"
                "model_name\xa1m\xa7"
                "kv_rank";
            return QByteArray(head, sizeof(head) - 1) + char(tag) + be;
        };
        auto f64 = [](double d) {
            quint64 u;
            std::memcpy(&u, &d, 8);
            QByteArray b(8, Qt::Uninitialized);
            qToBigEndian(u, b.data());
            return b;
        };
        auto f32 = [](float f) {
            quint32 u;
            std::memcpy(&u, &f, 4);
            QByteArray b(4, Qt::Uninitialized);
            qToBigEndian(u, b.data());
            return b;
        };
        constexpr qint64 kMax = std::numeric_limits<qint64>::max();
        constexpr qint64 kMin = std::numeric_limits<qint64>::min();
        const struct {
            QByteArray bytes;
            qint64 rank;
        } cases[] = {
            {payload(0xcb, f64(5.62496e228)), kMax},
            {payload(0xcb, f64(-1e300)), kMin},
            {payload(0xcb, f64(std::numeric_limits<double>::quiet_NaN())), 0},
            {payload(0xcb, f64(-3.9)), -3},
            {payload(0xca, f32(1e30f)), kMax},
            {payload(0xca, f32(-1e30f)), kMin},
        };
        for (const auto &c : cases) {
            RawKeyScanner::Fields f;
            QVERIFY(RawKeyScanner::parseKey(reinterpret_cast<const uchar *>(c.bytes.constData()),
                                            c.bytes.size(), &f));
            QCOMPARE(f.kvRank, c.rank);
            // The full decoder agrees.
            const ValueDecoder::Result r = ValueDecoder::decode(c.bytes);
            QCOMPARE(r.status, ValueDecoder::Status::Ok);
            QCOMPARE(r.value.find(u"kv_rank")->toInt(), c.rank);
        }
    }
};

QTEST_GUILESS_MAIN(TestRegressions)
#include "tst_regressions.moc"
