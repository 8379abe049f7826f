// Hex: digit values and digits, hex prefixes of raw bytes and of hex text, against Qt's toHex.

#include "util/hex.h"

#include <QByteArray>
#include <QtTest>

using namespace lmct;

namespace {

std::string_view view(const QByteArray &b) {
    return std::string_view(b.constData(), size_t(b.size()));
}

}  // namespace

class TestHex : public QObject {
    Q_OBJECT
private slots:
    void nibbleAndDigit();
    void nibblesRoundTripToHex();
    void prefixOfBytesAndHexText();
};

void TestHex::nibbleAndDigit() {
    for (int c = 0; c < 256; ++c) {
        const QByteArray one(1, char(c));
        const QByteArray decoded = QByteArray::fromHex("0" + one);
        const bool isDigit =
            (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        QCOMPARE(Hex::nibble(char(c)), isDigit ? int(uchar(decoded.at(0))) : -1);
    }
    for (int v = 0; v < 16; ++v) {
        QCOMPARE(Hex::nibble(Hex::digit(v)), v);
        QCOMPARE(QByteArray(1, Hex::digit(v)), QByteArray::number(v, 16));
    }
}

void TestHex::nibblesRoundTripToHex() {
    QByteArray bytes;
    for (int b = 0; b < 256; ++b) {
        bytes.append(char(b));
    }
    const QByteArray hex = bytes.toHex();
    QByteArray digits;
    for (size_t i = 0; i < size_t(2 * bytes.size()); ++i) {
        digits.append(Hex::digit(Hex::nibbleAt(view(bytes), i)));
    }
    QCOMPARE(digits, hex);
    QCOMPARE(QByteArray::fromHex(digits), bytes);
}

void TestHex::prefixOfBytesAndHexText() {
    const QByteArray raw = QByteArray::fromHex("9f3a5c01");
    const QByteArray text("9F3a5C01");
    for (const bool isText : {false, true}) {
        const std::string_view v = view(isText ? text : raw);
        QVERIFY(Hex::hasPrefix(v, isText, ""));
        QVERIFY(Hex::hasPrefix(v, isText, "9"));
        QVERIFY(Hex::hasPrefix(v, isText, "9f3"));
        QVERIFY(Hex::hasPrefix(v, isText, "9F3A5c"));
        QVERIFY(Hex::hasPrefix(v, isText, "9f3a5c01"));
        QVERIFY(!Hex::hasPrefix(v, isText, "9f3a5c011"));  // longer than the hash
        QVERIFY(!Hex::hasPrefix(v, isText, "9e"));
        QVERIFY(!Hex::hasPrefix(v, isText, "f"));
        QVERIFY(!Hex::hasPrefix(v, isText, "9g"));
    }
}

QTEST_GUILESS_MAIN(TestHex)
#include "tst_hex.moc"
