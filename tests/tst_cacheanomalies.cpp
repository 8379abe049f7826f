// AnomalyReport: every kind on a crafted trace (exact counts, records and times), keyless
// finish_write handling, the gap threshold, and a clean trace with none.

#include "anomaliesfixture.h"
#include "cache/anomalyreport.h"
#include "cache/cacheanalysis.h"
#include "cachetracewriter.h"
#include "itemmodels/anomalytablemodel.h"
#include "trace/traceloader.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

using namespace lmct;
using namespace lmct::test;

namespace {

using Kind = AnomalyReport::Kind;

std::shared_ptr<const AnomalyReport> reportOf(
    const QByteArray &bytes, std::shared_ptr<const TraceDocument> *docOut = nullptr) {
    QString error;
    std::shared_ptr<const TraceDocument> doc =
        TraceLoader::loadBytes(bytes, QStringLiteral("anomalies.lct"), &error);
    if (!doc) {
        qWarning() << error;
        return nullptr;
    }
    if (docOut) {
        *docOut = doc;
    }
    return AnomalyReport::build(*doc, KeyAnalysis::build(*doc));
}

std::vector<const AnomalyReport::Item *> itemsOf(const AnomalyReport &r, Kind k) {
    std::vector<const AnomalyReport::Item *> out;
    for (const AnomalyReport::Item &it : r.items()) {
        if (it.kind == k) {
            out.push_back(&it);
        }
    }
    return out;
}

}  // namespace

class TestCacheAnomalies : public QObject {
    Q_OBJECT

private slots:
    void everyKind() {
        std::shared_ptr<const TraceDocument> doc;
        const auto r = reportOf(anomaliesTrace(), &doc);
        QVERIFY(r);
        QCOMPARE(doc->records().size(), 31);
        const KeyAnalysis &ka = *r->keys();
        auto keyId = [&](int n) {
            ObjectKey o;
            const TKey k = key(n);
            o.chunkHash = k.hash;
            o.modelName = k.model;
            o.kvRank = k.kvRank;
            o.objectGroupId = k.group;
            o.cacheSalt = k.salt;
            return ka.find(o);
        };

        auto fwr = itemsOf(*r, Kind::FinishWithoutReserve);
        QCOMPARE(r->count(Kind::FinishWithoutReserve), 2);
        QCOMPARE(fwr.size(), size_t(2));
        QCOMPARE(fwr[0]->record, 2);
        QCOMPARE(fwr[0]->key, keyId(10));
        QCOMPARE(fwr[1]->record, 3);
        QCOMPARE(fwr[1]->key, keyId(1));
        QVERIFY(r->message(*fwr[0]).contains(ka.hashHex(keyId(10)).left(12)));

        auto rwf = itemsOf(*r, Kind::ReserveWithoutFinish);
        QCOMPARE(r->count(Kind::ReserveWithoutFinish), 1);
        QCOMPARE(rwf[0]->record, 4);
        QCOMPARE(rwf[0]->key, keyId(12));
        QCOMPARE(rwf[0]->t, doc->records().tMono(4));

        auto ewe = itemsOf(*r, Kind::ExitWithoutEnter);
        QCOMPARE(r->count(Kind::ExitWithoutEnter), 1);
        QCOMPARE(ewe[0]->record, 10);
        auto enw = itemsOf(*r, Kind::EnterWithoutExit);
        QCOMPARE(r->count(Kind::EnterWithoutExit), 1);
        QCOMPARE(enw[0]->record, 11);

        auto rnw = itemsOf(*r, Kind::ReadNeverWritten);
        QCOMPARE(r->count(Kind::ReadNeverWritten), 2);
        QCOMPARE(rnw[0]->record, 11);
        QCOMPARE(rnw[0]->key, keyId(14));
        QCOMPARE(rnw[1]->record, 13);
        QCOMPARE(rnw[1]->key, keyId(15));

        auto tb = itemsOf(*r, Kind::TimeBackwards);
        QCOMPARE(r->count(Kind::TimeBackwards), 1);
        QCOMPARE(tb[0]->record, 16);
        QCOMPARE(tb[0]->record2, 15);
        QCOMPARE(AnomalyReport::records(*tb[0]), (std::vector<int>{16, 15}));
        QVERIFY(qAbs(tb[0]->value - 0.0005) < 1e-9);

        auto gap = itemsOf(*r, Kind::Gap);
        QCOMPARE(r->count(Kind::Gap), 1);
        QCOMPARE(gap[0]->record, 17);
        QCOMPARE(gap[0]->record2, 18);
        QVERIFY(qAbs(gap[0]->value - 1.001) < 1e-9);
        QVERIFY(qAbs(r->medianInterArrival() - 0.001) < 1e-6);
        QVERIFY(qAbs(r->gapThreshold() - 0.02) < 1e-5);

        QCOMPARE(r->totalCount(), 9);
        QCOMPARE(qint64(r->items().size()), r->totalCount());
        for (size_t i = 1; i < r->items().size(); ++i) {
            QVERIFY(r->items()[i - 1].record <= r->items()[i].record);  // file order
        }
        for (const AnomalyReport::Item &it : r->items()) {
            QVERIFY(!r->message(it).isEmpty());
            QVERIFY(!r->truncated(it.kind));
        }
        QCOMPARE(r->keylessFinishes(), 0);
    }

    void keylessFinishSparesEarlierReservations() {
        // Newest builds with several L1 managers: finish_write without keys.
        CacheTraceWriter w;
        w.call(0.001, QStringLiteral("reserve_write"), {key(20)});
        w.call(0.002, QStringLiteral("finish_write"), {}, KeysAt::None);
        w.call(0.003, QStringLiteral("reserve_write"), {key(21)});
        w.call(0.004, QStringLiteral("abort_write"), {});
        const auto r = reportOf(w.bytes());
        QVERIFY(r);
        QCOMPARE(r->keylessFinishes(), 1);
        QCOMPARE(r->suppressedReservations(), 1);  // key(20): may have been finished
        QCOMPARE(r->count(Kind::ReserveWithoutFinish), 1);
        QCOMPARE(itemsOf(*r, Kind::ReserveWithoutFinish)[0]->record, 2);  // key(21)
        QCOMPARE(r->count(Kind::FinishWithoutReserve), 0);                // nothing to attribute
    }

    void referenceTraceCounts() {
        // Independently from the file: steps back in t_mono and the __enter__/__exit__ balance.
        QString error;
        const auto doc = TraceLoader::load(
            QDir(QStringLiteral(LMCT_TRACES)).filePath(QStringLiteral("truncated-tail.lmct")),
            &error);
        QVERIFY(doc);
        const auto r = AnomalyReport::build(*doc, KeyAnalysis::build(*doc));
        int back = 0;
        for (int i = 1; i < doc->records().size(); ++i) {
            back += doc->records().tMono(i) < doc->records().tMono(i - 1) ? 1 : 0;
        }
        QCOMPARE(r->count(Kind::TimeBackwards), back);
        QVERIFY(back > 0);
        // The cut tail leaves reservations open: each reported one has no later finish/abort.
        const KeyAnalysis &ka = *r->keys();
        QVERIFY(r->count(Kind::ReserveWithoutFinish) > 0);
        for (const auto *it : itemsOf(*r, Kind::ReserveWithoutFinish)) {
            QCOMPARE(ka.key(it->key).finishes + ka.key(it->key).aborts, 0u);
            QCOMPARE(ka.callAt(ka.keyRecordOf(it->record)), KeyAnalysis::Call::Reserve);
        }
    }

    void cancel() {
        std::shared_ptr<const TraceDocument> doc;
        QVERIFY(reportOf(anomaliesTrace(), &doc));
        std::atomic_bool cancel{true};
        QVERIFY(!AnomalyReport::build(*doc, KeyAnalysis::build(*doc), {}, &cancel));
    }

    void tableModel() {
        std::shared_ptr<const TraceDocument> doc;
        const auto r = reportOf(anomaliesTrace(), &doc);
        AnomalyTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReport(r);
        QCOMPARE(model.rowCount(), 9);
        QCOMPARE(model.columnCount(), int(AnomalyTableModel::ColumnCount));
        for (int row = 0; row < model.rowCount(); ++row) {
            const AnomalyReport::Item &it = r->items()[size_t(row)];
            QCOMPARE(model.index(row, 0).data(AnomalyTableModel::RecordRole).toInt(), it.record);
            QCOMPARE(model.index(row, 0).data().toString(), AnomalyReport::kindName(it.kind));
            QCOMPARE(model.index(row, AnomalyTableModel::MessageColumn).data().toString(),
                     r->message(it));
        }
        model.setKindFilter(int(Kind::FinishWithoutReserve));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(1, AnomalyTableModel::RecordsColumn).data().toString(),
                 QStringLiteral("#3"));
        model.setKindFilter(int(Kind::Gap));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, AnomalyTableModel::RecordsColumn).data().toString(),
                 QStringLiteral("#17, #18"));
        model.setKindFilter(-1);
        QCOMPARE(model.rowCount(), 9);
        model.setReport(nullptr);
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.itemAt(0));
    }

    void cacheAnalysisBundlesAll() {
        std::shared_ptr<const TraceDocument> doc;
        QVERIFY(reportOf(anomaliesTrace(), &doc));
        std::vector<int> progress;
        const auto a = CacheAnalysis::run(*doc, [&](int p) { progress.push_back(p); });
        QVERIFY(a && a->keys && a->anomalies && a->reuse && a->requests);
        QCOMPARE(a->anomalies->totalCount(), 9);
        QCOMPARE(a->anomalies->keys(), a->keys);
        QVERIFY(std::is_sorted(progress.begin(), progress.end()));
        QCOMPARE(progress.back(), 100);
        std::atomic_bool cancel{true};
        QVERIFY(!CacheAnalysis::run(*doc, {}, &cancel));
    }

    void hitDisagrees() {
        std::shared_ptr<const TraceDocument> doc;
        const auto r = reportOf(handleHitsTrace(), &doc);
        QVERIFY(r);
        const auto items = itemsOf(*r, Kind::HitDisagrees);
        QCOMPARE(r->count(Kind::HitDisagrees), 3);
        QCOMPARE(items[0]->record, 10);
        QCOMPARE(items[0]->record2, 7);
        QCOMPARE(items[1]->record, 15);
        QCOMPARE(items[1]->record2, 14);
        QCOMPARE(items[2]->record, 17);
        QCOMPARE(AnomalyReport::records(*items[2]), (std::vector<int>{17, 16}));
        QVERIFY(r->message(*items[0]).contains(QStringLiteral("request b")));
        QVERIFY(r->message(*items[0]).contains(QStringLiteral("2 of 2")));
        QVERIFY(r->message(*items[1]).contains(QStringLiteral("at most 0 of 2")));
        QCOMPARE(AnomalyReport::kindName(Kind::HitDisagrees), QStringLiteral("hit_disagrees"));
        // The same through CacheAnalysis, which hands its requests over.
        const auto a = CacheAnalysis::run(*doc);
        QCOMPARE(a->anomalies->count(Kind::HitDisagrees), 3);
        // The release's finish_read_prefetched of key 9 (never written) is no read.
        QCOMPARE(r->count(Kind::ReadNeverWritten), 0);
    }

    void gapsOnlyWhileWorkIsOpen() {
        // Bursts 1 ms apart; between them 1 s of idle time (nothing open): no gap. The same
        // silence inside an open read or an open reservation is one.
        CacheTraceWriter w;
        double t = 0.0;
        int n = 0;
        auto burst = [&] {
            for (int i = 0; i < 10; ++i, ++n) {
                w.call(t += 0.001, QStringLiteral("reserve_write"), {key(n)});
                w.call(t += 0.001, QStringLiteral("finish_write"), {key(n)});
            }
        };
        burst();  // records 0..19
        t += 1.0;
        burst();  // 20..39
        w.call(t += 0.001, QStringLiteral("read_prefetched_results.__enter__"), {key(1)});  // 40
        t += 1.0;
        w.call(t += 0.001, QStringLiteral("read_prefetched_results.__exit__"), {key(1)});  // 41
        burst();                                                                           // 42..61
        w.call(t += 0.001, QStringLiteral("reserve_write"), {key(500)});                   // 62
        t += 1.0;
        w.call(t += 0.001, QStringLiteral("finish_write"), {key(500)});  // 63
        w.call(t += 0.001, QStringLiteral("reserve_write"), {key(1)});   // 64: already stored
        t += 1.0;
        burst();  // 65..84: the silence before it is idle (key 1 was skipped, not in flight)
        const auto r = reportOf(w.bytes());
        QVERIFY(r);
        const auto gaps = itemsOf(*r, Kind::Gap);
        QCOMPARE(r->count(Kind::Gap), 2);
        QCOMPARE(gaps[0]->record, 40);
        QCOMPARE(gaps[0]->record2, 41);
        QCOMPARE(gaps[1]->record, 62);
        QCOMPARE(gaps[1]->record2, 63);
        QVERIFY(r->message(*gaps[0]).contains(QStringLiteral("while work was open")));
        QCOMPARE(r->count(Kind::ReserveWithoutFinish), 0);
        QCOMPARE(r->alreadyStored(), 1);
        QCOMPARE(r->totalCount(), 2);
    }

    void workNeverClosedOpensNoGap() {
        // A reservation whose finish_write was lost and a read whose __exit__ was lost are
        // reported by their own kinds; the idle seconds after them are no gaps. A silence
        // inside a reservation closed after it still is one.
        CacheTraceWriter w;
        double t = 0.0;
        int n = 0;
        auto burst = [&] {
            for (int i = 0; i < 10; ++i, ++n) {
                w.call(t += 0.001, QStringLiteral("reserve_write"), {key(n)});
                w.call(t += 0.001, QStringLiteral("finish_write"), {key(n)});
            }
        };
        burst();                                                          // 0..19
        w.call(t += 0.001, QStringLiteral("reserve_write"), {key(900)});  // 20: never closed
        t += 1.0;
        burst();  // 21..40
        w.call(t += 0.001, QStringLiteral("read_prefetched_results.__enter__"), {key(1)});  // 41
        t += 1.0;
        burst();                                                          // 42..61
        w.call(t += 0.001, QStringLiteral("reserve_write"), {key(500)});  // 62
        t += 1.0;
        w.call(t += 0.001, QStringLiteral("finish_write"), {key(500)});  // 63
        burst();                                                         // 64..83
        // Its finish_write lost, key 700 is written again much later: the idle time in
        // between is no gap (the later finish closes the later reserve).
        w.call(t += 0.001, QStringLiteral("reserve_write"), {key(700)});  // 84
        t += 1.0;
        burst();                                                          // 85..104
        w.call(t += 0.001, QStringLiteral("reserve_write"), {key(700)});  // 105
        w.call(t += 0.001, QStringLiteral("finish_write"), {key(700)});   // 106
        const auto r = reportOf(w.bytes());
        QVERIFY(r);
        QCOMPARE(r->count(Kind::ReserveWithoutFinish), 1);
        QCOMPARE(r->count(Kind::EnterWithoutExit), 1);
        QCOMPARE(r->count(Kind::Gap), 1);
        const auto gaps = itemsOf(*r, Kind::Gap);
        QCOMPARE(gaps[0]->record, 62);
        QCOMPARE(gaps[0]->record2, 63);
    }

    void alreadyStoredIsNoReserveWithoutFinish() {
        CacheTraceWriter w;
        w.call(0.001, QStringLiteral("reserve_write"), {key(1), key(2)});
        w.call(0.002, QStringLiteral("finish_write"), {key(1), key(2)});
        w.call(0.003, QStringLiteral("reserve_write"), {key(1), key(2), key(3)});
        w.call(0.004, QStringLiteral("finish_write"), {key(3)});
        w.call(0.005, QStringLiteral("reserve_write"), {key(4)});  // never finished: reported
        const auto r = reportOf(w.bytes());
        QVERIFY(r);
        QCOMPARE(r->alreadyStored(), 2);
        QCOMPARE(r->count(Kind::ReserveWithoutFinish), 1);
        QCOMPARE(itemsOf(*r, Kind::ReserveWithoutFinish)[0]->record, 4);
    }

    void lateFinishReadIsNoRead() {
        // A finish_read_prefetched after its read's __exit__ releases that read: it reads
        // nothing, so a key first written between the two is not read_never_written by it; a
        // finish of no read and no release still is a read.
        CacheTraceWriter w;
        w.call(0.001, QStringLiteral("read_prefetched_results.__enter__"), {key(1)});  // 0
        w.call(0.002, QStringLiteral("read_prefetched_results.__exit__"), {key(1)});   // 1
        w.call(0.003, QStringLiteral("reserve_write"), {key(1)});                      // 2
        w.call(0.004, QStringLiteral("finish_write"), {key(1)});                       // 3
        w.finishRead(0.005, {key(1)});  // 4: of the read at 0
        w.finishRead(0.006, {key(2)});  // 5: a read of key 2, never written
        const auto r = reportOf(w.bytes());
        QVERIFY(r);
        const auto rnw = itemsOf(*r, Kind::ReadNeverWritten);
        QCOMPARE(r->count(Kind::ReadNeverWritten), 2);
        QCOMPARE(rnw[0]->record, 0);  // the __enter__ read key 1 before it was written
        QCOMPARE(rnw[1]->record, 5);
    }

    void cleanLate2026Trace() {
        // The late-2026 call shapes of a healthy server: reads released later, keys skipped
        // as already stored, a cancel whose handle agrees with the calls, idle time between
        // bursts and keys without cache_salt.
        CacheTraceWriter w;
        double t = 0.0;
        auto next = [&t] { return t += 0.001; };
        auto bare = [](int n) {
            TKey k = key(n, 16777472);
            k.salt.reset();
            return k;
        };
        const QString R = QStringLiteral("reserve_write"), F = QStringLiteral("finish_write"),
                      S = QStringLiteral("submit_prefetch_task"),
                      EN = QStringLiteral("read_prefetched_results.__enter__"),
                      EX = QStringLiteral("read_prefetched_results.__exit__");
        for (int burst = 0; burst < 5; ++burst) {
            const int b = 10 * burst;
            const QString rid = QStringLiteral("chatcmpl-%1").arg(burst);
            w.call(next(), S, {bare(0), bare(b + 1), bare(b + 2)}, KeysAt::Spec, rid);
            if (burst > 0) {
                w.call(next(), EN, {bare(0)});
                w.call(next(), EX, {bare(0)});
                w.finishRead(next(), {bare(0)});
            }
            w.call(next(), R, {bare(0), bare(b + 1), bare(b + 2)});
            w.call(next(), F,
                   burst == 0 ? std::vector<TKey>{bare(0), bare(b + 1), bare(b + 2)}
                              : std::vector<TKey>{bare(b + 1), bare(b + 2)});
            w.call(next(), S, {bare(0), bare(b + 1), bare(b + 5)}, KeysAt::Spec,
                   rid + QStringLiteral("-x"));
            THandle h;
            h.externalRequestId = rid + QStringLiteral("-x");
            h.l1PrefixHitCount = 2;
            h.totalRequestedKeys = 3;
            h.submitTime = CacheTraceWriter::kTMonoStart + t;
            w.cancel(next(), h);
            t += 2.0;  // idle
        }
        std::shared_ptr<const TraceDocument> doc;
        const auto r = reportOf(w.bytes(), &doc);
        QVERIFY(r);
        QCOMPARE(r->totalCount(), 0);
        QCOMPARE(r->alreadyStored(), 1);  // key 0, skipped by every later reserve_write
        QVERIFY(r->keys()->saltMissing());
        QCOMPARE(r->keys()->finishRoleCounts()[int(KeyAnalysis::FinishRole::OfRead)], 4);
    }

    void cleanTrace() {
        CacheTraceWriter w;
        for (int i = 0; i < 20; ++i) {
            w.call(0.001 * (4 * i + 1), QStringLiteral("reserve_write"), {key(i)});
            w.call(0.001 * (4 * i + 2), QStringLiteral("finish_write"), {key(i)});
            w.call(0.001 * (4 * i + 3), QStringLiteral("read_prefetched_results.__enter__"),
                   {key(i)});
            w.call(0.001 * (4 * i + 4), QStringLiteral("read_prefetched_results.__exit__"),
                   {key(i)});
        }
        const auto r = reportOf(w.bytes());
        QVERIFY(r);
        QCOMPARE(r->totalCount(), 0);
        QVERIFY(r->items().empty());
    }
};

QTEST_GUILESS_MAIN(TestCacheAnomalies)
#include "tst_cacheanomalies.moc"
