// MsgpackHead: every type byte 0x00..0xff read as msgpack-cxx reads it; cut-short headers.

#include "msgpack/framedump.h"
#include "msgpack/msgpackhead.h"

#include <QtTest>
#include <cstring>
#include <msgpack.hpp>

using namespace lmct;
using Kind = MsgpackHead::Kind;

namespace {

QByteArray bytes(std::initializer_list<int> v) {
    QByteArray out;
    for (int b : v) {
        out.append(char(b));
    }
    return out;
}

/** A valid value starting with type byte `b` (children are nil, payloads "abc"). */
QByteArray sample(int b) {
    const QByteArray abc("abc");
    if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) {
        return bytes({b});
    }
    if (b <= 0x8f) {
        return bytes({b}) + QByteArray(2 * (b & 0x0f), char(0xc0));
    }
    if (b <= 0x9f) {
        return bytes({b}) + QByteArray(b & 0x0f, char(0xc0));
    }
    if (b <= 0xbf) {
        return bytes({b}) + QByteArray(b & 0x1f, 'x');
    }
    switch (b) {
        case 0xc4:
        case 0xd9:
            return bytes({b, 3}) + abc;
        case 0xc5:
        case 0xda:
            return bytes({b, 0, 3}) + abc;
        case 0xc6:
        case 0xdb:
            return bytes({b, 0, 0, 0, 3}) + abc;
        case 0xc7:
            return bytes({b, 3, 5}) + abc;
        case 0xc8:
            return bytes({b, 0, 3, 5}) + abc;
        case 0xc9:
            return bytes({b, 0, 0, 0, 3, 5}) + abc;
        case 0xca:
            return bytes({b, 0x3f, 0xc0, 0, 0});  // 1.5f
        case 0xcb:
            return bytes({b, 0xc0, 0x02, 0, 0, 0, 0, 0, 0});  // -2.25
        case 0xcc:
        case 0xd0:
            return bytes({b, 0xfe});
        case 0xcd:
        case 0xd1:
            return bytes({b, 0xfe, 0xdc});
        case 0xce:
        case 0xd2:
            return bytes({b, 0xfe, 0xdc, 0xba, 0x98});
        case 0xcf:
        case 0xd3:
            return bytes({b, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10});
        case 0xd4:
        case 0xd5:
        case 0xd6:
        case 0xd7:
        case 0xd8:
            return bytes({b, 7}) + QByteArray(1 << (b - 0xd4), 'e');
        case 0xdc:
            return bytes({b, 0, 2, 0xc0, 0xc0});
        case 0xdd:
            return bytes({b, 0, 0, 0, 2, 0xc0, 0xc0});
        case 0xde:
            return bytes({b, 0, 2, 0xc0, 0xc0, 0xc0, 0xc0});
        case 0xdf:
            return bytes({b, 0, 0, 0, 2, 0xc0, 0xc0, 0xc0, 0xc0});
        default:
            return bytes({b});  // 0xc1
    }
}

QByteArray payloadOf(const uchar *p, const MsgpackHead &h) {
    return QByteArray(reinterpret_cast<const char *>(p + h.header), qsizetype(h.payload));
}

/** msgpack-cxx's type for each Kind (Int: positive or negative). */
const msgpack::type::object_type kTypes[] = {msgpack::type::NIL,
                                             msgpack::type::NIL,
                                             msgpack::type::BOOLEAN,
                                             msgpack::type::NEGATIVE_INTEGER,
                                             msgpack::type::POSITIVE_INTEGER,
                                             msgpack::type::FLOAT32,
                                             msgpack::type::FLOAT64,
                                             msgpack::type::STR,
                                             msgpack::type::BIN,
                                             msgpack::type::EXT,
                                             msgpack::type::ARRAY,
                                             msgpack::type::MAP};

}  // namespace

class TestMsgpackHead : public QObject {
    Q_OBJECT
private slots:
    void everyTypeByteAsMsgpackCxx();
    void cutShortLengthFields();
    void fitsChecksPayload();
    void bigEndian();
    void typeNames();
};

void TestMsgpackHead::everyTypeByteAsMsgpackCxx() {
    for (int b = 0; b <= 0xff; ++b) {
        const QByteArray v = sample(b);
        const auto *p = reinterpret_cast<const uchar *>(v.constData());
        const MsgpackHead h = MsgpackHead::read(p, v.size());
        const QByteArray what = QByteArray::number(b, 16);
        if (b == 0xc1) {
            QVERIFY(!h.ok());
            bool threw = false;
            try {
                msgpack::unpack(v.constData(), size_t(v.size()));
            } catch (const msgpack::unpack_error &) {
                threw = true;
            }
            QVERIFY(threw);
            continue;
        }
        QVERIFY2(h.ok(), what);
        QVERIFY2(h.fits(v.size()), what);
        std::size_t consumed = 0;
        const msgpack::object_handle oh =
            msgpack::unpack(v.constData(), size_t(v.size()), consumed);
        const msgpack::object &o = oh.get();
        // The whole value: header, payload, then one byte for each (nil) child.
        QCOMPARE(qint64(h.size() + h.children()), qint64(consumed));
        QCOMPARE(qint64(consumed), qint64(v.size()));
        QCOMPARE(h.kind == Kind::UInt, b >= 0xcc && b <= 0xcf);  // uint8..uint64 only
        if (h.kind == Kind::Int) {
            QVERIFY2(o.type == msgpack::type::POSITIVE_INTEGER ||
                         o.type == msgpack::type::NEGATIVE_INTEGER,
                     what);
        } else {
            QVERIFY2(o.type == kTypes[int(h.kind)], what);
        }
        switch (h.kind) {
            case Kind::Int:
                QCOMPARE(qint64(h.integer(p)),
                         o.type == msgpack::type::POSITIVE_INTEGER ? qint64(o.via.u64) : o.via.i64);
                break;
            case Kind::UInt:
                QCOMPARE(h.integer(p), quint64(o.via.u64));
                break;
            case Kind::Float32:
            case Kind::Float64:
                QCOMPARE(h.floating(p), o.via.f64);
                break;
            case Kind::Bool:
                QCOMPARE(MsgpackHead::boolean(p), o.via.boolean);
                break;
            case Kind::Str:
                QCOMPARE(h.payload, quint64(o.via.str.size));
                QCOMPARE(payloadOf(p, h), QByteArray(o.via.str.ptr, qsizetype(o.via.str.size)));
                break;
            case Kind::Bin:
                QCOMPARE(h.payload, quint64(o.via.bin.size));
                QCOMPARE(payloadOf(p, h), QByteArray(o.via.bin.ptr, qsizetype(o.via.bin.size)));
                break;
            case Kind::Ext:
                QCOMPARE(h.payload, quint64(o.via.ext.size));
                QCOMPARE(h.extType(p), qint8(o.via.ext.type()));
                QCOMPARE(payloadOf(p, h), QByteArray(o.via.ext.data(), qsizetype(o.via.ext.size)));
                break;
            case Kind::Array:
                QCOMPARE(h.count, quint64(o.via.array.size));
                QCOMPARE(h.payload, quint64(0));
                break;
            case Kind::Map:
                QCOMPARE(h.count, quint64(o.via.map.size));
                QCOMPARE(h.children(), 2 * h.count);
                break;
            default:
                QCOMPARE(h.size(), quint64(1));
                break;
        }
    }
}

void TestMsgpackHead::cutShortLengthFields() {
    // Every type byte with a length or count field, given one byte less than the field needs.
    for (int b : {0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf}) {
        const QByteArray v = sample(b);
        const auto *p = reinterpret_cast<const uchar *>(v.constData());
        const int field = (b == 0xc4 || b == 0xc7 || b == 0xd9)                             ? 1
                          : (b == 0xc5 || b == 0xc8 || b == 0xda || b == 0xdc || b == 0xde) ? 2
                                                                                            : 4;
        QVERIFY(!MsgpackHead::read(p, field).ok());
        QVERIFY(MsgpackHead::read(p, field + 1).ok());
    }
}

void TestMsgpackHead::fitsChecksPayload() {
    const QByteArray v = sample(0xd9);  // str8 "abc": 5 bytes
    const auto *p = reinterpret_cast<const uchar *>(v.constData());
    QVERIFY(MsgpackHead::read(p, 5).fits(5));
    QVERIFY(!MsgpackHead::read(p, 4).fits(4));
    const QByteArray e = sample(0xc7);  // ext8: the type byte is part of the header
    const MsgpackHead h = MsgpackHead::read(reinterpret_cast<const uchar *>(e.constData()), 2);
    QVERIFY(h.ok());
    QCOMPARE(int(h.header), 3);
    QVERIFY(!h.fits(2));
    // A 4 GiB claim does not wrap around.
    const QByteArray huge = bytes({0xdb, 0xff, 0xff, 0xff, 0xff, 'a'});
    const MsgpackHead s = MsgpackHead::read(reinterpret_cast<const uchar *>(huge.constData()), 6);
    QCOMPARE(s.payload, quint64(0xffffffffu));
    QVERIFY(!s.fits(6));
}

void TestMsgpackHead::bigEndian() {
    const uchar d[8] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
    QCOMPARE(MsgpackHead::be(d, 0), quint64(0));
    QCOMPARE(MsgpackHead::be(d, 1), quint64(0x01));
    QCOMPARE(MsgpackHead::be(d, 2), quint64(0x0123));
    QCOMPARE(MsgpackHead::be(d, 3), quint64(0x012345));
    QCOMPARE(MsgpackHead::be(d, 4), quint64(0x01234567));
    QCOMPARE(MsgpackHead::be(d, 8), quint64(0x0123456789abcdefULL));
}

void TestMsgpackHead::typeNames() {
    QCOMPARE(MsgpackHead::typeName(0x05), "positive fixint");
    QCOMPARE(MsgpackHead::typeName(0xff), "negative fixint");
    QCOMPARE(MsgpackHead::typeName(0x81), "fixmap");
    QCOMPARE(MsgpackHead::typeName(0x92), "fixarray");
    QCOMPARE(MsgpackHead::typeName(0xa3), "fixstr");
    QCOMPARE(MsgpackHead::typeName(0xc0), "nil");
    QVERIFY(MsgpackHead::typeName(0xc1) == nullptr);
    QCOMPARE(MsgpackHead::typeName(0xcf), "uint64");
    QCOMPARE(MsgpackHead::typeName(0xd8), "fixext16");
    QCOMPARE(MsgpackHead::typeName(0xdb), "str32");
    QCOMPARE(MsgpackHead::typeName(0xdf), "map32");
    // The frame dump names sized formats with their length or count.
    QString type;
    const QByteArray m = sample(0xde);
    QCOMPARE(
        FrameDump::valueSize(reinterpret_cast<const uchar *>(m.constData()), m.size(), 0, &type),
        qint64(m.size()));
    QCOMPARE(type, QStringLiteral("map16(2)"));
    const QByteArray x = sample(0xc8);
    QCOMPARE(
        FrameDump::valueSize(reinterpret_cast<const uchar *>(x.constData()), x.size(), 0, &type),
        qint64(x.size()));
    QCOMPARE(type, QStringLiteral("ext(3)"));
    const QByteArray f = sample(0xd6);
    FrameDump::valueSize(reinterpret_cast<const uchar *>(f.constData()), f.size(), 0, &type);
    QCOMPARE(type, QStringLiteral("fixext4"));
    const QByteArray r = sample(0xc1);
    QCOMPARE(
        FrameDump::valueSize(reinterpret_cast<const uchar *>(r.constData()), r.size(), 0, &type),
        qint64(-1));
    QCOMPARE(type, QStringLiteral("reserved 0xc1"));
}

QTEST_GUILESS_MAIN(TestMsgpackHead)
#include "tst_msgpackhead.moc"
