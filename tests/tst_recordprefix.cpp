// RecordPrefix, the fast path of RecordIndexer's Index mode: over every record of every fixture
// and reference trace it gives msgpack-cxx's fields or declines, and it declines every deviation
// from the prefix LMCache writes.

#include "testutil.h"
#include "trace/recordindexer.h"
#include "trace/recordprefix.h"
#include "trace/traceloader.h"

#include <QDirIterator>
#include <QTest>
#include <cstring>

using namespace lmct;
using namespace lmct::test;
using Status = RecordIndexer::Status;
using Mode = RecordIndexer::Mode;

namespace {

bool sameBits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

QString describe(const RecordIndexer::Fields &f) {
    return QStringLiteral("status %1 t_mono %2 t_wall %3 qualname %4+%5 trailing %6 \"%7\"")
        .arg(int(f.status))
        .arg(f.tMono, 0, 'g', 17)
        .arg(f.tWall, 0, 'g', 17)
        .arg(quintptr(f.qualname))
        .arg(f.qualnameSize)
        .arg(f.trailingAt)
        .arg(f.message);
}

/** Whether two parses say the same: status, message, and when Ok every field (times bitwise). */
bool sameFields(const RecordIndexer::Fields &a, const RecordIndexer::Fields &b) {
    if (a.status != b.status || a.message != b.message || a.trailingAt != b.trailingAt) {
        return false;
    }
    return a.status != Status::Ok || (sameBits(a.tMono, b.tMono) && sameBits(a.tWall, b.tWall) &&
                                      a.qualname == b.qualname && a.qualnameSize == b.qualnameSize);
}

/**
 * Checks RecordPrefix against msgpack-cxx on the body `data[0, size)`: when it accepts, its
 * fields are msgpack-cxx's (Index mode) and msgpack-cxx accepts; parse() in Index mode always
 * says what msgpack-cxx says. Returns what disagrees (empty when nothing), sets `*accepted`.
 */
QString disagreement(const char *data, qint64 size, bool *accepted) {
    const RecordIndexer::Fields slow = RecordIndexer::parseMsgpack(data, size, Mode::Index);
    RecordIndexer::Fields fast;
    *accepted = RecordPrefix::read(data, size, &fast);
    if (*accepted && (slow.status != Status::Ok || !sameFields(fast, slow))) {
        return QStringLiteral("fast path: %1; msgpack-cxx: %2").arg(describe(fast), describe(slow));
    }
    const RecordIndexer::Fields both = RecordIndexer::parse(data, size, Mode::Index);
    if (!sameFields(both, slow)) {
        return QStringLiteral("parse(): %1; msgpack-cxx: %2").arg(describe(both), describe(slow));
    }
    return QString();
}

bool accepts(const QByteArray &b) {
    bool accepted = false;
    const QString d = disagreement(b.constData(), b.size(), &accepted);
    if (!d.isEmpty()) {
        qWarning("%s", qPrintable(d));
        return false;  // (callers that expect a decline check agree() too)
    }
    return accepted;
}

bool agrees(const QByteArray &b) {
    bool accepted = false;
    const QString d = disagreement(b.constData(), b.size(), &accepted);
    if (!d.isEmpty()) {
        qWarning("%s", qPrintable(d));
    }
    return d.isEmpty();
}

/** A file's bodies: frames hopped from offset 0 (header included), then the loaded records. */
struct Bodies {
    QList<QPair<qint64, qint64>> hopped;  // body offset, length
    QList<QPair<qint64, qint64>> records;
};

Bodies bodiesOf(const QByteArray &bytes) {
    Bodies b;
    for (qint64 off = 0; bytes.size() - off >= 4;) {
        const qint64 len = qFromBigEndian<quint32>(bytes.constData() + off);
        if (len > bytes.size() - off - 4) {
            b.hopped.append({off + 4, bytes.size() - off - 4});  // cut short: what is there
            break;
        }
        b.hopped.append({off + 4, len});
        off += 4 + len;
    }
    QString error;
    TraceLoadOptions opt;
    opt.validateArgs = false;
    if (auto doc = TraceLoader::loadBytes(bytes, QStringLiteral("t.lct"), &error, opt)) {
        const RecordStore &rs = doc->records();
        for (int i = 0; i < rs.size(); ++i) {
            b.records.append({rs.frameOffset(i) + 4, rs.bodyLength(i)});
        }
    }
    return b;
}

QStringList traceFiles(const QString &dir) {
    QStringList files;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        if (!f.endsWith(QLatin1String(".json"))) {
            files.append(f);
        }
    }
    files.sort();
    return files;
}

QString referenceDir() {
    return qEnvironmentVariable("LMCT_REFERENCE_TRACES", QStringLiteral(LMCT_REFERENCE_TRACES));
}

const QString kFinishWrite = storageQualname("finish_write");

/** The canonical body with `args` {"keys": [two ObjectKeys]}. */
QByteArray canonical(const QString &qualname = kFinishWrite) {
    return recordBody(1.5, 1760000001.75, qualname, keysArgs(2));
}

/** A record body of `entries` raw key+value pairs behind a map header of `width`. */
QByteArray mapOf(const QList<QByteArray> &entries, int width = -1) {
    Mp m;
    m.map(quint32(entries.size()), width);
    for (const QByteArray &e : entries) {
        m.raw(e);
    }
    return m.bytes;
}

QByteArray kv(const char *key, const QByteArray &value) {
    return Mp().str(key).bytes + value;
}

QByteArray typeKv() {
    return kv("type", Mp().str("record").bytes);
}
QByteArray tMonoKv(const QByteArray &v = Mp().f64(1.5).bytes) {
    return kv("t_mono", v);
}
QByteArray tWallKv(const QByteArray &v = Mp().f64(1760000001.75).bytes) {
    return kv("t_wall", v);
}
QByteArray qualnameKv(const QByteArray &v = Mp().str(kFinishWrite).bytes) {
    return kv("qualname", v);
}
QByteArray argsKv(const QByteArray &v = keysArgs(2)) {
    return kv("args", v);
}

}  // namespace

class TestRecordPrefix : public QObject {
    Q_OBJECT

private slots:
    // (a) Every body of every fixture and trace: the fast path agrees with msgpack-cxx, and
    // takes every record LMCache's own encoder wrote.
    void everyFixtureAndReferenceTrace_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("lmcacheShaped");  // every record in LMCache's prefix
        const QDir fixtures(QStringLiteral(LMCT_FIXTURES));
        for (const QString &f : traceFiles(fixtures.path())) {
            // The generated reference-shaped traces are written as LMCache writes.
            const bool shaped = f.startsWith(QStringLiteral(LMCT_TRACES "/"));
            QTest::newRow(qPrintable(QStringLiteral("gen/") + fixtures.relativeFilePath(f)))
                << f << shaped;
        }
        const QString ref = referenceDir();
        for (const QString &f : traceFiles(ref)) {
            if (f.endsWith(QLatin1String(".md"))) {
                continue;
            }
            QTest::newRow(qPrintable(QStringLiteral("ref/") + QFileInfo(f).fileName()))
                << f << true;
        }
    }
    void everyFixtureAndReferenceTrace() {
        QFETCH(QString, path);
        QFETCH(bool, lmcacheShaped);
        const QByteArray bytes = readAll(path);
        const Bodies bodies = bodiesOf(bytes);
        int accepted = 0;
        for (const auto &list : {bodies.hopped, bodies.records}) {
            for (const auto &[off, len] : list) {
                bool a = false;
                const QString d = disagreement(bytes.constData() + off, len, &a);
                if (!d.isEmpty()) {
                    QFAIL(qPrintable(
                        QStringLiteral("body at %1 (%2 bytes): %3").arg(off).arg(len).arg(d)));
                }
                accepted += a ? 1 : 0;
            }
        }
        // The records' prefixes cut at every length, for the first records.
        for (qsizetype i = 0; i < qMin<qsizetype>(bodies.records.size(), 16); ++i) {
            const auto &[off, len] = bodies.records[i];
            for (qint64 cut = 0; cut <= qMin<qint64>(len, 300); ++cut) {
                bool a = false;
                const QString d = disagreement(bytes.constData() + off, cut, &a);
                if (!d.isEmpty()) {
                    QFAIL(qPrintable(
                        QStringLiteral("body at %1 cut to %2 bytes: %3").arg(off).arg(cut).arg(d)));
                }
            }
        }
        if (lmcacheShaped) {
            int fast = 0;
            for (const auto &[off, len] : bodies.records) {
                RecordIndexer::Fields f;
                fast += RecordPrefix::read(bytes.constData() + off, len, &f) ? 1 : 0;
            }
            QCOMPARE(fast, int(bodies.records.size()));
        }
        qDebug("%d bodies, %d through the fast path",
               int(bodies.hopped.size() + bodies.records.size()), accepted);
    }

    // (c) Hand-made prefixes: each deviation declines, and parse() still says what msgpack-cxx
    // says.
    void canonicalPrefixIsRead() {
        const QByteArray b = canonical();
        QVERIFY(accepts(b));
        RecordIndexer::Fields f;
        QVERIFY(RecordPrefix::read(b.constData(), b.size(), &f));
        QCOMPARE(f.status, Status::Ok);
        QCOMPARE(f.tMono, 1.5);
        QCOMPARE(f.tWall, 1760000001.75);
        QCOMPARE(QByteArray(f.qualname, f.qualnameSize), kFinishWrite.toUtf8());
        QVERIFY(f.message.isEmpty());
        QCOMPARE(f.trailingAt, qint64(-1));
    }

    void shortAndLongQualnames() {
        QVERIFY(accepts(canonical(QStringLiteral("events.lifecycle"))));  // fixstr
        QVERIFY(accepts(canonical(QStringLiteral("q"))));                 // one byte
        const QByteArray empty = canonical(QString());  // (msgpack-cxx's pointer is its own)
        QVERIFY(!accepts(empty));
        QVERIFY(agrees(empty));
        QVERIFY(accepts(canonical(QString(255, QLatin1Char('q')))));  // longest str8
        // str8 holding a short name (not minimal, still one string to msgpack-cxx)
        QVERIFY(accepts(mapOf(
            {typeKv(), tMonoKv(), tWallKv(), qualnameKv(Mp().str("ab", 8).bytes), argsKv()})));
        // str16 and str32: declined
        const QByteArray s16 = mapOf({typeKv(), tMonoKv(), tWallKv(),
                                      qualnameKv(Mp().str(kFinishWrite, 16).bytes), argsKv()});
        QVERIFY(!accepts(s16));
        QVERIFY(agrees(s16));
        QCOMPARE(RecordIndexer::parse(s16.constData(), s16.size(), Mode::Index).status, Status::Ok);
        const QByteArray s256 = canonical(QString(256, QLatin1Char('q')));  // str16 on the wire
        QVERIFY(!accepts(s256));
        QVERIFY(agrees(s256));
        // a qualname that is not UTF-8: msgpack-cxx does not check, nor does the fast path
        QVERIFY(accepts(mapOf({typeKv(), tMonoKv(), tWallKv(),
                               qualnameKv(Mp().str(QByteArray("\xff\xfe", 2)).bytes), argsKv()})));
    }

    void argsMapWidths() {
        for (int width : {-1, 16, 32}) {
            Mp args;
            args.map(1, width).str("keys").arr(0);
            const QByteArray b =
                mapOf({typeKv(), tMonoKv(), tWallKv(), qualnameKv(), argsKv(args.bytes)});
            QVERIFY2(accepts(b), qPrintable(QString::number(width)));
        }
        QVERIFY(accepts(
            mapOf({typeKv(), tMonoKv(), tWallKv(), qualnameKv(), argsKv(Mp().map(0).bytes)})));
        // args claiming more entries than the body has bytes: msgpack-cxx's Limit
        for (int width : {16, 32}) {
            const QByteArray b = mapOf({typeKv(), tMonoKv(), tWallKv(), qualnameKv(),
                                        argsKv(Mp().map(60000, width).bytes)});
            QVERIFY(!accepts(b));
            QVERIFY(agrees(b));
            QCOMPARE(RecordIndexer::parse(b.constData(), b.size(), Mode::Index).status,
                     Status::Limit);
        }
        // a fixmap's claim fits any body the prefix fits (15 entries, 30 bytes)
        const QByteArray b =
            mapOf({typeKv(), tMonoKv(), tWallKv(), qualnameKv(), argsKv(Mp().map(15, -1).bytes)});
        QVERIFY(accepts(b));
    }

    void otherKeyOrderDeclines() {
        const QList<QList<QByteArray>> orders = {
            {typeKv(), tWallKv(), tMonoKv(), qualnameKv(), argsKv()},
            {tMonoKv(), tWallKv(), qualnameKv(), argsKv(), typeKv()},
            {typeKv(), qualnameKv(), tMonoKv(), tWallKv(), argsKv()},
            {typeKv(), tMonoKv(), tWallKv(), argsKv(), qualnameKv()},
            {argsKv(), typeKv(), tMonoKv(), tWallKv(), qualnameKv()},
        };
        for (const auto &o : orders) {
            const QByteArray b = mapOf(o);
            QVERIFY(!accepts(b));
            QVERIFY(agrees(b));
            QCOMPARE(RecordIndexer::parse(b.constData(), b.size(), Mode::Index).status, Status::Ok);
        }
    }

    void wideRootMapDeclines() {
        for (int width : {16, 32}) {
            const QByteArray b =
                mapOf({typeKv(), tMonoKv(), tWallKv(), qualnameKv(), argsKv()}, width);
            QVERIFY(!accepts(b));
            QVERIFY(agrees(b));
            QCOMPARE(RecordIndexer::parse(b.constData(), b.size(), Mode::Index).status, Status::Ok);
        }
    }

    void otherTimeEncodingsDecline() {
        const QList<QByteArray> times = {
            Mp().uint(1).bytes,      Mp().uintW(1, 8).bytes, Mp().uintW(1, 64).bytes,
            Mp().intW(-1, 32).bytes, Mp().sint(-3).bytes,    Mp().f32(1.5f).bytes,
            Mp().str("1.5").bytes,   Mp().nil().bytes,       Mp().arr(0).bytes,
        };
        for (const QByteArray &t : times) {
            for (bool wall : {false, true}) {
                const QByteArray b = mapOf({typeKv(), wall ? tMonoKv() : tMonoKv(t),
                                            wall ? tWallKv(t) : tWallKv(), qualnameKv(), argsKv()});
                QVERIFY(!accepts(b));
                QVERIFY(agrees(b));
            }
        }
        // An int t_mono is a time to msgpack-cxx's parse (not to the fast path)
        const QByteArray b =
            mapOf({typeKv(), tMonoKv(Mp().uint(7).bytes), tWallKv(), qualnameKv(), argsKv()});
        const auto f = RecordIndexer::parse(b.constData(), b.size(), Mode::Index);
        QCOMPARE(f.status, Status::Ok);
        QCOMPARE(f.tMono, 7.0);
    }

    void specialFloatsAreReadBitForBit() {
        for (quint64 bits : {0x7ff8000000000001ull, 0x7ff0000000000001ull, 0xfff0000000000000ull,
                             0x8000000000000000ull, 0x0000000000000001ull}) {
            Mp t;
            t.byte(0xcb);
            for (int i = 7; i >= 0; --i) {
                t.byte(uchar(bits >> (8 * i)));
            }
            QVERIFY(accepts(
                mapOf({typeKv(), tMonoKv(t.bytes), tWallKv(t.bytes), qualnameKv(), argsKv()})));
        }
    }

    void missingKeyDeclines() {
        const QList<QByteArray> all = {typeKv(), tMonoKv(), tWallKv(), qualnameKv(), argsKv()};
        for (int drop = 0; drop < all.size(); ++drop) {
            QList<QByteArray> e = all;
            e.removeAt(drop);
            const QByteArray b = mapOf(e);
            QVERIFY2(!accepts(b), qPrintable(QString::number(drop)));
            QVERIFY(agrees(b));
            // Without the optional tag it is still a record; without any other field it is not.
            QCOMPARE(RecordIndexer::parse(b.constData(), b.size(), Mode::Index).status,
                     drop == 0 ? Status::Ok : Status::BadFields);
        }
    }

    void extraKeyDeclines() {
        const QList<QByteArray> all = {typeKv(), tMonoKv(), tWallKv(), qualnameKv(), argsKv()};
        for (int at = 0; at <= all.size(); ++at) {
            QList<QByteArray> e = all;
            e.insert(at, kv("extra", Mp().uint(1).bytes));
            const QByteArray b = mapOf(e);
            QVERIFY2(!accepts(b), qPrintable(QString::number(at)));
            QVERIFY(agrees(b));
            QCOMPARE(RecordIndexer::parse(b.constData(), b.size(), Mode::Index).status, Status::Ok);
        }
        // The five keys under a fixmap claiming six (the sixth missing: cut short)
        QByteArray six = canonical();
        six[0] = char(0x86);
        QVERIFY(!accepts(six));
        QVERIFY(agrees(six));
        // ... or four (the args key then trails the map)
        QByteArray four = canonical();
        four[0] = char(0x84);
        QVERIFY(!accepts(four));
        QVERIFY(agrees(four));
    }

    void otherValuesDecline() {
        const QList<QByteArray> bodies = {
            mapOf({kv("type", Mp().str("header").bytes), tMonoKv(), tWallKv(), qualnameKv(),
                   argsKv()}),
            mapOf({kv("type", Mp().str("Record").bytes), tMonoKv(), tWallKv(), qualnameKv(),
                   argsKv()}),
            mapOf({kv("type", Mp().str("record", 8).bytes), tMonoKv(), tWallKv(), qualnameKv(),
                   argsKv()}),
            mapOf({typeKv(), tMonoKv(), tWallKv(), qualnameKv(Mp().bin("abc").bytes), argsKv()}),
            mapOf({typeKv(), tMonoKv(), tWallKv(), qualnameKv(), argsKv(Mp().arr(0).bytes)}),
            mapOf({typeKv(), tMonoKv(), tWallKv(), qualnameKv(), argsKv(Mp().nil().bytes)}),
            mapOf({typeKv(), tMonoKv(), tWallKv(), qualnameKv(),
                   argsKv(Mp().tag("X").nil().bytes + QByteArray())}),
            mapOf({kv("t_monx", Mp().f64(1).bytes), tMonoKv(), tWallKv(), qualnameKv(), argsKv()}),
            mapOf({typeKv(), Mp().str("t_mono", 8).bytes + Mp().f64(1).bytes, tWallKv(),
                   qualnameKv(), argsKv()}),
            mapOf({typeKv(), tMonoKv(), tWallKv(), qualnameKv(),
                   Mp().str("argz").bytes + keysArgs(1)}),
        };
        for (int i = 0; i < bodies.size(); ++i) {
            const QByteArray &b = bodies[i];
            // (the tagged args map is a map: the fast path reads its header as any map's)
            if (i == 6) {
                QVERIFY(accepts(b));
                continue;
            }
            QVERIFY2(!accepts(b), qPrintable(QString::number(i)));
            QVERIFY(agrees(b));
        }
    }

    void truncatedDeclines() {
        for (const QByteArray &b :
             {canonical(), canonical(QStringLiteral("events.batch")),
              mapOf({typeKv(), tMonoKv(), tWallKv(), qualnameKv(), argsKv(Mp().map(1, 16).bytes)}),
              mapOf(
                  {typeKv(), tMonoKv(), tWallKv(), qualnameKv(), argsKv(Mp().map(1, 32).bytes)})}) {
            // where the prefix ends: after the args map's header
            const qsizetype argsKey =
                b.indexOf(QByteArray("\xa4"
                                     "args"));
            const uchar m = uchar(b[argsKey + 5]);
            const qsizetype end = argsKey + 5 + (m == 0xde ? 3 : m == 0xdf ? 5 : 1);
            for (qsizetype cut = 0; cut <= b.size(); ++cut) {
                const QByteArray c = b.left(cut);
                QCOMPARE(accepts(c), cut >= end);
                QVERIFY(agrees(c));
            }
        }
    }

    void trailingBytesAreLeftToTheArgumentCheck() {
        // As msgpack-cxx's Index mode does: what follows the args map's header is not read.
        const QByteArray b = canonical() + QByteArray("\xc1\xc1", 2);
        QVERIFY(accepts(b));
        QCOMPARE(RecordIndexer::parse(b.constData(), b.size(), Mode::Full).status,
                 Status::Malformed);
    }
};

QTEST_GUILESS_MAIN(TestRecordPrefix)
#include "tst_recordprefix.moc"
