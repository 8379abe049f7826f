// ValueDecoder: every msgpack type and width, codec tags, limits, partial trees, error offsets.

#include "codec/value.h"
#include "codec/valuedecoder.h"
#include "codec/valueformatter.h"
#include "testutil.h"

#include <QElapsedTimer>
#include <QJsonObject>
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

/** Depth of the chain of first children. */
int chainDepth(const Value *v) {
    int d = 0;
    while (v->isContainer() && v->size() > 0) {
        ++d;
        v = &v->at(0);
    }
    return d;
}

}  // namespace

class TestValueDecoder : public QObject {
    Q_OBJECT

private slots:
    void hugeBinariesAndStringsAreCut() {
        // Regression: a record whose args held two 2.2 GB binaries made `lmct dump` take
        // 70 s and 16 GB (the whole binary copied, turned into 4.4 GB of hex, then elided to a
        // 200-character summary); the viewer's table summary and inspector did the same. Only the
        // first Value::kMaxKeptBytes are kept, and every output says the size.
        const qint64 n = Value::kMaxKeptBytes + 5;
        QByteArray blob(n, '\x5a');
        Mp m;
        m.map(3).str("blob");
        m.bytes += char(0xc6);
        m.bytes += be32(quint32(n));
        m.bytes += blob;
        m.str("text");
        m.bytes += char(0xdb);
        m.bytes += be32(quint32(n));
        m.bytes += QByteArray(n, 'x');
        m.str("ext");
        m.bytes += char(0xc9);
        m.bytes += be32(quint32(n));
        m.bytes += char(7);
        m.bytes += blob;
        const ValueDecoder::Result r = ValueDecoder::decode(m.bytes);
        QCOMPARE(r.status, ValueDecoder::Status::Ok);
        const Value &b = *r.value.find(u"blob");
        QVERIFY(b.isBytes() && b.isCut());
        QCOMPARE(b.toBytes().size(), Value::kMaxKeptBytes);
        QCOMPARE(b.fullSize(), n);
        const QString shown = ValueFormatter::display(b, 200);
        QVERIFY2(shown.size() < 260 && shown.endsWith(QStringLiteral("(%1 bytes)").arg(n)),
                 qPrintable(shown));
        const QJsonObject json = ValueFormatter::toJson(b).toObject();
        QCOMPARE(json.value(QStringLiteral("size")).toInteger(), n);
        QCOMPARE(json.value(QStringLiteral("__cut__")).toString().size(), 2 * Value::kMaxKeptBytes);
        // A cut string is told like a cut binary ("… (N bytes in all; the first M
        // are shown)" was appended to the text itself, in JSON indistinguishable from content,
        // and the summary ended in "…" without the size).
        const Value &t = *r.value.find(u"text");
        QVERIFY(t.isString() && t.isCut());
        QCOMPARE(t.toString(), QString(Value::kMaxKeptBytes, QLatin1Char('x')));  // nothing added
        QCOMPARE(t.fullSize(), n);
        const QString tShown = ValueFormatter::display(t, 40);
        QCOMPARE(tShown, QString(39, QLatin1Char('x')) + QChar(0x2026) +
                             QStringLiteral(" (%1 bytes)").arg(n));
        const QJsonObject tJson = ValueFormatter::toJson(t).toObject();
        QCOMPARE(tJson.keys(), (QStringList{QStringLiteral("__cut__"), QStringLiteral("size")}));
        QCOMPARE(tJson.value(QStringLiteral("__cut__")).toString(), t.toString());
        QCOMPARE(tJson.value(QStringLiteral("size")).toInteger(), n);
        const Value &e = *r.value.find(u"ext");
        QVERIFY(e.isCut());
        QCOMPARE(e.fullSize(), n);
        QCOMPARE(e.toBytes().size(), Value::kMaxKeptBytes);
        QCOMPARE(ValueFormatter::toJson(e).toObject().value(QStringLiteral("size")).toInteger(), n);
        // A string cut inside a character's UTF-8 keeps the characters before it whole.
        Mp u;
        u.bytes += char(0xdb);
        u.bytes += be32(quint32(n));
        u.bytes += QByteArray(Value::kMaxKeptBytes - 1, 'a') + QByteArray("\xc3\xa9") +
                   QByteArray(n - Value::kMaxKeptBytes - 1, 'b');  // é straddles the limit
        const ValueDecoder::Result ur = ValueDecoder::decode(u.bytes);
        QCOMPARE(ur.status, ValueDecoder::Status::Ok);
        QVERIFY(ur.value.isCut());
        QCOMPARE(ur.value.toString(), QString(Value::kMaxKeptBytes - 1, QLatin1Char('a')));
        QCOMPARE(ur.value.fullSize(), n);
        // small ones are whole, as before
        const ValueDecoder::Result smallText = ValueDecoder::decode(QByteArray("\xa2\xc3\xa9"));
        QVERIFY(!smallText.value.isCut());
        QCOMPARE(smallText.value.fullSize(), 2);
        QCOMPARE(ValueFormatter::toJson(smallText.value).toString(), QStringLiteral("é"));
        const ValueDecoder::Result small = ValueDecoder::decode(QByteArray("\xc4\x02\xab\xcd", 4));
        QVERIFY(!small.value.isCut());
        QCOMPARE(ValueFormatter::display(small.value), QStringLiteral("abcd"));
        QCOMPARE(ValueFormatter::toJson(small.value).toString(), QStringLiteral("abcd"));
    }

    void nilAndBool() {
        auto r = decode(Mp().nil().bytes);
        QVERIFY(r.ok());
        QVERIFY(r.value.isNil());
        QCOMPARE(r.consumed, 1);
        r = decode(Mp().boolean(true).bytes);
        QVERIFY(r.ok());
        QCOMPARE(r.value.type(), Value::Type::Bool);
        QVERIFY(r.value.toBool());
        r = decode(Mp().boolean(false).bytes);
        QCOMPARE(r.value.type(), Value::Type::Bool);
        QVERIFY(!r.value.toBool());
    }

    void integers_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<qint64>("asSigned");
        QTest::addColumn<quint64>("asUnsigned");
        QTest::addColumn<bool>("aboveInt64");
        QTest::addColumn<QString>("text");
        const quint64 big = quint64(std::numeric_limits<qint64>::max()) + 1;
        QTest::newRow("fixint 0") << Mp().uint(0).bytes << qint64(0) << quint64(0) << false << "0";
        QTest::newRow("fixint 127")
            << Mp().uint(127).bytes << qint64(127) << quint64(127) << false << "127";
        QTest::newRow("neg fixint -1")
            << Mp().sint(-1).bytes << qint64(-1) << quint64(-1) << false << "-1";
        QTest::newRow("neg fixint -32")
            << Mp().sint(-32).bytes << qint64(-32) << quint64(-32) << false << "-32";
        QTest::newRow("uint8") << QByteArray("\xcc\xc8", 2) << qint64(200) << quint64(200) << false
                               << "200";
        QTest::newRow("uint16") << QByteArray("\xcd\xff\xff", 3) << qint64(65535) << quint64(65535)
                                << false << "65535";
        QTest::newRow("uint32") << QByteArray("\xce\xff\xff\xff\xff", 5) << qint64(4294967295LL)
                                << quint64(4294967295ULL) << false << "4294967295";
        QTest::newRow("uint64 INT64_MAX")
            << Mp().uintW(quint64(std::numeric_limits<qint64>::max()), 64).bytes
            << std::numeric_limits<qint64>::max() << quint64(std::numeric_limits<qint64>::max())
            << false << "9223372036854775807";
        QTest::newRow("uint64 2^63")
            << Mp().uintW(big, 64).bytes << qint64(big) << big << true << "9223372036854775808";
        QTest::newRow("uint64 max")
            << QByteArray("\xcf\xff\xff\xff\xff\xff\xff\xff\xff", 9) << qint64(-1)
            << std::numeric_limits<quint64>::max() << true << "18446744073709551615";
        QTest::newRow("int8 -128")
            << QByteArray("\xd0\x80", 2) << qint64(-128) << quint64(-128) << false << "-128";
        QTest::newRow("int16 -32768") << QByteArray("\xd1\x80\x00", 3) << qint64(-32768)
                                      << quint64(-32768) << false << "-32768";
        QTest::newRow("int32 min")
            << QByteArray("\xd2\x80\x00\x00\x00", 5) << qint64(std::numeric_limits<qint32>::min())
            << quint64(qint64(std::numeric_limits<qint32>::min())) << false << "-2147483648";
        QTest::newRow("int64 min")
            << QByteArray("\xd3\x80\x00\x00\x00\x00\x00\x00\x00", 9)
            << std::numeric_limits<qint64>::min() << quint64(std::numeric_limits<qint64>::min())
            << false << "-9223372036854775808";
        // Non-minimal encodings of small values (a generous reader accepts any width).
        QTest::newRow("uint64 holding 1")
            << Mp().uintW(1, 64).bytes << qint64(1) << quint64(1) << false << "1";
        QTest::newRow("int64 holding 5")
            << Mp().intW(5, 64).bytes << qint64(5) << quint64(5) << false << "5";
        QTest::newRow("int8 holding -3")
            << Mp().intW(-3, 8).bytes << qint64(-3) << quint64(-3) << false << "-3";
        QTest::newRow("uint16 holding 7")
            << Mp().uintW(7, 16).bytes << qint64(7) << quint64(7) << false << "7";
    }
    void integers() {
        QFETCH(QByteArray, bytes);
        QFETCH(qint64, asSigned);
        QFETCH(quint64, asUnsigned);
        QFETCH(bool, aboveInt64);
        QFETCH(QString, text);
        const auto r = decode(bytes);
        QVERIFY2(r.ok(), qPrintable(r.message));
        QCOMPARE(r.consumed, bytes.size());
        QVERIFY(r.value.isInt());
        QCOMPARE(r.value.isUnsigned(), aboveInt64);
        QCOMPARE(r.value.toUInt(), asUnsigned);
        if (!aboveInt64) {
            QCOMPARE(r.value.toInt(), asSigned);
            QCOMPARE(r.value.toDouble(), double(asSigned));
        } else {
            QCOMPARE(r.value.toDouble(), double(asUnsigned));
        }
        QCOMPARE(ValueFormatter::number(r.value), text);
    }

    void floats() {
        auto r = decode(Mp().f64(0.1).bytes);
        QVERIFY(r.ok());
        QCOMPARE(r.value.type(), Value::Type::Float);
        QVERIFY(!r.value.wasFloat32());
        QCOMPARE(r.value.toDouble(), 0.1);
        QCOMPARE(r.value.typeName(), QStringLiteral("float"));

        r = decode(Mp().f32(0.4f).bytes);
        QVERIFY(r.ok());
        QCOMPARE(r.consumed, 5);
        QVERIFY(r.value.wasFloat32());
        QCOMPARE(r.value.toDouble(), double(0.4f));
        QCOMPARE(r.value.typeName(), QStringLiteral("float32"));

        r = decode(Mp().f64(-2.5e300).bytes);
        QCOMPARE(r.value.toDouble(), -2.5e300);
        QCOMPARE(r.value.toInt(), std::numeric_limits<qint64>::min());  // saturating cast

        r = decode(Mp().f64(std::numeric_limits<double>::quiet_NaN()).bytes);
        QVERIFY(r.ok());
        QVERIFY(std::isnan(r.value.toDouble()));
        QCOMPARE(ValueFormatter::number(r.value), QStringLiteral("nan"));
        r = decode(Mp().f32(-std::numeric_limits<float>::infinity()).bytes);
        QVERIFY(std::isinf(r.value.toDouble()));
        QCOMPARE(ValueFormatter::number(r.value), QStringLiteral("-inf"));
    }

    void strings_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        const QByteArray utf8 = QStringLiteral("é€😀 trace").toUtf8();
        QTest::newRow("fixstr empty") << Mp().str("").bytes << QString();
        QTest::newRow("fixstr") << Mp().str("qualname", -1).bytes << QStringLiteral("qualname");
        QTest::newRow("str8") << Mp().str("qualname", 8).bytes << QStringLiteral("qualname");
        QTest::newRow("str16") << Mp().str("qualname", 16).bytes << QStringLiteral("qualname");
        QTest::newRow("str32") << Mp().str("qualname", 32).bytes << QStringLiteral("qualname");
        QTest::newRow("str8 empty") << Mp().str("", 8).bytes << QString();
        QTest::newRow("utf8 multibyte") << Mp().str(utf8).bytes << QStringLiteral("é€😀 trace");
        const QByteArray long300(300, 'x');
        QTest::newRow("str16 300 bytes (minimal)") << Mp().str(long300).bytes << QString(300, 'x');
        const QByteArray long70k(70000, 'y');
        QTest::newRow("str32 70000 bytes (minimal)")
            << Mp().str(long70k).bytes << QString(70000, 'y');
    }
    void strings() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const auto r = decode(bytes);
        QVERIFY2(r.ok(), qPrintable(r.message));
        QCOMPARE(r.consumed, bytes.size());
        QVERIFY(r.value.isString());
        QCOMPARE(r.value.toString(), expected);
    }

    void binaries_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QByteArray>("expected");
        const QByteArray hash =
            QByteArray::fromHex("00ff10203040506070809000a0b0c0d0e0f0000102030405060708090a0b0c0d");
        QTest::newRow("bin8") << Mp().bin(hash, 8).bytes << hash;
        QTest::newRow("bin16") << Mp().bin(hash, 16).bytes << hash;
        QTest::newRow("bin32") << Mp().bin(hash, 32).bytes << hash;
        QTest::newRow("bin8 empty") << Mp().bin(QByteArray(), 8).bytes << QByteArray();
        QTest::newRow("bin8 fallback hash") << Mp().bin(hash.left(8)).bytes << hash.left(8);
        const QByteArray k64(65536, '\x5a');
        QTest::newRow("bin32 64 KiB (minimal)") << Mp().bin(k64).bytes << k64;
    }
    void binaries() {
        QFETCH(QByteArray, bytes);
        QFETCH(QByteArray, expected);
        const auto r = decode(bytes);
        QVERIFY2(r.ok(), qPrintable(r.message));
        QVERIFY(r.value.isBytes());
        QCOMPARE(r.value.toBytes(), expected);
        QCOMPARE(r.value.typeName(), QStringLiteral("bytes"));
    }

    void arrays_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("size");
        auto three = [](int width) { return Mp().arr(3, width).uint(1).str("two").nil().bytes; };
        QTest::newRow("fixarray") << three(-1) << 3;
        QTest::newRow("array16") << three(16) << 3;
        QTest::newRow("array32") << three(32) << 3;
        QTest::newRow("empty fixarray") << Mp().arr(0).bytes << 0;
        QTest::newRow("empty array32") << Mp().arr(0, 32).bytes << 0;
        Mp big;
        big.arr(70000);
        for (int i = 0; i < 70000; ++i) {
            big.uint(quint64(i % 100));
        }
        QTest::newRow("array32 70000 (minimal)") << big.bytes << 70000;
    }
    void arrays() {
        QFETCH(QByteArray, bytes);
        QFETCH(int, size);
        const auto r = decode(bytes);
        QVERIFY2(r.ok(), qPrintable(r.message));
        QVERIFY(r.value.isArray());
        QCOMPARE(r.value.size(), size);
        if (size == 3) {
            QCOMPARE(r.value.at(0).toInt(), 1);
            QCOMPARE(r.value.at(1).toString(), QStringLiteral("two"));
            QVERIFY(r.value.at(2).isNil());
        } else if (size > 3) {
            QCOMPARE(r.value.at(size - 1).toInt(), (size - 1) % 100);
        }
    }

    void maps_data() {
        QTest::addColumn<QByteArray>("bytes");
        auto m = [](int width) {
            return Mp().map(3, width).str("z").uint(1).str("a").str("x").str("m").arr(0).bytes;
        };
        QTest::newRow("fixmap") << m(-1);
        QTest::newRow("map16") << m(16);
        QTest::newRow("map32") << m(32);
    }
    void maps() {
        QFETCH(QByteArray, bytes);
        const auto r = decode(bytes);
        QVERIFY2(r.ok(), qPrintable(r.message));
        QVERIFY(r.value.isMap());
        QCOMPARE(r.value.size(), 3);
        // File order is kept, not sorted.
        QCOMPARE(r.value.keyAt(0), QStringLiteral("z"));
        QCOMPARE(r.value.keyAt(1), QStringLiteral("a"));
        QCOMPARE(r.value.keyAt(2), QStringLiteral("m"));
        QVERIFY(r.value.find(u"a"));
        QCOMPARE(r.value.find(u"a")->toString(), QStringLiteral("x"));
        QVERIFY(r.value.find(u"m")->isArray());
        QVERIFY(!r.value.find(u"missing"));
    }

    void mapNonStringKeys() {
        Mp m;
        m.map(6).uint(5).str("int").nil().str("nil").boolean(true).str("bool");
        m.bin(QByteArray("\x01\xab", 2)).str("bin").sint(-7).str("neg").f64(1.5).str("float");
        const auto r = decode(m.bytes);
        QVERIFY(r.ok());
        QCOMPARE(r.value.size(), 6);
        QCOMPARE(r.value.keyAt(0), QStringLiteral("5"));
        QCOMPARE(r.value.keyAt(1), QStringLiteral("None"));
        QCOMPARE(r.value.keyAt(2), QStringLiteral("True"));
        QCOMPARE(r.value.keyAt(3), QStringLiteral("01ab"));
        QCOMPARE(r.value.keyAt(4), QStringLiteral("-7"));
        QCOMPARE(r.value.keyAt(5), QStringLiteral("1.5"));
        QCOMPARE(r.value.find(u"None")->toString(), QStringLiteral("nil"));
    }

    void mapContainerKey() {
        // A key that is itself a container: rendered as text, the value still attached.
        const QByteArray b = Mp().map(2).arr(2).uint(1).uint(2).str("v1").str("k").str("v2").bytes;
        const auto r = decode(b);
        QVERIFY(r.ok());
        QCOMPARE(r.value.size(), 2);
        QVERIFY(keysConsistent(r.value));
        QCOMPARE(r.value.at(0).toString(), QStringLiteral("v1"));
        QCOMPARE(r.value.keyAt(1), QStringLiteral("k"));
        QCOMPARE(r.value.find(u"k")->toString(), QStringLiteral("v2"));
    }

    void duplicateKeysFindFirst() {
        const QByteArray b = Mp().map(2).str("k").uint(1).str("k").uint(2).bytes;
        const auto r = decode(b);
        QCOMPARE(r.value.size(), 2);
        QCOMPARE(r.value.find(u"k")->toInt(), 1);
    }

    void ext_data() {
        QTest::addColumn<int>("length");
        QTest::addColumn<int>("type");
        for (int n : {1, 2, 4, 8, 16, 3, 200, 70000}) {
            QTest::addRow("len %d", n) << n << (n == 8 ? -1 : 42);
        }
    }
    void ext() {
        QFETCH(int, length);
        QFETCH(int, type);
        QByteArray data(length, '\0');
        for (int i = 0; i < length; ++i) {
            data[i] = char(i * 13);
        }
        const QByteArray b = Mp().ext(qint8(type), data).bytes;
        const auto r = decode(b);
        QVERIFY2(r.ok(), qPrintable(r.message));
        QCOMPARE(r.consumed, b.size());
        QCOMPARE(r.value.type(), Value::Type::Ext);
        QCOMPARE(int(r.value.extType()), type);
        QCOMPARE(r.value.toBytes(), data);
        QVERIFY(ValueFormatter::display(r.value).startsWith(QStringLiteral("ext %1:").arg(type)));
    }

    // --- codec tags ---------------------------------------------------------------------

    void tagBecomesTagged() {
        const QByteArray b = Mp().tag("TrimPolicy").str("PREFIX").bytes;
        const auto r = decode(b);
        QVERIFY(r.ok());
        QVERIFY(r.value.isTagged());
        QCOMPARE(r.value.tag(), QStringLiteral("TrimPolicy"));
        QCOMPARE(r.value.size(), 1);
        QCOMPARE(r.value.payload().toString(), QStringLiteral("PREFIX"));
        QCOMPARE(r.value.untagged().toString(), QStringLiteral("PREFIX"));
        QCOMPARE(r.value.typeName(), QStringLiteral("TrimPolicy"));
    }

    void tagKeysInOtherOrder() {
        const QByteArray b = Mp().map(2).str("v").arr(1).uint(3).str("__t__").str("set").bytes;
        const auto r = decode(b);
        QVERIFY(r.value.isTagged());
        QCOMPARE(r.value.tag(), QStringLiteral("set"));
        QVERIFY(r.value.payload().isArray());
        QCOMPARE(r.value.payload().at(0).toInt(), 3);
    }

    void nestedTags() {
        // tuple( set( tuple(1, 2) ), ObjectKey ) inside a plain map inside an array.
        Mp m;
        m.arr(1).map(1).str("nested").tag("tuple").arr(2);
        m.tag("set").arr(1).tag("tuple").arr(2).uint(1).uint(2);
        m.raw(objectKey(1));
        const auto r = decode(m.bytes);
        QVERIFY2(r.ok(), qPrintable(r.message));
        const Value &tuple = *r.value.at(0).find(u"nested");
        QCOMPARE(tuple.tag(), QStringLiteral("tuple"));
        const Value &set = tuple.payload().at(0);
        QCOMPARE(set.tag(), QStringLiteral("set"));
        const Value &inner = set.payload().at(0);
        QCOMPARE(inner.tag(), QStringLiteral("tuple"));
        QCOMPARE(inner.payload().at(1).toInt(), 2);
        const Value &key = tuple.payload().at(1);
        QCOMPARE(key.tag(), QStringLiteral("ObjectKey"));
        QVERIFY(key.payload().find(u"chunk_hash")->isBytes());
        // A tag whose payload is a tag: untagged() follows both.
        const auto r2 = decode(Mp().tag("outer").tag("inner").uint(9).bytes);
        QCOMPARE(r2.value.tag(), QStringLiteral("outer"));
        QCOMPARE(r2.value.payload().tag(), QStringLiteral("inner"));
        QCOMPARE(r2.value.untagged().toInt(), 9);
    }

    void notTags_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("three keys") << Mp().map(3)
                                           .str("__t__")
                                           .str("ObjectKey")
                                           .str("v")
                                           .uint(1)
                                           .str("extra")
                                           .uint(2)
                                           .bytes;
        QTest::newRow("tag not a string")
            << Mp().map(2).str("__t__").uint(5).str("v").uint(1).bytes;
        QTest::newRow("no v key") << Mp().map(2).str("__t__").str("X").str("w").uint(1).bytes;
        QTest::newRow("only __t__") << Mp().map(1).str("__t__").str("X").bytes;
        QTest::newRow("duplicate __t__")
            << Mp().map(2).str("__t__").str("X").str("__t__").str("Y").bytes;
    }
    void notTags() {
        QFETCH(QByteArray, bytes);
        const auto r = decode(bytes);
        QVERIFY(r.ok());
        QVERIFY(r.value.isMap());
        QVERIFY(!r.value.isTagged());
        QVERIFY(r.value.tag().isEmpty());
        QVERIFY(r.value.find(u"__t__"));
    }

    // --- status, offsets ----------------------------------------------------------------

    void extraBytes() {
        const QByteArray b = Mp().arr(2).uint(1).uint(2).uint(3).nil().bytes;
        const auto r = decode(b);
        QCOMPARE(r.status, Status::ExtraBytes);
        QVERIFY(!r.ok());
        QCOMPARE(r.consumed, 3);
        QCOMPARE(r.errorOffset, 3);
        QVERIFY(r.message.contains(QLatin1String("2 bytes more")));
        // The complete value is still returned.
        QCOMPARE(r.value.size(), 2);
        QCOMPARE(ValueDecoder::statusName(r.status), QStringLiteral("extra-bytes"));
    }

    void emptyInput() {
        const auto r = ValueDecoder::decode(QByteArray());
        QCOMPARE(r.status, Status::Truncated);
        QCOMPARE(r.value.type(), Value::Type::Truncated);
        QVERIFY(!r.message.isEmpty());
    }

    void malformedOffset_data() {
        QTest::addColumn<QByteArray>("prefix");
        QTest::addColumn<QByteArray>("suffix");
        QTest::newRow("at 0") << QByteArray() << QByteArray();
        QTest::newRow("array element") << Mp().arr(3).uint(1).uint(2).bytes << QByteArray();
        QTest::newRow("map value")
            << Mp().map(2).str("a").uint(1).str("bb").bytes << Mp().uint(1).bytes;
        QTest::newRow("map key") << Mp().map(1).bytes << Mp().uint(1).bytes;
        QTest::newRow("deep") << Mp().arr(1).arr(1).map(1).str("k").arr(2).nil().bytes
                              << QByteArray();
    }
    void malformedOffset() {
        QFETCH(QByteArray, prefix);
        QFETCH(QByteArray, suffix);
        const QByteArray bytes = prefix + '\xc1' + suffix;
        const qint64 offset = prefix.size();
        const auto r = decode(bytes);
        QCOMPARE(r.status, Status::Malformed);
        QCOMPARE(r.errorOffset, offset);
        QVERIFY2(r.message.contains(QLatin1String("0xc1")), qPrintable(r.message));
        QVERIFY2(r.message.contains(QStringLiteral("+%1").arg(offset)), qPrintable(r.message));
        QVERIFY(keysConsistent(r.value));
        if (offset > 0) {
            QCOMPARE(truncatedMarkers(r.value), 1);
        }
    }

    void truncatedAtEveryByte() {
        // A realistic args map cut at every length: never Ok, never a crash, what was read is
        // kept, the cut is marked, and every map keeps one key per value.
        Mp m;
        m.map(4).str("keys").arr(2).raw(objectKey(1)).raw(objectKey(2));
        m.str("layout_desc").tag("MemoryLayoutDesc").map(2);
        m.str("shapes").arr(1).arr(4).uint(2).uint(36).uint(256).uint(1024);
        m.str("dtypes").arr(1).str("torch.bfloat16");
        m.str("mode").str("new").str("t").f64(1.25);
        const QByteArray full = m.bytes;
        QVERIFY(decode(full).ok());
        for (int cut = 1; cut < full.size(); ++cut) {
            const auto r = ValueDecoder::decode(full.constData(), cut);
            // A container header whose claim exceeds the bytes left may stop it as a limit.
            QVERIFY2(r.status == Status::Truncated || r.status == Status::Limit,
                     qPrintable(QString::number(cut)));
            if (r.status == Status::Truncated) {
                QCOMPARE(r.errorOffset, qint64(cut));
            }
            // The root map, or (when its own header is refused) just the marker.
            QVERIFY(r.value.isMap() || r.value.type() == Value::Type::Truncated);
            QVERIFY2(truncatedMarkers(r.value) == 1, qPrintable(QString::number(cut)));
            QVERIFY2(keysConsistent(r.value), qPrintable(QStringLiteral("cut %1").arg(cut)));
            // Formatting a partial tree never reads past its keys.
            QVERIFY(!ValueFormatter::display(r.value).isEmpty());
            QVERIFY(ValueFormatter::toJson(r.value).isObject());
        }
        // Cut inside the first ObjectKey: the "keys" entry and the start of the list are kept.
        const int cutInKey = full.indexOf("model_name") + 3;
        const auto r = ValueDecoder::decode(full.constData(), cutInKey);
        QCOMPARE(r.value.keyAt(0), QStringLiteral("keys"));
        const Value &keys = r.value.at(0);
        QVERIFY(keys.isArray());
        QCOMPARE(keys.size(), 1);
    }

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

    // --- limits ---------------------------------------------------------------------------

    void deepNestingIsLimited_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("100000 arrays") << QByteArray(100000, '\x91') + '\xc0';
        QByteArray maps;
        for (int i = 0; i < 100000; ++i) {
            maps += Mp().map(1).str("k").bytes;
        }
        QTest::newRow("100000 maps") << maps + '\xc0';
        QByteArray tags;
        for (int i = 0; i < 50000; ++i) {
            tags += Mp().tag("t").bytes;
        }
        QTest::newRow("50000 tags") << tags + '\xc0';
    }
    void deepNestingIsLimited() {
        QFETCH(QByteArray, bytes);
        QElapsedTimer t;
        t.start();
        const auto r = decode(bytes);
        QVERIFY2(t.elapsed() < 2000, "hang guard");
        QCOMPARE(r.status, Status::Limit);
        QVERIFY2(r.message.contains(QLatin1String("nesting")), qPrintable(r.message));
        QCOMPARE(ValueDecoder::statusName(r.status), QStringLiteral("limit"));
        // What was read is kept (bounded by the depth limit) and the stop is marked.
        const int depth = chainDepth(&r.value);
        QVERIFY2(depth >= ValueDecoder::Limits().maxDepth &&
                     depth <= ValueDecoder::Limits().maxDepth + 1,
                 qPrintable(QString::number(depth)));
        QCOMPARE(truncatedMarkers(r.value), 1);
        QVERIFY(keysConsistent(r.value));
    }

    void depthLimitBoundary() {
        ValueDecoder::Limits lim;
        lim.maxDepth = 4;
        const QByteArray four = QByteArray(4, '\x91') + '\x01';
        auto r = ValueDecoder::decode(four.constData(), four.size(), lim);
        QVERIFY2(r.ok(), qPrintable(r.message));
        QCOMPARE(chainDepth(&r.value), 4);
        const QByteArray five = QByteArray(5, '\x91') + '\x01';
        r = ValueDecoder::decode(five.constData(), five.size(), lim);
        QCOMPARE(r.status, Status::Limit);
        QVERIFY(r.message.contains(QLatin1String("4")));
        // Default: 128 levels decode.
        const QByteArray ok128 = QByteArray(128, '\x91') + '\x01';
        QVERIFY(decode(ok128).ok());
        QCOMPARE(decode(QByteArray(129, '\x91') + '\x01').status, Status::Limit);
    }

    void hugeClaims_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("status");
        QTest::newRow("array32 2^32-1")
            << QByteArray("\xdd\xff\xff\xff\xff\x01\x02\x03", 8) << int(Status::Limit);
        QTest::newRow("map32 2^32-1")
            << QByteArray("\xdf\xff\xff\xff\xff\xa1k\x01", 8) << int(Status::Limit);
        QTest::newRow("array16 65535 in a map")
            << (Mp().map(1).str("keys").bytes + QByteArray("\xdc\xff\xff\x01", 4))
            << int(Status::Limit);
        QTest::newRow("str32 4 GiB") << QByteArray(
                                            "\xdb\xff\xff\xff\xff"
                                            "abc",
                                            8)
                                     << int(Status::Truncated);
        QTest::newRow("bin32 4 GiB") << QByteArray(
                                            "\xc6\xff\xff\xff\xff"
                                            "abc",
                                            8)
                                     << int(Status::Truncated);
        QTest::newRow("ext32 4 GiB") << QByteArray(
                                            "\xc9\xff\xff\xff\xff\x05"
                                            "abc",
                                            9)
                                     << int(Status::Truncated);
        QTest::newRow("str32 4 GiB inside array")
            << (Mp().arr(2).uint(7).bytes + QByteArray("\xdb\xff\xff\xff\xff"
                                                       "abc",
                                                       8))
            << int(Status::Truncated);
    }
    void hugeClaims() {
        QFETCH(QByteArray, bytes);
        QFETCH(int, status);
        QElapsedTimer t;
        t.start();
        const auto r = decode(bytes);
        QVERIFY2(t.elapsed() < 2000, "hang guard");
        QCOMPARE(int(r.status), status);
        QVERIFY(!r.message.isEmpty());
        if (r.status == Status::Limit) {
            QVERIFY2(r.message.contains(QLatin1String("claims")), qPrintable(r.message));
        }
        QCOMPARE(truncatedMarkers(r.value), 1);
        QVERIFY(keysConsistent(r.value));
    }

    void nodeLimit() {
        ValueDecoder::Limits lim;
        lim.maxNodes = 10;
        Mp m;
        m.arr(20);
        for (int i = 0; i < 20; ++i) {
            m.uint(quint64(i));
        }
        auto r = ValueDecoder::decode(m.bytes.constData(), m.bytes.size(), lim);
        QCOMPARE(r.status, Status::Limit);
        QVERIFY2(r.message.contains(QLatin1String("10")), qPrintable(r.message));
        // The array (node 1) and its first 9 elements are kept, then the marker.
        QVERIFY(r.value.isArray());
        QCOMPARE(r.value.size(), 10);
        QCOMPARE(r.value.at(8).toInt(), 8);
        QCOMPARE(r.value.at(9).type(), Value::Type::Truncated);

        // Exactly at the limit: fine.
        Mp ok;
        ok.arr(9);
        for (int i = 0; i < 9; ++i) {
            ok.uint(1);
        }
        QVERIFY(ValueDecoder::decode(ok.bytes.constData(), ok.bytes.size(), lim).ok());
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

    void statusNames() {
        QCOMPARE(ValueDecoder::statusName(Status::Ok), QStringLiteral("ok"));
        QCOMPARE(ValueDecoder::statusName(Status::Truncated), QStringLiteral("truncated"));
        QCOMPARE(ValueDecoder::statusName(Status::Malformed), QStringLiteral("malformed"));
    }
};

QTEST_GUILESS_MAIN(TestValueDecoder)
#include "tst_valuedecoder.moc"
