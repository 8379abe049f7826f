// KeyListHash on its own: equal lists hash equal, order and length count; and the one
// definition every pairing of finish_read_prefetched uses.

#include "cache/followedtrail.h"
#include "cache/keyanalysis.h"
#include "cachetracewriter.h"
#include "codec/keylisthash.h"
#include "stats/tracestatistics.h"
#include "trace/traceloader.h"

#include <QtTest>
#include <initializer_list>

using namespace lmct;

class TestKeyListHash : public QObject {
    Q_OBJECT
private slots:
    void keyListHashIsOrderAndLengthSensitive();
    void finishesArePlacedAlikeEverywhere();
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

// Regression: FinishReadPlacement was fed two key-list hashes, KeyAnalysis's (RawKeyScanner
// identities: a chunk_hash as bin or as hex text is one key) and RecordFacts's (used by
// TraceStatistics and FollowedTrail: the hex text hashed as such), so a finish_read_prefetched
// naming the keys of the read before it with hex chunk hashes was a late release of that read in
// the Cache Behaviour pane and a read of its own in Statistics. One definition: they agree.
void TestKeyListHash::finishesArePlacedAlikeEverywhere() {
    using test::CacheTraceWriter;
    test::CacheTraceWriter w;
    auto asHex = [](std::vector<test::TKey> keys) {
        for (test::TKey &k : keys) {
            k.hashAsHex = true;
        }
        return keys;
    };
    const std::vector<test::TKey> read{test::key(1), test::key(2)}, lease{test::key(3)};
    w.call(1.0, QStringLiteral("read_prefetched_results.__enter__"), read);
    w.call(1.1, QStringLiteral("read_prefetched_results.__exit__"), read);
    w.finishRead(1.2, asHex(read));  // release_on_exit=False: the read's locks, released late
    test::THandle h;
    h.prefetchRequestId = 7;
    w.release(2.0, h, lease);
    w.finishRead(2.0001, asHex(lease));  // the release's own, nested
    QString error;
    auto doc = TraceLoader::loadBytes(w.bytes(), QStringLiteral("hex.lct"), &error);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(doc->records().size(), 5);
    const auto ka = KeyAnalysis::build(*doc);
    QVERIFY(ka);
    QCOMPARE(ka->keyCount(), 3);
    const std::array<qint64, 3> expected{0, 1, 1};  // Read, OfRelease, OfRead
    QCOMPARE(ka->finishRoleCounts(), expected);
    const TraceStatistics st = TraceStatistics::compute(*doc);
    QCOMPARE(st.finishReadRoles, expected);
    QCOMPARE(st.distinctKeys, 3);
    QCOMPARE(FollowedTrail::notReads(*doc, {0, 1, 2, 3, 4}), (std::vector<int>{2, 4}));
}

QTEST_GUILESS_MAIN(TestKeyListHash)
#include "tst_keylisthash.moc"
