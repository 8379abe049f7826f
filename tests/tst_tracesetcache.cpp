// TraceSetCache and CacheSummaryTableModel: the cache behaviour of a deployment's traces.
// The distinct keys over all traces are checked against a union of every record's ObjectKeys
// worked out here (two traces sharing ten keys), the summed figures against each trace's own
// CacheAnalysis on the generated four-server deployment, one trace's figures against its own;
// the table under QAbstractItemModelTester.

#include "cache/tracesetcache.h"
#include "combinefixture.h"
#include "itemmodels/cachesummarytablemodel.h"
#include "trace/traceloader.h"

#include <QAbstractItemModelTester>
#include <QSet>
#include <QtTest>
#include <cmath>

using namespace lmct;
using namespace lmct::test;

namespace {

std::shared_ptr<const TraceDocument> loadBytes(const QByteArray &bytes, const QString &name) {
    QString error;
    auto doc = TraceLoader::loadBytes(bytes, name, &error);
    if (!doc) {
        qWarning() << name << error;
    }
    return doc;
}

QByteArray identity(const ObjectKey &k) {
    return k.chunkHash + '|' + k.modelName.toUtf8() + '|' + QByteArray::number(k.kvRank) + '|' +
           (k.objectGroupId ? QByteArray::number(*k.objectGroupId) : QByteArray("-")) + '|' +
           (k.cacheSalt ? k.cacheSalt->toUtf8() : QByteArray("-"));
}

/** Every ObjectKey identity in the arguments of `doc`'s records. */
QSet<QByteArray> keysOf(const TraceDocument &doc) {
    QSet<QByteArray> out;
    for (int r = 0; r < doc.records().size(); ++r) {
        for (const ObjectKey &k : ObjectKey::collect(doc.args(r)->value)) {
            out.insert(identity(k));
        }
    }
    return out;
}

const TraceSetCache::Figure *find(const QList<TraceSetCache::Figure> &figures,
                                  const QString &name) {
    for (const auto &f : figures) {
        if (f.name == name) {
            return &f;
        }
    }
    return nullptr;
}

}  // namespace

class TestTraceSetCache : public QObject {
    Q_OBJECT

private slots:
    void unionOfTheKeys() {
        // a: keys 0..39, b: keys 30..69 (one key per record, seeded by the record)
        std::vector<double> wa, wb;
        for (int i = 0; i < 40; ++i) {
            wa.push_back(1000.0 + 0.01 * (i + 1));
            wb.push_back(1000.5 + 0.01 * (i + 1));
        }
        TraceSet set;
        set.add(loadBytes(combineTrace(1000.0, wa, QString(), 0), QStringLiteral("a.lct")));
        set.add(loadBytes(combineTrace(1000.5, wb, QString(), 30), QStringLiteral("b.lct")));
        const QSet<QByteArray> a = keysOf(set.document(0)), b = keysOf(set.document(1));
        QCOMPARE(a.size(), 40);
        QCOMPARE(b.size(), 40);
        const qsizetype both = QSet<QByteArray>(a).intersect(b).size();
        QCOMPARE(both, 10);

        const TraceSetCache s = TraceSetCache::compute(set);
        QVERIFY(!s.cancelled);
        QCOMPARE(s.perTrace.size(), size_t(2));
        QCOMPARE(s.unionKeys, qint64(QSet<QByteArray>(a).unite(b).size()));  // 70
        QCOMPARE(s.sharedKeys, qint64(both));
        const auto all = s.figures(-1);
        const auto *keys = find(all, QStringLiteral("Distinct keys"));
        QVERIFY(keys);
        QCOMPARE(keys->value, 70.0);
        QCOMPARE(keys->how, TraceSetCache::How::Union);
        QCOMPARE(find(all, QStringLiteral("Keys in more than one trace"))->value, 10.0);
        const auto *summed = find(all, QStringLiteral("Distinct keys per trace, summed"));
        QCOMPARE(summed->value, 80.0);
        QCOMPARE(summed->how, TraceSetCache::How::Sum);
        QCOMPARE(find(all, QStringLiteral("Records analysed"))->value, 80.0);
        // no prefetch at all: no hit ratio
        QVERIFY(
            std::isnan(find(all, QStringLiteral("Prefetch hit ratio (infinite cache)"))->value));
        // one trace: its own keys, no union rows
        const auto one = s.figures(1);
        QCOMPARE(find(one, QStringLiteral("Distinct keys"))->value, 40.0);
        QCOMPARE(find(one, QStringLiteral("Distinct keys"))->how, TraceSetCache::How::Trace);
        QVERIFY(!find(one, QStringLiteral("Keys in more than one trace")));
        QVERIFY(s.figures(2).isEmpty());
    }

    void sumsOfTheTraces() {
        const QString dir = QStringLiteral(LMCT_FIXTURES "/deployment");
        TraceSet set;
        for (int t = 0; t < 4; ++t) {
            QString error;
            auto doc = TraceLoader::load(dir + QStringLiteral("/worker-%1.lct").arg(t), &error);
            QVERIFY2(doc, qPrintable(error));
            set.add(doc);
        }
        const TraceSetCache s = TraceSetCache::compute(set);
        QVERIFY(!s.cancelled);
        // each trace's own analysis, run here
        double requests = 0, matched = 0, prefetched = 0, hits = 0, anomalies = 0, keys = 0;
        qint64 biggest = 0;
        for (int t = 0; t < 4; ++t) {
            const auto a = CacheAnalysis::run(set.document(t));
            requests += a->requests->count();
            matched += double(a->requests->readsMatched());
            prefetched += double(a->reuse->total().prefetches);
            hits += double(a->reuse->total().prefetchHits);
            anomalies += double(a->anomalies->totalCount());
            keys += a->keys->keyCount();
            biggest = std::max<qint64>(biggest, a->keys->keyCount());
            const auto own = s.figures(t);
            QCOMPARE(find(own, QStringLiteral("Prefetch requests"))->value,
                     double(a->requests->count()));
            QCOMPARE(find(own, QStringLiteral("Prefetch requests"))->how,
                     TraceSetCache::How::Trace);
        }
        QVERIFY(prefetched > 0);
        const auto all = s.figures(-1);
        QCOMPARE(find(all, QStringLiteral("Prefetch requests"))->value, requests);
        QCOMPARE(find(all, QStringLiteral("Prefetch requests"))->how, TraceSetCache::How::Sum);
        QCOMPARE(find(all, QStringLiteral("Reads matched to a request"))->value, matched);
        QCOMPARE(find(all, QStringLiteral("Prefetched key occurrences"))->value, prefetched);
        QCOMPARE(find(all, QStringLiteral("Prefetch hits (infinite cache)"))->value, hits);
        const auto *ratio = find(all, QStringLiteral("Prefetch hit ratio (infinite cache)"));
        QCOMPARE(ratio->value, hits / prefetched);
        QCOMPARE(ratio->how, TraceSetCache::How::Ratio);
        QVERIFY(ratio->ratio);
        QCOMPARE(find(all, QStringLiteral("Anomalies"))->value, anomalies);
        QCOMPARE(find(all, QStringLiteral("Distinct keys per trace, summed"))->value, keys);
        // the union lies between the largest trace and the sum
        QVERIFY(s.unionKeys >= biggest && double(s.unionKeys) <= keys);
        QVERIFY(double(s.unionKeys) + double(s.sharedKeys) <=
                keys);  // a shared key counts twice or more in the sum

        // the table of those figures
        CacheSummaryTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setFigures(all);
        QCOMPARE(model.rowCount(), int(all.size()));
        QCOMPARE(model.columnCount(), int(CacheSummaryTableModel::ColumnCount));
        const int r = int(ratio - all.data());
        QCOMPARE(model.index(r, CacheSummaryTableModel::ValueColumn).data().toString(),
                 QStringLiteral("%1 %").arg(hits / prefetched * 100.0, 0, 'f', 2));
        QCOMPARE(model.index(r, CacheSummaryTableModel::HowColumn).data().toString(),
                 QStringLiteral("ratio of the sums"));
        QCOMPARE(model.index(r, CacheSummaryTableModel::ValueColumn)
                     .data(CacheSummaryTableModel::SortRole)
                     .toDouble(),
                 hits / prefetched);
        QVERIFY(!model.index(0, CacheSummaryTableModel::HowColumn)
                     .data(Qt::ToolTipRole)
                     .toString()
                     .isEmpty());
        model.setFigures(
            {TraceSetCache::Figure{QStringLiteral("x"), qQNaN(), true, TraceSetCache::How::Trace}});
        QCOMPARE(model.index(0, CacheSummaryTableModel::ValueColumn).data().toString(),
                 QStringLiteral("—"));
        model.setFigures({});
        QCOMPARE(model.rowCount(), 0);
    }

    void cancelled() {
        std::vector<double> w{1000.1, 1000.2};
        TraceSet set;
        set.add(loadBytes(combineTrace(1000.0, w), QStringLiteral("a.lct")));
        std::atomic_bool cancel{true};
        TraceSetCache::Options o;
        o.cancel = &cancel;
        const TraceSetCache s = TraceSetCache::compute(set, o);
        QVERIFY(s.cancelled);
        QVERIFY(s.figures(-1).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTraceSetCache)
#include "tst_tracesetcache.moc"
