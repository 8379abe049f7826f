// TimelineViewport: the timeline's window, clamp, history, fits and Keep newest, headless.

#include "timeline/timelineviewport.h"

#include <QSignalSpy>
#include <QTest>
#include <cmath>
#include <limits>

using namespace lmct;

namespace {
using Range = TimelineViewport::Range;

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}
bool near(Range a, Range b) {
    return near(a.lower, b.lower) && near(a.upper, b.upper);
}
QByteArray str(Range r) {
    return QByteArray::number(r.lower, 'g', 12) + " .. " + QByteArray::number(r.upper, 'g', 12);
}
}  // namespace

class TestTimelineViewport : public QObject {
    Q_OBJECT
private slots:
    void traceRange() {
        TimelineViewport v;
        QVERIFY(near(v.traceRange(), Range{0, 1}));  // no records
        v.setTrace(true, 2.0, 12.0);
        QVERIFY(near(v.traceRange(), Range{2, 12}));
        v.setTrace(true, 5.0, 5.0);  // one instant: a millisecond around it
        QVERIFY(near(v.traceRange(), Range{5.0 - 5e-4, 5.0 + 5e-4}));
    }

    void windowChangedFollowsEveryMove() {
        TimelineViewport v;
        v.setTrace(true, 0.0, 10.0);
        QSignalSpy spy(&v, &TimelineViewport::windowChanged);
        v.setWindow(2.0, 4.0);
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy[0][0].toDouble(), 2.0);
        QCOMPARE(spy[0][1].toDouble(), 4.0);
        v.setWindow(2.0, 4.0);  // unchanged: no signal
        QCOMPARE(spy.size(), 1);
        v.setWindow(4.0, 2.0);  // empty, reversed, not finite: ignored
        v.setWindow(1.0, std::numeric_limits<double>::infinity());
        QCOMPARE(spy.size(), 1);
        QVERIFY(near(v.window(), Range{2, 4}));
    }

    void clamp() {
        TimelineViewport v;
        v.setTrace(true, 0.0, 10.0);
        // a narrow window far right keeps its width, its centre on the trace's end
        v.setWindow(100.0, 101.0);
        QVERIFY2(near(v.window(), Range{9.5, 10.5}), str(v.window()));
        // a window wider than the trace plus its margins shows its part inside them
        v.setWindow(-1000.0, 5.0);
        QVERIFY2(near(v.window(), Range{-2.5 - 5e-7, 5.0}), str(v.window()));
        // never narrower than kMinViewSeconds
        v.setWindow(5.0, 5.0 + 1e-12);
        QVERIFY(near(v.window().size(), TimelineViewport::kMinViewSeconds));
        QVERIFY(!v.isFitted());
    }

    void fitAllAndBack() {
        TimelineViewport v;
        v.setTrace(true, 0.0, 10.0);
        QSignalSpy history(&v, &TimelineViewport::historyChanged);
        QVERIFY(!v.canGoBack());
        v.setWindow(2.0, 3.0);
        v.fitAll();
        QVERIFY2(near(v.window(), Range{-0.1, 10.1}), str(v.window()));
        QVERIFY(v.isFitted());
        QVERIFY(v.canGoBack());
        QCOMPARE(history.last()[0].toBool(), true);
        QVERIFY(v.back());
        QVERIFY(near(v.window(), Range{2, 3}));
        QVERIFY(!v.canGoBack());
        QCOMPARE(history.last()[0].toBool(), false);
        QVERIFY(!v.back());
    }

    void aBurstIsOneHistoryEntry() {
        TimelineViewport v;
        v.setTrace(true, 0.0, 10.0);
        v.setWindow(4.0, 6.0);
        v.zoomBy(0.5, 5.0);  // the first of a burst remembers [4, 6]
        QVERIFY(near(v.window(), Range{4.5, 5.5}));
        v.panBy(0.5);
        v.panBy(0.5);
        QVERIFY(near(v.window(), Range{5.5, 6.5}));
        QVERIFY(v.back());
        QVERIFY2(near(v.window(), Range{4, 6}), str(v.window()));
        QVERIFY(!v.canGoBack());
        // jumps are entries of their own, even in quick succession
        v.noteJump();
        v.setWindow(1.0, 2.0);
        v.noteJump();
        v.setWindow(7.0, 8.0);
        QVERIFY(v.back());
        QVERIFY(near(v.window(), Range{1, 2}));
        QVERIFY(v.back());
        QVERIFY(near(v.window(), Range{4, 6}));
    }

    void historyIsCapped() {
        TimelineViewport v;
        v.setTrace(true, 0.0, 1000.0);
        for (int i = 0; i < 250; ++i) {
            v.noteJump();
            v.setWindow(i, i + 1.0);
        }
        int back = 0;
        while (v.back()) {
            ++back;
        }
        QCOMPARE(back, 200);
    }

    void refitKeepsHistory() {
        TimelineViewport v;
        v.setTrace(true, 0.0, 10.0);
        v.resetHistory();
        QVERIFY(v.isFitted());
        v.refit();
        QVERIFY(!v.canGoBack());
        v.setTrace(true, 0.0, 20.0);  // the trace grew
        v.refit();
        QVERIFY2(near(v.window(), Range{-0.2, 20.2}), str(v.window()));
        QVERIFY(!v.canGoBack());
    }

    void fitToTargetThenEverything() {
        TimelineViewport v;
        v.setTrace(true, 0.0, 10.0);
        v.fitTo(Range{2.0, 3.0});
        QVERIFY(near(v.window(), Range{2, 3}));
        v.fitTo(Range{2.001, 3.001});  // shown already (within 2%): everything
        QVERIFY(v.isFitted());
        QVERIFY(near(v.window(), Range{-0.1, 10.1}));
        v.setWindow(4.0, 5.0);
        v.fitTo(std::nullopt);
        QVERIFY(v.isFitted());
    }

    void revealAndCentre() {
        TimelineViewport v;
        v.setTrace(true, 0.0, 10.0);
        v.setWindow(2.0, 4.0);
        v.reveal(3.0);  // in view: stays
        QVERIFY(near(v.window(), Range{2, 4}));
        QVERIFY(!v.canGoBack());
        v.reveal(7.0);  // off view: centred, keeping the width
        QVERIFY(near(v.window(), Range{6, 8}));
        QVERIFY(v.canGoBack());
        v.reveal(9.99);  // near the end: no more than a margin beyond the trace
        QVERIFY2(near(v.window(), Range{8.1, 10.1}), str(v.window()));
        v.reveal(std::nan(""));
        QVERIFY(near(v.window(), Range{8.1, 10.1}));
        v.centreOn(5.0);
        QVERIFY(near(v.window(), Range{4, 6}));
    }

    void keepNewest() {
        TimelineViewport v;
        v.setTrace(true, 0.0, 10.0);
        QSignalSpy spy(&v, &TimelineViewport::keepNewestChanged);
        v.setWindow(2.0, 4.0);
        v.setKeepNewest(true);
        QCOMPARE(spy.size(), 1);
        QVERIFY(near(v.window(), Range{8.04, 10.04}));  // right edge just past the newest
        v.setTrace(true, 0.0, 11.0);
        v.trackNewest();
        QVERIFY(v.keepNewest());
        QVERIFY(near(v.window(), Range{9.04, 11.04}));
        v.fitAll();  // fitting shows the newest too: stays on
        QVERIFY(v.keepNewest());
        v.panBy(-0.1);  // a move by hand: off
        QVERIFY(!v.keepNewest());
        QCOMPARE(spy.size(), 2);
        QCOMPARE(spy.last()[0].toBool(), false);
    }

    void windowForCutsARangeToTheRecords() {
        // A picture's --range reaching past the trace shows the records' extent, not the fitted
        // view's margin around them.
        constexpr double inf = std::numeric_limits<double>::infinity();
        TimelineViewport v;
        v.setTrace(true, 2.0, 10.0);
        QVERIFY(near(*v.windowFor(0.0, 1000.0), Range{2.0, 10.0}));
        QVERIFY(near(*v.windowFor(-inf, 5.0), Range{2.0, 5.0}));
        QVERIFY(near(*v.windowFor(3.0, inf), Range{3.0, 10.0}));
        QVERIFY(near(*v.windowFor(3.0, 4.0), Range{3.0, 4.0}));
        QVERIFY(!v.windowFor(11.0, 12.0));  // wholly past the trace
        QVERIFY(!v.windowFor(4.0, 3.0));    // empty
        v.setTrace(true, 5.0, 5.0);         // one record: 1 ms around it
        QVERIFY(near(*v.windowFor(0.0, 10.0), Range{4.9995, 5.0005}));
    }
};

QTEST_APPLESS_MAIN(TestTimelineViewport)
#include "tst_timelineviewport.moc"
