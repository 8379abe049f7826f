// TimelineColumns: the device-pixel columns of a visible window.

#include "timeline/timelinecolumns.h"

#include <QTest>
#include <cmath>

using namespace lmct;

class TestTimelineColumns : public QObject {
    Q_OBJECT
private slots:
    void emptyAreaOrWindowHasNoColumns() {
        QCOMPARE(TimelineColumns::of(0.0, 1.0, 10, 0, 1.0).count, 0);
        QCOMPARE(TimelineColumns::of(1.0, 1.0, 10, 100, 1.0).count, 0);
        QCOMPARE(TimelineColumns::of(2.0, 1.0, 10, 100, 1.0).count, 0);
        QCOMPARE(TimelineColumns::of(0.0, std::nan(""), 10, 100, 1.0).count, 0);
    }

    void oneColumnPerDevicePixel() {
        // 100 logical px at DPR 2: 200 device columns of 5 ms over one second
        const TimelineColumns c = TimelineColumns::of(0.0, 1.0, 30, 100, 2.0);
        QCOMPARE(c.dpr, 2.0);
        QCOMPARE(c.width, 1.0 / 200);
        QCOMPARE(c.origin, 0.0);
        QCOMPARE(c.x0, 60.0);  // the area's left edge in device pixels
        QCOMPARE(c.count, 201);
        QVERIFY(c.count <= 200 + 2);
    }

    void dprBelowOneCountsAsOne() {
        const TimelineColumns c = TimelineColumns::of(0.0, 1.0, 0, 100, 0.5);
        QCOMPARE(c.dpr, 1.0);
        QCOMPARE(c.width, 0.01);
    }

    void originIsAlignedToWholeColumns() {
        // panning by part of a column keeps the columns where they are (whole multiples)
        const TimelineColumns a = TimelineColumns::of(1.0, 2.0, 0, 100, 1.0);
        const TimelineColumns b = TimelineColumns::of(1.004, 2.004, 0, 100, 1.0);
        QCOMPARE(a.width, b.width);
        QCOMPARE(b.origin, a.origin);
        QVERIFY(std::abs(std::remainder(b.origin, b.width)) < 1e-12);
        QVERIFY(b.origin <= 1.004 && 1.004 < b.origin + b.width);
        QCOMPARE(b.x0, 0.0);  // less than half a column off: drawn from the area's edge
        const TimelineColumns c = TimelineColumns::of(1.007, 2.007, 0, 100, 1.0);
        QCOMPARE(c.x0, -1.0);  // more than half: column 0 starts one device pixel left of it
    }

    void columnOfAndTimeOfAreInverse() {
        const TimelineColumns c = TimelineColumns::of(3.0, 4.0, 0, 1000, 1.0);
        for (int k : {0, 1, 17, 999}) {
            const double mid = c.timeOf(k + 0.5);
            QCOMPARE(c.columnOf(mid), double(k));
            QVERIFY(c.timeOf(k) <= mid && mid < c.timeOf(k + 1));
        }
        QCOMPARE(c.columnOf(c.origin - 0.5 * c.width), -1.0);  // before column 0
        QCOMPARE(c.columnOf(c.timeOf(1000) + 0.25 * c.width), double(1000));
    }
};

QTEST_APPLESS_MAIN(TestTimelineColumns)
#include "tst_timelinecolumns.moc"
