// RequestAnalysis: per-request figures on a reference trace against a straightforward
// re-implementation of the documented rules over Value-decoded records (quadratic, no key ids),
// the matching rules on crafted traces, and RequestTableModel under QAbstractItemModelTester.

#include "anomaliesfixture.h"
#include "cache/requestanalysis.h"
#include "cachetracewriter.h"
#include "codec/objectkey.h"
#include "codec/recordsummary.h"
#include "itemmodels/requesttablemodel.h"
#include "testutil.h"
#include "trace/traceloader.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QHash>
#include <QSet>
#include <QtTest>
#include <algorithm>
#include <cmath>

using namespace lmct;
using namespace lmct::test;

namespace {

QString identity(const ObjectKey &k) {
    return QStringLiteral("%1|%2|%3|%4|%5")
        .arg(k.hashHex(), k.modelName, QString::number(k.kvRank),
             k.objectGroupId ? QString::number(*k.objectGroupId) : QStringLiteral("-"),
             k.cacheSalt ? *k.cacheSalt : QStringLiteral("<none>"));
}

struct Expected {
    QString rid;
    int submit = -1;
    QStringList keys;
    int read = -1;
    int readKeys = 0;
    int prefixHit = 0;
    RequestAnalysis::Match match = RequestAnalysis::Match::None;
    int reserved = 0, finished = 0;
    int firstReserve = -1, lastFinish = -1;
};

/** The documented rules, the slow way. */
std::vector<Expected> expectedRequests(const TraceDocument &doc) {
    std::vector<Expected> reqs;
    QHash<QString, int> writtenAt;  // first finish_write record of each key
    for (int i = 0; i < doc.records().size(); ++i) {
        if (Qualname::shortName(doc.records().qualname(i)) == QLatin1String("finish_write")) {
            for (const ObjectKey &k : ObjectKey::collect(doc.args(i)->value)) {
                if (!writtenAt.contains(identity(k))) {
                    writtenAt.insert(identity(k), i);
                }
            }
        }
    }
    auto latestRequesting = [&](const QString &k) {
        for (int r = int(reqs.size()) - 1; r >= 0; --r) {
            if (reqs[size_t(r)].keys.contains(k)) {
                return r;
            }
        }
        return -1;
    };
    for (int i = 0; i < doc.records().size(); ++i) {
        const QString call = Qualname::shortName(doc.records().qualname(i));
        const Value &args = doc.args(i)->value;
        QStringList keys;
        for (const ObjectKey &k : ObjectKey::collect(args)) {
            keys.append(identity(k));
        }
        if (call == QLatin1String("submit_prefetch_task")) {
            Expected e;
            e.rid = RecordSummary::requestId(args);
            e.submit = i;
            e.keys = keys;
            reqs.push_back(e);
        } else if (call == QLatin1String("read_prefetched_results.__enter__") && !keys.isEmpty()) {
            int found = -1;
            RequestAnalysis::Match how = RequestAnalysis::Match::None;
            int bestLevel = -1;
            for (int r = int(reqs.size()) - 1; r >= 0; --r) {
                const Expected &q = reqs[size_t(r)];
                if (q.read >= 0 || q.keys.mid(0, keys.size()) != keys) {
                    continue;
                }
                auto writtenBefore = [&](const QString &k) {
                    return writtenAt.contains(k) && writtenAt[k] < q.submit;
                };
                const bool stored = std::all_of(keys.begin(), keys.end(), writtenBefore);
                const bool longest =
                    q.keys.size() == keys.size() || !writtenBefore(q.keys[keys.size()]);
                const int level = stored ? (longest ? 2 : 1) : 0;
                if (level > bestLevel) {
                    found = r;
                    bestLevel = level;
                    if (level == 2) {
                        break;
                    }
                }
            }
            if (found >= 0) {
                how = RequestAnalysis::Match::Prefix;
            }
            if (found < 0) {
                for (const QString &k : keys) {
                    const int r = latestRequesting(k);
                    if (r > found && reqs[size_t(r)].read < 0) {
                        found = r;
                        how = RequestAnalysis::Match::Overlap;
                    }
                }
            }
            if (found >= 0) {
                Expected &q = reqs[size_t(found)];
                q.read = i;
                q.match = how;
                q.readKeys = int(keys.size());
                const QSet<QString> read(keys.begin(), keys.end());
                while (q.prefixHit < q.keys.size() && read.contains(q.keys[q.prefixHit])) {
                    ++q.prefixHit;
                }
            }
        } else if (call == QLatin1String("reserve_write") ||
                   call == QLatin1String("reserve_write_with_status") ||
                   call == QLatin1String("finish_write")) {
            for (const QString &k : keys) {
                const int r = latestRequesting(k);
                if (r < 0) {
                    continue;
                }
                Expected &q = reqs[size_t(r)];
                if (call == QLatin1String("finish_write")) {
                    ++q.finished;
                    q.lastFinish = i;
                } else {
                    ++q.reserved;
                    if (q.firstReserve < 0) {
                        q.firstReserve = i;
                    }
                }
            }
        }
    }
    return reqs;
}

std::shared_ptr<const RequestAnalysis> analyse(const TraceDocument &doc) {
    return RequestAnalysis::build(*KeyAnalysis::build(doc));
}

}  // namespace

class TestRequests : public QObject {
    Q_OBJECT

private slots:
    void referenceTrace_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("schema2") << QStringLiteral("schema2-prefetch-spec-tp2.lct");
        QTest::newRow("newest") << QStringLiteral("newest-unknown-spec-tp4.lct");
        QTest::newRow("first") << QStringLiteral("lmcache-first-recorder-storage.lct");
    }

    void referenceTrace() {
        QFETCH(QString, file);
        // One request per submit, one read per __enter__ (the trace's truth file).
        const QJsonObject truth = traceTruth(file);
        const int submits = truthCount(truth, QStringLiteral("submit_prefetch_task"));
        const int enters = truthCount(truth, QStringLiteral("read_prefetched_results.__enter__"));
        QVERIFY(submits > 0 && enters > 0);
        QString error;
        const auto doc =
            TraceLoader::load(QDir(QStringLiteral(LMCT_TRACES)).filePath(file), &error);
        QVERIFY2(doc, qPrintable(error));
        const auto ra = analyse(*doc);
        QVERIFY(ra);
        const std::vector<Expected> want = expectedRequests(*doc);
        QCOMPARE(ra->count(), submits);
        QCOMPARE(int(want.size()), submits);
        int matched = 0, prefixMatched = 0;
        for (int r = 0; r < ra->count(); ++r) {
            const RequestAnalysis::Request &q = ra->at(r);
            const Expected &e = want[size_t(r)];
            QCOMPARE(ra->requestId(q), e.rid);
            QVERIFY(!ra->requestId(q).isEmpty());
            QCOMPARE(q.submitRecord, e.submit);
            QCOMPARE(ra->submitT(q), doc->records().tMono(e.submit));
            QCOMPARE(q.requested, int(e.keys.size()));
            QCOMPARE(q.readRecord, e.read);
            QCOMPARE(q.match, e.match);
            QCOMPARE(q.readKeys, e.readKeys);
            QCOMPARE(q.prefixHit, e.prefixHit);
            QVERIFY(q.prefixHit <= q.requested);
            if (e.read >= 0) {
                QCOMPARE(ra->timeToRead(q),
                         doc->records().tMono(e.read) - doc->records().tMono(e.submit));
                ++matched;
                prefixMatched += q.match == RequestAnalysis::Match::Prefix ? 1 : 0;
                if (q.match == RequestAnalysis::Match::Prefix) {
                    QCOMPARE(q.prefixHit, q.readKeys);  // the read is a prefix of the request
                }
                // LMCache reads right after the lookup: milliseconds, not seconds.
                QVERIFY2(
                    ra->timeToRead(q) >= -0.001 && ra->timeToRead(q) < 0.5,
                    qPrintable(QStringLiteral("request %1: %2 s").arg(r).arg(ra->timeToRead(q))));
            } else {
                QVERIFY(std::isnan(ra->timeToRead(q)));
            }
            QCOMPARE(q.reserved, e.reserved);
            QCOMPARE(q.finished, e.finished);
            QCOMPARE(q.firstReserveRecord, e.firstReserve);
            QCOMPARE(q.lastFinishRecord, e.lastFinish);
        }
        QCOMPARE(ra->readsMatched() + ra->readsUnmatched(), qint64(enters));
        QCOMPARE(qint64(matched), ra->readsMatched());
        if (enters > 0) {
            // In these traces every read is its request's prefix hit.
            QCOMPARE(matched, enters);
            QCOMPARE(prefixMatched, enters);
        }
    }

    void requestTableSizedExactly() {
        // 10 M small records: the request table grew by doubling to 200 MB for 170 MB of
        // requests (300 MB at the last growth). It is now sized by the submits.
        CacheTraceWriter w;
        for (int i = 0; i < 1000; ++i) {
            w.call(0.01 * i, QStringLiteral("submit_prefetch_task"), {key(i)}, KeysAt::Spec);
        }
        QString error;
        const auto doc = TraceLoader::loadBytes(w.bytes(), QStringLiteral("sized.lct"), &error);
        QVERIFY2(doc, qPrintable(error));
        const auto ra = analyse(*doc);
        QCOMPARE(ra->count(), 1000);
        QCOMPARE(ra->memoryBytes(), qint64(1000 * sizeof(RequestAnalysis::Request)));
        // and each request keeps indices and counts only: its id and times are read through
        // the KeyAnalysis it holds (96 bytes each before)
        QVERIFY(sizeof(RequestAnalysis::Request) <= 44);
        QCOMPARE(ra->submitT(ra->at(999)), 9.99);
        QVERIFY(std::isnan(ra->timeToRead(ra->at(999))));
    }

    void matchingRules() {
        const QString S = QStringLiteral("submit_prefetch_task"),
                      EN = QStringLiteral("read_prefetched_results.__enter__"),
                      R = QStringLiteral("reserve_write"), F = QStringLiteral("finish_write");
        CacheTraceWriter w;
        w.call(0.0, S, {key(1), key(2), key(3)}, KeysAt::Spec, QStringLiteral("old-miss"));  // 0
        w.call(1.0, S, {key(1), key(2), key(4)}, KeysAt::Spec, QStringLiteral("hit-2"));     // 1
        w.call(1.1, EN, {key(1), key(2)});  // 2: prefix of both: the latest (hit-2)
        w.call(1.2, R, {key(4)});           // 3: credited to hit-2
        w.call(1.3, F, {key(4)});           // 4
        w.call(2.0, S, {key(7), key(8), key(9)}, KeysAt::Grouped, QStringLiteral("overlap"));
        w.call(2.5, EN, {key(8), key(7)});  // 6: not a prefix (order): overlap
        w.call(3.0, EN, {key(50)});         // 7: nobody asked for key(50)
        w.call(3.5, R, {key(3)});           // 8: credited to old-miss (its latest requester)
        QString error;
        const auto doc = TraceLoader::loadBytes(w.bytes(), QStringLiteral("rules.lct"), &error);
        QVERIFY(doc);
        const auto ra = analyse(*doc);
        QCOMPARE(ra->count(), 3);
        const RequestAnalysis::Request &old = ra->at(0), &hit = ra->at(1), &ov = ra->at(2);
        QCOMPARE(ra->requestId(old), QStringLiteral("old-miss"));
        QCOMPARE(old.readRecord, -1);
        QCOMPARE(old.match, RequestAnalysis::Match::None);
        QCOMPARE(old.prefixHit, 0);
        QCOMPARE(old.reserved, 1);
        QCOMPARE(old.firstReserveRecord, 8);
        QCOMPARE(hit.readRecord, 2);
        QCOMPARE(hit.match, RequestAnalysis::Match::Prefix);
        QCOMPARE(hit.prefixHit, 2);
        QCOMPARE(ra->timeToRead(hit), 0.1 + (1.1 - 1.0 - 0.1));
        QCOMPARE(hit.reserved, 1);
        QCOMPARE(hit.finished, 1);
        QCOMPARE(hit.lastFinishRecord, 4);
        QCOMPARE(ra->timeToWritten(hit), 0.3 + (1.3 - 1.0 - 0.3));
        QCOMPARE(ra->requestId(ov), QStringLiteral("overlap"));
        QCOMPARE(ov.match, RequestAnalysis::Match::Overlap);
        QCOMPARE(ov.readRecord, 6);
        QCOMPARE(ov.prefixHit, 2);  // key(7), key(8) were read, key(9) not
        QCOMPARE(ra->readsMatched(), 2);
        QCOMPARE(ra->readsUnmatched(), 1);
        QCOMPARE(ra->requestOfRecord(4), 1);
        QCOMPARE(ra->requestOfRecord(7), -1);
    }

    void consistentCandidateFirst() {
        // Y asks for P+a, X for P+b with b already written: a read of P alone is Y's (X's hit
        // would have included b), the later read of P+b is X's.
        const QString S = QStringLiteral("submit_prefetch_task"),
                      EN = QStringLiteral("read_prefetched_results.__enter__");
        CacheTraceWriter w;
        w.call(0.0, QStringLiteral("finish_write"), {key(1), key(2), key(20)});        // 0
        w.call(1.0, S, {key(1), key(2), key(10)}, KeysAt::Spec, QStringLiteral("Y"));  // 1
        w.call(1.1, S, {key(1), key(2), key(20)}, KeysAt::Spec, QStringLiteral("X"));  // 2
        w.call(1.2, EN, {key(1), key(2)});                                             // 3
        w.call(1.3, EN, {key(1), key(2), key(20)});                                    // 4
        QString error;
        const auto doc = TraceLoader::loadBytes(w.bytes(), QStringLiteral("c.lct"), &error);
        QVERIFY(doc);
        const auto ra = analyse(*doc);
        QCOMPARE(ra->requestId(ra->at(0)), QStringLiteral("Y"));
        QCOMPARE(ra->at(0).readRecord, 3);
        QCOMPARE(ra->at(0).prefixHit, 2);
        QCOMPARE(ra->at(1).readRecord, 4);
        QCOMPARE(ra->at(1).prefixHit, 3);
        QCOMPARE(ra->readsUnmatched(), 0);
    }

    void readOfTheRequestThatEndedWithARelease() {
        // X and Y ask for the same keys, Y a millisecond later. X's read is followed by X's
        // release; Y is cancelled (dropped without being read): the read is X's, not the
        // latest submit's. Then P and Q, both released, read in turn: each read is the one's
        // released after it, the first release first.
        const QString S = QStringLiteral("submit_prefetch_task"),
                      EN = QStringLiteral("read_prefetched_results.__enter__"),
                      EX = QStringLiteral("read_prefetched_results.__exit__");
        CacheTraceWriter w;
        auto handle = [](const char *rid, qint64 hit, qint64 total, double submitT) {
            THandle h;
            h.externalRequestId = QString::fromLatin1(rid);
            h.l1PrefixHitCount = hit;
            h.totalRequestedKeys = total;
            h.submitTime = CacheTraceWriter::kTMonoStart + submitT;
            return h;
        };
        w.call(1.0, QStringLiteral("reserve_write"), {key(0), key(1), key(2)});         // 0
        w.call(1.01, QStringLiteral("finish_write"), {key(0), key(1), key(2)});         // 1
        w.call(2.0, S, {key(0), key(1), key(2)}, KeysAt::Spec, QStringLiteral("X"));    // 2
        w.call(2.001, S, {key(0), key(1), key(2)}, KeysAt::Spec, QStringLiteral("Y"));  // 3
        w.call(2.01, EN, {key(0), key(1)});                                             // 4
        w.call(2.02, EX, {key(0), key(1)});                                             // 5
        w.release(2.03, handle("X", 2, 3, 2.0), std::vector<TKey>{key(0), key(1)});     // 6
        w.finishRead(2.031, {key(0), key(1)});                                          // 7
        w.cancel(2.1, handle("Y", 3, 3, 2.001));                                        // 8
        w.call(3.0, S, {key(0), key(1)}, KeysAt::Spec, QStringLiteral("P"));            // 9
        w.call(3.001, S, {key(0), key(1)}, KeysAt::Spec, QStringLiteral("Q"));          // 10
        w.call(3.01, EN, {key(0), key(1)});                                             // 11
        w.call(3.02, EX, {key(0), key(1)});                                             // 12
        w.release(3.03, handle("P", 2, 2, 3.0), std::nullopt);                          // 13
        w.finishRead(3.031, {key(0), key(1)});                                          // 14
        w.call(3.04, EN, {key(0), key(1)});                                             // 15
        w.call(3.05, EX, {key(0), key(1)});                                             // 16
        w.release(3.06, handle("Q", 2, 2, 3.001), std::nullopt);                        // 17
        w.finishRead(3.061, {key(0), key(1)});                                          // 18
        QString error;
        const auto doc = TraceLoader::loadBytes(w.bytes(), QStringLiteral("x.lct"), &error);
        QVERIFY2(doc, qPrintable(error));
        const auto ra = analyse(*doc);
        QCOMPARE(ra->count(), 4);
        const RequestAnalysis::Request &x = ra->at(0), &y = ra->at(1), &p = ra->at(2),
                                       &q = ra->at(3);
        QCOMPARE(ra->requestId(x), QStringLiteral("X"));
        QCOMPARE(x.readRecord, 4);
        QCOMPARE(x.match, RequestAnalysis::Match::Prefix);
        QCOMPARE(x.prefixHit, 2);
        QCOMPARE(ra->hitCheck(x), RequestAnalysis::HitCheck::Agrees);
        QVERIFY(y.cancelled && !y.released);
        QCOMPARE(y.readRecord, -1);
        QCOMPARE(y.match, RequestAnalysis::Match::None);
        QCOMPARE(ra->hitCheck(y), RequestAnalysis::HitCheck::Agrees);  // at most 3 of 3 stored
        QCOMPARE(p.readRecord, 11);
        QCOMPARE(q.readRecord, 15);
        QCOMPARE(ra->disagreeCount(), 0);
        QCOMPARE(ra->readsMatched(), 3);
        QCOMPARE(ra->readsUnmatched(), 0);
    }

    void lmcacheHitAgainstTheCalls() {
        QString error;
        const auto doc =
            TraceLoader::loadBytes(handleHitsTrace(), QStringLiteral("hits.lct"), &error);
        QVERIFY2(doc, qPrintable(error));
        const auto ra = analyse(*doc);
        QCOMPARE(ra->count(), 5);
        using HC = RequestAnalysis::HitCheck;
        const RequestAnalysis::Request &a = ra->at(0), &b = ra->at(1), &c = ra->at(2),
                                       &d = ra->at(3), &e = ra->at(4);
        QCOMPARE(ra->requestId(a), QStringLiteral("a"));
        QVERIFY(a.released && !a.cancelled);
        QCOMPARE(ra->keys().recordOf(ra->handleKr(a)), 5);
        QCOMPARE(a.prefixHit, 3);
        QCOMPARE(ra->handle(a)->l1PrefixHitCount, 3);
        QCOMPARE(ra->hitCheck(a), HC::Agrees);
        QCOMPARE(ra->handleHitText(a), QStringLiteral("3 of 4"));
        QCOMPARE(ra->hitCheck(b), HC::Disagrees);
        QCOMPARE(ra->inferredHitText(b), QStringLiteral("1 of 2"));
        QVERIFY(c.cancelled && !c.released);
        QCOMPARE(c.readRecord, -1);
        QCOMPARE(ra->storedPrefix(c), 4);
        QCOMPARE(ra->inferredHit(c), 4);
        QCOMPARE(ra->hitCheck(c), HC::Agrees);
        QCOMPARE(ra->inferredHitText(c), QStringLiteral("at most 4 of 5"));
        QCOMPARE(ra->storedPrefix(d), 0);
        QCOMPARE(ra->hitCheck(d), HC::Disagrees);
        QCOMPARE(ra->hitCheck(e), HC::Disagrees);  // total_requested_keys 3 for 1 key
        QCOMPARE(ra->cancelledCount(), 3);
        QCOMPARE(ra->releasedCount(), 2);
        QCOMPARE(ra->agreeCount(), 2);
        QCOMPARE(ra->disagreeCount(), 3);
        QCOMPARE(ra->unlinkedHandles(), 0);
        // The release's finish_read_prefetched is no read: a's read is the __enter__.
        QCOMPARE(a.readRecord, 3);
        QCOMPARE(ra->readsMatched(), 2);

        RequestTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setAnalysis(ra);
        auto cell = [&](int row, int col, int role = Qt::DisplayRole) {
            return model.index(row, col).data(role);
        };
        QCOMPARE(cell(2, RequestTableModel::LmcacheHitColumn).toString(), QStringLiteral("2 of 5"));
        QCOMPARE(cell(2, RequestTableModel::HitCheckColumn).toString(), QStringLiteral("agrees"));
        QCOMPARE(cell(2, RequestTableModel::EndedColumn).toString(), QStringLiteral("cancelled"));
        QCOMPARE(cell(2, RequestTableModel::EndedColumn, RequestTableModel::RecordRole).toInt(),
                 13);
        QVERIFY(cell(2, RequestTableModel::HitCheckColumn, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("at most 4 of 5")));
        QCOMPARE(cell(1, RequestTableModel::HitCheckColumn).toString(),
                 QStringLiteral("disagrees"));
        QCOMPARE(cell(0, RequestTableModel::EndedColumn).toString(), QStringLiteral("released"));
        QCOMPARE(model.headerData(RequestTableModel::LmcacheHitColumn, Qt::Horizontal).toString(),
                 QStringLiteral("LMCache hit"));
        model.sort(RequestTableModel::HitCheckColumn, Qt::DescendingOrder);
        QCOMPARE(cell(0, RequestTableModel::HitCheckColumn).toString(),
                 QStringLiteral("disagrees"));
        model.sort(RequestTableModel::EndedColumn, Qt::DescendingOrder);
        QCOMPARE(cell(0, RequestTableModel::EndedColumn).toString(), QStringLiteral("cancelled"));
    }

    void tableModel() {
        QString error;
        const auto doc =
            TraceLoader::load(QDir(QStringLiteral(LMCT_TRACES))
                                  .filePath(QStringLiteral("schema2-prefetch-spec-tp2.lct")),
                              &error);
        QVERIFY(doc);
        const auto ra = analyse(*doc);
        RequestTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setAnalysis(ra);
        QCOMPARE(model.rowCount(), ra->count());
        QCOMPARE(model.columnCount(), int(RequestTableModel::ColumnCount));
        const QPersistentModelIndex followed = model.index(5, 0);
        const int req = model.requestAt(5);
        for (int c = 0; c < RequestTableModel::ColumnCount; ++c) {
            for (Qt::SortOrder o : {Qt::AscendingOrder, Qt::DescendingOrder}) {
                model.sort(c, o);
                QCOMPARE(model.requestAt(followed.row()), req);
                for (int r = 1; r < model.rowCount(); ++r) {
                    const auto cmp =
                        QVariant::compare(model.index(r - 1, c).data(RequestTableModel::SortRole),
                                          model.index(r, c).data(RequestTableModel::SortRole));
                    QVERIFY(o == Qt::AscendingOrder ? cmp != QPartialOrdering::Greater
                                                    : cmp != QPartialOrdering::Less);
                }
            }
        }
        model.sort(RequestTableModel::SubmitColumn, Qt::AscendingOrder);
        const QModelIndex read = model.index(0, RequestTableModel::TimeToReadColumn);
        const RequestAnalysis::Request &q =
            ra->at(read.data(RequestTableModel::RequestRole).toInt());
        QCOMPARE(read.data(RequestTableModel::RecordRole).toInt(), q.readRecord);
        QCOMPARE(model.index(0, RequestTableModel::RequestIdColumn).data().toString(),
                 ra->requestId(q));
        QCOMPARE(model.index(0, RequestTableModel::RequestIdColumn)
                     .data(RequestTableModel::RecordRole)
                     .toInt(),
                 q.submitRecord);
    }
};

QTEST_GUILESS_MAIN(TestRequests)
#include "tst_requests.moc"
