// KeyTable on its own: equal identities merge (also a hex-text chunk hash with its bytes), any
// differing field (absent ones included) makes a new dense id, keys whose identity hashes
// collide stay apart, and ids survive the table's growth.

#include "cache/keyanalysis.h"
#include "cache/keytable.h"
#include "codec/rawkeyscanner.h"

#include <QByteArray>
#include <QtTest>
#include <optional>
#include <vector>

using namespace lmct;

namespace {

using Key = KeyAnalysis::Key;

/** An ObjectKey's fields over byte arrays the caller keeps alive. */
RawKeyScanner::Fields fields(const QByteArray &hash, const QByteArray &model, qint64 rank,
                             std::optional<qint64> group = {},
                             const std::optional<QByteArray> &salt = {}, bool hex = false) {
    RawKeyScanner::Fields f;
    f.hash = reinterpret_cast<const uchar *>(hash.constData());
    f.hashSize = quint32(hash.size());
    f.hashIsHex = hex;
    f.model = reinterpret_cast<const uchar *>(model.constData());
    f.modelSize = quint32(model.size());
    f.kvRank = rank;
    f.hasGroup = group.has_value();
    f.group = group.value_or(0);
    f.hasSalt = salt.has_value();
    if (salt) {
        f.salt = reinterpret_cast<const uchar *>(salt->constData());
        f.saltSize = quint32(salt->size());
    }
    return f;
}

quint32 intern(KeyTable<Key> &t, const RawKeyScanner::Fields &f) {
    return t.intern(f, RawKeyScanner::identityHash(f));
}

}  // namespace

class TestKeyTable : public QObject {
    Q_OBJECT
private slots:
    void equalIdentitiesMerge();
    void hashCollisionsStayApart();
    void absentFieldsDifferFromPresentOnes();
    void growKeepsIds();
};

void TestKeyTable::equalIdentitiesMerge() {
    KeyTable<Key> t;
    const QByteArray h("\x01\x02\xab", 3), hex("0102ab"), m("llama"), m2("llama");
    const quint32 a = intern(t, fields(h, m, 7, 3, QByteArray("tenant")));
    QCOMPARE(a, 0u);
    // Same identity from other buffers, and the chunk hash as hex text: the same key.
    QCOMPARE(intern(t, fields(QByteArray(h), m2, 7, 3, QByteArray("tenant"))), a);
    QCOMPARE(intern(t, fields(hex, m2, 7, 3, QByteArray("tenant"), true)), a);
    QCOMPARE(t.size(), 1u);
    QCOMPARE(t.entry(a).hashSize, 3u);
    QCOMPARE(QByteArray(reinterpret_cast<const char *>(t.hashData() + t.entry(a).hashOffset),
                        qsizetype(t.entry(a).hashSize)),
             h);
    QCOMPARE(t.models(), QStringList{QStringLiteral("llama")});
    QCOMPARE(t.salts(), QStringList{QStringLiteral("tenant")});
    QCOMPARE(t.entry(a).kvRank, 7);
    QVERIFY(t.entry(a).hasGroup);
    QCOMPARE(t.entry(a).group, 3);
    // Any differing field: a new dense id; model names are shared.
    QCOMPARE(intern(t, fields(h, m, 8, 3, QByteArray("tenant"))), 1u);
    QCOMPARE(intern(t, fields(h, m, 7, 4, QByteArray("tenant"))), 2u);
    QCOMPARE(intern(t, fields(h, m, 7, 3, QByteArray("other"))), 3u);
    QCOMPARE(intern(t, fields(h, QByteArray("mistral"), 7, 3, QByteArray("tenant"))), 4u);
    QCOMPARE(intern(t, fields(QByteArray("\x01\x02", 2), m, 7, 3, QByteArray("tenant"))), 5u);
    QCOMPARE(t.size(), 6u);
    QCOMPARE(t.models().size(), 2);
    QCOMPARE(t.salts().size(), 2);
    const std::optional<QByteArray> tenant = QByteArray("tenant");  // outlives the fields below
    const RawKeyScanner::Fields f = fields(h, m, 8, 3, tenant);
    QCOMPARE(t.find(f, RawKeyScanner::identityHash(f)), 1);
    const RawKeyScanner::Fields g = fields(h, m, 9, 3, tenant);
    QCOMPARE(t.find(g, RawKeyScanner::identityHash(g)), -1);
}

void TestKeyTable::hashCollisionsStayApart() {
    // Every key given the same identity hash: only the fields tell them apart.
    KeyTable<Key> t;
    constexpr quint64 kSame = 0x5eed;
    const QByteArray m("model");
    std::vector<QByteArray> hashes;
    for (int i = 0; i < 40; ++i) {
        hashes.push_back(QByteArray::number(i));
    }
    for (int i = 0; i < 40; ++i) {
        QCOMPARE(t.intern(fields(hashes[size_t(i)], m, 0), kSame), quint32(i));
    }
    for (int i = 0; i < 40; ++i) {
        QCOMPARE(t.intern(fields(hashes[size_t(i)], m, 0), kSame), quint32(i));
        QCOMPARE(t.find(fields(hashes[size_t(i)], m, 0), kSame), i);
    }
    // Same fields under another hash are not found (the hash picks the probe chain).
    QCOMPARE(t.find(fields(hashes[0], m, 0), kSame + 1), -1);
    QCOMPARE(t.size(), 40u);
    QVERIFY(!t.matches(t.entry(0), fields(hashes[1], m, 0)));
    QVERIFY(t.matches(t.entry(1), fields(hashes[1], m, 0)));
}

void TestKeyTable::absentFieldsDifferFromPresentOnes() {
    KeyTable<Key> t;
    const QByteArray h("abc"), m("m");
    const quint32 none = intern(t, fields(h, m, 0));
    const quint32 group0 = intern(t, fields(h, m, 0, 0));
    const quint32 emptySalt = intern(t, fields(h, m, 0, {}, QByteArray("")));
    QCOMPARE(none, 0u);
    QCOMPARE(group0, 1u);
    QCOMPARE(emptySalt, 2u);
    QCOMPARE(t.entry(none).salt, -1);
    QVERIFY(!t.entry(none).hasGroup);
    QCOMPARE(t.entry(emptySalt).salt, 0);
    QCOMPARE(t.salts(), QStringList{QString()});
    // Forced onto one hash, they still do not merge.
    KeyTable<Key> c;
    QCOMPARE(c.intern(fields(h, m, 0), 1), 0u);
    QCOMPARE(c.intern(fields(h, m, 0, 0), 1), 1u);
    QCOMPARE(c.intern(fields(h, m, 0, {}, QByteArray("")), 1), 2u);
    QCOMPARE(c.intern(fields(h, m, 0, {}, QByteArray("")), 1), 2u);
}

void TestKeyTable::growKeepsIds() {
    KeyTable<Key> t;
    const QByteArray m("m");
    std::vector<QByteArray> hashes;
    for (int i = 0; i < 5000; ++i) {
        hashes.push_back(QByteArray::number(i * 7919));
    }
    for (int i = 0; i < 5000; ++i) {
        QCOMPARE(intern(t, fields(hashes[size_t(i)], m, i % 3)), quint32(i));
    }
    const qint64 grown = t.memoryBytes();
    for (int i = 0; i < 5000; ++i) {
        const RawKeyScanner::Fields f = fields(hashes[size_t(i)], m, i % 3);
        QCOMPARE(t.find(f, RawKeyScanner::identityHash(f)), i);
    }
    QVERIFY(grown >= qint64(5000 * 2 * sizeof(quint32)));  // at most half full
    t.finish();
    const RawKeyScanner::Fields f = fields(hashes[42], m, 0);
    QCOMPARE(t.find(f, RawKeyScanner::identityHash(f)), 42);
    QCOMPARE(intern(t, f), 42u);
}

QTEST_GUILESS_MAIN(TestKeyTable)
#include "tst_keytable.moc"
