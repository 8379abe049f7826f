// AnomalyReport: every kind on a crafted trace (exact counts, records and times), keyless
// finish_write handling, the gap threshold, and a clean trace with none.

#include "anomaliesfixture.h"
#include "anomalyreport.h"
#include "anomalytablemodel.h"
#include "cacheanalysis.h"
#include "cachetracewriter.h"
#include "traceloader.h"

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
