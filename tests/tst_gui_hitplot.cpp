// Widget tests of the hit-ratio plot under the timeline's lanes as a window at 1440x900 shows it:
// at least 80 px high, its caption above the lines (headroom over 100 %), its labels whole, the
// dock grown to make room so that the rate plot stays in view while the record table keeps its
// rows (in the viewer's main window: TraceTab::kKeptTableRows), and a layout that follows the
// height in view.

#include "cache/keyanalysis.h"
#include "cachetracewriter.h"
#include "common/dockroom.h"
#include "records/recordtableview.h"
#include "shell/mainwindow.h"
#include "shell/tracetab.h"
#include "testutil.h"
#include "timeline/timelinehitplot.h"
#include "timeline/timelinewidget.h"
#include "trace/traceloader.h"
#include "viewstate.h"
#include "whatif/hitovertime.h"
#include "whatif/usesequence.h"

#include <qcustomplot.h>
#include <QAction>
#include <QDockWidget>
#include <QHeaderView>
#include <QMainWindow>
#include <QScrollArea>
#include <QSettings>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace lmct;
using namespace lmct::test;
using Kind = CachePolicy::Kind;

namespace {

/** Keys written, prefetched, read and released in rounds: eight lanes, as LMCache's traces. */
QByteArray busyTrace() {
    CacheTraceWriter w;
    double t = 0.01;
    std::vector<TKey> keys;
    for (int i = 0; i < 60; ++i) {
        keys.push_back(key(i));
    }
    for (int round = 0; round < 40; ++round) {
        std::vector<TKey> some(keys.begin() + (round * 7) % 50,
                               keys.begin() + (round * 7) % 50 + 8);
        w.call(t += 0.05, QStringLiteral("reserve_write"), some);
        w.call(t += 0.01, QStringLiteral("finish_write"), some);
        const QString id = QStringLiteral("r%1").arg(round);
        w.call(t += 0.05, QStringLiteral("submit_prefetch_task"), some, KeysAt::Spec, id);
        w.call(t += 0.01, QStringLiteral("read_prefetched_results.__enter__"), some);
        w.finishRead(t += 0.001, some);
        w.call(t += 0.001, QStringLiteral("read_prefetched_results.__exit__"), some);
        THandle h;
        h.prefetchRequestId = round;
        h.externalRequestId = id;
        h.l1PrefixHitCount = 4;
        h.totalRequestedKeys = 8;
        h.submitTime = CacheTraceWriter::kTMonoStart + t;
        if (round % 5 == 4) {
            w.cancel(t += 0.01, h);
        } else {
            w.release(t += 0.01, h, std::nullopt);
        }
    }
    return w.bytes();
}

/** The viewer's frame at 1440x900: the timeline in a top dock (tabbed with another, in a
 *  scroll area) of 384 px, the record table in the middle, a bottom dock of 90 px. */
struct Window {
    ViewState state;
    QMainWindow window;
    TimelineWidget *timeline = new TimelineWidget;
    QTableView *table = new QTableView;
    QStandardItemModel rows{500, 4};
    QDockWidget *timelineDock = new QDockWidget(QStringLiteral("Timeline"));
    QDockWidget *otherDock = new QDockWidget(QStringLiteral("Cache Behaviour"));
    QDockWidget *bottomDock = new QDockWidget(QStringLiteral("Diagnostics"));

    Window() {
        window.resize(1440, 900);
        table->setModel(&rows);
        window.setCentralWidget(table);
        auto *scroll = new QScrollArea;
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidgetResizable(true);
        scroll->setWidget(timeline);
        timelineDock->setWidget(scroll);
        otherDock->setWidget(new QWidget);
        bottomDock->setWidget(new QWidget);
        window.addDockWidget(Qt::TopDockWidgetArea, timelineDock);
        window.addDockWidget(Qt::TopDockWidgetArea, otherDock);
        window.tabifyDockWidget(timelineDock, otherDock);
        window.addDockWidget(Qt::BottomDockWidgetArea, bottomDock);
        timelineDock->raise();
        timeline->setViewState(&state);
        window.show();
        window.resizeDocks({timelineDock, bottomDock}, {384, 90}, Qt::Vertical);
    }

    QScrollArea *scroll() const { return qobject_cast<QScrollArea *>(timelineDock->widget()); }
};

/** The hit ratio over time of LRU and OPT at 8 chunks over `doc`. */
std::shared_ptr<const HitOverTime> hitsOf(const std::shared_ptr<const TraceDocument> &doc) {
    const auto ka = KeyAnalysis::build(*doc);
    const auto uses = UseSequence::build(*doc, ka);
    return HitOverTime::build(uses, {Kind::Lru, Kind::Opt}, 8, false);
}

/** The rate plot's axis rect (the rate graphs' key axis'). */
QCPAxisRect *rateRectOf(const TimelineWidget &t) {
    return t.rateGraphs().isEmpty() ? nullptr : t.rateGraphs().front()->keyAxis()->axisRect();
}

}  // namespace

class TestHitPlot : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }

    void placedAt1440x900() {
        Window w;
        QString error;
        w.state.setDocument(
            TraceLoader::loadBytes(busyTrace(), QStringLiteral("busy.lct"), &error));
        QVERIFY2(w.state.document(), qPrintable(error));
        QVERIFY(QTest::qWaitForWindowExposed(&w.window));
        QTRY_VERIFY_WITH_TIMEOUT(!w.timeline->isIndexing(), 30000);
        QTest::qWait(50);
        const int dockBefore = w.timelineDock->height();
        const int tableBefore = w.table->viewport()->height();
        TimelineHitPlot *hit = w.timeline->hitPlot();
        QVERIFY(!hit->isPlaced());
        ViewState::WhatIfChoice choice;
        choice.capacity = 8;
        choice.policies = {Kind::Lru, Kind::Opt};
        w.state.setWhatIfChoice(choice);
        w.state.setHitOverTime(hitsOf(w.state.document()));
        QVERIFY(hit->isPlaced());
        // the dock makes room for it (once laid out), from the table's rows
        QTRY_VERIFY(w.timelineDock->height() >= dockBefore + TimelineHitPlot::kLeastPlotPx);
        QTest::qWait(50);
        w.timeline->plot()->replot();
        QCPAxisRect *rect = hit->rect();
        QVERIFY2(rect->height() >= 80, qPrintable(QString::number(rect->height())));
        // the record table keeps a reasonable number of rows
        const int rowPx = w.table->verticalHeader()->defaultSectionSize();
        QVERIFY2(w.table->viewport()->height() / rowPx >= 8,
                 qPrintable(QStringLiteral("%1 rows (before: %2)")
                                .arg(w.table->viewport()->height() / rowPx)
                                .arg(tableBefore / rowPx)));
        // the rate plot stays in view: within the height the dock's scroll area shows
        QCPAxisRect *rate = rateRectOf(*w.timeline);
        QVERIFY(rate && rate->visible());
        const QPoint rateBottom = w.timeline->plot()->mapTo(w.scroll()->viewport(),
                                                            QPoint(0, rate->outerRect().bottom()));
        QVERIFY2(rateBottom.y() <= w.scroll()->viewport()->height(),
                 qPrintable(QStringLiteral("rate plot ends at %1 of %2 in view")
                                .arg(rateBottom.y())
                                .arg(w.scroll()->viewport()->height())));
        // the caption above the lines: 100 % lies below the caption's box
        QCPAxis *value = rect->axis(QCPAxis::atLeft);
        QVERIFY(hit->caption()->visible());
        const double captionBottom = hit->caption()->bottom->pixelPosition().y();
        QVERIFY2(value->coordToPixel(100) > captionBottom,
                 qPrintable(QStringLiteral("100 % at %1, caption to %2")
                                .arg(value->coordToPixel(100))
                                .arg(captionBottom)));
        QVERIFY(value->range().upper > 100);
        for (const double t : value->tickVector()) {
            QVERIFY2(t <= 100, qPrintable(QString::number(t)));  // no tick in the headroom
        }
        QVERIFY(value->tickVector().contains(0) && value->tickVector().contains(100));
        // the occupancy's labels whole, inside the plot: the capacity at the 100 % line
        QCPAxis *right = rect->axis(QCPAxis::atRight);
        const int labelPx = QFontMetrics(right->tickLabelFont()).height();
        const QVector<double> ticks = right->tickVector();
        const QVector<QString> labels = right->tickVectorLabels();
        QVERIFY(!ticks.isEmpty());
        QCOMPARE(right->coordToPixel(ticks.back()), value->coordToPixel(100));
        for (int i = 0; i < ticks.size(); ++i) {
            if (labels[i].isEmpty()) {
                continue;  // (0: the left axis says it)
            }
            const double y = right->coordToPixel(ticks[i]);
            QVERIFY2(y - labelPx / 2.0 >= rect->top() && y + labelPx / 2.0 <= rect->bottom(),
                     qPrintable(QStringLiteral("'%1' at %2, plot %3 to %4")
                                    .arg(labels[i])
                                    .arg(y)
                                    .arg(rect->top())
                                    .arg(rect->bottom())));
        }
        // shown once more (another result): the dock does not grow again
        const int dockAfter = w.timelineDock->height();
        w.state.setHitOverTime(nullptr);
        w.state.setHitOverTime(hitsOf(w.state.document()));
        QTest::qWait(50);
        QCOMPARE(w.timelineDock->height(), dockAfter);
    }

    void regression_recordTableKeepsItsRowsInTheMainWindow() {
        // In the viewer at 1440x900 the timeline's dock grew for the hit-ratio plot until the
        // record table showed 7 rows; it keeps TraceTab::kKeptTableRows (the dock scrolls).
        QSettings().clear();
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("busy.lct"), busyTrace());
        MainWindow w;
        w.setShowDialogs(false);
        w.setWindowState(Qt::WindowNoState);
        w.resize(1440, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_COMPARE(w.size(), QSize(1440, 900));
        for (QAction *a : w.findChildren<QAction *>()) {
            if (a->text() == QStringLiteral("&Reset Layout")) {
                a->trigger();  // the default dock sizes of this window size
            }
        }
        TraceTab *tab = openAndWait(w, path);
        QVERIFY(tab);
        auto *dock = w.findChild<QDockWidget *>(QStringLiteral("dock-timeline"));
        QVERIFY(dock);
        dock->raise();
        auto *timeline = qobject_cast<TimelineWidget *>(MainWindow::dockView(dock));
        QVERIFY(timeline);
        QTRY_VERIFY_WITH_TIMEOUT(!timeline->isIndexing(), 30000);
        QTest::qWait(100);
        QTableView *table = tab->table();
        const int rowPx = table->verticalHeader()->defaultSectionSize();
        const int rowsBefore = table->viewport()->height() / rowPx;
        QVERIFY2(rowsBefore >= TraceTab::kKeptTableRows, qPrintable(QString::number(rowsBefore)));
        const int dockBefore = dock->height();
        ViewState *state = tab->viewState();
        ViewState::WhatIfChoice choice;
        choice.capacity = 8;
        choice.policies = {Kind::Lru, Kind::Opt};
        state->setWhatIfChoice(choice);
        state->setHitOverTime(hitsOf(state->document()));
        QVERIFY(timeline->hitPlot()->isPlaced());
        QTest::qWait(300);  // (the dock grows once laid out)
        QVERIFY(dock->height() >= dockBefore);
        const int rows = table->viewport()->height() / rowPx;
        QVERIFY2(rows >= TraceTab::kKeptTableRows,
                 qPrintable(QStringLiteral("%1 rows (before: %2), dock %3 -> %4 px")
                                .arg(rows)
                                .arg(rowsBefore)
                                .arg(dockBefore)
                                .arg(dock->height())));
        // the hit-ratio plot still gets its least height (the dock scrolls to it)
        timeline->plot()->replot();
        QVERIFY2(timeline->hitPlot()->rect()->height() >= TimelineHitPlot::kLeastPlotPx,
                 qPrintable(QString::number(timeline->hitPlot()->rect()->height())));
    }

    void tabBehindGrowsWhenInFront() {
        Window w;
        QString error;
        w.state.setDocument(
            TraceLoader::loadBytes(busyTrace(), QStringLiteral("busy.lct"), &error));
        QVERIFY(QTest::qWaitForWindowExposed(&w.window));
        QTRY_VERIFY_WITH_TIMEOUT(!w.timeline->isIndexing(), 30000);
        w.otherDock->raise();  // (the What-if tab in front, as when the result comes)
        QTest::qWait(50);
        const int before = w.otherDock->height();
        w.state.setHitOverTime(hitsOf(w.state.document()));
        QTest::qWait(100);
        QCOMPARE(w.otherDock->height(), before);  // not while the timeline is behind
        w.timelineDock->raise();
        QTRY_VERIFY(w.timelineDock->height() >= before + TimelineHitPlot::kLeastPlotPx);
    }

    void layoutFollowsTheHeightInView() {
        // A timeline taller than its scroll area (its minimum past the view) is laid out for
        // the view again when the area grows: no longer taller than it has to be.
        Window w;
        QString error;
        w.state.setDocument(
            TraceLoader::loadBytes(busyTrace(), QStringLiteral("busy.lct"), &error));
        QVERIFY(QTest::qWaitForWindowExposed(&w.window));
        QTRY_VERIFY_WITH_TIMEOUT(!w.timeline->isIndexing(), 30000);
        w.window.resizeDocks({w.timelineDock}, {200}, Qt::Vertical);
        QTRY_VERIFY(w.timeline->height() > w.scroll()->viewport()->height());  // scrolls
        w.window.resizeDocks({w.timelineDock}, {480}, Qt::Vertical);
        QTRY_COMPARE(w.timeline->height(), w.scroll()->viewport()->height());
        QCOMPARE(DockRoom::shortfall(w.timeline), 0);
    }
};

QTEST_MAIN(TestHitPlot)
#include "tst_gui_hitplot.moc"
