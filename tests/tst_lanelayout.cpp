// LaneLayout: the timeline's row order, hidden lanes and row kinds, headless.

#include "timeline/lanelayout.h"

#include <QTest>

using namespace lmct;

namespace {
const QString kSm = QStringLiteral("lmcache.v1.storage_backend.storage_manager.StorageManager.");
QString q(const char *name) {
    return kSm + QLatin1String(name);
}
const QString kRead = q("read_prefetched_results");
}  // namespace

class TestLaneLayout : public QObject {
    Q_OBJECT
private slots:
    void defaultOrderIsTheCallFlowWithSpansBeforeEnter() {
        LaneLayout l;
        // given in any order
        l.setLanes({q("finish_write"), q("read_prefetched_results.__enter__"),
                    q("submit_prefetch_task"), q("reserve_write"), QStringLiteral("zz.other")},
                   {kRead});
        const QStringList want{q("submit_prefetch_task"),
                               LaneLayout::spanKey(kRead),
                               q("read_prefetched_results.__enter__"),
                               q("reserve_write"),
                               q("finish_write"),
                               QStringLiteral("zz.other")};
        QCOMPARE(l.rowKeys(), want);
        QCOMPARE(l.order(), want);
        const LaneLayout::Row &spans = l.rows().at(1);
        QCOMPARE(spans.kind, LaneLayout::Row::Kind::Spans);
        QCOMPARE(spans.name, kRead);
        QCOMPARE(spans.family, 0);
        QCOMPARE(l.rows().at(0).kind, LaneLayout::Row::Kind::Calls);
        QCOMPARE(l.rows().at(0).name, q("submit_prefetch_task"));
        QCOMPARE(l.rows().at(0).family, -1);
    }

    void spansWithoutEnterGoBeforeExitOrLast() {
        LaneLayout l;
        l.setLanes({q("reserve_write"), q("read_prefetched_results.__exit__")},
                   {kRead, QStringLiteral("x.ctx")});
        QCOMPARE(l.rowKeys(),
                 (QStringList{LaneLayout::spanKey(kRead), q("read_prefetched_results.__exit__"),
                              q("reserve_write"), LaneLayout::spanKey(QStringLiteral("x.ctx"))}));
        QCOMPARE(l.rows().at(3).family, 1);
    }

    void keys() {
        QVERIFY(LaneLayout::isSpanKey(LaneLayout::spanKey(kRead)));
        QVERIFY(!LaneLayout::isSpanKey(kRead));
        QCOMPARE(LaneLayout::nameOf(LaneLayout::spanKey(kRead)), kRead);
        QCOMPARE(LaneLayout::nameOf(kRead), kRead);
    }

    void hiddenLanesLeaveTheRowsNotTheOrder() {
        LaneLayout l;
        l.setLanes({q("submit_prefetch_task"), q("reserve_write"), q("finish_write")}, {});
        l.setHidden(q("reserve_write"), true);
        QVERIFY(l.isHidden(q("reserve_write")));
        QCOMPARE(l.rowKeys(), (QStringList{q("submit_prefetch_task"), q("finish_write")}));
        QCOMPARE(l.order().size(), 3);
        l.setHidden(q("reserve_write"), false);
        QCOMPARE(l.rowKeys().size(), 3);
    }

    void moveAmongShownRows() {
        LaneLayout l;
        l.setLanes({q("submit_prefetch_task"), q("reserve_write"), q("finish_write")}, {});
        l.setHidden(q("reserve_write"), true);
        // one shown row down: past the hidden one
        QVERIFY(l.move(q("submit_prefetch_task"), 1));
        QCOMPARE(l.order(),
                 (QStringList{q("reserve_write"), q("finish_write"), q("submit_prefetch_task")}));
        QVERIFY(!l.move(q("submit_prefetch_task"), 1));       // last already
        QVERIFY(!l.move(q("reserve_write"), -1));             // not shown
        QVERIFY(l.move(q("submit_prefetch_task"), -100000));  // to the top
        QCOMPARE(l.rowKeys(), (QStringList{q("submit_prefetch_task"), q("finish_write")}));
        l.reset();
        QCOMPARE(l.rowKeys(),
                 (QStringList{q("submit_prefetch_task"), q("reserve_write"), q("finish_write")}));
        QVERIFY(!l.isHidden(q("reserve_write")));
    }

    void theUsersOrderSurvivesNewLanes() {
        LaneLayout l;
        l.setLanes({q("submit_prefetch_task"), q("finish_write")}, {});
        QVERIFY(l.move(q("finish_write"), -1));
        QCOMPARE(l.rowKeys(), (QStringList{q("finish_write"), q("submit_prefetch_task")}));
        // reserve_write appears: after its default predecessor, submit_prefetch_task
        l.setLanes({q("submit_prefetch_task"), q("finish_write"), q("reserve_write")}, {});
        QCOMPARE(l.rowKeys(),
                 (QStringList{q("finish_write"), q("submit_prefetch_task"), q("reserve_write")}));
        // no lanes for a while (a new index being built): no rows, the order is kept
        l.setLanes({}, {});
        QVERIFY(l.rows().isEmpty());
        QCOMPARE(l.order().size(), 3);
        l.setLanes({q("submit_prefetch_task"), q("finish_write"), q("reserve_write")}, {});
        QCOMPARE(l.rowKeys().first(), q("finish_write"));
    }
};

QTEST_APPLESS_MAIN(TestLaneLayout)
#include "tst_lanelayout.moc"
