// KeyAnalysis, KeyLifecycle, RawKeyScanner and KeyTableModel: key identity, per-key counts and
// states on crafted traces, agreement with Value decoding on every reference trace, and the key
// table under QAbstractItemModelTester.

#include "cache/anomalyreport.h"
#include "cache/keyanalysis.h"
#include "cache/keylifecycle.h"
#include "cachetracewriter.h"
#include "codec/objectkey.h"
#include "filter/filterevaluator.h"
#include "filter/filterexpression.h"
#include "itemmodels/keytablemodel.h"
#include "timeline/finishreadplacement.h"
#include "trace/diagnostic.h"
#include "trace/traceloader.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QHash>
#include <QtTest>
#include <cmath>

using namespace lmct;
using namespace lmct::test;

namespace {

std::shared_ptr<const TraceDocument> loadBytes(const QByteArray &bytes) {
    QString error;
    auto doc = TraceLoader::loadBytes(bytes, QStringLiteral("crafted.lct"), &error);
    if (!doc) {
        qWarning() << error;
    }
    return doc;
}

ObjectKey toObjectKey(const TKey &k) {
    ObjectKey o;
    o.chunkHash = k.hash;
    o.modelName = k.model;
    o.kvRank = k.kvRank;
    o.objectGroupId = k.group;
    o.cacheSalt = k.salt;
    return o;
}

/** A key identity as text, independent of KeyAnalysis. */
QString identity(const ObjectKey &k) {
    return QStringLiteral("%1|%2|%3|%4|%5")
        .arg(
            k.hashHex(), k.modelName, QString::number(k.kvRank),
            k.objectGroupId ? QString::number(*k.objectGroupId) : QStringLiteral("-"),
            k.cacheSalt ? QLatin1Char('"') + *k.cacheSalt + QLatin1Char('"') : QStringLiteral("-"));
}

const char *kCalls[] = {"reserve_write",         "reserve_write_with_status",
                        "finish_write",          "abort_write",
                        "submit_prefetch_task",  "read_prefetched_results.__enter__",
                        "finish_read_prefetched"};

}  // namespace

class TestKeyAnalysis : public QObject {
    Q_OBJECT

private:
    /** Crafted: five keys in the five states, identity variants, keys in three places. */
    QByteArray craftedStates() {
        CacheTraceWriter w;
        TKey k6 = key(1);
        k6.salt = QStringLiteral("tenant-b");  // other tenant: another key
        TKey k7 = key(1);
        k7.group.reset();            // no object_group_id: another key
        TKey k8 = key(1, 33620481);  // rank 1: another key
        TKey k9 = key(1);
        k9.hashAsHex = true;  // the same key as key(1), hash written as hex text
        w.call(0.5, QStringLiteral("submit_prefetch_task"), {key(1), key(5)}, KeysAt::Spec,
               QStringLiteral("req-a"));                                                 // 0
        w.call(1.0, QStringLiteral("reserve_write"), {key(1), key(2), key(3), key(4)});  // 1
        w.call(1.5, QStringLiteral("finish_write"), {key(1), key(2)});                   // 2
        w.call(2.0, QStringLiteral("read_prefetched_results.__enter__"), {key(1)});      // 3
        w.call(2.1, QStringLiteral("finish_read_prefetched"), {k9});                     // 4
        w.call(2.2, QStringLiteral("read_prefetched_results.__exit__"), {key(1)});       // 5
        w.call(3.0, QStringLiteral("abort_write"), {key(3)});                            // 6
        w.call(3.5, QStringLiteral("reserve_write_with_status"), {k6, k7, k8});          // 7
        w.call(4.0, QStringLiteral("finish_write"), {}, KeysAt::None);                   // 8
        w.call(4.5, QStringLiteral("submit_prefetch_task"), {key(5), key(6)}, KeysAt::Grouped,
               QStringLiteral("req-b"));  // 9
        return w.bytes();
    }

private slots:
    void identityCountsAndStates() {
        const auto doc = loadBytes(craftedStates());
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), 10);
        const auto ka = KeyAnalysis::build(*doc);
        QVERIFY(ka);
        QCOMPARE(ka->recordCount(), 10);
        // key(1..6) + the three identity variants of key(1); the hex-hash key(1) is key(1).
        QCOMPARE(ka->keyCount(), 9);
        QCOMPARE(ka->keyRecordCount(), 9);  // every record but the __exit__
        const int k1 = ka->find(toObjectKey(key(1)));
        QVERIFY(k1 >= 0);
        TKey hex = key(1);
        QCOMPARE(ka->find(toObjectKey(hex)), k1);
        TKey other = key(1);
        other.salt = QStringLiteral("tenant-b");
        const int k6 = ka->find(toObjectKey(other));
        QVERIFY(k6 >= 0 && k6 != k1);
        other = key(1);
        other.group.reset();
        const int k7 = ka->find(toObjectKey(other));
        QVERIFY(k7 >= 0 && k7 != k1 && k7 != k6);
        const int k8 = ka->find(toObjectKey(key(1, 33620481)));
        QVERIFY(k8 >= 0 && k8 != k1 && k8 != k7);
        QCOMPARE(ka->find(toObjectKey(key(99))), -1);

        const KeyAnalysis::Key &a = ka->key(k1);
        QCOMPARE(a.prefetches, 1u);
        QCOMPARE(a.reserves, 1u);
        QCOMPARE(a.finishes, 1u);
        QCOMPARE(a.readEnters, 1u);
        QCOMPARE(a.finishReads, 1u);
        QCOMPARE(a.reads(), 2u);
        QCOMPARE(a.aborts, 0u);
        QCOMPARE(a.firstRecord, 0);
        QCOMPARE(a.lastRecord, 4);
        QCOMPARE(a.firstT, 0.5);
        QCOMPARE(a.lastT, 2.1);
        QCOMPARE(a.writeLatency, 0.5);
        QCOMPARE(a.firstReuse, 0.5);
        QCOMPARE(a.state, KeyAnalysis::State::WrittenRead);
        QCOMPARE(ka->hashHex(k1), QString::fromLatin1(chunk(1).toHex()));
        QCOMPARE(ka->modelName(k1), QStringLiteral("Qwen/Qwen3-8B"));
        QCOMPARE(identity(ka->objectKey(k1)), identity(toObjectKey(key(1))));

        auto stateOf = [&](int n) { return ka->key(ka->find(toObjectKey(key(n)))).state; };
        QCOMPARE(stateOf(2), KeyAnalysis::State::Written);
        QVERIFY(std::isnan(ka->key(ka->find(toObjectKey(key(2)))).firstReuse));
        QCOMPARE(stateOf(3), KeyAnalysis::State::Aborted);
        QCOMPARE(stateOf(4), KeyAnalysis::State::ReservedOnly);
        QCOMPARE(stateOf(5), KeyAnalysis::State::PrefetchedOnly);
        QCOMPARE(ka->key(ka->find(toObjectKey(key(5)))).prefetches, 2u);  // spec and grouped
        QCOMPARE(stateOf(6), KeyAnalysis::State::PrefetchedOnly);
        QCOMPARE(ka->key(k6).state, KeyAnalysis::State::ReservedOnly);
        QCOMPARE(ka->key(k6).reserves, 1u);  // reserve_write_with_status counts as a reserve
        const auto states = ka->stateCounts();
        QCOMPARE(states[size_t(KeyAnalysis::State::WrittenRead)], 1);
        QCOMPARE(states[size_t(KeyAnalysis::State::Written)], 1);
        QCOMPARE(states[size_t(KeyAnalysis::State::Aborted)], 1);
        QCOMPARE(states[size_t(KeyAnalysis::State::ReservedOnly)], 4);  // key(4), k6, k7, k8
        QCOMPARE(states[size_t(KeyAnalysis::State::PrefetchedOnly)], 2);

        // The keyless finish_write is recorded, attributed to nobody.
        QCOMPARE(ka->keylessFinishes(), std::vector<qint32>{8});
        QCOMPARE(ka->keysAt(ka->keyRecordOf(8)).size(), size_t(0));
        QCOMPARE(ka->keyRecordOf(5), -1);  // __exit__ is no key record
        QCOMPARE(ka->requestIdAt(ka->keyRecordOf(0)), QStringLiteral("req-a"));
        QCOMPARE(ka->requestIdAt(ka->keyRecordOf(9)), QStringLiteral("req-b"));
        QCOMPARE(ka->requestIdAt(ka->keyRecordOf(1)), QString());
        QCOMPARE(ka->damagedRecords(), 0);
    }

    void regression_damagedFinishIsNoKeylessFinish() {
        // A finish_write whose chunk_hash bin claims 255 bytes (c4 20 -> c4 ff) was counted as a
        // finish_write without keys, with nothing tying it to the damage.
        CacheTraceWriter w;
        w.call(0.1, QStringLiteral("reserve_write"), {key(1), key(2), key(3)});  // 0
        w.call(0.2, QStringLiteral("reserve_write"), {key(4)});                  // 1
        w.call(0.3, QStringLiteral("finish_write"), {key(1), key(2), key(3)});   // 2
        w.call(0.4, QStringLiteral("finish_write"), {key(4)});                   // 3
        QByteArray b = w.bytes();
        const QByteArray marker(
            "\xaa"
            "chunk_hash\xc4\x20",
            13);
        qsizetype at = -1;
        for (int occurrence = 0; occurrence < 8; ++occurrence) {
            at = b.indexOf(marker, at + 1);
            QVERIFY(at > 0);
            if (occurrence == 5 || occurrence == 7) {  // record 2's second key, record 3's
                b[at + marker.size() - 1] = char(0xff);
            }
        }
        const auto doc = loadBytes(b);
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), 4);
        const auto ka = KeyAnalysis::build(*doc);
        QVERIFY(ka);
        QCOMPARE(ka->damagedRecords(), 2);
        QCOMPARE(ka->firstDamagedRecord(), 2);
        QVERIFY(ka->keylessFinishes().empty());
        QCOMPARE(ka->keysAt(ka->keyRecordOf(2)).size(), size_t(1));  // the key before the damage
        QCOMPARE(ka->keysAt(ka->keyRecordOf(3)).size(), size_t(0));
        // The reservations the damaged finish_writes may have finished are not reported.
        QCOMPARE(ka->lastDamagedFinish(), 3);
        const auto report = AnomalyReport::build(*doc, ka);
        QVERIFY(report);
        QCOMPARE(report->count(AnomalyReport::Kind::ReserveWithoutFinish), 0);
        QCOMPARE(report->suppressedReservations(), 3);  // key(2), key(3), key(4)
    }

    void timesReadFromTheStoreTheAnalysisHolds() {
        // A key record's t_mono is read from the record store instead of an 8-byte copy per key
        // record (10 M small records: 80 MB); the analysis holds the document for it.
        auto doc = loadBytes(craftedStates());
        QVERIFY(doc);
        const auto ka = KeyAnalysis::build(*doc);
        const std::weak_ptr<const TraceDocument> watch = doc;
        const int n = ka->keyRecordCount();
        std::vector<double> times;
        for (int kr = 0; kr < n; ++kr) {
            QCOMPARE(ka->timeAt(kr), doc->records().tMono(ka->recordOf(kr)));
            times.push_back(ka->timeAt(kr));
        }
        doc.reset();  // e.g. the tab closed while the Cache Behaviour pane still shows it
        QVERIFY(!watch.expired());
        for (int kr = 0; kr < n; ++kr) {
            QCOMPARE(ka->timeAt(kr), times[size_t(kr)]);
        }
        // per key record: index 4, call 1, CSR offset 8 bytes (no time), on enough records
        // that a column more shows
        CacheTraceWriter w;
        for (int i = 0; i < 5000; ++i) {
            w.call(0.001 * i, QStringLiteral("reserve_write"), {key(i % 100)});
        }
        const auto big = loadBytes(w.bytes());
        QVERIFY(big);
        const auto kb = KeyAnalysis::build(*big);
        QCOMPARE(kb->keyRecordCount(), 5000);
        // beside the keys themselves (their stats, hash bytes, the 1024-slot table)
        const qint64 fixed = qint64(kb->keyCount() * sizeof(KeyAnalysis::Key)) + 4096 + 4096;
        const qint64 perRecord = 4 + 1 + 4 + 4;  // record, call, CSR offset, its one key id
        QVERIFY2(kb->memoryBytes() <= perRecord * 5000 + 2000 + fixed,
                 qPrintable(QString::number(kb->memoryBytes())));
    }

    void lifecycle() {
        const auto doc = loadBytes(craftedStates());
        const auto ka = KeyAnalysis::build(*doc);
        const KeyLifecycle lc = KeyLifecycle::build(*ka, ka->find(toObjectKey(key(1))));
        QCOMPARE(lc.events().size(), size_t(5));
        const std::vector<int> records{0, 1, 2, 3, 4};
        const std::vector<KeyAnalysis::Call> calls{
            KeyAnalysis::Call::Prefetch, KeyAnalysis::Call::Reserve, KeyAnalysis::Call::Finish,
            KeyAnalysis::Call::ReadEnter, KeyAnalysis::Call::FinishRead};
        for (size_t i = 0; i < records.size(); ++i) {
            QCOMPARE(lc.events()[i].record, records[i]);
            QCOMPARE(lc.events()[i].call, calls[i]);
        }
        QCOMPARE(lc.events()[0].sincePrevious, 0.0);
        QCOMPARE(lc.events()[1].sincePrevious, 0.5);
        QCOMPARE(lc.events()[2].writeLatency, 0.5);
        QCOMPARE(lc.writeLatency(), 0.5);
        QCOMPARE(lc.timeToFirstReuse(), 0.5);
        QVERIFY(!lc.truncated());

        const KeyLifecycle aborted = KeyLifecycle::build(*ka, ka->find(toObjectKey(key(3))));
        QCOMPARE(aborted.events().size(), size_t(2));
        QCOMPARE(aborted.events()[1].call, KeyAnalysis::Call::Abort);
        QCOMPARE(aborted.events()[1].record, 6);
        QVERIFY(std::isnan(aborted.writeLatency()));

        const KeyLifecycle capped = KeyLifecycle::build(*ka, ka->find(toObjectKey(key(1))), 2);
        QCOMPARE(capped.events().size(), size_t(2));
        QVERIFY(capped.truncated());
        QCOMPARE(capped.timeToFirstReuse(), 0.5);  // figures still see every event
        QVERIFY(KeyLifecycle::build(*ka, -1).events().empty());
    }

    void writeLatencyAfterAbort() {
        // reserve, abort, reserve again, finish: the latency runs from the second reservation.
        CacheTraceWriter w;
        w.call(1.0, QStringLiteral("reserve_write"), {key(1)});
        w.call(2.0, QStringLiteral("abort_write"), {key(1)});
        w.call(3.0, QStringLiteral("reserve_write"), {key(1)});
        w.call(3.25, QStringLiteral("finish_write"), {key(1)});
        w.call(4.0, QStringLiteral("finish_write"), {key(2)});  // never reserved
        const auto doc = loadBytes(w.bytes());
        const auto ka = KeyAnalysis::build(*doc);
        const KeyAnalysis::Key &k = ka->key(ka->find(toObjectKey(key(1))));
        QCOMPARE(k.writeLatency, 0.25);
        QCOMPARE(k.state, KeyAnalysis::State::Written);
        QCOMPARE(KeyLifecycle::build(*ka, ka->find(toObjectKey(key(1)))).writeLatency(), 0.25);
        QVERIFY(std::isnan(ka->key(ka->find(toObjectKey(key(2)))).writeLatency));
    }

    void finishReadPlacedByOrderAndKeyList() {
        // Which finish_read_prefetched is a read of its own (FinishRole), from the calls' order
        // and key lists; every key is written first.
        const QString R = QStringLiteral("reserve_write"), F = QStringLiteral("finish_write"),
                      EN = QStringLiteral("read_prefetched_results.__enter__"),
                      EX = QStringLiteral("read_prefetched_results.__exit__"),
                      S = QStringLiteral("submit_prefetch_task");
        CacheTraceWriter w;
        double t = 0.0;
        auto next = [&t] { return t += 0.001; };
        std::vector<TKey> all;
        for (int i = 1; i <= 8; ++i) {
            all.push_back(key(i));
        }
        w.call(next(), R, all);          // 0
        w.call(next(), F, all);          // 1
        w.call(next(), EN, {key(1)});    // 2  older builds: the finish sits inside the read
        w.finishRead(next(), {key(1)});  // 3  Read
        w.call(next(), EX, {key(1)});    // 4
        w.call(next(), EN, {key(2)});    // 5  late 2026: release_on_exit=False
        w.call(next(), EX, {key(2)});    // 6
        w.finishRead(next(), {key(2)});  // 7  OfRead (owner 5)
        w.call(next(), EN, {key(3)});    // 8
        const double before = next();
        w.call(next(), EX, {key(3)});    // 9
        w.finishRead(before, {key(3)});  // 10 called before the exit, published after: Read
        THandle h;
        h.externalRequestId = QStringLiteral("req-4");
        w.release(next(), h, std::vector<TKey>{key(4)});  // 11
        w.finishRead(next(), {key(4)});                   // 12 OfRelease (owner 11)
        w.call(next(), S, {key(5), key(6)}, KeysAt::Spec, QStringLiteral("req-5"));  // 13
        h.externalRequestId = QStringLiteral("req-5");
        h.submitTime = CacheTraceWriter::kTMonoStart + 0.014;
        w.release(next(), h, std::nullopt);      // 14 keys nil: the request's (5, 6)
        w.finishRead(next(), {key(5), key(6)});  // 15 OfRelease (owner 14)
        w.finishRead(next(), {key(7)});          // 16 no read, no release: Read
        h.externalRequestId = QStringLiteral("req-5");
        w.cancel(next(), h);  // 17 no keys of its own
        for (int i = 0; i < KeyAnalysis::kNestWindow + 1; ++i) {
            w.call(next(), R, {key(100 + i)});  // 18..34
        }
        w.release(next(), h, std::vector<TKey>{key(8)});  // 35
        for (int i = 0; i < KeyAnalysis::kNestWindow + 1; ++i) {
            w.call(next(), F, {key(100 + i)});  // 36..52
        }
        w.finishRead(next(), {key(8)});  // 53 too far after the release: Read
        const auto doc = loadBytes(w.bytes());
        QVERIFY(doc);
        const auto ka = KeyAnalysis::build(*doc);
        using Role = KeyAnalysis::FinishRole;
        auto roleOf = [&](int record) { return ka->finishRoleAt(ka->keyRecordOf(record)); };
        auto ownerOf = [&](int record) { return ka->finishOwnerAt(ka->keyRecordOf(record)); };
        QCOMPARE(roleOf(3), Role::Read);
        QCOMPARE(roleOf(7), Role::OfRead);
        QCOMPARE(ownerOf(7), 5);
        QCOMPARE(roleOf(10), Role::Read);
        QCOMPARE(roleOf(12), Role::OfRelease);
        QCOMPARE(ownerOf(12), 11);
        QCOMPARE(roleOf(15), Role::OfRelease);
        QCOMPARE(ownerOf(15), 14);
        QCOMPARE(roleOf(16), Role::Read);
        QCOMPARE(roleOf(53), Role::Read);
        QCOMPARE(ownerOf(16), -1);
        const auto roles = ka->finishRoleCounts();
        QCOMPARE(roles[int(Role::Read)], 4);
        QCOMPARE(roles[int(Role::OfRelease)], 2);
        QCOMPARE(roles[int(Role::OfRead)], 1);
        QCOMPARE(ka->callAt(ka->keyRecordOf(7)), KeyAnalysis::Call::FinishRead);

        auto idOf = [&](int n) { return ka->find(toObjectKey(key(n))); };
        // Reads: the inside finish still counts (older builds keep their meaning), the late one
        // and the release's do not.
        QCOMPARE(ka->key(idOf(1)).reads(), 2u);
        QCOMPARE(ka->key(idOf(2)).reads(), 1u);
        QCOMPARE(ka->key(idOf(2)).finishReads, 0u);
        QCOMPARE(ka->key(idOf(4)).reads(), 0u);
        QCOMPARE(ka->key(idOf(4)).state, KeyAnalysis::State::Written);  // released, never read
        QVERIFY(std::isnan(ka->key(idOf(4)).firstReuse));
        QCOMPARE(ka->key(idOf(7)).state, KeyAnalysis::State::WrittenRead);

        // Release and cancel: their calls, keys and handles.
        const int rel = ka->keyRecordOf(14), can = ka->keyRecordOf(17);
        QCOMPARE(ka->callAt(rel), KeyAnalysis::Call::Release);
        QCOMPARE(ka->callAt(can), KeyAnalysis::Call::Cancel);
        QCOMPARE(ka->releaseCount(), 3);
        QCOMPARE(ka->cancelCount(), 1);
        QCOMPARE(ka->releasesWithRequestKeys(), 1);
        const std::vector<quint32> relKeys(ka->keysAt(rel).begin(), ka->keysAt(rel).end());
        QCOMPARE(relKeys, (std::vector<quint32>{quint32(idOf(5)), quint32(idOf(6))}));
        QVERIFY(ka->keysAt(can).empty());
        QCOMPARE(ka->key(idOf(5)).lastRecord, 15);
        const KeyLifecycle lc5 = KeyLifecycle::build(*ka, idOf(5));
        QCOMPARE(lc5.events().size(), size_t(5));  // reserve, finish, submit, release, finish
        QCOMPARE(lc5.events()[3].call, KeyAnalysis::Call::Release);
        QCOMPARE(ka->handleSubmit(rel), ka->keyRecordOf(13));
        QCOMPARE(ka->handleSubmit(can), ka->keyRecordOf(13));
        QCOMPARE(ka->handleSubmit(ka->keyRecordOf(11)), -1);  // no such submit
        QVERIFY(ka->handleAt(can));
        QCOMPARE(ka->handleAt(can)->externalRequestId, QStringLiteral("req-5"));
        const PrefetchHandle &ph = *ka->handleAt(can);
        QCOMPARE(ph.prefetchRequestId, -1);
        QVERIFY(ph.hasHitCount && ph.hasTotal);
        QVERIFY(qAbs(ph.submitTMono(*doc->header().tMonoStart()) - 0.014) < 1e-9);
        QCOMPARE(ph.submitTMono(*doc->header().tMonoStart()), ph.submitTime - 81234.5);
        QCOMPARE(ka->requestIdAt(can), QStringLiteral("req-5"));
        QCOMPARE(ka->handleRecords().size(), size_t(4));

        // The lifecycle lists the late finish with the read it belongs to, and no reuse from it.
        const KeyLifecycle lc = KeyLifecycle::build(*ka, idOf(4));
        QCOMPARE(lc.events().back().record, 12);
        QCOMPARE(lc.events().back().partOf, 11);
        QVERIFY(std::isnan(lc.timeToFirstReuse()));
        const KeyLifecycle lc2 = KeyLifecycle::build(*ka, idOf(2));
        QCOMPARE(lc2.events().back().partOf, 5);
        QVERIFY(qAbs(lc2.timeToFirstReuse() - (doc->records().tMono(5) - doc->records().tMono(1))) <
                1e-12);
    }

    void nilReleaseGivesBackItsLockedKeys() {
        // A request of 6 keys with 4 found in L1, released with keys = nil: the lease covers the
        // keys at l1_found_indices, and the nested finish_read_prefetched of those 4 is the
        // release's, no read. A nil release of a handle that lists no found index names all of
        // its request's keys, and its nested finish is still its own whatever keys it lists.
        const QString R = QStringLiteral("reserve_write"), F = QStringLiteral("finish_write"),
                      S = QStringLiteral("submit_prefetch_task");
        CacheTraceWriter w;
        const std::vector<TKey> stored{key(0), key(1), key(2), key(3)};
        w.call(1.0, R, stored);   // 0
        w.call(1.01, F, stored);  // 1
        w.call(2.0, S, {key(0), key(1), key(2), key(3), key(4), key(5)}, KeysAt::Spec,
               QStringLiteral("A"));  // 2
        THandle h;
        h.externalRequestId = QStringLiteral("A");
        h.l1PrefixHitCount = 4;  // l1_found_indices 0..3
        h.totalRequestedKeys = 6;
        h.submitTime = CacheTraceWriter::kTMonoStart + 2.0;
        w.release(2.03, h, std::nullopt);  // 3
        w.finishRead(2.031, stored);       // 4: of the release
        w.call(3.0, S, {key(0), key(1), key(6)}, KeysAt::Spec, QStringLiteral("B"));  // 5
        h.externalRequestId = QStringLiteral("B");
        h.l1PrefixHitCount = 0;  // no found index listed
        h.totalRequestedKeys = 3;
        h.submitTime = CacheTraceWriter::kTMonoStart + 3.0;
        w.release(3.03, h, std::nullopt);       // 6
        w.finishRead(3.031, {key(0), key(1)});  // 7: of the release too
        const auto doc = loadBytes(w.bytes());
        QVERIFY(doc);
        const auto ka = KeyAnalysis::build(*doc);
        using Role = KeyAnalysis::FinishRole;
        QCOMPARE(ka->finishRoleAt(ka->keyRecordOf(4)), Role::OfRelease);
        QCOMPARE(ka->finishOwnerAt(ka->keyRecordOf(4)), 3);
        QCOMPARE(ka->finishRoleAt(ka->keyRecordOf(7)), Role::OfRelease);
        QCOMPARE(ka->finishOwnerAt(ka->keyRecordOf(7)), 6);
        QCOMPARE(ka->finishRoleCounts()[int(Role::Read)], 0);
        QCOMPARE(ka->releasesWithRequestKeys(), 2);
        auto idOf = [&](int n) { return quint32(ka->find(toObjectKey(key(n)))); };
        auto keysOf = [&](int record) {
            const auto ks = ka->keysAt(ka->keyRecordOf(record));
            return std::vector<quint32>(ks.begin(), ks.end());
        };
        QCOMPARE(keysOf(3), (std::vector<quint32>{idOf(0), idOf(1), idOf(2), idOf(3)}));
        QCOMPARE(keysOf(6), (std::vector<quint32>{idOf(0), idOf(1), idOf(6)}));
        for (int n = 0; n < 4; ++n) {
            QCOMPARE(ka->key(int(idOf(n))).state, KeyAnalysis::State::Written);  // never read
            QCOMPARE(ka->key(int(idOf(n))).reads(), 0u);
        }
        QCOMPARE(ka->key(int(idOf(4))).lastRecord, 2);  // not locked: not given back
    }

    void placementOfAReleaseWithUnknownKeys() {
        // A release whose keys are not known (nil, linked to no submit) takes the first finish
        // within the window whatever its key list; a known list only its own.
        using Role = FinishReadPlacement::Role;
        FinishReadPlacement p;
        qint32 owner = -1;
        p.release(111, 10, true);
        QCOMPARE(p.finish(222, 11, 1.0, &owner), Role::Read);
        QCOMPARE(owner, -1);
        QCOMPARE(p.finish(111, 12, 1.0, &owner), Role::OfRelease);
        QCOMPARE(owner, 10);
        p.release(0, 20, false);
        QCOMPARE(p.finish(333, 21, 1.0, &owner), Role::OfRelease);
        QCOMPARE(owner, 20);
        p.release(0, 30, false);
        QCOMPARE(p.finish(333, 30 + FinishReadPlacement::kNestWindow + 1, 1.0, &owner), Role::Read);
    }

    void handleLinkedByIdAndSubmitTime() {
        // The same external_request_id submitted twice: submit_time picks the submit; a later
        // handle with the same prefetch_request_id follows the first link.
        const QString S = QStringLiteral("submit_prefetch_task");
        CacheTraceWriter w;
        w.call(0.010, S, {key(1)}, KeysAt::Spec, QStringLiteral("same"));  // 0
        w.call(0.020, S, {key(2)}, KeysAt::Spec, QStringLiteral("same"));  // 1
        THandle h;
        h.externalRequestId = QStringLiteral("same");
        h.prefetchRequestId = 7;
        h.submitTime = CacheTraceWriter::kTMonoStart + 0.010;
        w.release(0.030, h, std::nullopt);  // 2: submit 0 (nearest submit_time)
        h.externalRequestId = QStringLiteral("renamed");
        h.submitTime = qQNaN();
        w.cancel(0.040, h);  // 3: prefetch_request_id 7: submit 0 too
        THandle other;
        other.externalRequestId = QStringLiteral("same");
        other.submitTime = qQNaN();
        w.cancel(0.050, other);  // 4: no submit_time, no id: the latest submit (1)
        const auto doc = loadBytes(w.bytes());
        QVERIFY(doc);
        const auto ka = KeyAnalysis::build(*doc);
        QCOMPARE(ka->handleSubmit(ka->keyRecordOf(2)), ka->keyRecordOf(0));
        QCOMPARE(ka->handleSubmit(ka->keyRecordOf(3)), ka->keyRecordOf(0));
        QCOMPARE(ka->handleSubmit(ka->keyRecordOf(4)), ka->keyRecordOf(1));
        const std::vector<quint32> relKeys(ka->keysAt(ka->keyRecordOf(2)).begin(),
                                           ka->keysAt(ka->keyRecordOf(2)).end());
        QCOMPARE(relKeys, (std::vector<quint32>{quint32(ka->find(toObjectKey(key(1))))}));
    }

    void alreadyStoredKeys() {
        // reserve_write(mode="new") reserves only keys not stored yet; its finish lists those.
        CacheTraceWriter w;
        w.call(0.001, QStringLiteral("reserve_write"), {key(1), key(2)});
        w.call(0.002, QStringLiteral("finish_write"), {key(1), key(2)});
        w.call(0.003, QStringLiteral("reserve_write"), {key(1), key(2), key(3)});
        w.call(0.004, QStringLiteral("finish_write"), {key(3)});
        w.call(0.005, QStringLiteral("reserve_write"), {key(3)});
        w.call(0.006, QStringLiteral("finish_write"), {key(3)});  // finished again: not skipped
        const auto doc = loadBytes(w.bytes());
        QVERIFY(doc);
        const auto ka = KeyAnalysis::build(*doc);
        auto idOf = [&](int n) { return ka->find(toObjectKey(key(n))); };
        QCOMPARE(ka->alreadyStoredCount(), 2);
        QVERIFY(ka->key(idOf(1)).reservedAgain);
        QVERIFY(ka->key(idOf(2)).reservedAgain);
        QVERIFY(!ka->key(idOf(3)).reservedAgain);
        QCOMPARE(ka->key(idOf(1)).state, KeyAnalysis::State::Written);
    }

    void schema2KeysWithoutSalt() {
        auto saltless = [](int n) {
            TKey k = key(n);
            k.salt.reset();
            return k;
        };
        auto noteCount = [](const TraceDocument &doc) {
            int c = 0;
            for (const Diagnostic &d : doc.diagnostics()) {
                c += d.message.contains(KeyAnalysis::saltMissingNote()) ? 1 : 0;
            }
            return c;
        };
        {
            CacheTraceWriter w(2);
            w.call(0.001, QStringLiteral("reserve_write"), {saltless(1)});
            const auto doc = loadBytes(w.bytes());
            QVERIFY(doc);
            QCOMPARE(noteCount(*doc), 0);
            QVERIFY(KeyAnalysis::build(*doc)->saltMissing());
            QVERIFY(KeyAnalysis::build(*doc)->saltMissing());
            QCOMPARE(noteCount(*doc), 1);  // told once, however often analysed
            for (const Diagnostic &d : doc->diagnostics()) {
                if (d.message.contains(KeyAnalysis::saltMissingNote())) {
                    QCOMPARE(d.severity, Diagnostic::Severity::Info);
                }
            }
        }
        {
            CacheTraceWriter w(2);
            w.call(0.001, QStringLiteral("reserve_write"), {key(1)});  // salt "" is a salt
            const auto doc = loadBytes(w.bytes());
            QVERIFY(!KeyAnalysis::build(*doc)->saltMissing());
            QCOMPARE(noteCount(*doc), 0);
        }
        {
            CacheTraceWriter w(1);  // schema 1 promises no salt
            w.call(0.001, QStringLiteral("reserve_write"), {saltless(1)});
            const auto doc = loadBytes(w.bytes());
            QVERIFY(!KeyAnalysis::build(*doc)->saltMissing());
        }
    }

    void agreesWithValueDecoding_data() {
        QTest::addColumn<QString>("file");
        for (const char *f : {"lmcache-first-recorder-storage.lct", "schema1-trimpolicy-tp2.lct",
                              "schema1-sliding-window-tp2.lct", "schema2-prefetch-spec-tp2.lct",
                              "newest-unknown-spec-tp4.lct", "truncated-tail.lmct",
                              "malformed-record.lmct", "events-level.lmct", "header-only.lmct"}) {
            QTest::newRow(f) << QDir(QStringLiteral(LMCT_TRACES)).filePath(QString::fromLatin1(f));
        }
    }

    void agreesWithValueDecoding() {
        // Independently: decode every record's args as a Value tree, collect its ObjectKeys and
        // count them per call and identity.
        QFETCH(QString, file);
        QString error;
        const auto doc = TraceLoader::load(file, &error);
        QVERIFY2(doc, qPrintable(error));
        const auto ka = KeyAnalysis::build(*doc);
        QVERIFY(ka);
        struct Expect {
            ObjectKey key;
            int counts[7] = {};
            int first = -1, last = -1;
        };
        QHash<QString, Expect> expect;
        QList<QString> order;
        qint64 occurrences = 0;
        for (int i = 0; i < doc->records().size(); ++i) {
            const QString call = Qualname::shortName(doc->records().qualname(i));
            int c = -1;
            for (int j = 0; j < 7; ++j) {
                if (call == QLatin1String(kCalls[j])) {
                    c = j;
                }
            }
            if (c < 0) {
                continue;
            }
            for (const ObjectKey &k : ObjectKey::collect(doc->args(i)->value)) {
                const QString id = identity(k);
                auto it = expect.find(id);
                if (it == expect.end()) {
                    it = expect.insert(id, Expect{k, {}, i, i});
                    order.append(id);
                }
                ++it->counts[c];
                it->last = i;
                ++occurrences;
            }
        }
        QCOMPARE(ka->keyCount(), int(expect.size()));
        QCOMPARE(ka->occurrenceCount(), occurrences);
        for (int n = 0; n < order.size(); ++n) {
            const Expect &e = expect[order[n]];
            const int id = ka->find(e.key);
            QCOMPARE(id, n);  // ids in order of first appearance
            QCOMPARE(identity(ka->objectKey(id)), order[n]);
            const KeyAnalysis::Key &k = ka->key(id);
            QCOMPARE(int(k.reserves), e.counts[0] + e.counts[1]);
            QCOMPARE(int(k.finishes), e.counts[2]);
            QCOMPARE(int(k.aborts), e.counts[3]);
            QCOMPARE(int(k.prefetches), e.counts[4]);
            QCOMPARE(int(k.readEnters), e.counts[5]);
            QCOMPARE(int(k.finishReads), e.counts[6]);
            QCOMPARE(k.firstRecord, e.first);
            QCOMPARE(k.lastRecord, e.last);
            QCOMPARE(k.firstT, doc->records().tMono(e.first));
        }
    }

    void followExpressionSelectsExactlyTheKey_data() {
        QTest::addColumn<QString>("file");  // empty: the crafted variants below
        QTest::newRow("crafted variants") << QString();
        for (const char *f : {"lmcache-first-recorder-storage.lct", "schema1-trimpolicy-tp2.lct",
                              "schema2-prefetch-spec-tp2.lct", "newest-unknown-spec-tp4.lct"}) {
            QTest::newRow(f) << QDir(QStringLiteral(LMCT_TRACES)).filePath(QString::fromLatin1(f));
        }
    }

    void followExpressionSelectsExactlyTheKey() {
        // The expression the Keys tab follows selects exactly the records naming the key (any
        // call, __exit__ included), checked against Value decoding.
        QFETCH(QString, file);
        std::shared_ptr<const TraceDocument> doc;
        if (file.isEmpty()) {
            // One chunk hash in six identities (rank, model, salt, group, a longer hash whose hex
            // starts with it), each in records of its own, and a plain other key. (Records
            // mixing a same-hash key with keys of other ranks would defeat the expression: see
            // KeyAnalysis::followExpression.)
            CacheTraceWriter w;
            TKey rank1 = key(1, 33620481);
            TKey model = key(1);
            model.model = QStringLiteral("meta-llama/\"Quoted\" \\ model");
            TKey salt = key(1);
            salt.salt = QStringLiteral("tenant \"b\"");
            TKey group = key(1);
            group.group = 7;
            TKey longer = key(1);
            longer.hash += QByteArray(8, '\x5a');
            double t = 0.0;
            int n = 100;
            for (const TKey &k : {key(1), rank1, model, salt, group, longer, key(2)}) {
                // Companions as in LMCache records: same model, rank, group and salt.
                TKey c1 = k, c2 = k;
                c1.hash = chunk(++n);
                c2.hash = chunk(++n);
                w.call(t += 0.1, QStringLiteral("reserve_write"), {k, c1});
                w.call(t += 0.1, QStringLiteral("finish_write"), {k});
                w.call(t += 0.1, QStringLiteral("submit_prefetch_task"), {c2, k}, KeysAt::Spec,
                       QStringLiteral("req"));
                w.call(t += 0.1, QStringLiteral("read_prefetched_results.__exit__"), {k});
            }
            doc = loadBytes(w.bytes());
        } else {
            QString error;
            doc = TraceLoader::load(file, &error);
        }
        QVERIFY(doc);
        const auto ka = KeyAnalysis::build(*doc);
        QVERIFY(ka && ka->keyCount() > 0);
        QHash<QString, std::vector<int>> recordsOf;  // identity -> records naming it
        for (int i = 0; i < doc->records().size(); ++i) {
            const auto args = doc->args(i);
            if (!args) {
                continue;
            }
            for (const ObjectKey &k : ObjectKey::collect(args->value)) {
                std::vector<int> &r = recordsOf[identity(k)];
                if (r.empty() || r.back() != i) {
                    r.push_back(i);
                }
            }
        }
        const int step = std::max(1, ka->keyCount() / 60);
        for (int id = 0; id < ka->keyCount(); id += step) {
            const QString text = ka->followExpression(id);
            QVERIFY2(text.startsWith(QStringLiteral("chunk_hash == ") + ka->hashHex(id)) ||
                         text.startsWith(QStringLiteral("chunk_hash matches \"^") +
                                         ka->hashHex(id) + QStringLiteral("$\"")),
                     qPrintable(text));
            const FilterExpression expr = FilterExpression::parse(text);
            QVERIFY2(expr.isValid(), qPrintable(text + QStringLiteral(": ") + expr.errorString()));
            const std::vector<int> got = FilterEvaluator(doc, expr).run().records;
            QCOMPARE(got, recordsOf.value(identity(ka->objectKey(id))));
        }
        if (file.isEmpty()) {
            // Conditions only as needed: key(2) is alone with its hash, key(1) needs them all.
            QCOMPARE(ka->followExpression(ka->find(toObjectKey(key(2)))),
                     QStringLiteral("chunk_hash == ") + QString::fromLatin1(chunk(2).toHex()));
            const QString full = ka->followExpression(ka->find(toObjectKey(key(1))));
            QVERIFY2(full.startsWith(QStringLiteral("chunk_hash matches")), qPrintable(full));
            for (const char *field : {"model_name == \"Qwen/Qwen3-8B\"", "kv_rank == 33554944",
                                      "object_group_id == 0", "cache_salt == \"\""}) {
                QVERIFY2(full.contains(QLatin1String(field)), qPrintable(full));
            }
            QCOMPARE(ka->followExpression(-1), QString());
            QCOMPARE(ka->followExpression(ka->keyCount()), QString());
        }
    }

    void progressAndCancel() {
        QString error;
        const auto doc =
            TraceLoader::load(QDir(QStringLiteral(LMCT_TRACES))
                                  .filePath(QStringLiteral("schema2-prefetch-spec-tp2.lct")),
                              &error);
        QVERIFY(doc);
        std::vector<int> seen;
        const auto ka = KeyAnalysis::build(*doc, [&](int p) { seen.push_back(p); });
        QVERIFY(ka);
        QVERIFY(!seen.empty());
        QCOMPARE(seen.back(), 100);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        std::atomic_bool cancel{true};
        QVERIFY(!KeyAnalysis::build(*doc, {}, &cancel));
    }

    void scannerSurvivesDamage() {
        // Cut a record body at every length: never crash, keep what was found before the cut.
        CacheTraceWriter w;
        w.call(1.0, QStringLiteral("reserve_write"), {key(1), key(2), key(3)});
        const QByteArray frame = w.bytes();
        // The record is the last frame: its body starts 4 bytes after the header frame.
        const quint32 headerLen = quint32(uchar(frame[0])) << 24 | quint32(uchar(frame[1])) << 16 |
                                  quint32(uchar(frame[2])) << 8 | quint32(uchar(frame[3]));
        const QByteArray body = frame.mid(4 + headerLen + 4);
        std::vector<RawKeyScanner::Key> keys;
        QVERIFY(RawKeyScanner::scan(reinterpret_cast<const uchar *>(body.constData()), body.size(),
                                    &keys));
        QCOMPARE(keys.size(), size_t(3));
        QCOMPARE(keys[0].fields.hashBytes(), chunk(1));
        QVERIFY(keys[0].hash != keys[1].hash);
        size_t previous = 0;
        for (qsizetype cut = body.size() - 1; cut >= 0; --cut) {
            keys.clear();
            QVERIFY(!RawKeyScanner::scan(reinterpret_cast<const uchar *>(body.constData()), cut,
                                         &keys));
            QVERIFY(keys.size() <= 3);
            if (cut < body.size() - 1) {
                QVERIFY(keys.size() <= previous);  // fewer bytes, never more keys
            }
            previous = keys.size();
        }
    }

    void keyTableModel() {
        QString error;
        const auto doc =
            TraceLoader::load(QDir(QStringLiteral(LMCT_TRACES))
                                  .filePath(QStringLiteral("newest-unknown-spec-tp4.lct")),
                              &error);
        QVERIFY(doc);
        const auto ka = KeyAnalysis::build(*doc);
        KeyTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setAnalysis(ka);
        QCOMPARE(model.rowCount(), ka->keyCount());
        QCOMPARE(model.columnCount(), int(KeyTableModel::ColumnCount));
        QCOMPARE(model.headerData(KeyTableModel::StateColumn, Qt::Horizontal).toString(),
                 QStringLiteral("State"));
        // A persistent index follows its key through sorts.
        const QPersistentModelIndex followed = model.index(7, KeyTableModel::ModelColumn);
        const int followedKey = model.keyAt(7);
        for (int c = 0; c < KeyTableModel::ColumnCount; ++c) {
            for (Qt::SortOrder o : {Qt::AscendingOrder, Qt::DescendingOrder}) {
                model.sort(c, o);
                QCOMPARE(model.rowCount(), ka->keyCount());
                QCOMPARE(model.keyAt(followed.row()), followedKey);
                for (int r = 1; r < model.rowCount(); ++r) {
                    const QVariant a = model.index(r - 1, c).data(KeyTableModel::SortRole);
                    const QVariant b = model.index(r, c).data(KeyTableModel::SortRole);
                    const auto cmp = QVariant::compare(a, b);
                    QVERIFY2(o == Qt::AscendingOrder ? cmp != QPartialOrdering::Greater
                                                     : cmp != QPartialOrdering::Less,
                             qPrintable(QStringLiteral("column %1 row %2").arg(c).arg(r)));
                }
            }
        }
        // Filter by hash prefix: exactly the keys whose hex hash starts with it.
        const QString prefix = ka->hashHex(3).left(2).toUpper();
        int expected = 0;
        for (int id = 0; id < ka->keyCount(); ++id) {
            expected += ka->hashHex(id).startsWith(prefix.toLower()) ? 1 : 0;
        }
        model.setHashPrefix(prefix);
        QCOMPARE(model.rowCount(), expected);
        QVERIFY(expected > 0 && expected < ka->keyCount());
        for (int r = 0; r < model.rowCount(); ++r) {
            QVERIFY(model.index(r, KeyTableModel::HashColumn)
                        .data()
                        .toString()
                        .startsWith(prefix.toLower()));
            QCOMPARE(model.rowOfKey(model.keyAt(r)), r);
        }
        model.setHashPrefix(QStringLiteral("zz"));
        QCOMPARE(model.rowCount(), 0);
        model.setHashPrefix(QString());
        QCOMPARE(model.rowCount(), ka->keyCount());
        const QModelIndex first = model.index(0, KeyTableModel::FirstColumn);
        QCOMPARE(first.data(KeyTableModel::RecordRole).toInt(),
                 ka->key(first.data(KeyTableModel::KeyRole).toInt()).firstRecord);
        QVERIFY(model.index(0, 0)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(ka->hashHex(model.keyAt(0))));
        model.setAnalysis(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestKeyAnalysis)
#include "tst_keyanalysis.moc"
