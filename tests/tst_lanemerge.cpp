// LaneMerge: which timeline rows become one when a small picture has room for fewer rows.

#include "timeline/lanemerge.h"

#include <QTest>

using namespace lmct;

namespace {
const QString kSm = QStringLiteral("lmcache.v1.distributed.storage_manager.StorageManager.");
QString q(const char *name) {
    return kSm + QLatin1String(name);
}
using Lane = LaneMerge::Lane;

/** The nine rows of a TP=4 trace: five of the prefetch stage (one a spans row), four writes. */
QVector<Lane> nineLanes() {
    return {{q("submit_prefetch_task"), 1.0},
            {q("read_prefetched_results"), 2.05},  // spans, nested four deep
            {q("read_prefetched_results.__enter__"), 1.0},
            {q("finish_read_prefetched"), 1.0},
            {q("read_prefetched_results.__exit__"), 1.0},
            {q("reserve_write"), 1.0},
            {q("reserve_write_with_status"), 1.0},
            {q("finish_write"), 1.0},
            {q("abort_write"), 1.0}};
}
}  // namespace

class TestLaneMerge : public QObject {
    Q_OBJECT
private slots:
    void stagesFollowTheCallFlow() {
        QCOMPARE(LaneMerge::stageOf(q("submit_prefetch_task")), LaneMerge::Stage::Prefetch);
        QCOMPARE(LaneMerge::stageOf(q("read_prefetched_results")), LaneMerge::Stage::Prefetch);
        QCOMPARE(LaneMerge::stageOf(q("read_prefetched_results.__exit__")),
                 LaneMerge::Stage::Prefetch);
        QCOMPARE(LaneMerge::stageOf(q("cancel_prefetch_task")), LaneMerge::Stage::Prefetch);
        QCOMPARE(LaneMerge::stageOf(q("reserve_write")), LaneMerge::Stage::Write);
        QCOMPARE(LaneMerge::stageOf(q("abort_write")), LaneMerge::Stage::Write);
        QCOMPARE(LaneMerge::stageOf(QStringLiteral("events.batch")), LaneMerge::Stage::Other);
    }

    void lanesThatFitStayAlone() {
        const QVector<Lane> lanes = nineLanes();
        const QVector<LaneMerge::Row> rows = LaneMerge::rows(lanes, 10.05);
        QCOMPARE(rows.size(), 9);
        for (int i = 0; i < rows.size(); ++i) {
            QCOMPARE(rows[i].lanes, QVector<int>{i});
            QVERIFY(!rows[i].merged());
        }
        QVERIFY(!LaneMerge::anyMerged(rows));
        QCOMPARE(LaneMerge::weightOf(rows, lanes), 10.05);
    }

    void theStageThatSavesMostCollapsesFirst() {
        // prefetch saves 6.05 - 1, write 4 - 1: prefetch goes first, where its first row stood
        const QVector<Lane> lanes = nineLanes();
        const QVector<LaneMerge::Row> rows = LaneMerge::rows(lanes, 6.0);
        QCOMPARE(rows.size(), 5);
        QCOMPARE(rows[0].lanes, (QVector<int>{0, 1, 2, 3, 4}));
        QCOMPARE(rows[0].label, QStringLiteral("prefetch (5 lanes)"));
        for (int i = 1; i < 5; ++i) {
            QCOMPARE(rows[i].lanes, QVector<int>{i + 4});
            QVERIFY(!rows[i].merged());
        }
        QCOMPARE(LaneMerge::weightOf(rows, lanes), 5.0);
    }

    void bothStagesThenOneRow() {
        const QVector<Lane> lanes = nineLanes();
        const QVector<LaneMerge::Row> two = LaneMerge::rows(lanes, 2.5);
        QCOMPARE(two.size(), 2);
        QCOMPARE(two[0].label, QStringLiteral("prefetch (5 lanes)"));
        QCOMPARE(two[1].label, QStringLiteral("write (4 lanes)"));
        QCOMPARE(two[1].lanes, (QVector<int>{5, 6, 7, 8}));
        const QVector<LaneMerge::Row> one = LaneMerge::rows(lanes, 1.5);
        QCOMPARE(one.size(), 1);
        QCOMPARE(one[0].label, QStringLiteral("all (9 lanes)"));
        QCOMPARE(one[0].lanes.size(), 9);
        // no room even for one row: still one row, never none
        QCOMPARE(LaneMerge::rows(lanes, 0.2).size(), 1);
    }

    void aUserOrderKeepsEachStageTogether() {
        // a write lane moved to the top: the write stage's row stands there
        QVector<Lane> lanes = nineLanes();
        lanes.move(7, 0);  // finish_write first
        const QVector<LaneMerge::Row> rows = LaneMerge::rows(lanes, 2.0);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].label, QStringLiteral("write (4 lanes)"));
        QCOMPARE(rows[0].lanes, (QVector<int>{0, 6, 7, 8}));
        QCOMPARE(rows[1].label, QStringLiteral("prefetch (5 lanes)"));
    }

    void oneStageOnlyIsOneRowOfIt() {
        QVector<Lane> lanes;
        for (const char *n : {"events.batch", "events.lifecycle", "events.other"}) {
            lanes.append({QLatin1String(n), 1.0});
        }
        const QVector<LaneMerge::Row> rows = LaneMerge::rows(lanes, 1.0);
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows[0].label, QStringLiteral("other (3 lanes)"));
        QVERIFY(LaneMerge::rows({}, 1.0).isEmpty());
        // a single lane never merges
        const QVector<LaneMerge::Row> single = LaneMerge::rows({lanes.first()}, 0.5);
        QCOMPARE(single.size(), 1);
        QVERIFY(!single[0].merged());
    }
};

QTEST_GUILESS_MAIN(TestLaneMerge)
#include "tst_lanemerge.moc"
