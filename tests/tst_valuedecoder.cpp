// ValueDecoder: every msgpack type and width, codec tags, limits, partial trees, error offsets.

#include "testutil.h"
#include "value.h"
#include "valuedecoder.h"
#include "valueformatter.h"

#include <QElapsedTimer>
#include <QTest>
#include <cmath>
#include <limits>

using namespace lmct;
using namespace lmct::test;
using Status = ValueDecoder::Status;

namespace {

ValueDecoder::Result decode(const QByteArray &b) {
    return ValueDecoder::decode(b);
}

/** Number of Truncated markers anywhere in `v`. */
int truncatedMarkers(const Value &v) {
    int n = v.type() == Value::Type::Truncated ? 1 : 0;
    for (const Value &c : v.children()) {
        n += truncatedMarkers(c);
    }
    return n;
}

/**
 * Whether every map in `v` has exactly one key per value (keyAt(i) valid for i < size()).
 * Works on a copy because Value exposes keys() only non-const.
 */
bool keysConsistent(Value v) {
    if (v.isMap() && v.keys().size() != v.children().size()) {
        return false;
    }
    for (Value &c : v.children()) {
        if (!keysConsistent(c)) {
            return false;
        }
    }
    return true;
}


}  // namespace

class TestValueDecoder : public QObject {
    Q_OBJECT

private slots:
    void partialMapMarkerHasKey() {
        // {"a": 1, "b": <cut>}: the marker is a map entry like any other (keys stay aligned).
        QByteArray b = Mp().map(2).str("a").uint(1).str("b").bytes + QByteArray("\xd9", 1);
        const auto r = decode(b);
        QCOMPARE(r.status, Status::Truncated);
        QCOMPARE(r.value.size(), 2);
        QVERIFY(keysConsistent(r.value));
        QCOMPARE(r.value.keyAt(0), QStringLiteral("a"));
        QVERIFY(!r.value.keyAt(1).isEmpty());
        QCOMPARE(r.value.at(1).type(), Value::Type::Truncated);
        QVERIFY(ValueFormatter::display(r.value).contains(QLatin1String("a: 1")));
    }

    void nodeLimitInsideMap() {
        ValueDecoder::Limits lim;
        lim.maxNodes = 5;
        Mp m;
        m.map(6);
        for (int i = 0; i < 6; ++i) {
            m.str(QByteArray::number(i)).uint(quint64(i));
        }
        const auto r = ValueDecoder::decode(m.bytes.constData(), m.bytes.size(), lim);
        QCOMPARE(r.status, Status::Limit);
        QVERIFY(r.value.isMap());
        QVERIFY(keysConsistent(r.value));
        QCOMPARE(truncatedMarkers(r.value), 1);
        // Every entry read before the stop is there with its key.
        QVERIFY(r.value.find(u"0"));
        QCOMPARE(r.value.find(u"1")->toInt(), 1);
        QVERIFY(!ValueFormatter::display(r.value).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestValueDecoder)
#include "tst_valuedecoder.moc"
