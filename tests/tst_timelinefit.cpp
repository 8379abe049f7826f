// TimelineFit: what a timeline picture of a fixed height keeps, in its order: legends go first,
// then the plots, then rows shrink, then rows merge.

#include "timeline/timelinefit.h"

#include <QTest>

using namespace lmct;

namespace {
QVector<LaneMerge::Lane> lanes(int n) {
    QVector<LaneMerge::Lane> out;
    for (int i = 0; i < n; ++i) {
        out.append({QStringLiteral("lmcache.StorageManager.reserve_write_%1").arg(i), 1.0});
    }
    // (unknown calls: one "other" stage)
    return out;
}

TimelineFit::Room roomOf(int height) {
    TimelineFit::Room r;
    r.height = height;
    r.legendsPx = 40;
    r.plotsLeastPx = 50;
    r.readableRowPx = 18;
    r.leastRowPx = 9;
    r.lanes = lanes(9);  // 162 px readable, 81 px least
    return r;
}
}  // namespace

class TestTimelineFit : public QObject {
    Q_OBJECT
private slots:
    void dropsInOrder() {
        struct Want {
            int height;
            bool legends, plots, smallRows;
            int rows;
        };
        const Want wants[] = {
            {600, true, true, false, 9},   // a large picture: everything
            {252, true, true, false, 9},   // 40 + 50 + 162: just so
            {251, false, true, false, 9},  // the legends first
            {212, false, true, false, 9},
            {211, false, false, false, 9},  // then the plots
            {162, false, false, false, 9},
            {161, false, false, true, 9},  // then rows below readable (smaller labels)
            {81, false, false, true, 9},
            {80, false, false, true, 1},  // then merged: one stage here, so one row
        };
        for (const Want &w : wants) {
            const TimelineFit::Fit fit = TimelineFit::of(roomOf(w.height));
            const QByteArray at = QByteArray::number(w.height);
            QVERIFY2(fit.legends == w.legends, at.constData());
            QVERIFY2(fit.plots == w.plots, at.constData());
            QVERIFY2(fit.smallRows == w.smallRows, at.constData());
            QVERIFY2(fit.rows.size() == w.rows, at.constData());
            QVERIFY2(fit.merged() == (w.rows < 9), at.constData());
        }
    }

    void withoutPlotsNothingElseGoes() {
        TimelineFit::Room r = roomOf(170);
        r.legendsPx = 0;
        r.plotsLeastPx = 0;
        const TimelineFit::Fit fit = TimelineFit::of(r);
        QVERIFY(!fit.smallRows);
        QVERIFY(!fit.merged());
    }

    void keepAllIsEveryLaneAlone() {
        const TimelineFit::Fit fit = TimelineFit::keepAll(lanes(3));
        QVERIFY(fit.legends && fit.plots && !fit.smallRows && !fit.merged());
        QCOMPARE(fit.rows.size(), 3);
        QCOMPARE(fit.rows[2].lanes, QVector<int>{2});
    }
};

QTEST_GUILESS_MAIN(TestTimelineFit)
#include "tst_timelinefit.moc"
