// LaneGrouping: the records of a TP=4 trace (two models, two tenants, a few keyless calls)
// grouped by rank, model and tenant, and a deployment's traces grouped by trace and by rank
// across traces; groups, labels, order and records against what the fixture wrote.

#include "combinefixture.h"
#include "timeline/lanegrouping.h"
#include "trace/traceloader.h"

#include <QtTest>

using namespace lmct;
using namespace lmct::test;

namespace {

qint64 packedRank(int rank, int world) {
    return (qint64(world) << 24) | (qint64(rank) << 16) | (qint64(world) << 8) | qint64(rank);
}

/** 46 records: record i < 40 has one key of rank (i + 1) % 4 of 4, model A for i < 20 else
 *  B, salt "tenant-a" for even i else none; records 40..43 have no key; 44 and 45 have two
 *  keys of model A, ranks 0 and 1 (what a submit carries), salt "tenant-a". */
QByteArray tpTrace() {
    QByteArray b = frame(combineHeader(1000.0));
    for (int i = 0; i < 46; ++i) {
        Mp args;
        if (i >= 44) {
            args.map(1).str("keys").arr(2);
            args.raw(objectKey(i, packedRank(0, 4), "model-A", "tenant-a"));
            args.raw(objectKey(i, packedRank(1, 4), "model-A", "tenant-a"));
        } else if (i < 40) {
            args.map(1).str("keys").arr(1).raw(objectKey(i, packedRank((i + 1) % 4, 4),
                                                         i < 20 ? "model-A" : "model-B",
                                                         i % 2 == 0 ? "tenant-a" : ""));
        } else {
            args.map(0);
        }
        b += frame(recordBody(0.01 * i, 1000.0 + 0.01 * i,
                              storageQualname(i % 2 ? "finish_write" : "reserve_write"),
                              args.bytes));
    }
    return b;
}

std::vector<int> where(int n, const std::function<bool(int)> &keep) {
    std::vector<int> v;
    for (int i = 0; i < n; ++i) {
        if (keep(i)) {
            v.push_back(i);
        }
    }
    return v;
}

}  // namespace

class TestLaneGrouping : public QObject {
    Q_OBJECT

private slots:
    void byRank() {
        const auto doc = loadTrace(tpTrace(), QStringLiteral("tp4.lct"));
        QVERIFY(doc);
        const LaneGrouping::Result r = LaneGrouping::compute(doc, LaneGrouping::By::Rank);
        QCOMPARE(r.groups.size(), size_t(6));  // four ranks, several, then the keyless calls
        for (int g = 0; g < 4; ++g) {
            QCOMPARE(r.groups[size_t(g)].label, QStringLiteral("rank %1/4").arg(g));
            QCOMPARE(*r.groups[size_t(g)].records[0],
                     where(40, [g](int i) { return (i + 1) % 4 == g; }));
            QVERIFY(!r.groups[size_t(g)].keyless);
        }
        QCOMPARE(r.groups[4].label, QStringLiteral("(several ranks)"));
        QCOMPARE(*r.groups[4].records[0], std::vector<int>({44, 45}));
        QCOMPARE(r.groups[5].label, QStringLiteral("(no key)"));
        QVERIFY(r.groups[5].keyless);
        QCOMPARE(*r.groups[5].records[0], std::vector<int>({40, 41, 42, 43}));
        QCOMPARE(r.groups[0].count(), qint64(10));
    }

    void byModelAndTenant() {
        const auto doc = loadTrace(tpTrace(), QStringLiteral("tp4.lct"));
        const auto models = LaneGrouping::compute(doc, LaneGrouping::By::Model);
        QCOMPARE(models.groups.size(), size_t(3));  // one model in 44 and 45: model-A's
        QCOMPARE(models.groups[0].label, QStringLiteral("model-A"));
        QCOMPARE(*models.groups[0].records[0], where(46, [](int i) { return i < 20 || i >= 44; }));
        QCOMPARE(models.groups[1].label, QStringLiteral("model-B"));
        const auto tenants = LaneGrouping::compute(doc, LaneGrouping::By::Tenant);
        QCOMPARE(tenants.groups.size(), size_t(3));
        // an empty cache_salt is not the absence of one (the keys differ): said so
        QCOMPARE(tenants.groups[0].label, QStringLiteral("(empty salt)"));
        QCOMPARE(*tenants.groups[0].records[0], where(40, [](int i) { return i % 2 == 1; }));
        QCOMPARE(tenants.groups[1].label, QStringLiteral("tenant-a"));
        QCOMPARE(tenants.groups[1].records[0]->back(), 45);
        QCOMPARE(tenants.groups[2].label, QStringLiteral("(no key)"));
        const auto none = LaneGrouping::compute(doc, LaneGrouping::By::None);
        QCOMPARE(none.groups.size(), size_t(1));
        QCOMPARE(none.groups[0].count(), qint64(46));
    }

    void acrossTraces() {
        TraceSet set;
        set.add(loadTrace(tpTrace(), QStringLiteral("a.lct")));
        set.add(loadTrace(combineTrace(1000.0, {1000.1, 1000.2}, QStringLiteral("vllm-1")),
                          QStringLiteral("b.lct")));
        const auto traces = LaneGrouping::compute(set, LaneGrouping::By::Trace);
        QCOMPARE(traces.groups.size(), size_t(2));
        QCOMPARE(traces.groups[1].label, QStringLiteral("b.lct (vllm-1)"));
        QCOMPARE(traces.groups[1].records[0]->size(), size_t(0));
        QCOMPARE(traces.groups[1].records[1]->size(), size_t(2));
        // b's keys are keysArgs' default: rank 0 of 2 ("rank 0/2"), a group of its own
        const auto ranks = LaneGrouping::compute(set, LaneGrouping::By::Rank);
        QStringList labels;
        for (const auto &g : ranks.groups) {
            labels << g.label;
        }
        QCOMPARE(labels, QStringList({"rank 0/2", "rank 0/4", "rank 1/4", "rank 2/4", "rank 3/4",
                                      "(several ranks)", "(no key)"}));
        QCOMPARE(ranks.groups[0].records[1]->size(), size_t(2));
        QCOMPARE(ranks.groups[0].records[0]->size(), size_t(0));
        QCOMPARE(LaneGrouping::name(LaneGrouping::By::Tenant), QStringLiteral("Tenant"));
        QCOMPARE(LaneGrouping::all().size(), size_t(5));
    }

    void cancelled() {
        const auto doc = loadTrace(tpTrace(), QStringLiteral("tp4.lct"));
        std::atomic_bool cancel{true};
        const auto r = LaneGrouping::compute(doc, LaneGrouping::By::Rank, &cancel);
        QVERIFY(r.cancelled);
        QVERIFY(r.groups.empty());
    }
};

QTEST_GUILESS_MAIN(TestLaneGrouping)
#include "tst_lanegrouping.moc"
