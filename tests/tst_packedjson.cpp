// The streamed record exports (PackedJson, RecordLineFormatter) against the value-tree path
// (ValueDecoder, ValueFormatter::toJson, QJsonDocument: RecordExport::formatRecordByValue),
// byte for byte: hostile values one by one, crafted records, and every record of every
// generated fixture, in JSON Lines and CSV. Also that the stream does the work (it declines
// only what it must) and that the export through it writes what the reference writes.

#include "codec/valuedecoder.h"
#include "codec/valueformatter.h"
#include "export/packedjson.h"
#include "export/recordexport.h"
#include "export/recordlineformatter.h"
#include "testutil.h"
#include "trace/traceloader.h"

#include <QBuffer>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QtTest>
#include <cmath>
#include <limits>

using namespace lmct;
using namespace lmct::test;

namespace {

/** The value-tree JSON of one msgpack value (inside an array: a document needs a container). */
QByteArray referenceJson(const QByteArray &value) {
    const ValueDecoder::Result r = ValueDecoder::decode(Mp().arr(1).raw(value).bytes);
    return QJsonDocument(ValueFormatter::toJson(r.value).toArray()).toJson(QJsonDocument::Compact);
}

/** PackedJson's JSON of the same, or "declined". */
QByteArray streamedJson(const QByteArray &value) {
    const QByteArray wrapped = Mp().arr(1).raw(value).bytes;
    QByteArray out;
    if (!PackedJson::appendValue(wrapped.constData(), wrapped.size(), &out)) {
        return QByteArrayLiteral("declined");
    }
    return out;
}

QByteArray deep(int levels, bool maps) {
    Mp m;
    for (int i = 0; i < levels; ++i) {
        maps ? m.map(1).str("k") : m.arr(1);
    }
    m.sint(1);
    return m.bytes;
}

/** Values the stream must write exactly as the value tree does (none declined). */
QList<QPair<QByteArray, QByteArray>> hostileValues() {
    QList<QPair<QByteArray, QByteArray>> v;
    auto add = [&v](const char *name, const QByteArray &bytes) { v.append({name, bytes}); };
    add("nil", Mp().nil().bytes);
    add("true", Mp().boolean(true).bytes);
    add("false", Mp().boolean(false).bytes);
    for (int w : {8, 16, 32, 64}) {
        add("uint widths", Mp().uintW(1, w).bytes);
        add("int widths", Mp().intW(-1, w).bytes);
        add("int widths positive", Mp().intW(5, w).bytes);
    }
    add("uint64 max", Mp().uint(std::numeric_limits<quint64>::max()).bytes);
    add("int64 max", Mp().uint(quint64(std::numeric_limits<qint64>::max())).bytes);
    add("int64 max + 1", Mp().uint(quint64(std::numeric_limits<qint64>::max()) + 1).bytes);
    add("int64 min", Mp().sint(std::numeric_limits<qint64>::min()).bytes);
    add("2^53 + 1", Mp().uint(9007199254740993ull).bytes);
    const double doubles[] = {0.0,
                              -0.0,
                              1.0,
                              -1.5,
                              0.1,
                              1e-5,
                              1e15,
                              -1e15,
                              1e16,
                              1e17,
                              9007199254740992.0,
                              -9007199254740992.0,
                              9007199254740994.0,
                              123456789012345680.0,
                              1.8446744073709552e19,
                              9.3e18,
                              1e21,
                              1e300,
                              5e-324,
                              -2.2250738585072014e-308,
                              1760000000.25,
                              81234.567891234,
                              std::numeric_limits<double>::max(),
                              std::numeric_limits<double>::quiet_NaN(),
                              std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity()};
    for (double d : doubles) {
        add("double", Mp().f64(d).bytes);
        add("float32", Mp().f32(float(d)).bytes);
    }
    add("float32 0.1", Mp().f32(0.1f).bytes);
    add("empty str", Mp().str("").bytes);
    add("controls", Mp().str(QByteArray("a\0b\x01\x1f\b\f\n\r\t\"\\/\x7f", 15)).bytes);
    add("utf-8",
        Mp().str(QByteArray("caf\xc3\xa9 \xe2\x80\xa8 \xf0\x9f\x98\x80 \xef\xbb\xbf")).bytes);
    add("noncharacters", Mp().str(QByteArray("\xef\xbf\xbe\xef\xbf\xbf\xef\xb7\x90")).bytes);
    add("invalid utf-8: lone continuation", Mp().str(QByteArray("a\x80z")).bytes);
    add("invalid utf-8: surrogate", Mp().str(QByteArray("\xed\xa0\x80x")).bytes);
    add("invalid utf-8: overlong", Mp().str(QByteArray("\xc0\xaf\xe0\x80\xaf")).bytes);
    add("invalid utf-8: above U+10FFFF", Mp().str(QByteArray("\xf4\x90\x80\x80")).bytes);
    add("invalid utf-8: cut sequence", Mp().str(QByteArray("ab\xe2\x82")).bytes);
    add("invalid utf-8: 0xff", Mp().str(QByteArray("\xff\xfe")).bytes);
    add("str8/16/32", Mp().str("wide", 32).bytes);
    add("huge str (1 MiB)", Mp().str(QByteArray(Value::kMaxKeptBytes, 'x')).bytes);
    add("bin", Mp().bin(QByteArray("\x00\xff\x10", 3)).bytes);
    add("empty bin", Mp().bin(QByteArray()).bytes);
    add("bin32", Mp().bin(QByteArray(300, '\x5a'), 32).bytes);
    for (int n : {1, 2, 4, 8, 16, 3, 300}) {
        add("ext", Mp().ext(qint8(n % 2 ? -7 : 5), QByteArray(n, '\xab')).bytes);
    }
    add("ext type -128", Mp().ext(-128, QByteArray("z")).bytes);
    add("empty array", Mp().arr(0).bytes);
    add("empty map", Mp().map(0).bytes);
    add("array16", Mp().arr(2, 16).sint(1).sint(2).bytes);
    add("map32", Mp().map(1, 32).str("a").nil().bytes);
    add("map in file order", Mp().map(3).str("b").sint(1).str("a").sint(2).str("c").sint(3).bytes);
    add("keys by prefix", Mp().map(3).str("ab").sint(1).str("a").sint(2).str("").sint(3).bytes);
    add("key escapes", Mp().map(2).str("q\"\n").sint(1).str("\x01").sint(2).bytes);
    add("nested unsorted maps", Mp().map(2)
                                    .str("z")
                                    .map(2)
                                    .str("y")
                                    .arr(2)
                                    .map(2)
                                    .str("n")
                                    .sint(1)
                                    .str("m")
                                    .sint(2)
                                    .nil()
                                    .str("x")
                                    .boolean(true)
                                    .str("a")
                                    .f64(0.5)
                                    .bytes);
    add("ObjectKey", Mp().tag("ObjectKey")
                         .map(5)
                         .str("chunk_hash")
                         .bin(chunkHash(3))
                         .str("model_name")
                         .str("Qwen/Qwen3-8B")
                         .str("kv_rank")
                         .sint(33554944)
                         .str("object_group_id")
                         .sint(0)
                         .str("cache_salt")
                         .nil()
                         .bytes);
    add("tag in file order", Mp().map(2).str("v").sint(7).str("__t__").str("set").bytes);
    add("tag not a string", Mp().map(2).str("__t__").sint(1).str("v").nil().bytes);
    add("tagged tagged", Mp().tag("tuple").tag("set").arr(1).sint(1).bytes);
    add("deep arrays (90)", deep(90, false));
    add("deep maps (90)", deep(90, true));
    Mp many;
    many.arr(5000);
    for (int i = 0; i < 5000; ++i) {
        many.sint(i * 7919 - 20000);
    }
    add("5000 ints", many.bytes);
    return v;
}

/** Values the stream leaves to the value tree (it renders them some other way). */
QList<QPair<QByteArray, QByteArray>> declinedValues() {
    QList<QPair<QByteArray, QByteArray>> v;
    auto add = [&v](const char *name, const QByteArray &bytes) { v.append({name, bytes}); };
    add("str over the kept size", Mp().str(QByteArray(Value::kMaxKeptBytes + 1, 'x')).bytes);
    add("bin over the kept size", Mp().bin(QByteArray(Value::kMaxKeptBytes + 1, 'x')).bytes);
    add("ext over the kept size", Mp().ext(1, QByteArray(Value::kMaxKeptBytes + 1, 'x')).bytes);
    add("int key", Mp().map(1).sint(1).str("one").bytes);
    add("non-ASCII key", Mp().map(2).str("\xc3\xa9").sint(1).str("e").sint(2).bytes);
    add("key twice", Mp().map(3).str("b").sint(1).str("a").sint(2).str("b").sint(3).bytes);
    add("deep arrays (200)", deep(200, false));
    add("0xc1", QByteArray("\xc1", 1));
    add("truncated str", QByteArray("\xa5"
                                    "ab",
                                    3));
    add("array claims more", Mp().arr(3).sint(1).bytes);
    return v;
}

/** Records whose arguments are hostile, as one trace. */
QByteArray hostileTrace() {
    QByteArray t = frame(headerBody());
    const QString q = storageQualname("submit_prefetch_task");
    double tm = 0.0;
    for (const auto &pair : hostileValues() + declinedValues()) {
        tm += 0.125;
        t += frame(
            recordBody(tm, 1760000000.0 + tm, q, Mp().map(1).str("x").raw(pair.second).bytes));
    }
    // Arguments that are not a map, a record without args, a codec-tagged record, bytes left
    // over after the record, a qualname to escape, integral and huge times.
    t += frame(recordBody(1.0, 1e16, q, Mp().arr(2).sint(1).str("a").bytes));
    t += frame(recordBody(2.0, -0.0, q, Mp().sint(5).bytes));
    t += frame(recordBody(3.0, 3.0, q, Mp().str("just text").bytes));
    t += frame(Mp().map(4)
                   .str("type")
                   .str("record")
                   .str("t_mono")
                   .f64(4.0)
                   .str("t_wall")
                   .f64(4.5)
                   .str("qualname")
                   .str(q)
                   .bytes);
    t += frame(Mp().map(2).str("__t__").str("record").str("v").nil().bytes);
    t += frame(recordBody(6.0, 6.0, q, keysArgs(3)) + QByteArray("\x01", 1));
    t += frame(recordBody(7.0, 7.0, QStringLiteral("odd,\"name\"\n\x01.call"), keysArgs(2)));
    t += frame(Mp().map(6)
                   .str("type")
                   .str("record")
                   .str("args")
                   .map(1)
                   .str("first")
                   .sint(1)
                   .str("t_mono")
                   .f64(8.0)
                   .str("t_wall")
                   .f64(8.0)
                   .str("qualname")
                   .str(q)
                   .str("args")
                   .map(1)
                   .str("second")
                   .sint(2)
                   .bytes);
    return t;
}

/** Compares every record of `doc` in both formats; returns how many took the stream. */
int compareAll(const TraceDocument &doc, const QString &name) {
    int streamed = 0;
    const RecordStore &rs = doc.records();
    for (auto format : {RecordExport::Format::Jsonl, RecordExport::Format::Csv}) {
        const RecordLineFormatter lines(doc, format);
        for (int r = 0; r < rs.size(); ++r) {
            QByteArray fast;
            lines.append(r, &fast);
            const QByteArray reference = RecordExport::formatRecordByValue(doc, r, format);
            if (fast != reference) {
                qWarning().noquote() << name << "record" << r << "\n fast:" << fast.left(2000)
                                     << "\n  ref:" << reference.left(2000);
                return -1;
            }
            if (format == RecordExport::Format::Jsonl) {
                QByteArray args;
                const auto *body =
                    reinterpret_cast<const char *>(doc.fileData() + rs.frameOffset(r) + 4);
                streamed +=
                    PackedJson::appendRecordArgs(body, rs.bodyLength(r), &args, nullptr) ? 1 : 0;
            }
        }
    }
    return streamed;
}

std::shared_ptr<TraceDocument> loadBytes(const QByteArray &bytes) {
    QString error;
    auto doc = TraceLoader::loadBytes(bytes, QStringLiteral("hostile.lct"), &error);
    if (!doc) {
        qWarning() << error;
    }
    return doc;
}

}  // namespace

class TestPackedJson : public QObject {
    Q_OBJECT
private slots:
    void valuesAsTheValueTree_data() {
        QTest::addColumn<QByteArray>("value");
        for (const auto &[name, bytes] : hostileValues()) {
            QTest::newRow(name.constData()) << bytes;
        }
    }
    void valuesAsTheValueTree() {
        QFETCH(QByteArray, value);
        QCOMPARE(streamedJson(value), referenceJson(value));
    }

    void declinesWhatTheValueTreeRendersOtherwise_data() {
        QTest::addColumn<QByteArray>("value");
        for (const auto &[name, bytes] : declinedValues()) {
            QTest::newRow(name.constData()) << bytes;
        }
    }
    void declinesWhatTheValueTreeRendersOtherwise() {
        QFETCH(QByteArray, value);
        QCOMPARE(streamedJson(value), QByteArrayLiteral("declined"));
    }

    void randomBytesAsTheValueTree() {
        // Random strings (UTF-8 or not) and random maps of ASCII keys.
        QRandomGenerator rng(20261201);
        for (int i = 0; i < 3000; ++i) {
            QByteArray s(int(rng.bounded(40)), '\0');
            for (char &c : s) {
                const int pick = int(rng.bounded(4));
                c = char(pick == 0   ? rng.bounded(0x20)
                         : pick == 1 ? 0x80 + rng.bounded(0x80)
                         : pick == 2 ? 0xc0 + rng.bounded(0x40)
                                     : 0x20 + rng.bounded(0x60));
            }
            const QByteArray v = Mp().str(s).bytes;
            QCOMPARE(streamedJson(v), referenceJson(v));
            Mp m;
            const int n = int(rng.bounded(6));
            m.map(quint32(n));
            for (int k = 0; k < n; ++k) {
                m.str(QByteArray::number(rng.bounded(1000) + k * 1000, 36))
                    .f64(rng.generateDouble() * 1e6);
            }
            QCOMPARE(streamedJson(m.bytes), referenceJson(m.bytes));
        }
    }

    void hostileRecordsAsTheValueTree() {
        const auto doc = loadBytes(hostileTrace());
        QVERIFY(doc);
        QVERIFY(doc->records().size() > hostileValues().size());
        const int streamed = compareAll(*doc, QStringLiteral("hostile"));
        QVERIFY(streamed >= 0);
        // Every hostile value that is not declined is written by the stream.
        QVERIFY2(streamed >= hostileValues().size(), qPrintable(QString::number(streamed)));
    }

    void everyFixtureAsTheValueTree() {
        int files = 0;
        qint64 records = 0;
        qint64 streamed = 0;
        QDirIterator it(QStringLiteral(LMCT_FIXTURES),
                        {QStringLiteral("*.lct"), QStringLiteral("*.lmct")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QString error;
            const auto doc = TraceLoader::load(path, &error);
            if (!doc) {
                continue;  // fixtures that are refused on purpose
            }
            const int n = compareAll(*doc, path);
            QVERIFY2(n >= 0, qPrintable(path));
            ++files;
            records += doc->records().size();
            streamed += n;
        }
        QVERIFY(files > 20);
        // Well-formed LMCache records are streamed; the value tree is the exception.
        QVERIFY2(streamed * 10 >= records * 9,
                 qPrintable(QStringLiteral("%1 of %2").arg(streamed).arg(records)));
    }

    void exportWritesTheReferenceBytes() {
        const auto doc = loadBytes(hostileTrace());
        QVERIFY(doc);
        std::vector<int> rows;
        for (int r = doc->records().size() - 1; r >= 0; r -= 2) {
            rows.push_back(r);  // any order, every other record
        }
        for (auto format : {RecordExport::Format::Jsonl, RecordExport::Format::Csv}) {
            QByteArray expected =
                format == RecordExport::Format::Csv ? RecordExport::csvHeader() : QByteArray();
            for (int r : rows) {
                expected += RecordExport::formatRecordByValue(*doc, r, format);
            }
            QBuffer buffer;
            buffer.open(QIODevice::WriteOnly);
            QString error;
            QVERIFY(RecordExport::write(&buffer, *doc, rows, format, &error));
            QCOMPARE(buffer.data(), expected);
        }
    }
};

QTEST_GUILESS_MAIN(TestPackedJson)
#include "tst_packedjson.moc"
