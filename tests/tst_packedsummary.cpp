// PackedSummary (the record summary from msgpack bytes, CSV's summary column) against
// RecordSummary over the value tree, character for character: every record of every fixture
// and reference trace, hostile values in every place the summary reads, summary-specific shapes
// and random trees. Also that it does the work: it declines only what it must.

#include "codec/packedsummary.h"
#include "codec/recordsummary.h"
#include "codec/valuedecoder.h"
#include "testutil.h"
#include "trace/traceloader.h"

#include <QDirIterator>
#include <QRandomGenerator>
#include <QTest>
#include <limits>

using namespace lmct;
using namespace lmct::test;

namespace {

const QString kRelease = storageQualname("release_prefetch_task");
const QString kCancel = storageQualname("cancel_prefetch_task");
const QString kSubmit = storageQualname("submit_prefetch_task");

/** The value-tree summary of the msgpack value `args`. */
QString reference(const QString &qualname, const QByteArray &args, int maxChars) {
    return RecordSummary::summarize(qualname, ValueDecoder::decode(args).value, maxChars);
}

/** PackedSummary's, or "declined". */
QString streamed(const QString &qualname, const QByteArray &args, int maxChars) {
    QString out = QStringLiteral("unchanged");
    if (!PackedSummary::summarize(args.constData(), args.size(), PackedSummary::callOf(qualname),
                                  maxChars, &out)) {
        return QStringLiteral("declined");
    }
    return out;
}

/**
 * Compares both for `args` under the three kinds of call and a long and a short limit; returns
 * the first difference (empty when none), counts the declines in `*declined`.
 */
QString difference(const QByteArray &args, int *declined = nullptr) {
    for (const QString &q : {kSubmit, kRelease, kCancel, QStringLiteral("events.lifecycle")}) {
        for (int maxChars : {1000, 160, 23}) {
            const QString s = streamed(q, args, maxChars);
            if (s == QLatin1String("declined")) {
                if (declined) {
                    ++*declined;
                }
                continue;
            }
            const QString r = reference(q, args, maxChars);
            if (s != r) {
                return QStringLiteral("%1 (max %2):\n stream: %3\n   tree: %4\n  bytes: %5")
                    .arg(q)
                    .arg(maxChars)
                    .arg(s, r, QString::fromLatin1(args.toHex()));
            }
        }
    }
    return QString();
}

QByteArray key(int seed, qint64 rank = 33554944, const QByteArray &model = "Qwen/Qwen3-8B",
               const QByteArray &salt = "") {
    Mp m;
    m.tag("ObjectKey").map(5);
    m.str("chunk_hash").bin(chunkHash(seed)).str("model_name").str(model);
    m.str("kv_rank").sint(rank).str("object_group_id").sint(0).str("cache_salt").str(salt);
    return m.bytes;
}

QByteArray keyList(int n, int seed = 0) {
    Mp m;
    m.arr(quint32(n));
    for (int i = 0; i < n; ++i) {
        m.raw(key(seed + i));
    }
    return m.bytes;
}

QByteArray layout(const QList<QList<int>> &shapes, const QList<QByteArray> &dtypes) {
    Mp m;
    m.tag("MemoryLayoutDesc").map(2).str("shapes").arr(quint32(shapes.size()));
    for (const auto &s : shapes) {
        m.arr(quint32(s.size()));
        for (int d : s) {
            m.sint(d);
        }
    }
    m.str("dtypes").arr(quint32(dtypes.size()));
    for (const QByteArray &d : dtypes) {
        m.str(d);
    }
    return m.bytes;
}

/** A map of raw entries. */
QByteArray mapOf(const QList<QPair<QByteArray, QByteArray>> &entries) {
    Mp m;
    m.map(quint32(entries.size()));
    for (const auto &[k, v] : entries) {
        m.str(k).raw(v);
    }
    return m.bytes;
}

QByteArray handle(const QByteArray &requestId, const QByteArray &hits = Mp().sint(3).bytes) {
    return Mp().tag("PrefetchHandle").bytes + mapOf({{"prefetch_request_id", Mp().sint(17).bytes},
                                                     {"external_request_id", requestId},
                                                     {"l1_prefix_hit_count", hits},
                                                     {"l1_found_indices", Mp().arr(0).bytes},
                                                     {"total_requested_keys", Mp().sint(7).bytes},
                                                     {"submit_time", Mp().f64(402811.5).bytes}});
}

/** Scalars and small containers of every kind. */
QList<QByteArray> values() {
    QList<QByteArray> v = {
        Mp().nil().bytes,
        Mp().boolean(true).bytes,
        Mp().boolean(false).bytes,
        Mp().sint(0).bytes,
        Mp().sint(1).bytes,
        Mp().sint(-1).bytes,
        Mp().uintW(0, 64).bytes,
        Mp().intW(0, 8).bytes,
        Mp().uint(std::numeric_limits<quint64>::max()).bytes,
        Mp().sint(std::numeric_limits<qint64>::min()).bytes,
        Mp().f64(0.0).bytes,
        Mp().f64(-0.0).bytes,
        Mp().f64(2.5).bytes,
        Mp().f64(1e300).bytes,
        Mp().f64(std::numeric_limits<double>::quiet_NaN()).bytes,
        Mp().f64(-std::numeric_limits<double>::infinity()).bytes,
        Mp().f32(0.1f).bytes,
        Mp().str("").bytes,
        Mp().str("new").bytes,
        Mp().str("chatcmpl-53477fb8a1b24c0e9d1f6a7b8c9d0e1f").bytes,
        Mp().str(QByteArray("caf\xc3\xa9 \xf0\x9f\x98\x80 \xff\xfe")).bytes,
        Mp().str(QByteArray(300, 'w')).bytes,
        Mp().str(QByteArray(Value::kMaxKeptBytes, 'x')).bytes,
        Mp().bin(QByteArray("\x00\xff\x10", 3)).bytes,
        Mp().bin(chunkHash(9)).bytes,
        Mp().ext(5, QByteArray("abc")).bytes,
        Mp().arr(0).bytes,
        Mp().arr(3).sint(1).sint(2).sint(3).bytes,
        Mp().map(0).bytes,
        Mp().map(1).str("a").sint(1).bytes,
        Mp().tag("PrefetchMode").str("LOOKUP").bytes,
        Mp().tag("TrimPolicy").str("PREFIX").bytes,
        Mp().tag("TrimPolicy").sint(2).bytes,
        Mp().tag("torch.dtype").str("torch.bfloat16").bytes,
        Mp().tag("torch.Size").arr(2).sint(4).sint(5).bytes,
        Mp().tag("set").arr(2).sint(1).str("x").bytes,
        Mp().tag("Unknown").nil().bytes,
        Mp().tag("Unknown").map(1).str("keys").raw(keyList(2)).bytes,
        Mp().tag("tuple").tag("set").arr(1).sint(0).bytes,
        Mp().map(2).str("v").sint(7).str("__t__").str("set").bytes,
        Mp().map(2).str("__t__").sint(1).str("v").nil().bytes,
        Mp().map(3).str("__t__").str("set").str("v").nil().str("w").nil().bytes,
        key(1),
        keyList(3),
        layout({{2, 36, 256, 1024}}, {"torch.bfloat16"}),
        handle(Mp().str("req-1").bytes),
    };
    return v;
}

/** Each value in every place the summary reads one. */
QList<QByteArray> placements(const QByteArray &v) {
    const QByteArray keys = keyList(2);
    return {
        v,
        mapOf({{"x", v}}),
        mapOf({{"keys", v}}),
        mapOf({{"keys", keys}, {"mode", v}}),
        mapOf({{"keys", keys}, {"policy", v}, {"read_locks", v}}),
        mapOf({{"keys", keys}, {"extra_count", v}, {"skip_l2", v}}),
        mapOf({{"keys", keys}, {"external_request_id", v}}),
        mapOf({{"external_request_id", v}, {"a", v}}),
        mapOf({{"spec", Mp().tag("PrefetchRequestSpec").bytes +
                            mapOf({{"keys", keys}, {"policy", v}, {"mode", v}})},
               {"external_request_id", v},
               {"skip_l2", v}}),
        mapOf({{"keys", Mp().arr(1).tag("ObjectKey").bytes +
                            mapOf({{"chunk_hash", v}, {"model_name", v}, {"kv_rank", v}})}}),
        mapOf({{"keys", Mp().arr(2).raw(key(1)).tag("ObjectKey").bytes +
                            mapOf({{"chunk_hash", Mp().str("00ff").bytes},
                                   {"model_name", Mp().str("m").bytes},
                                   {"kv_rank", v},
                                   {"object_group_id", v},
                                   {"cache_salt", v}})}}),
        mapOf({{"keys", keys},
               {"layout_desc",
                Mp().tag("MemoryLayoutDesc").bytes + mapOf({{"shapes", v}, {"dtypes", v}})}}),
        mapOf({{"keys", keys},
               {"layout_desc", Mp().tag("MemoryLayoutDesc").bytes +
                                   mapOf({{"shapes", Mp().arr(1).raw(v).bytes},
                                          {"dtypes", Mp().arr(1).raw(v).bytes}})}}),
        mapOf({{"handle", handle(v, v)}, {"keys", v}}),
        mapOf({{"handle", handle(v)}, {"keys", keys}}),
        mapOf({{"handle", Mp().tag("PrefetchHandle").raw(v).bytes}, {"keys", keys}}),
        mapOf({{"handle", v}}),
    };
}

/** Shapes the summary words specially. */
QList<QByteArray> summaryShapes() {
    QList<QByteArray> s;
    // models, ranks, world sizes, salts
    {
        Mp m;
        m.arr(12);
        for (int i = 0; i < 12; ++i) {
            m.raw(key(i, (qint64(16) << 24) | (qint64(i) << 16) | (16 << 8) | i,
                      i % 3 ? "a/b" : "c/d", i % 4 ? "tenant-a" : ""));
        }
        s.append(mapOf({{"keys", m.bytes}}));
    }
    s.append(mapOf({{"keys", Mp().arr(3)
                                 .raw(key(1, 33554944, "m", "s1"))
                                 .raw(key(2, 16777472, "m", "s2"))
                                 .raw(key(3, 33620481, "m", "s1"))
                                 .bytes}}));
    // two invalid UTF-8 model names that read as the same text
    s.append(mapOf({{"keys", Mp().arr(2)
                                 .raw(key(1, 1, QByteArray("\xff", 1)))
                                 .raw(key(2, 1, QByteArray("\xfe", 1)))
                                 .bytes}}));
    // more keys than the four texts a cache holds, models alternating
    {
        Mp m;
        m.arr(40);
        for (int i = 0; i < 40; ++i) {
            m.raw(key(i, 33554944, QByteArray("model-") + QByteArray::number(i % 6)));
        }
        s.append(mapOf({{"keys", m.bytes}}));
    }
    // keys deep inside (the key walk has no depth limit; findDeep stops at six levels)
    {
        QByteArray v = mapOf({{"keys", keyList(1)}, {"mode", Mp().str("deep").bytes}});
        for (int i = 0; i < 9; ++i) {
            v = mapOf({{"l" + QByteArray::number(i), v}});
            s.append(v);
            s.append(mapOf({{"keys", keyList(1)}, {"inner", v}}));
        }
    }
    // the first MemoryLayoutDesc that reads, after one that does not
    s.append(mapOf({{"a", Mp().tag("MemoryLayoutDesc").sint(1).bytes},
                    {"b", layout({{2, 3}, {4}}, {"torch.float16", "torch.int8", "x"})},
                    {"c", layout({{9}}, {"torch.float32"})}}));
    s.append(Mp().tag("MemoryLayoutDesc").sint(1).bytes);
    s.append(layout({}, {}));
    s.append(mapOf(
        {{"keys", keyList(1)},
         {"layout_desc",
          Mp().tag("MemoryLayoutDesc").bytes +
              mapOf({{"shapes", Mp().tag("torch.Size").bytes +
                                    mapOf({{"p", Mp().arr(2).f64(2.9).str("x").bytes}})},
                     {"dtypes",
                      Mp().map(1).str("d").tag("torch.dtype").str("torch.float8_e5m2").bytes}})}}));
    // keys inside a layout, a layout inside a key
    s.append(mapOf({{"x", Mp().tag("MemoryLayoutDesc").bytes +
                              mapOf({{"shapes", keyList(2)}, {"dtypes", keyList(1)}})}}));
    s.append(mapOf({{"keys", Mp().arr(1).tag("ObjectKey").bytes +
                                 mapOf({{"chunk_hash", Mp().bin("h").bytes},
                                        {"model_name", Mp().str("m").bytes},
                                        {"kv_rank", Mp().sint(1).bytes},
                                        {"inner", layout({{1}}, {"torch.bool"})},
                                        {"mode", Mp().str("inside a key").bytes}})}}));
    // a key twice, keys not ASCII, arguments that are not a map
    s.append(Mp().map(3).str("mode").str("a").str("keys").arr(0).str("mode").str("b").bytes);
    s.append(Mp().map(2).str("\xc3\xa9t\xc3\xa9").sint(1).str("%1%2").str("%1").bytes);
    s.append(Mp().map(1).str(QByteArray("a\xff", 2)).nil().bytes);
    s.append(Mp().arr(2).raw(key(1)).raw(key(2)).bytes);
    // events-level arguments
    s.append(mapOf({{"instance_id", Mp().str("i-1").bytes},
                    {"events", Mp().arr(2).map(0).map(0).bytes},
                    {"batch", Mp().map(2).str("a").nil().str("b").nil().bytes},
                    {"when", Mp().f64(1760000000.25).bytes},
                    {"tagged", Mp().tag("Whatever").nil().bytes},
                    {"external_request_id", Mp().str("r").bytes}}));
    // a long summary, cut inside a surrogate pair
    s.append(
        mapOf({{"keys", keyList(1)},
               {"external_request_id", Mp().str(QByteArray("\xf0\x9f\x98\x80").repeated(40)).bytes},
               {"mode", Mp().str(QByteArray("\xf0\x9f\x98\x80").repeated(20)).bytes}}));
    // release and cancel: every handle shape
    for (const QByteArray &keys : {Mp().nil().bytes, keyList(3), Mp().arr(0).bytes}) {
        s.append(mapOf({{"handle", handle(Mp().str("chatcmpl-x").bytes)}, {"keys", keys}}));
        s.append(mapOf({{"handle", handle(Mp().nil().bytes)}, {"keys", keys}}));
    }
    s.append(mapOf({{"handle", Mp().tag("PrefetchHandle").bytes +
                                   mapOf({{"prefetch_request_id", Mp().sint(-1).bytes}})}}));
    s.append(mapOf({{"handle", Mp().tag("PrefetchHandle").bytes +
                                   mapOf({{"prefetch_request_id", Mp().f64(4).bytes},
                                          {"l1_prefix_hit_count", Mp().f64(1).bytes},
                                          {"total_requested_keys", Mp().sint(2).bytes}})}}));
    s.append(mapOf({{"handle", Mp().tag("PrefetchHandle").tag("PrefetchHandle").map(0).bytes}}));
    return s;
}

/** A random tree over the names and tags the summary reads. */
QByteArray randomValue(QRandomGenerator &rng, int depth) {
    static const char *names[] = {"keys",
                                  "mode",
                                  "policy",
                                  "extra_count",
                                  "read_locks",
                                  "skip_l2",
                                  "handle",
                                  "external_request_id",
                                  "chunk_hash",
                                  "model_name",
                                  "kv_rank",
                                  "cache_salt",
                                  "object_group_id",
                                  "shapes",
                                  "dtypes",
                                  "prefetch_request_id",
                                  "l1_prefix_hit_count",
                                  "total_requested_keys",
                                  "spec",
                                  "x",
                                  "__t__",
                                  "v"};
    static const char *tags[] = {"ObjectKey",      "MemoryLayoutDesc",    "PrefetchHandle",
                                 "PrefetchMode",   "TrimPolicy",          "set",
                                 "tuple",          "torch.Size",          "torch.dtype",
                                 "AttnWindowDesc", "PrefetchRequestSpec", "Odd"};
    const int pick = int(rng.bounded(depth > 5 ? 6 : 10));
    switch (pick) {
        case 0:
            return Mp().nil().bytes;
        case 1:
            return Mp().sint(qint64(rng.bounded(5)) - 1).bytes;
        case 2:
            return Mp().boolean(rng.bounded(2)).bytes;
        case 3:
            return Mp().str(QByteArray(names[rng.bounded(int(std::size(names)))])).bytes;
        case 4:
            return Mp().f64(rng.bounded(3)).bytes;
        case 5:
            return Mp().bin(QByteArray(int(rng.bounded(4)), 'h')).bytes;
        case 6: {
            Mp m;
            const int n = int(rng.bounded(4));
            m.arr(quint32(n));
            for (int i = 0; i < n; ++i) {
                m.raw(randomValue(rng, depth + 1));
            }
            return m.bytes;
        }
        case 7:
            return Mp().tag(tags[rng.bounded(int(std::size(tags)))]).bytes +
                   randomValue(rng, depth + 1);
        case 8:
            return key(int(rng.bounded(5)), rng.bounded(2) ? 33554944 : 33620481,
                       rng.bounded(2) ? "m1" : "m2", rng.bounded(2) ? "" : "s");
        default: {
            Mp m;
            const int n = int(rng.bounded(5));
            m.map(quint32(n));
            for (int i = 0; i < n; ++i) {
                m.str(names[rng.bounded(int(std::size(names)))]).raw(randomValue(rng, depth + 1));
            }
            return m.bytes;
        }
    }
}

QStringList traceFiles(const QString &dir) {
    QStringList files;
    QDirIterator it(dir, {QStringLiteral("*.lct"), QStringLiteral("*.lmct")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        files.append(it.next());
    }
    files.sort();
    return files;
}

}  // namespace

class TestPackedSummary : public QObject {
    Q_OBJECT

private slots:
    void everyRecordOfEveryTrace_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("lmcache");
        const QDir fixtures(QStringLiteral(LMCT_FIXTURES));
        for (const QString &f : traceFiles(fixtures.path())) {
            QTest::newRow(qPrintable(QStringLiteral("gen/") + fixtures.relativeFilePath(f)))
                << f << false;
        }
        const QString ref =
            qEnvironmentVariable("LMCT_REFERENCE_TRACES", QStringLiteral(LMCT_REFERENCE_TRACES));
        for (const QString &f : traceFiles(ref)) {
            QTest::newRow(qPrintable(QStringLiteral("ref/") + QFileInfo(f).fileName()))
                << f << true;
        }
    }
    void everyRecordOfEveryTrace() {
        QFETCH(QString, path);
        QFETCH(bool, lmcache);
        QString error;
        TraceLoadOptions opt;
        opt.validateArgs = false;
        const auto doc = TraceLoader::load(path, &error, opt);
        if (!doc) {
            QSKIP("refused on purpose");
        }
        const RecordStore &rs = doc->records();
        int whole = 0, streamedCount = 0;
        for (int r = 0; r < rs.size(); ++r) {
            const TraceDocument::Args args = doc->decodeArgs(r);
            const auto *body =
                reinterpret_cast<const char *>(doc->fileData() + rs.frameOffset(r) + 4);
            const PackedSummary::Call call = PackedSummary::callOf(rs.qualname(r));
            for (int maxChars : {1000, 200}) {
                QString s;
                if (!PackedSummary::summarizeRecord(body, rs.bodyLength(r), call, maxChars, &s)) {
                    continue;
                }
                // What the stream reads, the value tree reads whole.
                QVERIFY2(args.error.isEmpty(), qPrintable(args.error));
                const QString ref = RecordSummary::summarize(rs.qualname(r), args.value, maxChars);
                if (s != ref) {
                    QFAIL(qPrintable(
                        QStringLiteral("record %1:\n stream: %2\n   tree: %3").arg(r).arg(s, ref)));
                }
                if (maxChars == 1000) {
                    ++streamedCount;
                }
            }
            whole += args.error.isEmpty() ? 1 : 0;
        }
        // The stream declines only what it must: LMCache's records all go through it.
        if (lmcache || path.contains(QLatin1String("/traces/"))) {
            QCOMPARE(streamedCount, whole);
        }
        qDebug("%d records, %d whole, %d streamed", int(rs.size()), whole, streamedCount);
    }

    void valuesInEveryPlace() {
        int declined = 0, compared = 0;
        for (const QByteArray &v : values()) {
            for (const QByteArray &args : placements(v)) {
                const QString d = difference(args, &declined);
                QVERIFY2(d.isEmpty(), qPrintable(d));
                ++compared;
            }
        }
        QCOMPARE(declined, 0);  // none of these is declined
        QVERIFY(compared > 500);
    }

    void summaryShapes() {
        for (const QByteArray &args : ::summaryShapes()) {
            int declined = 0;
            const QString d = difference(args, &declined);
            QVERIFY2(d.isEmpty(), qPrintable(d));
            QCOMPARE(declined, 0);
        }
    }

    void randomTrees() {
        QRandomGenerator rng(20261202);
        for (int i = 0; i < 4000; ++i) {
            const QByteArray args = randomValue(rng, 0);
            int declined = 0;
            const QString d = difference(args, &declined);
            QVERIFY2(d.isEmpty(), qPrintable(d));
            QCOMPARE(declined, 0);
        }
    }

    void declinesWhatTheTreeDoesNotMirror() {
        const QList<QByteArray> declined = {
            QByteArray(),
            QByteArray("\xc1", 1),
            Mp().map(1).sint(1).str("int key").bytes,
            Mp().map(1).str("keys").arr(3).sint(1).bytes,  // cut short
            Mp().str("a").bytes + Mp().nil().bytes,        // bytes left over
            Mp().map(1).str("s").str(QByteArray(Value::kMaxKeptBytes + 1, 'x')).bytes,
            Mp().map(1).str("b").bin(QByteArray(Value::kMaxKeptBytes + 1, 'x')).bytes,
        };
        for (const QByteArray &args : declined) {
            QCOMPARE(streamed(kSubmit, args, 1000), QStringLiteral("declined"));
        }
        // nesting: 100 levels are read, 101 declined
        for (int levels : {99, 100}) {
            Mp m;
            for (int i = 0; i < levels; ++i) {
                m.arr(1);
            }
            m.sint(1);
            QVERIFY(streamed(kSubmit, m.bytes, 1000) != QLatin1String("declined"));
            QVERIFY(difference(m.bytes).isEmpty());
            QCOMPARE(streamed(kSubmit, Mp().arr(1).raw(m.bytes).bytes, 1000),
                     levels == 100 ? QStringLiteral("declined")
                                   : reference(kSubmit, Mp().arr(1).raw(m.bytes).bytes, 1000));
        }
    }

    void recordBodies() {
        // summarizeRecord reads the first `args` of a record map, and declines a body that is
        // not one.
        const QByteArray args = mapOf({{"keys", keyList(2)}, {"mode", Mp().str("new").bytes}});
        const QByteArray body = recordBody(1.0, 2.0, kSubmit, args);
        QString s;
        QVERIFY(PackedSummary::summarizeRecord(body.constData(), body.size(),
                                               PackedSummary::Call::Other, 1000, &s));
        QCOMPARE(s, reference(kSubmit, args, 1000));
        const QByteArray twice = Mp().map(2).str("args").raw(args).str("args").nil().bytes;
        QVERIFY(PackedSummary::summarizeRecord(twice.constData(), twice.size(),
                                               PackedSummary::Call::Other, 1000, &s));
        QCOMPARE(s, reference(kSubmit, args, 1000));
        for (const QByteArray &bad :
             {Mp().map(1).str("argz").raw(args).bytes, Mp().arr(1).raw(args).bytes,
              Mp().map(2).str("__t__").str("record").str("v").raw(args).bytes,
              body + QByteArray("\x00", 1), body.left(body.size() - 1)}) {
            s = QStringLiteral("unchanged");
            QVERIFY(!PackedSummary::summarizeRecord(bad.constData(), bad.size(),
                                                    PackedSummary::Call::Other, 1000, &s));
            QCOMPARE(s, QStringLiteral("unchanged"));
        }
    }
};

QTEST_GUILESS_MAIN(TestPackedSummary)
#include "tst_packedsummary.moc"
