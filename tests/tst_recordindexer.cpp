// RecordIndexer: the index fields of one record body, every accepted encoding and every way a
// body can fail to be a record.

#include "testutil.h"
#include "trace/recordindexer.h"
#include "trace/traceloader.h"

#include <QElapsedTimer>
#include <QTest>

using namespace lmct;
using namespace lmct::test;
using Status = RecordIndexer::Status;

namespace {

RecordIndexer::Fields parse(const QByteArray &b) {
    return RecordIndexer::parse(b.constData(), b.size());
}

QString qualnameOf(const RecordIndexer::Fields &f) {
    return QString::fromUtf8(f.qualname, qsizetype(f.qualnameSize));
}

const QString kFinishWrite = storageQualname("finish_write");

/** One record field as raw key+value bytes, so tests can reorder, drop and replace fields. */
struct Field {
    QByteArray key;
    QByteArray value;
};

QList<Field> goodFields() {
    return {
        {Mp().str("type").bytes, Mp().str("record").bytes},
        {Mp().str("t_mono").bytes, Mp().f64(1.5).bytes},
        {Mp().str("t_wall").bytes, Mp().f64(1760000001.75).bytes},
        {Mp().str("qualname").bytes, Mp().str(kFinishWrite).bytes},
        {Mp().str("args").bytes, keysArgs(2)},
    };
}

QByteArray body(const QList<Field> &fields) {
    Mp m;
    m.map(quint32(fields.size()));
    for (const Field &f : fields) {
        m.raw(f.key).raw(f.value);
    }
    return m.bytes;
}

QList<Field> replaced(const char *key, const QByteArray &value) {
    QList<Field> fs = goodFields();
    for (Field &f : fs) {
        if (f.key == Mp().str(key).bytes) {
            f.value = value;
        }
    }
    return fs;
}

QList<Field> without(const char *key) {
    QList<Field> fs = goodFields();
    fs.removeIf([&](const Field &f) { return f.key == Mp().str(key).bytes; });
    return fs;
}

}  // namespace

class TestRecordIndexer : public QObject {
    Q_OBJECT

private slots:
    void canonicalRecord() {
        const QByteArray b = recordBody(0.25, 1760000000.5, kFinishWrite, keysArgs(3));
        const auto f = parse(b);
        QCOMPARE(f.status, Status::Ok);
        QVERIFY(f.message.isEmpty());
        QCOMPARE(f.tMono, 0.25);
        QCOMPARE(f.tWall, 1760000000.5);
        QCOMPARE(qualnameOf(f), kFinishWrite);
        // The qualname points into the parsed buffer, not into a copy.
        QVERIFY(f.qualname >= b.constData() && f.qualname + f.qualnameSize <= b.constEnd());
    }

    void keysInAnyOrder() {
        // All 120 orders of the five fields.
        QList<Field> fs = goodFields();
        std::vector<int> idx = {0, 1, 2, 3, 4};
        int n = 0;
        do {
            QList<Field> order;
            for (int i : idx) {
                order.append(fs[i]);
            }
            const auto f = parse(body(order));
            QCOMPARE(f.status, Status::Ok);
            QCOMPARE(f.tMono, 1.5);
            QCOMPARE(f.tWall, 1760000001.75);
            QCOMPARE(qualnameOf(f), kFinishWrite);
            ++n;
        } while (std::next_permutation(idx.begin(), idx.end()));
        QCOMPARE(n, 120);
    }

    void typeKeyIsOptional() {
        const auto f = parse(body(without("type")));
        QCOMPARE(f.status, Status::Ok);
        QCOMPARE(qualnameOf(f), kFinishWrite);
    }

    void unknownKeysAreIgnored() {
        QList<Field> fs = goodFields();
        // Unknown keys with scalar and nested values, including nested maps that use the
        // names of the record fields: only top-level fields count.
        fs.insert(1, {Mp().str("seq").bytes, Mp().uint(12).bytes});
        fs.insert(3, {Mp().str("note").bytes, Mp().map(3)
                                                  .str("t_mono")
                                                  .str("not a number")
                                                  .str("qualname")
                                                  .uint(5)
                                                  .str("type")
                                                  .str("header")
                                                  .bytes});
        fs.append({Mp().str("pid").bytes, Mp().arr(2).uint(1).bin("x").bytes});
        fs.append({Mp().uint(7).bytes, Mp().str("non-string key").bytes});
        fs.append({Mp().arr(1).str("qualname").bytes, Mp().uint(1).bytes});  // container key
        const auto f = parse(body(fs));
        QVERIFY2(f.status == Status::Ok, qPrintable(f.message));
        QCOMPARE(f.tMono, 1.5);
        QCOMPARE(qualnameOf(f), kFinishWrite);
    }

    void argsMayHoldRecordFieldNames() {
        Mp args;
        args.map(3).str("t_mono").str("x").str("qualname").nil().str("args").uint(3);
        const auto f = parse(recordBody(2.0, 3.0, kFinishWrite, args.bytes));
        QCOMPARE(f.status, Status::Ok);
        QCOMPARE(f.tMono, 2.0);
        QCOMPARE(qualnameOf(f), kFinishWrite);
    }

    void numericTimes_data() {
        QTest::addColumn<QByteArray>("tMono");
        QTest::addColumn<double>("expected");
        QTest::newRow("float64") << Mp().f64(0.125).bytes << 0.125;
        QTest::newRow("float32") << Mp().f32(0.4f).bytes << double(0.4f);
        QTest::newRow("positive fixint") << Mp().uint(1).bytes << 1.0;
        QTest::newRow("uint16") << Mp().uintW(300, 16).bytes << 300.0;
        QTest::newRow("uint64") << Mp().uintW(2, 64).bytes << 2.0;
        QTest::newRow("int64") << Mp().intW(1760000002, 64).bytes << 1760000002.0;
        QTest::newRow("negative int") << Mp().sint(-3).bytes << -3.0;
        QTest::newRow("zero") << Mp().f64(0.0).bytes << 0.0;
    }
    void numericTimes() {
        QFETCH(QByteArray, tMono);
        QFETCH(double, expected);
        auto fs = replaced("t_mono", tMono);
        auto f = parse(body(fs));
        QCOMPARE(f.status, Status::Ok);
        QCOMPARE(f.tMono, expected);
        fs = replaced("t_wall", tMono);
        f = parse(body(fs));
        QCOMPARE(f.status, Status::Ok);
        QCOMPARE(f.tWall, expected);
    }

    void anyWidths() {
        // str8/16/32 keys and qualname, map16/map32 root, array32 args content.
        Mp m;
        m.map(5, 32);
        m.str("type", 8).str("record", 16);
        m.str("t_mono", 32).f32(0.5f);
        m.str("t_wall", 16).uintW(1760000000, 32);
        m.str("qualname", 8).str(kFinishWrite.toUtf8(), 32);
        m.str("args", 32).map(1, 16).str("keys").arr(1, 32).raw(objectKey(4));
        const auto f = parse(m.bytes);
        QVERIFY2(f.status == Status::Ok, qPrintable(f.message));
        QCOMPARE(f.tMono, 0.5);
        QCOMPARE(f.tWall, 1760000000.0);
        QCOMPARE(qualnameOf(f), kFinishWrite);
    }

    void wrongTypes_data() {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("found");
        const QList<QPair<QString, QByteArray>> values = {
            {"str", Mp().str("0.5").bytes},     {"nil", Mp().nil().bytes},
            {"bool", Mp().boolean(true).bytes}, {"list", Mp().arr(1).uint(1).bytes},
            {"map", Mp().map(0).bytes},         {"bytes", Mp().bin("ab").bytes},
            {"int", Mp().uint(3).bytes},        {"float", Mp().f64(2.5).bytes},
        };
        const QList<QPair<QString, QString>> fields = {{"t_mono", "a number"},
                                                       {"t_wall", "a number"},
                                                       {"qualname", "a string"},
                                                       {"args", "a map"},
                                                       {"type", "a string"}};
        for (const auto &[field, expected] : fields) {
            for (const auto &[found, bytes] : values) {
                const bool ok =
                    (expected == QLatin1String("a number") &&
                     (found == QLatin1String("int") || found == QLatin1String("float"))) ||
                    (expected == QLatin1String("a string") && found == QLatin1String("str")) ||
                    (expected == QLatin1String("a map") && found == QLatin1String("map"));
                if (ok) {
                    continue;
                }
                QTest::addRow("%s=%s", qPrintable(field), qPrintable(found))
                    << field << bytes << expected << found;
            }
        }
    }
    void wrongTypes() {
        QFETCH(QString, field);
        QFETCH(QByteArray, value);
        QFETCH(QString, expected);
        QFETCH(QString, found);
        const auto f = parse(body(replaced(field.toLatin1().constData(), value)));
        QCOMPARE(f.status, Status::BadFields);
        // The message names the field, what was expected and what was found.
        QVERIFY2(f.message.contains(field), qPrintable(f.message));
        QVERIFY2(f.message.contains(expected), qPrintable(f.message));
        QVERIFY2(f.message.contains(QStringLiteral("found ") + found), qPrintable(f.message));
    }

    void typeStringMustBeRecord_data() {
        QTest::addColumn<QByteArray>("type");
        QTest::newRow("header") << Mp().str("header").bytes;
        QTest::newRow("Record") << Mp().str("Record").bytes;
        QTest::newRow("empty") << Mp().str("").bytes;
    }
    void typeStringMustBeRecord() {
        QFETCH(QByteArray, type);
        const auto f = parse(body(replaced("type", type)));
        QCOMPARE(f.status, Status::BadFields);
        QVERIFY2(f.message.contains(QLatin1String("\"record\"")), qPrintable(f.message));
        QVERIFY2(f.message.contains(QLatin1String("type")), qPrintable(f.message));
    }

    void headerTagInsideRecord() {
        // A header frame where a record is expected.
        const auto f = parse(headerBody());
        QCOMPARE(f.status, Status::BadFields);
        QVERIFY2(f.message.contains(QLatin1String("header")), qPrintable(f.message));
    }

    void missingFields_data() {
        QTest::addColumn<QString>("field");
        for (const char *k : {"t_mono", "t_wall", "qualname", "args"}) {
            QTest::newRow(k) << QString::fromLatin1(k);
        }
    }
    void missingFields() {
        QFETCH(QString, field);
        const auto f = parse(body(without(field.toLatin1().constData())));
        QCOMPARE(f.status, Status::BadFields);
        QVERIFY2(f.message.contains(field), qPrintable(f.message));
        QVERIFY2(f.message.contains(QLatin1String("missing")), qPrintable(f.message));
    }

    void emptyMapAndNonMaps_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("found");
        QTest::newRow("empty map") << Mp().map(0).bytes << "missing";
        QTest::newRow("array") << Mp().arr(2).uint(1).uint(2).bytes << "list";
        QTest::newRow("int") << Mp().uint(42).bytes << "int";
        QTest::newRow("string") << Mp().str("record").bytes << "str";
        QTest::newRow("nil") << Mp().nil().bytes << "nil";
    }
    void emptyMapAndNonMaps() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, found);
        const auto f = parse(bytes);
        QCOMPARE(f.status, Status::BadFields);
        QVERIFY2(f.message.contains(found), qPrintable(f.message));
    }

    void trailingBytes() {
        const QByteArray b = recordBody(1, 2, kFinishWrite, keysArgs(1)) + Mp().nil().bytes;
        const auto f = parse(b);
        QCOMPARE(f.status, Status::Malformed);
        QVERIFY2(f.message.contains(QLatin1String("1 unexpected byte")), qPrintable(f.message));
    }

    void emptyBody() {
        const auto f = RecordIndexer::parse("", 0);
        QCOMPARE(f.status, Status::Malformed);
        QVERIFY(!f.message.isEmpty());
    }

    void truncatedAtEveryLength() {
        const QByteArray b = recordBody(1.5, 2.5, kFinishWrite, keysArgs(2));
        QCOMPARE(parse(b).status, Status::Ok);
        for (int cut = 1; cut < b.size(); ++cut) {
            const auto f = RecordIndexer::parse(b.constData(), cut);
            // Cut short: never Ok. A container claiming more than the shortened body may also
            // be called a limit.
            QVERIFY2(f.status == Status::Malformed || f.status == Status::Limit,
                     qPrintable(QString::number(cut)));
            QVERIFY(!f.message.isEmpty());
        }
    }

    void malformedByteOffset() {
        QByteArray b = recordBody(1.5, 2.5, kFinishWrite, keysArgs(1));
        const int at = b.indexOf("model_name") - 1;  // the fixstr header of the key
        b[at] = char(0xc1);
        const auto f = parse(b);
        QCOMPARE(f.status, Status::Malformed);
        QVERIFY2(f.message.contains(QLatin1String("0xc1")), qPrintable(f.message));
        QVERIFY2(f.message.contains(QStringLiteral("offset %1").arg(at)), qPrintable(f.message));
    }

    void depthLimit() {
        // Root map = depth 1, args map = depth 2, then nested arrays.
        auto nested = [](int arrays) { return QByteArray(arrays, '\x91') + '\xc0'; };
        auto withArgs = [&](int arrays) {
            return recordBody(1, 2, kFinishWrite, Mp().map(1).str("x").raw(nested(arrays)).bytes);
        };
        QCOMPARE(parse(withArgs(RecordIndexer::kMaxDepth - 2)).status, Status::Ok);
        const auto over = parse(withArgs(RecordIndexer::kMaxDepth - 1));
        QCOMPARE(over.status, Status::Limit);
        QVERIFY2(over.message.contains(QLatin1String("nesting")), qPrintable(over.message));

        QElapsedTimer t;
        t.start();
        const auto deep = parse(withArgs(100000));
        QVERIFY2(t.elapsed() < 2000, "hang guard");
        QCOMPARE(deep.status, Status::Limit);
    }

    // More values than the display decode keeps (ValueDecoder's limit): Full mode says so, so
    // the loader's argument check flags the record that the table shows cut (⚠).
    void valueLimit() {
        // map, "type", "record", "t_mono", 1, "t_wall", 2, "qualname", Q, "args", {, "x", [: 13
        auto withInts = [](qint64 n) {
            Mp args;
            args.map(1).str("x").arr(quint32(n), 32);
            return recordBody(1, 2, kFinishWrite, args.bytes + QByteArray(n, '\x00'));
        };
        const qint64 fits = RecordIndexer::kMaxValues - 13;
        QCOMPARE(parse(withInts(fits)).status, Status::Ok);
        const QByteArray over = withInts(fits + 1);
        const auto f = parse(over);
        QCOMPARE(f.status, Status::Limit);
        QCOMPARE(f.message, QStringLiteral("more than 2000000 values, the decoding limit: only "
                                           "the first 2000000 are decoded"));
        // indexing reads only the fields before args
        QCOMPARE(
            RecordIndexer::parse(over.constData(), over.size(), RecordIndexer::Mode::Index).status,
            Status::Ok);
        // loaded: the record decodes cut (the table's ⚠) and a diagnostic says why
        const auto doc = TraceLoader::loadBytes(frame(headerBody()) + frame(over),
                                                QStringLiteral("v.lct"), nullptr);
        QVERIFY(doc);
        QVERIFY(!doc->args(0)->error.isEmpty());
        QCOMPARE(doc->diagnosticCount(), 1);
        const Diagnostic d = doc->diagnostics().first();
        QCOMPARE(d.kind, Diagnostic::Kind::Limit);
        QCOMPARE(d.offset, doc->records().frameOffset(0));
        QVERIFY2(d.message.contains(f.message), qPrintable(d.message));
        // more values than are decoded is no damage: the message says which limit, not "damaged"
        QVERIFY2(d.message.contains(QStringLiteral("exceed a decoding limit")) &&
                     !d.message.contains(QStringLiteral("damaged")),
                 qPrintable(d.message));
    }

    void claimedSizes_data() {
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<int>("status");
        QTest::newRow("array32 2^32-1")
            << QByteArray("\xdd\xff\xff\xff\xff\x01\x02\x03", 8) << int(Status::Limit);
        QTest::newRow("map32 2^32-1")
            << QByteArray("\xdf\xff\xff\xff\xff\xa1k\x01", 8) << int(Status::Limit);
        QTest::newRow("str32 4 GiB") << QByteArray(
                                            "\xdb\xff\xff\xff\xff"
                                            "abc",
                                            8)
                                     << int(Status::Malformed);
        QTest::newRow("bin32 4 GiB") << QByteArray(
                                            "\xc6\xff\xff\xff\xff"
                                            "abc",
                                            8)
                                     << int(Status::Malformed);
    }
    void claimedSizes() {
        QFETCH(QByteArray, payload);
        QFETCH(int, status);
        const QByteArray b =
            recordBody(1, 2, kFinishWrite, Mp().map(1).str("keys").raw(payload).bytes);
        QElapsedTimer t;
        t.start();
        const auto f = parse(b);
        QVERIFY2(t.elapsed() < 2000, "hang guard");
        QCOMPARE(int(f.status), status);
        QVERIFY(!f.message.isEmpty());
        if (f.status == Status::Limit) {
            QVERIFY2(f.message.contains(QLatin1String("claims")), qPrintable(f.message));
        }
    }

    // --- Mode::Index: stop once the index fields are known and args has started -------------

    void indexModeSkipsArgs() {
        // Damage inside args is invisible to the index walk (the argument check finds it).
        const QByteArray b =
            recordBody(1.5, 2.5, kFinishWrite, Mp().map(2).str("keys").bytes + '\xc1');
        const auto idx = RecordIndexer::parse(b.constData(), b.size(), RecordIndexer::Mode::Index);
        QCOMPARE(idx.status, Status::Ok);
        QCOMPARE(idx.tMono, 1.5);
        QCOMPARE(idx.tWall, 2.5);
        QCOMPARE(qualnameOf(idx), kFinishWrite);
        QCOMPARE(parse(b).status, Status::Malformed);
    }

    void indexModeChecksArgsClaim() {
        const QByteArray b =
            recordBody(1.5, 2.5, kFinishWrite, QByteArray("\xdf\xff\xff\xff\xff\xa1k\x01", 8));
        const auto f = RecordIndexer::parse(b.constData(), b.size(), RecordIndexer::Mode::Index);
        QCOMPARE(f.status, Status::Limit);
        QVERIFY(f.message.contains(QLatin1String("claims")));
    }

    void indexModeAgreesOnEveryOrder() {
        QList<Field> fs = goodFields();
        std::vector<int> idx = {0, 1, 2, 3, 4};
        do {
            QList<Field> order;
            for (int i : idx) {
                order.append(fs[i]);
            }
            const QByteArray b = body(order);
            const auto f =
                RecordIndexer::parse(b.constData(), b.size(), RecordIndexer::Mode::Index);
            QCOMPARE(f.status, Status::Ok);
            QCOMPARE(f.tMono, 1.5);
            QCOMPARE(f.tWall, 1760000001.75);
            QCOMPARE(qualnameOf(f), kFinishWrite);
        } while (std::next_permutation(idx.begin(), idx.end()));
    }

    void indexModeFieldErrors_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("word");
        QTest::newRow("t_mono a string")
            << body(replaced("t_mono", Mp().str("x").bytes)) << "t_mono";
        QTest::newRow("qualname an int")
            << body(replaced("qualname", Mp().uint(3).bytes)) << "qualname";
        QTest::newRow("type header")
            << body(replaced("type", Mp().str("header").bytes)) << "header";
        QTest::newRow("no qualname") << body(without("qualname")) << "qualname";
        QTest::newRow("args a list") << body(replaced("args", Mp().arr(0).bytes)) << "args";
        QTest::newRow("header frame") << headerBody() << "header";
    }
    void indexModeFieldErrors() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, word);
        const auto f =
            RecordIndexer::parse(bytes.constData(), bytes.size(), RecordIndexer::Mode::Index);
        QCOMPARE(f.status, Status::BadFields);
        QVERIFY2(f.message.contains(word), qPrintable(f.message));
    }

    void indexModeCutShort() {
        // Index mode reads exactly up to the args map header: a body cut before it is not a
        // record, one cut after it indexes (the argument check then finds the cut).
        const QByteArray b = recordBody(1.5, 2.5, kFinishWrite, keysArgs(2));
        const int argsHeaderEnd = b.indexOf(
                                      "\xa4"
                                      "args") +
                                  5 + 1;  // key, then the fixmap byte
        QCOMPARE(uchar(b.at(argsHeaderEnd - 1)), uchar(0x81));
        for (int cut = 1; cut < b.size(); ++cut) {
            const auto f = RecordIndexer::parse(b.constData(), cut, RecordIndexer::Mode::Index);
            QVERIFY2((f.status == Status::Ok) == (cut >= argsHeaderEnd),
                     qPrintable(QStringLiteral("cut %1: %2").arg(cut).arg(f.message)));
            QVERIFY(RecordIndexer::parse(b.constData(), cut).status != Status::Ok);
        }
    }

    void rootMapClaimTooBig() {
        // A root map32 that claims more entries than the body can hold.
        const QByteArray b = QByteArray("\xdf\x00\x01\x00\x00", 5) + Mp().str("type").bytes;
        const auto f = parse(b);
        QCOMPARE(f.status, Status::Limit);
    }
};

QTEST_GUILESS_MAIN(TestRecordIndexer)
#include "tst_recordindexer.moc"
