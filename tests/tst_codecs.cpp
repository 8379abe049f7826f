// Codec-aware views of values: ObjectKey, KvRank, MemoryLayout, ValueFormatter, RecordSummary,
// ArgumentTree, HeaderTree, Qualname and TimeFormat.

#include "codec/kvrank.h"
#include "codec/memorylayout.h"
#include "codec/objectkey.h"
#include "codec/qualname.h"
#include "codec/recordsummary.h"
#include "codec/valuedecoder.h"
#include "codec/valueformatter.h"
#include "itemmodels/argumenttree.h"
#include "itemmodels/headertree.h"
#include "testutil.h"
#include "trace/traceloader.h"
#include "util/timeformat.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QTest>
#include <cmath>
#include <limits>

using namespace lmct;
using namespace lmct::test;

namespace {

Value decoded(const QByteArray &b) {
    auto r = ValueDecoder::decode(b);
    if (!r.ok()) {
        qFatal("test value does not decode: %s", qPrintable(r.message));
    }
    return r.value;
}

QByteArray hash32(int seed) {
    QByteArray h(32, '\0');
    for (int i = 0; i < 32; ++i) {
        h[i] = char((seed * 31 + i * 7) & 0xff);
    }
    return h;
}

/** ObjectKey with 3, 4 or 5 payload fields. */
QByteArray keyWithFields(int fields, const QByteArray &hash, qint64 rank = 33620481,
                         const char *salt = "tenant-a") {
    Mp m;
    m.tag("ObjectKey").map(quint32(fields));
    m.str("chunk_hash").bin(hash).str("model_name").str("Qwen/Qwen3-8B").str("kv_rank").sint(rank);
    if (fields >= 4) {
        m.str("object_group_id").sint(fields == 4 ? 3 : 0);
    }
    if (fields >= 5) {
        m.str("cache_salt").str(salt);
    }
    return m.bytes;
}

QByteArray layoutDesc(const QList<QList<qint64>> &shapes, const QStringList &dtypes) {
    Mp m;
    m.tag("MemoryLayoutDesc").map(2).str("shapes").arr(quint32(shapes.size()));
    for (const auto &s : shapes) {
        m.arr(quint32(s.size()));
        for (qint64 d : s) {
            m.sint(d);
        }
    }
    m.str("dtypes").arr(quint32(dtypes.size()));
    for (const QString &d : dtypes) {
        m.str(d);
    }
    return m.bytes;
}

QByteArray intList(const QList<qint64> &l) {
    Mp m;
    m.arr(quint32(l.size()));
    for (qint64 i : l) {
        m.sint(i);
    }
    return m.bytes;
}

std::shared_ptr<TraceDocument> loadTrace(const QString &name) {
    QString error;
    auto doc = TraceLoader::load(tracePath(name), &error);
    if (!doc) {
        qFatal("cannot load %s: %s", qPrintable(name), qPrintable(error));
    }
    return doc;
}

/** First record whose short qualname is `call` (and whose summary contains `with`), or -1. */
int firstRecord(const TraceDocument &doc, const QString &call, const QString &with = QString()) {
    for (int i = 0; i < doc.records().size(); ++i) {
        if (Qualname::shortName(doc.records().qualname(i)) != call) {
            continue;
        }
        if (with.isEmpty() || RecordSummary::summarize(doc.args(i)->value).contains(with)) {
            return i;
        }
    }
    return -1;
}

const TreeNode *findPath(const TreeNode *n, const QString &path) {
    if (n->path == path) {
        return n;
    }
    for (const auto &c : n->children) {
        if (const TreeNode *hit = findPath(c.get(), path)) {
            return hit;
        }
    }
    return nullptr;
}

const TreeNode *child(const TreeNode *n, const QString &name) {
    for (const auto &c : n->children) {
        if (c->name == name) {
            return c.get();
        }
    }
    return nullptr;
}

int countNodes(const TreeNode *n) {
    int c = 1;
    for (const auto &ch : n->children) {
        c += countNodes(ch.get());
    }
    return c;
}

}  // namespace

class TestCodecs : public QObject {
    Q_OBJECT

private slots:
    // --- ObjectKey -------------------------------------------------------------------------

    void objectKeyShapes_data() {
        QTest::addColumn<int>("fields");
        QTest::newRow("first recorder: 3 fields") << 3;
        QTest::newRow("schema 1: + object_group_id") << 4;
        QTest::newRow("schema 2: + cache_salt") << 5;
    }
    void objectKeyShapes() {
        QFETCH(int, fields);
        const Value v = decoded(keyWithFields(fields, hash32(1)));
        const auto k = ObjectKey::fromValue(v);
        QVERIFY(k);
        QCOMPARE(k->chunkHash, hash32(1));
        QCOMPARE(k->modelName, QStringLiteral("Qwen/Qwen3-8B"));
        QCOMPARE(k->kvRank, 33620481);
        QCOMPARE(k->objectGroupId.has_value(), fields >= 4);
        QCOMPARE(k->cacheSalt.has_value(), fields >= 5);
        if (fields == 4) {
            QCOMPARE(*k->objectGroupId, 3);
        }
        if (fields == 5) {
            QCOMPARE(*k->cacheSalt, QStringLiteral("tenant-a"));
        }
        // The bare payload map reads the same.
        QVERIFY(ObjectKey::fromValue(v.payload()));
        // Display: hash prefix, model, rank; group and salt when set.
        const QString d = ValueFormatter::display(v);
        QVERIFY2(d.startsWith(QString::fromLatin1(hash32(1).toHex().left(16))), qPrintable(d));
        QVERIFY(d.contains(QLatin1String("Qwen/Qwen3-8B")));
        QVERIFY(d.contains(QLatin1String("rank 1/2")));
        QCOMPARE(d.contains(QLatin1String("group 3")), fields == 4);
        QCOMPARE(d.contains(QLatin1String("salt tenant-a")), fields == 5);
    }

    void objectKeyHashes() {
        const QByteArray h8 = QByteArray::fromHex("0123456789abcdef");
        const auto k8 = ObjectKey::fromValue(decoded(keyWithFields(5, h8)));
        QVERIFY(k8);
        QCOMPARE(k8->hashHex(), QStringLiteral("0123456789abcdef"));
        QCOMPARE(k8->shortHash(16), QStringLiteral("0123456789abcdef"));
        QCOMPARE(k8->shortHash(4), QStringLiteral("0123…"));
        const QByteArray h32 =
            QByteArray::fromHex("ABCDEF00112233445566778899AABBCCDDEEFF00112233445566778899AABBCC");
        const auto k32 = ObjectKey::fromValue(decoded(keyWithFields(3, h32)));
        QCOMPARE(k32->hashHex(), QString::fromLatin1(h32.toHex()).toLower());
        QCOMPARE(k32->hashHex().size(), 64);
        QCOMPARE(k32->shortHash(), QStringLiteral("abcdef001122…"));
        // A hash given as hex text is read as bytes.
        Mp m;
        m.tag("ObjectKey").map(3).str("chunk_hash").str("00ff").str("model_name").str("m");
        m.str("kv_rank").sint(16777472);
        QCOMPARE(ObjectKey::fromValue(decoded(m.bytes))->chunkHash, QByteArray("\x00\xff", 2));
    }

    void objectKeyRejects_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("other tag") << Mp().tag("GroupedObjectKeys")
                                          .map(3)
                                          .str("chunk_hash")
                                          .bin("x")
                                          .str("model_name")
                                          .str("m")
                                          .str("kv_rank")
                                          .uint(1)
                                          .bytes;
        QTest::newRow("no kv_rank") << Mp().tag("ObjectKey")
                                           .map(2)
                                           .str("chunk_hash")
                                           .bin("x")
                                           .str("model_name")
                                           .str("m")
                                           .bytes;
        QTest::newRow("hash an int") << Mp().tag("ObjectKey")
                                            .map(3)
                                            .str("chunk_hash")
                                            .uint(5)
                                            .str("model_name")
                                            .str("m")
                                            .str("kv_rank")
                                            .uint(1)
                                            .bytes;
        QTest::newRow("payload a list") << Mp().tag("ObjectKey").arr(1).uint(1).bytes;
        QTest::newRow("plain int") << Mp().uint(3).bytes;
    }
    void objectKeyRejects() {
        QFETCH(QByteArray, bytes);
        QVERIFY(!ObjectKey::fromValue(decoded(bytes)));
    }

    void objectKeyCollect() {
        // keys, spec.keys and a wrapper of an unknown tag, in document order.
        Mp m;
        m.map(3)
            .str("keys")
            .arr(2)
            .raw(keyWithFields(5, hash32(1)))
            .raw(keyWithFields(5, hash32(2)));
        m.str("spec")
            .tag("PrefetchRequestSpec")
            .map(1)
            .str("keys")
            .arr(1)
            .raw(keyWithFields(4, hash32(3)));
        m.str("task").tag("PrefetchTaskSpec").map(1).str("key_groups").arr(1);
        m.tag("GroupedObjectKeys").map(1).str("keys").arr(2).raw(keyWithFields(3, hash32(4)));
        m.raw(keyWithFields(3, hash32(5)));
        const Value v = decoded(m.bytes);
        QCOMPARE(ObjectKey::count(v), 5);
        const auto all = ObjectKey::collect(v);
        QCOMPARE(all.size(), 5);
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(all[i].chunkHash, hash32(i + 1));
        }
        QCOMPARE(ObjectKey::collect(v, 2).size(), 2);
        QCOMPARE(ObjectKey::count(decoded(Mp().map(1).str("keys").arr(0).bytes)), 0);
    }

    // --- KvRank ----------------------------------------------------------------------------

    void kvRankUnpack_data() {
        QTest::addColumn<qint64>("packed");
        QTest::addColumn<int>("world");
        QTest::addColumn<int>("rank");
        QTest::addColumn<int>("localWorld");
        QTest::addColumn<int>("localRank");
        QTest::newRow("TP=1") << qint64(16777472) << 1 << 0 << 1 << 0;
        QTest::newRow("TP=2 rank 0") << qint64(33554944) << 2 << 0 << 2 << 0;
        QTest::newRow("TP=2 rank 1") << qint64(33620481) << 2 << 1 << 2 << 1;
        QTest::newRow("TP=4 rank 3") << qint64(0x04030403) << 4 << 3 << 4 << 3;
        QTest::newRow("two nodes") << qint64(0x10090801) << 16 << 9 << 8 << 1;
        QTest::newRow("zero") << qint64(0) << 0 << 0 << 0 << 0;
    }
    void kvRankUnpack() {
        QFETCH(qint64, packed);
        QFETCH(int, world);
        QFETCH(int, rank);
        QFETCH(int, localWorld);
        QFETCH(int, localRank);
        const KvRank r = KvRank::unpack(packed);
        QCOMPARE(r.worldSize, world);
        QCOMPARE(r.rank, rank);
        QCOMPARE(r.localWorldSize, localWorld);
        QCOMPARE(r.localRank, localRank);
        QCOMPARE(r.pack(), packed);
        QCOMPARE(r.toString(), QStringLiteral("rank %1/%2").arg(rank).arg(world));
    }

    void kvRankRoundTrip() {
        QRandomGenerator rng(42);
        for (int i = 0; i < 2000; ++i) {
            const KvRank r{int(rng.bounded(256)), int(rng.bounded(256)), int(rng.bounded(256)),
                           int(rng.bounded(256))};
            const KvRank back = KvRank::unpack(r.pack());
            QCOMPARE(back.worldSize, r.worldSize);
            QCOMPARE(back.rank, r.rank);
            QCOMPARE(back.localWorldSize, r.localWorldSize);
            QCOMPARE(back.localRank, r.localRank);
        }
    }

    // --- MemoryLayout ----------------------------------------------------------------------

    void layoutBytes_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<qint64>("perObject");
        QTest::addColumn<QString>("text");
        QTest::newRow("Qwen3-8B bf16") << layoutDesc({{2, 36, 256, 1024}}, {"torch.bfloat16"})
                                       << qint64(37748736) << "[2,36,256,1024] bf16";
        QTest::newRow("Llama bf16") << layoutDesc({{2, 32, 256, 1024}}, {"torch.bfloat16"})
                                    << qint64(33554432) << "[2,32,256,1024] bf16";
        QTest::newRow("fp16") << layoutDesc({{2, 36, 256, 1024}}, {"torch.float16"})
                              << qint64(37748736) << "[2,36,256,1024] f16";
        QTest::newRow("two shapes, two dtypes")
            << layoutDesc({{2, 32, 256, 1024}, {32, 256, 128}}, {"torch.bfloat16", "torch.float32"})
            << qint64(33554432 + 4194304) << "[2,32,256,1024] bf16 + [32,256,128] f32";
        QTest::newRow("uint8 (MLA)") << layoutDesc({{61, 256, 656}}, {"torch.uint8"})
                                     << qint64(61 * 256 * 656) << "[61,256,656] uint8";
        QTest::newRow("int8") << layoutDesc({{2, 28, 256, 512}}, {"torch.int8"})
                              << qint64(2 * 28 * 256 * 512) << "[2,28,256,512] int8";
        QTest::newRow("fp8") << layoutDesc({{2, 8, 256, 128}}, {"torch.float8_e4m3fn"})
                             << qint64(2 * 8 * 256 * 128) << "[2,8,256,128] fp8e4m3";
        QTest::newRow("one dtype for two shapes")
            << layoutDesc({{4}, {8}}, {"torch.float64"}) << qint64(96) << "[4] f64 + [8]";
    }
    void layoutBytes() {
        QFETCH(QByteArray, bytes);
        QFETCH(qint64, perObject);
        QFETCH(QString, text);
        const Value v = decoded(bytes);
        const auto l = MemoryLayout::fromValue(v);
        QVERIFY(l);
        QCOMPARE(l->bytesPerObject().value_or(-1), perObject);
        QCOMPARE(l->toString(), text);
        const QString d = ValueFormatter::display(v);
        QVERIFY2(d.startsWith(text), qPrintable(d));
        QVERIFY2(d.contains(formatBytes(perObject) + QStringLiteral("/object")), qPrintable(d));
    }

    void layoutUnknownOrOverflow_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("unknown dtype") << layoutDesc({{2, 2}}, {"torch.quantum"});
        QTest::newRow("no dtype") << layoutDesc({{2, 2}}, {});
        QTest::newRow("overflow") << layoutDesc({{1LL << 40, 1LL << 40}}, {"torch.float32"});
        QTest::newRow("sum overflows")
            << layoutDesc({{1LL << 61}, {1LL << 61}}, {"torch.bfloat16", "torch.bfloat16"});
        QTest::newRow("negative dim") << layoutDesc({{2, -1}}, {"torch.float32"});
    }
    void layoutUnknownOrOverflow() {
        QFETCH(QByteArray, bytes);
        const Value v = decoded(bytes);
        const auto l = MemoryLayout::fromValue(v);
        QVERIFY(l);
        QVERIFY(!l->bytesPerObject());
        // Still shown, without a made-up size.
        QVERIFY(!ValueFormatter::display(v).contains(QLatin1String("/object")));
    }

    void layoutHelpers() {
        QCOMPARE(MemoryLayout::dtypeSize(QStringLiteral("torch.bfloat16")), 2);
        QCOMPARE(MemoryLayout::dtypeSize(QStringLiteral("float32")), 4);
        QCOMPARE(MemoryLayout::dtypeSize(QStringLiteral("torch.complex128")), 16);
        QCOMPARE(MemoryLayout::dtypeSize(QStringLiteral("torch.nope")), 0);
        QCOMPARE(MemoryLayout::shortDtype(QStringLiteral("torch.float32")), QStringLiteral("f32"));
        QCOMPARE(MemoryLayout::shortDtype(QStringLiteral("torch.int64")), QStringLiteral("int64"));
        QCOMPARE(MemoryLayout::shortDtype(QStringLiteral("custom")), QStringLiteral("custom"));
        QVERIFY(!MemoryLayout::fromValue(decoded(Mp().tag("Other").map(0).bytes)));
        QVERIFY(!MemoryLayout::fromValue(decoded(Mp().map(1).str("shapes").arr(0).bytes)));
        // findIn: the first layout anywhere, e.g. inside group_layout_descs.
        Mp m;
        m.map(1).str("spec").tag("PrefetchRequestSpec").map(1).str("group_layout_descs").map(1);
        m.str("0").raw(layoutDesc({{2, 36, 256, 1024}}, {"torch.bfloat16"}));
        QCOMPARE(MemoryLayout::findIn(decoded(m.bytes))->bytesPerObject().value_or(0), 37748736);
        QVERIFY(!MemoryLayout::findIn(decoded(keysArgs(2))));

        QCOMPARE(formatBytes(0), QStringLiteral("0 B"));
        QCOMPARE(formatBytes(512), QStringLiteral("512 B"));
        QCOMPARE(formatBytes(1536), QStringLiteral("1.50 KiB"));
        QCOMPARE(formatBytes(37748736), QStringLiteral("36.0 MiB"));
        QCOMPARE(formatBytes(3LL << 40), QStringLiteral("3.00 TiB"));
    }

    // --- ValueFormatter: every tag of spec §5 -------------------------------------------------

    void displayTags_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("TrimPolicy PREFIX")
            << Mp().tag("TrimPolicy").str("PREFIX").bytes << "PREFIX";
        QTest::newRow("TrimPolicy SEGMENTED_PREFIX")
            << Mp().tag("TrimPolicy").str("SEGMENTED_PREFIX").bytes << "SEGMENTED_PREFIX";
        QTest::newRow("TrimPolicy SPARSE")
            << Mp().tag("TrimPolicy").str("SPARSE").bytes << "SPARSE";
        QTest::newRow("PrefetchMode LOOKUP")
            << Mp().tag("PrefetchMode").str("LOOKUP").bytes << "LOOKUP";
        QTest::newRow("PrefetchMode WARM") << Mp().tag("PrefetchMode").str("WARM").bytes << "WARM";
        QTest::newRow("AttnWindowDesc bare full")
            << Mp().tag("AttnWindowDesc").raw(intList({-1})).bytes << "full attention";
        QTest::newRow("AttnWindowDesc bare full, 2 groups")
            << Mp().tag("AttnWindowDesc").raw(intList({-1, -1})).bytes << "full attention";
        QTest::newRow("AttnWindowDesc bare sliding")
            << Mp().tag("AttnWindowDesc").raw(intList({4, -1})).bytes
            << "sliding window [4,-1] chunks";
        QTest::newRow("AttnWindowDesc map full") << Mp().tag("AttnWindowDesc")
                                                        .map(2)
                                                        .str("num_chunks_in_sw")
                                                        .raw(intList({-1}))
                                                        .str("world_size")
                                                        .uint(2)
                                                        .bytes
                                                 << "full attention · world 2";
        QTest::newRow("AttnWindowDesc map sliding") << Mp().tag("AttnWindowDesc")
                                                           .map(2)
                                                           .str("num_chunks_in_sw")
                                                           .raw(intList({-1, 8}))
                                                           .str("world_size")
                                                           .uint(4)
                                                           .bytes
                                                    << "sliding window [-1,8] chunks · world 4";
        QTest::newRow("torch.Size")
            << Mp().tag("torch.Size").raw(intList({2, 32, 256, 1024})).bytes << "[2,32,256,1024]";
        QTest::newRow("torch.dtype")
            << Mp().tag("torch.dtype").str("torch.float16").bytes << "torch.float16";
        QTest::newRow("set") << Mp().tag("set").raw(intList({3, 5, 8})).bytes << "{3, 5, 8}";
        QTest::newRow("empty set") << Mp().tag("set").arr(0).bytes << "{}";
        QTest::newRow("tuple") << Mp().tag("tuple").arr(2).str("layer").uint(7).bytes
                               << "(layer, 7)";
        QTest::newRow("nested tuples in a set") << Mp().tag("set")
                                                       .arr(2)
                                                       .tag("tuple")
                                                       .raw(intList({1, 2}))
                                                       .tag("tuple")
                                                       .raw(intList({3, 4}))
                                                       .bytes
                                                << "{(1, 2), (3, 4)}";
        QTest::newRow("unknown tag, enum payload")
            << Mp().tag("PrefetchLockMode").str("LOCK").bytes << "PrefetchLockMode LOCK";
        QTest::newRow("unknown tag, map payload")
            << Mp().tag("FutureThing").map(1).str("n").uint(3).bytes << "FutureThing {n: 3}";
    }
    void displayTags() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const Value v = decoded(bytes);
        QCOMPARE(ValueFormatter::display(v), expected);
        QCOMPARE(ValueFormatter::typeLabel(v), v.tag());
        const QStringList known = {"TrimPolicy",  "PrefetchMode", "AttnWindowDesc", "torch.Size",
                                   "torch.dtype", "set",          "tuple"};
        QCOMPARE(ValueFormatter::isKnownTag(v.tag()), known.contains(v.tag()));
    }

    void displayPrefetchRequestSpec_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("parts");
        // Older: layout_desc + extra_count, bare AttnWindowDesc.
        Mp older;
        older.tag("PrefetchRequestSpec").map(6).str("keys").arr(2);
        older.raw(keyWithFields(4, hash32(1))).raw(keyWithFields(4, hash32(2)));
        older.str("layout_desc").raw(layoutDesc({{2, 32, 256, 1024}}, {"torch.bfloat16"}));
        older.str("extra_count").uint(1);
        older.str("policy").tag("TrimPolicy").str("PREFIX");
        older.str("attn_desc").tag("AttnWindowDesc").raw(intList({-1}));
        older.str("mode").tag("PrefetchMode").str("LOOKUP");
        QTest::newRow("layout_desc + extra_count")
            << older.bytes
            << QStringList{"2 keys", "PREFIX", "LOOKUP", "full attention", "[2,32,256,1024] bf16"};
        // Newer: group_layout_descs + num_kv_readers + generation, map AttnWindowDesc.
        Mp newer;
        newer.tag("PrefetchRequestSpec").map(7).str("keys").arr(1).raw(keyWithFields(5, hash32(3)));
        newer.str("num_kv_readers").uint(2);
        newer.str("policy").tag("TrimPolicy").str("SPARSE");
        newer.str("attn_desc").tag("AttnWindowDesc").map(2).str("num_chunks_in_sw");
        newer.raw(intList({-1, 8})).str("world_size").uint(2);
        newer.str("group_layout_descs").map(1).str("0");
        newer.raw(layoutDesc({{61, 256, 656}}, {"torch.uint8"}));
        newer.str("mode").tag("PrefetchMode").str("WARM");
        newer.str("generation").uint(3);
        QTest::newRow("group_layout_descs + num_kv_readers")
            << newer.bytes
            << QStringList{"1 key", "SPARSE", "WARM", "sliding window [-1,8] chunks",
                           "[61,256,656] uint8"};
    }
    void displayPrefetchRequestSpec() {
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, parts);
        const QString d = ValueFormatter::display(decoded(bytes));
        for (const QString &p : parts) {
            QVERIFY2(d.contains(p), qPrintable(d + QLatin1String(" lacks ") + p));
        }
    }

    void displayUnknownSpecWithKeys() {
        // The newest LMCache's PrefetchTaskSpec: generic, but the keys are still counted.
        Mp m;
        m.tag("PrefetchTaskSpec").map(2).str("key_groups").arr(1);
        m.tag("GroupedObjectKeys").map(2).str("keys").arr(3);
        for (int i = 0; i < 3; ++i) {
            m.raw(keyWithFields(5, hash32(i)));
        }
        m.str("layout_desc").raw(layoutDesc({{2, 32, 256, 1024}}, {"torch.bfloat16"}));
        m.str("lock_mode").tag("PrefetchLockMode").str("LOCK");
        const Value v = decoded(m.bytes);
        const QString d = ValueFormatter::display(v);
        QVERIFY2(d.startsWith(QLatin1String("PrefetchTaskSpec")), qPrintable(d));
        QVERIFY2(d.contains(QLatin1String("3 keys")), qPrintable(d));
        QVERIFY2(d.contains(QLatin1String("PrefetchLockMode LOCK")), qPrintable(d));
        QVERIFY(!ValueFormatter::isKnownTag(v.tag()));
    }

    void displayPrefetchHandle() {
        Mp basic;
        basic.tag("PrefetchHandle").map(5).str("prefetch_request_id").uint(17);
        basic.str("external_request_id").str("chatcmpl-abc");
        basic.str("l1_prefix_hit_count").uint(3).str("total_requested_keys").uint(8);
        basic.str("submit_time").f64(81235.75);
        QCOMPARE(ValueFormatter::display(decoded(basic.bytes)),
                 QStringLiteral("chatcmpl-abc · prefetch 17 · L1 hits 3/8"));
        Mp extended;
        extended.tag("PrefetchHandle").map(8).str("prefetch_request_id").sint(-1);
        extended.str("external_request_id").str("req-2");
        extended.str("l1_prefix_hit_count").uint(2).str("l1_found_indices").raw(intList({0, 1}));
        extended.str("l1_hit_chunks").uint(2).str("total_requested_keys").uint(6);
        extended.str("l2_orig_indices").raw(intList({2, 3})).str("generation").uint(1);
        const QString d = ValueFormatter::display(decoded(extended.bytes));
        QVERIFY2(d.contains(QLatin1String("req-2")) && d.contains(QLatin1String("L1 hits 2/6")),
                 qPrintable(d));
    }

    void displayScalarsAndContainers() {
        QCOMPARE(ValueFormatter::display(decoded(Mp().nil().bytes)), QStringLiteral("None"));
        QCOMPARE(ValueFormatter::display(decoded(Mp().boolean(true).bytes)),
                 QStringLiteral("True"));
        QCOMPARE(ValueFormatter::display(decoded(Mp().f64(0.1).bytes)), QStringLiteral("0.1"));
        QCOMPARE(ValueFormatter::display(decoded(Mp().f64(81234.5).bytes)),
                 QStringLiteral("81234.5"));
        QCOMPARE(ValueFormatter::display(decoded(Mp().f64(1760000000.25).bytes)),
                 QStringLiteral("1760000000.25"));
        QCOMPARE(
            ValueFormatter::display(decoded(Mp().bin(QByteArray("\x00\x01\xfe\xff", 4)).bytes)),
            QStringLiteral("0001feff"));
        QCOMPARE(ValueFormatter::display(decoded(Mp().arr(2).uint(1).str("a").bytes)),
                 QStringLiteral("[1, a]"));
        QCOMPARE(
            ValueFormatter::display(decoded(Mp().map(2).str("a").uint(1).str("b").nil().bytes)),
            QStringLiteral("{a: 1, b: None}"));
        // Elision keeps the limit.
        const QString longText =
            ValueFormatter::display(decoded(Mp().str(QByteArray(500, 'x')).bytes), 20);
        QCOMPARE(longText.size(), 20);
        QVERIFY(longText.endsWith(QChar(0x2026)));
        Mp many;
        many.arr(100);
        for (int i = 0; i < 100; ++i) {
            many.uint(1000 + quint64(i));
        }
        const QString list = ValueFormatter::display(decoded(many.bytes), 60);
        QVERIFY2(list.size() <= 80 && list.contains(QLatin1String("more")), qPrintable(list));
    }

    void regression_float32ShownShortest() {
        // A float32 was shown with 9 digits (0.4 as 0.400000006): the shortest text was
        // looked for as a double, which a float32 value never is.
        const QList<QPair<float, QString>> cases = {{0.1f, "0.1"},
                                                    {0.4f, "0.4"},
                                                    {1.25f, "1.25"},
                                                    {1.2345678f, "1.2345678"},
                                                    {-3.3f, "-3.3"}};
        for (const auto &[f, text] : cases) {
            const Value v = decoded(Mp().f32(f).bytes);
            QVERIFY(v.wasFloat32());
            QCOMPARE(ValueFormatter::number(v), text);
            QCOMPARE(float(ValueFormatter::number(v).toDouble()), f);
        }
        // Doubles keep their full precision.
        QCOMPARE(ValueFormatter::number(decoded(Mp().f64(double(0.4f)).bytes)),
                 QStringLiteral("0.4000000059604645"));
    }

    void regression_plainNumbersWithoutExponent() {
        // An integral double of 7+ digits was shown with an exponent: header-only.lmct's
        // t_wall_start 1760000000.0 read "1.76e+09" in the header pane.
        const QList<QPair<double, QString>> cases = {{1760000000.0, "1760000000"},
                                                     {123456789.0, "123456789"},
                                                     {-25000000000.0, "-25000000000"},
                                                     {1e16, "10000000000000000"},
                                                     {1760000000.25, "1760000000.25"},
                                                     {1234567.5, "1234567.5"},
                                                     {0.00012345, "0.00012345"},
                                                     {1e-7, "1e-07"},
                                                     {1e300, "1e+300"},
                                                     {5.0, "5"}};
        for (const auto &[d, text] : cases) {
            QCOMPARE(ValueFormatter::number(decoded(Mp().f64(d).bytes)), text);
            QCOMPARE(ValueFormatter::number(decoded(Mp().f64(d).bytes)).toDouble(), d);
        }
        QCOMPARE(ValueFormatter::number(decoded(Mp().f32(1760000000.0f).bytes)),
                 QStringLiteral("1760000000"));
        auto doc = loadTrace(QStringLiteral("header-only.lmct"));
        const auto root = HeaderTree::build(doc->header());
        const TreeNode *wall = child(root.get(), QStringLiteral("t_wall_start"));
        QVERIFY2(wall->value.startsWith(QLatin1String("1760000000  (")), qPrintable(wall->value));
        QCOMPARE(wall->copyText, QStringLiteral("1760000000"));
    }

    void typeLabels() {
        QCOMPARE(ValueFormatter::typeLabel(decoded(Mp().bin(hash32(0)).bytes)),
                 QStringLiteral("bytes[32]"));
        QCOMPARE(ValueFormatter::typeLabel(decoded(intList({1, 2, 3, 4}))),
                 QStringLiteral("list[4]"));
        QCOMPARE(ValueFormatter::typeLabel(decoded(Mp().map(1).str("a").nil().bytes)),
                 QStringLiteral("map{1}"));
        QCOMPARE(ValueFormatter::typeLabel(decoded(Mp().str("x").bytes)), QStringLiteral("str"));
        QCOMPARE(ValueFormatter::typeLabel(decoded(Mp().uint(1).bytes)), QStringLiteral("int"));
        QCOMPARE(ValueFormatter::typeLabel(decoded(Mp().f32(1).bytes)), QStringLiteral("float32"));
        QCOMPARE(ValueFormatter::typeLabel(decoded(keyWithFields(5, hash32(0)))),
                 QStringLiteral("ObjectKey"));
    }

    void toJson() {
        Mp m;
        m.map(7).str("hash").bin(QByteArray("\xde\xad\xbe\xef", 4));
        m.str("key").raw(keyWithFields(3, QByteArray("\x01\x02", 2), 16777472));
        m.str("nan").f64(std::numeric_limits<double>::quiet_NaN());
        m.str("big").uintW(quint64(1) << 63, 64);
        m.str("neg").sint(-5);
        m.str("ext").ext(7, QByteArray("\xab", 1));
        m.str("list").arr(2).nil().boolean(false);
        const QJsonObject o = ValueFormatter::toJson(decoded(m.bytes)).toObject();
        QCOMPARE(o[QStringLiteral("hash")].toString(), QStringLiteral("deadbeef"));
        const QJsonObject key = o[QStringLiteral("key")].toObject();
        QCOMPARE(key[QStringLiteral("__t__")].toString(), QStringLiteral("ObjectKey"));
        const QJsonObject payload = key[QStringLiteral("v")].toObject();
        QCOMPARE(payload[QStringLiteral("chunk_hash")].toString(), QStringLiteral("0102"));
        QCOMPARE(payload[QStringLiteral("kv_rank")].toInteger(), 16777472);
        QVERIFY(o.contains(QStringLiteral("nan")));
        QVERIFY(o[QStringLiteral("nan")].isNull());  // JSON has no NaN: null
        QCOMPARE(o[QStringLiteral("big")].toDouble(), 9223372036854775808.0);
        QCOMPARE(o[QStringLiteral("neg")].toInteger(), -5);
        QCOMPARE(o[QStringLiteral("ext")].toObject()[QStringLiteral("ext")].toInt(), 7);
        QCOMPARE(o[QStringLiteral("ext")].toObject()[QStringLiteral("data")].toString(),
                 QStringLiteral("ab"));
        QVERIFY(o[QStringLiteral("list")].toArray().at(0).isNull());
        QCOMPARE(o[QStringLiteral("list")].toArray().at(1).toBool(true), false);
        // A partial tree says where it stopped.
        const auto partial = ValueDecoder::decode(Mp().arr(3).uint(1).uint(2).bytes);
        QCOMPARE(partial.status, ValueDecoder::Status::Truncated);
        const QJsonArray a = ValueFormatter::toJson(partial.value).toArray();
        QCOMPARE(a.size(), 3);
        QCOMPARE(a.at(1).toInt(), 2);
        QVERIFY(a.at(2).toObject().contains(QStringLiteral("__truncated__")));
    }

    // --- RecordSummary on real records ----------------------------------------------------------

    void summarySchema2Submit() {
        auto doc = loadTrace(QStringLiteral("schema2-prefetch-spec-tp2.lct"));
        const int i =
            firstRecord(*doc, QStringLiteral("submit_prefetch_task"), QStringLiteral("Llama"));
        QVERIFY(i >= 0);
        const Value &args = doc->args(i)->value;
        const QString s = RecordSummary::summarize(args, 1000);
        const int keys = ObjectKey::count(args);
        QVERIFY(keys > 0);
        QVERIFY2(s.startsWith(QStringLiteral("%1 keys").arg(keys)), qPrintable(s));
        QVERIFY2(s.contains(QLatin1String("meta-llama/Llama-3.1-8B-Instruct")), qPrintable(s));
        QVERIFY2(s.contains(QLatin1String("ranks 0,1/2")), qPrintable(s));
        QVERIFY2(s.contains(QLatin1String("[2,32,256,1024] bf16")), qPrintable(s));
        const QString req = args.find(u"external_request_id")->toString();
        QVERIFY(req.startsWith(QLatin1String("chatcmpl-")));
        QCOMPARE(RecordSummary::requestId(args), req);
        QVERIFY2(s.contains(req.left(20)), qPrintable(s));
        // The spec's policy and mode are there too.
        QVERIFY2(s.contains(QLatin1String("PREFIX")), qPrintable(s));
        // Qwen records show the Qwen layout.
        const int q = firstRecord(*doc, QStringLiteral("reserve_write"), QStringLiteral("Qwen"));
        QVERIFY(q >= 0);
        const QString sq = RecordSummary::summarize(doc->args(q)->value);
        QVERIFY2(sq.contains(QLatin1String("[2,36,256,1024] bf16")), qPrintable(sq));
        QVERIFY2(sq.contains(QLatin1String("new")), qPrintable(sq));
    }

    void summaryEveryCallOfEveryTrace_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("rankText");
        QTest::newRow("first recorder") << "lmcache-first-recorder-storage.lct"
                                        << "/1";
        QTest::newRow("schema1 trim") << "schema1-trimpolicy-tp2.lct"
                                      << "/2";
        QTest::newRow("schema1 sliding") << "schema1-sliding-window-tp2.lct"
                                         << "/2";
        QTest::newRow("schema2") << "schema2-prefetch-spec-tp2.lct"
                                 << "/2";
        QTest::newRow("newest tp4") << "newest-unknown-spec-tp4.lct"
                                    << "/4";
    }
    void summaryEveryCallOfEveryTrace() {
        QFETCH(QString, file);
        QFETCH(QString, rankText);
        auto doc = loadTrace(file);
        for (int id = 0; id < doc->records().qualnameCount(); ++id) {
            const QString call = Qualname::shortName(doc->records().qualnames()[id]);
            const int i = firstRecord(*doc, call);
            const Value &args = doc->args(i)->value;
            const QString s = RecordSummary::summarize(args);
            const int keys = ObjectKey::count(args);
            QVERIFY2(keys > 0, qPrintable(call));
            QVERIFY2(s.startsWith(QStringLiteral("%1 key").arg(keys)), qPrintable(s));
            QVERIFY2(s.contains(QStringLiteral("rank")) && s.contains(rankText),
                     qPrintable(call + QLatin1String(": ") + s));
            QVERIFY(s.size() <= 160);
        }
    }

    void summaryNewestSpecAndEvents() {
        auto doc = loadTrace(QStringLiteral("newest-unknown-spec-tp4.lct"));
        int i = firstRecord(*doc, QStringLiteral("submit_prefetch_task"));
        const Value &spec = *doc->args(i)->value.find(u"spec");
        QVERIFY(spec.isTagged());
        QVERIFY(!ValueFormatter::isKnownTag(spec.tag()));
        QVERIFY2(ValueFormatter::display(spec).startsWith(spec.tag()),
                 qPrintable(ValueFormatter::display(spec)));
        QVERIFY(RecordSummary::summarize(doc->args(i)->value)
                    .contains(QLatin1String("ranks 0,1,2,3/4")));
        i = firstRecord(*doc, QStringLiteral("finish_read_prefetched"));
        QVERIFY(
            RecordSummary::summarize(doc->args(i)->value).contains(QLatin1String("read_locks=")));

        auto events = loadTrace(QStringLiteral("events-level.lmct"));
        i = firstRecord(*events, QStringLiteral("events.lifecycle"));
        QCOMPARE(i, 0);
        const QString s = RecordSummary::summarize(events->args(i)->value);
        QVERIFY2(s.startsWith(QLatin1String("phase=start")), qPrintable(s));
        QVERIFY(!s.contains(QLatin1String("key")));
        i = firstRecord(*events, QStringLiteral("events.batch"));
        const QString b = RecordSummary::summarize(events->args(i)->value);
        QVERIFY2(b.contains(QLatin1String("entries[")), qPrintable(b));
        QVERIFY2(b.contains(QLatin1String("event_type=")), qPrintable(b));
    }

    void summarySchema1SlidingWindow() {
        auto doc = loadTrace(QStringLiteral("schema1-sliding-window-tp2.lct"));
        const int i = firstRecord(*doc, QStringLiteral("submit_prefetch_task"));
        const Value &args = doc->args(i)->value;
        QVERIFY(args.find(u"attn_desc"));
        QCOMPARE(args.find(u"attn_desc")->tag(), QStringLiteral("AttnWindowDesc"));
        QVERIFY(args.find(u"attn_desc")->payload().isArray());  // the bare-list form
        const QString a = ValueFormatter::display(*args.find(u"attn_desc"));
        QVERIFY2(a == QLatin1String("full attention") || a.startsWith(QLatin1String("sliding")),
                 qPrintable(a));
        const QString mode = ValueFormatter::display(*args.find(u"mode"));
        QVERIFY2(mode == QLatin1String("LOOKUP") || mode == QLatin1String("WARM"),
                 qPrintable(mode));
        QVERIFY(RecordSummary::summarize(args).contains(mode));
    }

    void summaryCombinations() {
        auto keys = [](const QList<QByteArray> &ks) {
            Mp m;
            m.map(1).str("keys").arr(quint32(ks.size()));
            for (const QByteArray &k : ks) {
                m.raw(k);
            }
            return decoded(m.bytes);
        };
        // One tenant: its salt is named; two: counted.
        QString s = RecordSummary::summarize(keys(
            {objectKey(1, 33554944, "m", "tenant-a"), objectKey(2, 33620481, "m", "tenant-a")}));
        QCOMPARE(s, QStringLiteral("2 keys · m · ranks 0,1/2 · salt tenant-a"));
        s = RecordSummary::summarize(keys(
            {objectKey(1, 33554944, "m", "tenant-a"), objectKey(2, 33554944, "m", "tenant-b")}));
        QCOMPARE(s, QStringLiteral("2 keys · m · rank 0/2 · 2 salts"));
        // Two models, mixed world sizes.
        s = RecordSummary::summarize(
            keys({objectKey(1, 16777472, "a"), objectKey(2, 33620481, "b")}));
        QCOMPARE(s, QStringLiteral("2 keys · 2 models · ranks 0,1 (mixed world sizes)"));
        // Many ranks are counted, not listed.
        QList<QByteArray> many;
        for (int r = 0; r < 16; ++r) {
            many.append(objectKey(r, KvRank{16, r, 8, r % 8}.pack(), "m"));
        }
        s = RecordSummary::summarize(keys(many));
        QVERIFY2(s.contains(QLatin1String("ranks 16/16")), qPrintable(s));
        // Flags: zero/false/None are left out, the rest named.
        Mp m;
        m.map(4).str("keys").arr(1).raw(objectKey(1)).str("extra_count").uint(0);
        m.str("skip_l2").boolean(true).str("read_locks").uint(2);
        s = RecordSummary::summarize(decoded(m.bytes));
        QVERIFY2(!s.contains(QLatin1String("extra_count")), qPrintable(s));
        QVERIFY2(
            s.contains(QLatin1String("skip_l2=True")) && s.contains(QLatin1String("read_locks=2")),
            qPrintable(s));
        // The summary keeps its length limit.
        QVERIFY(RecordSummary::summarize(keys(many), 20).size() <= 20);
    }

    void summaryWithoutKeys() {
        Mp args;
        args.map(3)
            .str("name")
            .str("rms_norm")
            .str("grid")
            .raw(intList({8, 32, 1}))
            .str("stream")
            .uint(1);
        QCOMPARE(RecordSummary::summarize(decoded(args.bytes)),
                 QStringLiteral("name=rms_norm · grid[3] · stream=1"));
        // An empty keys list still says so.
        QVERIFY(RecordSummary::summarize(decoded(Mp().map(1).str("keys").arr(0).bytes))
                    .startsWith(QLatin1String("0 keys")));
        QVERIFY(RecordSummary::summarize(Value::map()).isEmpty());
        QVERIFY(RecordSummary::requestId(Value::map()).isEmpty());
    }

    // --- ArgumentTree ---------------------------------------------------------------------------

    void argumentTreeSchema2() {
        auto doc = loadTrace(QStringLiteral("schema2-prefetch-spec-tp2.lct"));
        const int i = firstRecord(*doc, QStringLiteral("submit_prefetch_task"));
        const auto args = doc->args(i);
        const auto root = ArgumentTree::build(args->value);
        const TreeNode *spec = findPath(root.get(), QStringLiteral("spec"));
        QVERIFY(spec);
        QCOMPARE(spec->type, QStringLiteral("PrefetchRequestSpec"));
        const TreeNode *hash = findPath(root.get(), QStringLiteral("spec.keys[3].chunk_hash"));
        QVERIFY(hash);
        QCOMPARE(hash->type, QStringLiteral("bytes[32]"));
        QCOMPARE(hash->value.size(), 64);
        QVERIFY(QRegularExpression(QStringLiteral("^[0-9a-f]{64}$")).match(hash->value).hasMatch());
        QCOMPARE(hash->source->toBytes().toHex(), hash->value.toLatin1());

        for (int k : {0, 1}) {
            const TreeNode *rank =
                findPath(root.get(), QStringLiteral("spec.keys[%1].kv_rank").arg(k));
            QVERIFY(rank);
            const KvRank r = KvRank::unpack(rank->source->toInt());
            QVERIFY2(rank->value.contains(QStringLiteral("0x%1").arg(rank->source->toInt(), 8, 16,
                                                                     QLatin1Char('0'))),
                     qPrintable(rank->value));
            QCOMPARE(rank->children.size(), size_t(4));
            const char *names[] = {"world_size", "rank", "local_world_size", "local_rank"};
            const int values[] = {r.worldSize, r.rank, r.localWorldSize, r.localRank};
            for (int j = 0; j < 4; ++j) {
                const TreeNode *d = rank->children[size_t(j)].get();
                QCOMPARE(d->name, QLatin1String(names[j]));
                QCOMPARE(d->value, QString::number(values[j]));
                QVERIFY(d->derived);
                QVERIFY(d->path.isEmpty());
            }
            QCOMPARE(r.worldSize, 2);
        }
        // The layout inside group_layout_descs has its derived size row.
        const TreeNode *layout = findPath(root.get(), QStringLiteral("spec.group_layout_descs.0"));
        QVERIFY(layout);
        QCOMPARE(layout->type, QStringLiteral("MemoryLayoutDesc"));
        const TreeNode *bytes = child(layout, QStringLiteral("bytes per object"));
        QVERIFY(bytes && bytes->derived);
        QVERIFY2(bytes->value.startsWith(QLatin1String("33554432")) ||
                     bytes->value.startsWith(QLatin1String("37748736")),
                 qPrintable(bytes->value));
        // Paths match what the nodes show.
        QVERIFY(findPath(root.get(), QStringLiteral("spec.keys[0].model_name")));
        QVERIFY(findPath(root.get(), QStringLiteral("external_request_id")));
        QCOMPARE(findPath(root.get(), QStringLiteral("spec.policy"))->value,
                 QStringLiteral("PREFIX"));
    }

    void argumentTreeNestedTagsAndLimit() {
        Mp m;
        m.map(2).str("nested").tag("tuple").arr(2).tag("set").arr(1).tag("tuple").raw(
            intList({1, 2}));
        m.raw(keyWithFields(3, hash32(1), 16777472));
        m.str("big").arr(50);
        for (int i = 0; i < 50; ++i) {
            m.uint(quint64(i));
        }
        const Value v = decoded(m.bytes);
        const auto root = ArgumentTree::build(v);
        QVERIFY(findPath(root.get(), QStringLiteral("nested[0][0][1]")));
        QCOMPARE(findPath(root.get(), QStringLiteral("nested[0][0][1]"))->value,
                 QStringLiteral("2"));
        const TreeNode *rank = findPath(root.get(), QStringLiteral("nested[1].kv_rank"));
        QVERIFY(rank);
        QCOMPARE(rank->children.size(), size_t(4));
        QCOMPARE(rank->children[0]->value, QStringLiteral("1"));  // world_size of TP=1

        // Row limit: at most maxNodes rows and one note about the rest.
        const auto limited = ArgumentTree::build(v, 10);
        QVERIFY(countNodes(limited.get()) <= 1 + 10 + 4 + 1);
        bool noted = false;
        std::function<void(const TreeNode *)> walk = [&](const TreeNode *n) {
            noted = noted || n->value.contains(QLatin1String("more rows not shown"));
            for (const auto &c : n->children) {
                walk(c.get());
            }
        };
        walk(limited.get());
        QVERIFY(noted);
    }

    void argumentTreeOfPartialArgs() {
        // A cut args map: the marker row is flagged as a problem, no crash.
        const QByteArray full = keysArgs(3);
        const auto r = ValueDecoder::decode(full.constData(), full.size() - 10);
        QVERIFY(!r.ok());
        const auto root = ArgumentTree::build(r.value);
        bool problem = false;
        std::function<void(const TreeNode *)> walk = [&](const TreeNode *n) {
            problem = problem || n->problem;
            for (const auto &c : n->children) {
                walk(c.get());
            }
        };
        walk(root.get());
        QVERIFY(problem);
    }

    // --- HeaderTree -----------------------------------------------------------------------------

    void headerTreeMatch() {
        QString error;
        auto doc = TraceLoader::load(fixturePath(QStringLiteral("digest-match.lct")), &error);
        QVERIFY(doc);
        const auto root = HeaderTree::build(doc->header());
        const TreeNode *magic = child(root.get(), QStringLiteral("magic"));
        QVERIFY(magic && magic->value.startsWith(QLatin1String("LMCT")));
        QCOMPARE(magic->copyText, QStringLiteral("LMCT"));
        const TreeNode *cfg = child(root.get(), QStringLiteral("sm_config_json"));
        QVERIFY(cfg);
        QVERIFY(cfg->children.size() >= 4);
        QCOMPARE(child(cfg, QStringLiteral("chunk_size"))->value, QStringLiteral("256"));
        const TreeNode *size =
            findPath(cfg, QStringLiteral("l1_manager_config.memory_config.size_in_bytes"));
        QVERIFY(size);
        QCOMPARE(size->value, QStringLiteral("68719476736"));
        QVERIFY(findPath(cfg, QStringLiteral("l2_adapter_config.adapters[0].path")));
        const TreeNode *digest = child(root.get(), QStringLiteral("digest check"));
        QVERIFY(digest && digest->derived && !digest->problem);
        QVERIFY(digest->value.contains(QLatin1String("match")));
        QCOMPARE(digest->copyText, doc->header().smConfigDigest());
        const TreeNode *wall = child(root.get(), QStringLiteral("t_wall_start"));
        QVERIFY2(wall->value.contains(QLatin1String("2025-10-09 08:53:20.250Z")),
                 qPrintable(wall->value));
    }

    void headerTreeWallStartThatIsNoDate() {
        // A t_wall_start of 1.7e308 (huge-header-times.lct) showed "1.7e+308  ( · )": the dates
        // were empty. It reads as the number and says it is no date, like `lmct info`.
        Mp m;
        m.map(5).str("type").str("header").str("magic").bin("LMCT");
        m.str("format_version").sint(1).str("trace_schema_version").sint(2);
        m.str("t_wall_start").f64(1.7e308);
        QString error;
        auto doc = TraceLoader::loadBytes(frame(m.bytes), QStringLiteral("x"), &error);
        QVERIFY2(doc, qPrintable(error));
        const auto root = HeaderTree::build(doc->header());
        const TreeNode *wall = child(root.get(), QStringLiteral("t_wall_start"));
        QVERIFY(wall);
        QVERIFY2(wall->value.contains(QLatin1String("(not a valid date)")),
                 qPrintable(wall->value));
        QVERIFY2(!wall->value.contains(QLatin1String("( · )")), qPrintable(wall->value));
        QVERIFY2(wall->value.startsWith(QLatin1String("1.7e+308")), qPrintable(wall->value));
    }

    void regression_headerTreeJsonNumbersAsWritten() {
        // Config numbers were shown with 17 significant digits: 0.8 read 0.80000000000000004.
        QString error;
        auto doc = TraceLoader::load(fixturePath(QStringLiteral("digest-match.lct")), &error);
        QVERIFY(doc);
        QVERIFY(doc->header().smConfigJson().contains(QLatin1String("\"trigger_watermark\": 0.8")));
        const auto root = HeaderTree::build(doc->header());
        const TreeNode *w = findPath(child(root.get(), QStringLiteral("sm_config_json")),
                                     QStringLiteral("eviction_config.trigger_watermark"));
        QVERIFY(w);
        QCOMPARE(w->value, QStringLiteral("0.8"));
        QCOMPARE(w->copyText, QStringLiteral("0.8"));
    }

    void headerTreeOtherDigests() {
        QString error;
        auto mismatch =
            TraceLoader::load(fixturePath(QStringLiteral("digest-mismatch.lct")), &error);
        auto root = HeaderTree::build(mismatch->header());
        const TreeNode *d = child(root.get(), QStringLiteral("digest check"));
        QVERIFY(d->problem);
        QVERIFY(d->value.contains(QLatin1String("mismatch")));
        QVERIFY(d->value.contains(mismatch->header().computedDigest()));

        auto placeholder = TraceLoader::load(tracePath(QStringLiteral("header-only.lmct")), &error);
        root = HeaderTree::build(placeholder->header());
        d = child(root.get(), QStringLiteral("digest check"));
        QVERIFY(!d->problem);
        QVERIFY(d->value.startsWith(QLatin1String("absent")));
        QVERIFY(child(root.get(), QStringLiteral("sm_config_json"))
                    ->value.contains(QLatin1String("empty")));

        auto rewritten =
            TraceLoader::load(fixturePath(QStringLiteral("header-rewritten.lct")), &error);
        root = HeaderTree::build(rewritten->header());
        d = child(root.get(), QStringLiteral("digest check"));
        QVERIFY(d->problem);
        QVERIFY(d->value.startsWith(QLatin1String("lost")));
        for (const char *k : {"sm_config_json", "sm_config_digest"}) {
            const TreeNode *lost = child(root.get(), QLatin1String(k));
            QVERIFY(lost);
            QCOMPARE(lost->type, QStringLiteral("lost"));
            QVERIFY(lost->problem);
        }
    }

    void headerTreeLevelMetaAndBadJson() {
        auto events = loadTrace(QStringLiteral("events-level.lmct"));
        auto root = HeaderTree::build(events->header());
        const TreeNode *meta = child(root.get(), QStringLiteral("level_meta"));
        QVERIFY(meta);
        const TreeNode *id = child(meta, QStringLiteral("instance_id"));
        QVERIFY(id);
        QCOMPARE(id->value, QStringLiteral("node-a"));
        QCOMPARE(id->path, QStringLiteral("level_meta.instance_id"));
        QCOMPARE(events->header().lmcacheVersion(), QStringLiteral("0.5.1"));

        HeaderSpec h;
        h.configJson = QStringLiteral("{not json");
        QString error;
        auto doc = TraceLoader::loadBytes(frame(headerBody(h)), QStringLiteral("x"), &error);
        QVERIFY(doc);
        root = HeaderTree::build(doc->header());
        const TreeNode *cfg = child(root.get(), QStringLiteral("sm_config_json"));
        QCOMPARE(cfg->children.size(), size_t(1));
        QVERIFY(cfg->children[0]->problem);
        QVERIFY(cfg->children[0]->value.contains(QLatin1String("not a JSON object")));
    }

    // --- Qualname and TimeFormat --------------------------------------------------------------

    void qualnameShortName_data() {
        QTest::addColumn<QString>("qualname");
        QTest::addColumn<QString>("shortName");
        for (const QString &c : Qualname::callFlow()) {
            QTest::newRow(qPrintable(c)) << Qualname::storagePrefix() + c << c;
        }
        QTest::newRow("unknown call")
            << Qualname::storagePrefix() + QStringLiteral("query_prefetch_status")
            << "query_prefetch_status";
        QTest::newRow("events") << "events.batch"
                                << "events.batch";
        QTest::newRow("no class") << "lmcache.v1.mp_observability.trace.codec_probe"
                                  << "lmcache.v1.mp_observability.trace.codec_probe";
        QTest::newRow("class last") << "pkg.Thing"
                                    << "pkg.Thing";
        QTest::newRow("empty") << ""
                               << "";
    }
    void qualnameShortName() {
        QFETCH(QString, qualname);
        QFETCH(QString, shortName);
        QCOMPARE(Qualname::shortName(qualname), shortName);
    }

    void qualnameFlowOrder() {
        QStringList names;
        for (const QString &c : Qualname::callFlow()) {
            names.append(Qualname::storagePrefix() + c);
        }
        QCOMPARE(Qualname::callFlow().first(), QStringLiteral("submit_prefetch_task"));
        QCOMPARE(Qualname::callFlow().size(), 10);
        const QStringList expected =
            names + QStringList{QStringLiteral("a.unknown"), QStringLiteral("events.batch")};
        QStringList shuffled = expected;
        std::reverse(shuffled.begin(), shuffled.end());
        std::swap(shuffled[0], shuffled[4]);
        std::sort(shuffled.begin(), shuffled.end(), Qualname::flowLess);
        QCOMPARE(shuffled, expected);
        QCOMPARE(Qualname::flowRank(names[2]), 2);
        QCOMPARE(Qualname::flowRank(QStringLiteral("events.batch")), 10);
    }

    void timeFormat_data() {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << "0 s";
        QTest::newRow("ns") << 812e-9 << "812 ns";
        QTest::newRow("µs") << 12.3e-6 << "12.3 µs";
        QTest::newRow("small µs") << 4.5e-6 << "4.50 µs";
        QTest::newRow("ms") << 4.567e-3 << "4.567 ms";
        QTest::newRow("tens of ms") << 0.0456 << "45.60 ms";
        QTest::newRow("s") << 1.234 << "1.234 s";
        QTest::newRow("min") << 123.4 << "2 min 3.4 s";
        QTest::newRow("h") << 3720.0 << "1 h 02 min";
        QTest::newRow("negative min") << -123.4 << "-2 min 3.4 s";
        QTest::newRow("nan") << std::nan("") << "—";
    }
    void timeFormat() {
        QFETCH(double, seconds);
        QFETCH(QString, text);
        QCOMPARE(TimeFormat::duration(seconds), text);
    }

    void regression_durationNeverShows60Seconds() {
        // Minutes and seconds were split before rounding to the tenth shown.
        QCOMPARE(TimeFormat::duration(119.97), QStringLiteral("2 min 0.0 s"));
        QCOMPARE(TimeFormat::duration(-119.97), QStringLiteral("-2 min 0.0 s"));
        QCOMPARE(TimeFormat::duration(60.04), QStringLiteral("1 min 0.0 s"));
        QCOMPARE(TimeFormat::duration(3599.94), QStringLiteral("59 min 59.9 s"));
        QCOMPARE(TimeFormat::duration(3599.96), QStringLiteral("1 h 00 min"));
        for (int m = 2; m < 60; ++m) {
            QCOMPARE(TimeFormat::duration(m * 60.0 - 0.03), QStringLiteral("%1 min 0.0 s").arg(m));
            QCOMPARE(TimeFormat::duration(m * 60.0 - 0.06),
                     QStringLiteral("%1 min 59.9 s").arg(m - 1));
        }
    }

    void regression_durationUnitFollowsTheRoundedValue() {
        // The unit and decimals were chosen before rounding: one interval read "+1000.0 µs" on
        // one row and "+1.000 ms" on the next, and "+10.000 ms" beside "+10.00 ms".
        QCOMPARE(TimeFormat::duration(0.00099999), QStringLiteral("1.000 ms"));
        QCOMPARE(TimeFormat::duration(0.001), QStringLiteral("1.000 ms"));
        QCOMPARE(TimeFormat::duration(0.0099999), QStringLiteral("10.00 ms"));
        QCOMPARE(TimeFormat::duration(0.01), QStringLiteral("10.00 ms"));
        QCOMPARE(TimeFormat::duration(9.9999e-6), QStringLiteral("10.0 µs"));
        QCOMPARE(TimeFormat::duration(999.7e-9), QStringLiteral("1.00 µs"));
        QCOMPARE(TimeFormat::duration(0.9999999), QStringLiteral("1.000 s"));
        QCOMPARE(TimeFormat::duration(59.9999), QStringLiteral("1 min 0.0 s"));
        QCOMPARE(TimeFormat::delta(-0.00099999), QStringLiteral("\u2212") + "1.000 ms");
    }

    void timeFormatOthers() {
        QCOMPARE(TimeFormat::delta(0.0015), QStringLiteral("+1.500 ms"));
        QCOMPARE(TimeFormat::delta(-3.4e-6), QStringLiteral("\u22123.40 µs"));
        QVERIFY(TimeFormat::delta(std::nan("")).isEmpty());
        QCOMPARE(TimeFormat::mono(12.3456784), QStringLiteral("12.345678"));
        QCOMPARE(TimeFormat::mono(0.0), QStringLiteral("0.000000"));
        QCOMPARE(TimeFormat::wall(1760000000.25, true), QStringLiteral("2025-10-09 08:53:20.250Z"));
        QCOMPARE(TimeFormat::wall(1760000000.0004, true),
                 QStringLiteral("2025-10-09 08:53:20.000Z"));
        QCOMPARE(TimeFormat::wall(1760000000.9996, true),
                 QStringLiteral("2025-10-09 08:53:21.000Z"));
        QCOMPARE(TimeFormat::wall(0.0, true), QStringLiteral("1970-01-01 00:00:00.000Z"));
        QVERIFY(!TimeFormat::wall(1760000000.25, false).endsWith(QLatin1Char('Z')));
        QVERIFY(TimeFormat::wall(std::numeric_limits<double>::infinity()).isEmpty());
        // Regression (fuzzing, CI): a header's t_wall_start of 3.24663e31 s overflowed the
        // conversion to milliseconds (undefined behaviour) and printed a garbage date.
        QVERIFY(TimeFormat::wall(3.24663e31, true).isEmpty());
        QVERIFY(TimeFormat::wall(-3.24663e31).isEmpty());
        QVERIFY(!TimeFormat::wall(TimeFormat::kMaxWallSeconds, true).isEmpty());
        // Regression (fuzzing): a header duration of 7.7e39 s overflowed the hour count.
        QCOMPARE(TimeFormat::duration(7.67852e39), QStringLiteral("7.679e+39 s"));
        QCOMPARE(TimeFormat::duration(-2e9), QStringLiteral("-2e+09 s"));
    }
};

QTEST_GUILESS_MAIN(TestCodecs)
#include "tst_codecs.moc"
