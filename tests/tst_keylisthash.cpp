// KeyListHash on its own: equal lists hash equal, order and length count.

#include "cache/keylisthash.h"

#include <QtTest>
#include <initializer_list>

using namespace lmct;

class TestKeyListHash : public QObject {
    Q_OBJECT
private slots:
    void keyListHashIsOrderAndLengthSensitive();
};

void TestKeyListHash::keyListHashIsOrderAndLengthSensitive() {
    auto of = [](std::initializer_list<quint64> ks) {
        KeyListHash h;
        for (const quint64 k : ks) {
            h.add(k);
        }
        return h.value();
    };
    QCOMPARE(of({1, 2, 3}), of({1, 2, 3}));
    QVERIFY(of({1, 2, 3}) != of({3, 2, 1}));
    QVERIFY(of({1, 2, 3}) != of({1, 2}));
    QVERIFY(of({0}) != of({}));
    QVERIFY(of({0, 0}) != of({0}));
}

QTEST_GUILESS_MAIN(TestKeyListHash)
#include "tst_keylisthash.moc"
