// The comparison tab: two generated traces side by side (both timelines, the Compare pane), its
// models filled, differing config rows highlighted, reasons in place, the ComparisonLink at
// work between the two timelines (filter, range through the offset, selection, the drag
// handle), File > Compare's path from open tabs, and `lmct-viewer --compare`.

#include "combinefixture.h"
#include "common/jobpool.h"
#include "comparealignmentoptions.h"
#include "comparefixture.h"
#include "comparisonlink.h"
#include "itemmodels/cachecomparisonmodel.h"
#include "itemmodels/callcomparisonmodel.h"
#include "itemmodels/configcomparisonmodel.h"
#include "itemmodels/keyoverlapmodel.h"
#include "itemmodels/latencycomparisonmodel.h"
#include "panes/comparepane.h"
#include "panes/comparisonrowdelegate.h"
#include "records/filterbar.h"
#include "shell/comparedialog.h"
#include "shell/comparetab.h"
#include "shell/mainwindow.h"
#include "shell/tracetab.h"
#include "timeline/timelineoverlay.h"
#include "timeline/timelinewidget.h"
#include "util/timeformat.h"
#include "viewstate.h"

#include <qcustomplot.h>
#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QProcess>
#include <QProgressBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSemaphore>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <cstring>

using namespace lmct;
using namespace lmct::test;

namespace {

int findRow(const QAbstractItemModel &m, int column, const QString &text) {
    for (int r = 0; r < m.rowCount(); ++r) {
        if (m.index(r, column).data().toString() == text ||
            (column == 0 && m.index(r, 0).data(FigureTableModel::GroupRole).toString() == text)) {
            return r;
        }
    }
    return -1;
}

/** The first record of `call` (short name) in `doc`, or -1. */
int firstOf(const TraceDocument &doc, const char *call) {
    for (int i = 0; i < doc.records().size(); ++i) {
        if (doc.records().qualname(i).endsWith(QLatin1String(call))) {
            return i;
        }
    }
    return -1;
}

}  // namespace

class TestGuiCompare : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_a, m_b, m_noPrefetch, m_later, m_damaged;

    /** A main window comparing `a` and `b`, the comparison shown. */
    CompareTab *open(MainWindow &w, const QString &a, const QString &b,
                     const CompareAlignmentOptions &alignment = {}) {
        w.setShowDialogs(false);
        CompareTab *tab = w.compareFiles(a, b, alignment);
        if (!tab) {
            return nullptr;
        }
        QSignalSpy done(tab, &CompareTab::compared);
        if (!done.wait(60000)) {
            return nullptr;
        }
        return tab;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        WorkloadSpec sa, sb, sn;
        sb.rounds = 10;
        sb.l1Bytes /= 2;
        sb.policy = QStringLiteral("FIFO");
        sb.shmName = QStringLiteral("lmcache_l1_pool_4242");
        sn.prefetch = false;
        m_a = writeFile(m_dir, QStringLiteral("a.lct"), makeWorkload(sa).bytes);
        m_b = writeFile(m_dir, QStringLiteral("b.lct"), makeWorkload(sb).bytes);
        m_noPrefetch = writeFile(m_dir, QStringLiteral("nopf.lct"), makeWorkload(sn).bytes);
        m_damaged = writeFile(m_dir, QStringLiteral("damaged.lct"),
                              damagedWorkload(makeWorkload(sb).bytes, 2));
        // B recorded 100 s after A: the header's t_wall_start (its first f64 of that value).
        const auto f64 = [](double v) {
            QByteArray b(1, char(0xcb));
            quint64 bits;
            std::memcpy(&bits, &v, 8);
            for (int i = 7; i >= 0; --i) {
                b += char((bits >> (8 * i)) & 0xff);
            }
            return b;
        };
        QByteArray later = makeWorkload(sb).bytes;
        const qint64 at = later.indexOf(f64(1760000000.25));
        QVERIFY(at > 0 && at < frameEnds(later).first());
        later.replace(at, 9, f64(1760000100.25));
        m_later = writeFile(m_dir, QStringLiteral("later.lct"), later);
    }

    void tabOpensForTwoTraces() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        CompareTab *tab = open(w, m_a, m_b);
        QVERIFY(tab);
        QCOMPARE(w.tabCount(), 1);
        QCOMPARE(w.compareTabAt(0), tab);
        QCOMPARE(w.currentTab(), nullptr);  // not a trace's tab
        QCOMPARE(tab->title(), QStringLiteral("a.lct ⇄ b.lct"));
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("a.lct ⇄ b.lct")));
        QVERIFY2(w.statusText().contains(QStringLiteral("Comparing a.lct (A) with b.lct (B)")),
                 qPrintable(w.statusText()));
        QVERIFY(tab->stateA()->document());
        QVERIFY(tab->stateB()->document());
        QCOMPARE(tab->timelineA()->viewState(), tab->stateA());
        QCOMPARE(tab->timelineB()->viewState(), tab->stateB());
        QVERIFY(tab->headerLabel(false)->text().startsWith(QStringLiteral("a.lct")));
        QVERIFY(tab->headerLabel(true)->text().contains(QStringLiteral("offset")));
        // Once both are built, the window spans both traces (A's is the longer here).
        const double longest =
            std::max(tab->stateA()->document()->duration(), tab->stateB()->document()->duration());
        QTRY_VERIFY_WITH_TIMEOUT(tab->timelineA()->visibleRange().lower <= 0.0 &&
                                     tab->timelineA()->visibleRange().upper >= longest,
                                 20000);
        QTRY_COMPARE(tab->timelineB()->visibleRange().upper,
                     tab->timelineA()->visibleRange().upper);
        // The docks follow trace A (the Timeline dock's view among them).
        int docked = 0;
        for (TimelineWidget *t : w.findChildren<TimelineWidget *>()) {
            if (t != tab->timelineA() && t != tab->timelineB()) {
                QCOMPARE(t->viewState(), tab->stateA());
                ++docked;
            }
        }
        QCOMPARE(docked, 1);
        w.closeTab(0);
        QCOMPARE(w.tabCount(), 0);
    }

    void paneIsFilledAndHighlightsDifferences() {
        MainWindow w;
        w.show();
        CompareTab *tab = open(w, m_a, m_b);
        QVERIFY(tab);
        ComparePane *pane = tab->pane();
        QAbstractItemModelTester t1(pane->configModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(pane->callModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(pane->latencyModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t4(pane->cacheModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t5(pane->overlapModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Calls: 40 submits in A, 10 in B.
        const CallComparisonModel &calls = *pane->callModel();
        const int submit =
            findRow(calls, FigureTableModel::GroupColumn, QStringLiteral("submit_prefetch_task"));
        QVERIFY(submit >= 0);
        QCOMPARE(calls.index(submit, FigureTableModel::AColumn).data().toString(),
                 QStringLiteral("40"));
        QCOMPARE(calls.index(submit, FigureTableModel::BColumn).data().toString(),
                 QStringLiteral("10"));
        QCOMPARE(calls.index(submit, FigureTableModel::PercentColumn).data().toString(),
                 QStringLiteral("\u221275.0 %"));
        QVERIFY(pane->reasonText(ComparePane::CallsTab).isEmpty());
        QVERIFY(pane->reasonText(ComparePane::HeaderTab).isEmpty());
        QVERIFY(pane->latencyModel()->rowCount() > 0);
        QVERIFY(pane->cacheModel()->rowCount() > 0);
        QVERIFY(pane->overlapModel()->rowCount() > 0);
        // The plots have both traces.
        QCOMPARE(pane->latencyPlot()->plottableCount(), 2);
        QCOMPARE(pane->reusePlot()->plottableCount(), 2);
        QVERIFY(pane->whatIfPlot()->graphCount() >= 2);
        QCOMPARE(pane->whatIfPlot()->graph(0)->pen().style(), Qt::SolidLine);  // A
        QCOMPARE(pane->whatIfPlot()->graph(pane->whatIfPlot()->graphCount() - 1)->pen().style(),
                 Qt::DashLine);  // B
        // Config: the L1 size and the policy differ (highlighted), shm_name is volatile (greyed).
        const ConfigComparisonModel &cfg = *pane->configModel();
        auto *delegate = qobject_cast<ComparisonRowDelegate *>(pane->configView()->itemDelegate());
        QVERIFY(delegate);
        int differing = 0, volatileRow = -1, same = -1;
        for (int r = 0; r < cfg.rowCount(); ++r) {
            const QModelIndex i = cfg.index(r, ConfigComparisonModel::FieldColumn);
            if (i.data(ConfigComparisonModel::DiffersRole).toBool()) {
                ++differing;
                const QStyleOptionViewItem o =
                    delegate->styleOption(QStyleOptionViewItem(), cfg.index(r, 1));
                QCOMPARE(o.backgroundBrush.color(), ComparisonRowDelegate::differsColor(o.palette));
                QVERIFY(o.font.bold());
            } else if (i.data(ConfigComparisonModel::VolatileRole).toBool()) {
                volatileRow = r;
            } else if (same < 0) {
                same = r;
            }
        }
        QVERIFY2(differing >= 2, qPrintable(QString::number(differing)));
        QVERIFY(volatileRow >= 0);
        QVERIFY(cfg.index(volatileRow, 0).data().toString().contains(QLatin1String("shm_name")));
        QCOMPARE(delegate->highlightOf(cfg.index(volatileRow, 2)),
                 ComparisonRowDelegate::Highlight::Volatile);
        QVERIFY(same >= 0);
        QCOMPARE(delegate->highlightOf(cfg.index(same, 2)), ComparisonRowDelegate::Highlight::None);
        QCOMPARE(delegate->styleOption(QStyleOptionViewItem(), cfg.index(same, 2))
                     .backgroundBrush.style(),
                 Qt::NoBrush);
        QVERIFY(pane->configSummary()->text().contains(QStringLiteral("volatile")));
    }

    void reasonWhenBHasNoPrefetches() {
        MainWindow w;
        w.show();
        CompareTab *tab = open(w, m_a, m_noPrefetch);
        QVERIFY(tab);
        ComparePane *pane = tab->pane();
        QVERIFY2(pane->reasonText(ComparePane::CallsTab)
                     .contains(QStringLiteral("B has no submit_prefetch_task")),
                 qPrintable(pane->reasonText(ComparePane::CallsTab)));
        QVERIFY(!pane->reasonText(ComparePane::CacheTab).isEmpty());
        QVERIFY(!pane->reasonText(ComparePane::LatenciesTab).isEmpty());
        // The rows concerned are greyed.
        const CallComparisonModel &calls = *pane->callModel();
        const int submit =
            findRow(calls, FigureTableModel::GroupColumn, QStringLiteral("submit_prefetch_task"));
        auto *delegate = qobject_cast<ComparisonRowDelegate *>(pane->callView()->itemDelegate());
        QVERIFY(delegate && submit >= 0);
        QCOMPARE(delegate->highlightOf(calls.index(submit, 2)),
                 ComparisonRowDelegate::Highlight::Unavailable);
    }

    void whatIfOfBWithoutPrefetchesIsUnknown() {
        MainWindow w;
        w.show();
        CompareTab *tab = open(w, m_a, m_noPrefetch);
        QVERIFY(tab);
        ComparePane *pane = tab->pane();
        // Only A's curves: B's would be 0 where nothing could hit.
        const int policies = int(pane->comparison()->cache().a().whatIf->curves().size());
        QVERIFY(policies > 0);
        QCOMPARE(pane->whatIfPlot()->graphCount(), policies);
        auto *title =
            qobject_cast<QCPTextElement *>(pane->whatIfPlot()->plotLayout()->element(0, 0));
        QVERIFY(title);
        QVERIFY2(title->text().contains(QStringLiteral("B: — (B has no submit_prefetch_task)")),
                 qPrintable(title->text()));
        const int row =
            findRow(*pane->cacheModel(), FigureTableModel::GroupColumn, QStringLiteral("what-if"));
        QVERIFY(row >= 0);
        QCOMPARE(pane->cacheModel()->index(row, FigureTableModel::BColumn).data().toString(),
                 QStringLiteral("—"));
        QCOMPARE(pane->cacheModel()
                     ->index(row, FigureTableModel::BColumn)
                     .data(FigureTableModel::ReasonRole)
                     .toString(),
                 QStringLiteral("B has no submit_prefetch_task"));
        // Both with prefetches: both traces' curves.
        CompareTab *both = open(w, m_a, m_b);
        QVERIFY(both);
        QCOMPARE(both->pane()->whatIfPlot()->graphCount(), 2 * policies);
    }

    void damagedTraceIsNamedInThePane() {
        MainWindow w;
        w.show();
        CompareTab *tab = open(w, m_a, m_damaged);
        QVERIFY(tab);
        QLabel *warning = tab->pane()->damageLabel();
        QVERIFY(warning->isVisible());
        QVERIFY2(warning->text().contains(QStringLiteral(
                     "B (damaged.lct) is damaged: 2 records with damaged arguments, 1 frame "
                     "skipped")),
                 qPrintable(warning->text()));
        QVERIFY(!warning->text().contains(QStringLiteral("A (a.lct)")));
        CompareTab *clean = open(w, m_a, m_b);
        QVERIFY(clean);
        QVERIFY(!clean->pane()->damageLabel()->isVisible());
        QVERIFY(clean->pane()->damageLabel()->text().isEmpty());
    }

    // One time is one x in both timelines, though A's lane labels (the prefetch calls) are wider
    // than B's (writes only).
    void plotAreasShareOneTimeAxis() {
        MainWindow w;
        w.resize(1440, 900);
        w.show();
        CompareTab *tab = open(w, m_a, m_noPrefetch);
        QVERIFY(tab);
        TimelineWidget *ta = tab->timelineA(), *tb = tab->timelineB();
        QTRY_VERIFY_WITH_TIMEOUT(!ta->isIndexing() && !tb->isIndexing(), 20000);
        QTRY_VERIFY(ta->naturalPlotMargins().left() > tb->naturalPlotMargins().left() + 20);
        const auto edges = [](TimelineWidget *t) {
            const QCPAxisRect *r = t->timeAxis()->axisRect();
            const QPoint g = t->plot()->mapToGlobal(QPoint(0, 0));
            return std::pair{g.x() + r->left(), g.x() + r->right()};
        };
        QTRY_COMPARE(edges(tb), edges(ta));
        const auto globalX = [](TimelineWidget *t, double time) {
            return t->plot()->mapToGlobal(QPoint(0, 0)).x() + t->timeAxis()->coordToPixel(time);
        };
        tab->offsetBox()->setValue(0.25);
        QTRY_COMPARE(tb->visibleRange().lower, tab->link()->toB(ta->visibleRange().lower));
        QTRY_VERIFY(
            std::abs(tb->visibleRange().upper - tab->link()->toB(ta->visibleRange().upper)) < 1e-9);
        const QCPRange r = ta->visibleRange();
        for (const double f : {0.05, 0.5, 0.95}) {
            const double t = r.lower + f * r.size();
            QVERIFY2(std::abs(globalX(ta, t) - globalX(tb, tab->link()->toB(t))) < 1.0,
                     qPrintable(QStringLiteral("%1 vs %2")
                                    .arg(globalX(ta, t))
                                    .arg(globalX(tb, tab->link()->toB(t)))));
        }
        // A narrower window keeps them together (the label column is B's too).
        w.resize(1100, 800);
        QTRY_COMPARE(edges(tb), edges(ta));
    }

    // A and B show one time range at one width: their time axes have the same ticks, also
    // after the window is resized.
    void timeAxesTickAlike() {
        MainWindow w;
        w.resize(1100, 800);
        w.show();
        CompareTab *tab = open(w, m_a, m_b);
        QVERIFY(tab);
        TimelineWidget *ta = tab->timelineA(), *tb = tab->timelineB();
        QTRY_VERIFY_WITH_TIMEOUT(!ta->isIndexing() && !tb->isIndexing(), 20000);
        const auto ticks = [](TimelineWidget *t) { return t->timeAxis()->tickVector(); };
        QTRY_VERIFY(!ticks(ta).isEmpty());
        QTRY_COMPARE(ticks(tb), ticks(ta));
        for (const QSize size : {QSize(1600, 1000), QSize(900, 700), QSize(1440, 900)}) {
            w.resize(size);
            QTRY_COMPARE(ta->timeAxis()->axisRect()->width(), tb->timeAxis()->axisRect()->width());
            QTRY_COMPARE(ticks(tb), ticks(ta));
        }
    }

    // Hovering one timeline draws the same instant in the other, with that trace's own time.
    void hoverShowsTheTimeInBoth() {
        MainWindow w;
        w.resize(1440, 900);
        w.show();
        CompareTab *tab = open(w, m_a, m_b);
        QVERIFY(tab);
        TimelineWidget *ta = tab->timelineA(), *tb = tab->timelineB();
        QTRY_VERIFY_WITH_TIMEOUT(!ta->isIndexing() && !tb->isIndexing(), 20000);
        tab->offsetBox()->setValue(0.5);
        auto *overlayA = ta->plot()->findChild<TimelineOverlay *>();
        auto *overlayB = tb->plot()->findChild<TimelineOverlay *>();
        QVERIFY(overlayA && overlayB);
        for (const bool fromB : {false, true}) {
            TimelineWidget *from = fromB ? tb : ta, *to = fromB ? ta : tb;
            TimelineOverlay *overlay = fromB ? overlayA : overlayB;
            QTRY_VERIFY(from->timeAxis()->axisRect()->width() > 100);
            const QCPAxisRect *rect = from->timeAxis()->axisRect();
            const QPoint pos(rect->left() + rect->width() / 3, rect->top() + 4);
            QTest::mouseMove(from->plot(), pos);
            const double t = from->timeAxis()->pixelToCoord(pos.x());
            const double mapped = fromB ? tab->link()->toA(t) : tab->link()->toB(t);
            QTRY_VERIFY(!std::isnan(to->timeGuide()));
            QVERIFY(std::abs(to->timeGuide() - mapped) < 1e-9);
            QVERIFY(overlay->hoverVisible());
            // at the same x on screen, its tag the other trace's own time
            const int tagX = to->plot()->mapToGlobal(overlay->hoverTagRect().center()).x();
            QVERIFY2(
                std::abs(tagX - from->plot()->mapToGlobal(pos).x()) <= 2,
                qPrintable(
                    QStringLiteral("%1 vs %2").arg(tagX).arg(from->plot()->mapToGlobal(pos).x())));
            QVERIFY(!overlay->hoverTag().isEmpty());
            QEvent leave(QEvent::Leave);
            QApplication::sendEvent(from->plot(), &leave);
            QTRY_VERIFY(std::isnan(to->timeGuide()));
            QVERIFY(!overlay->hoverVisible());
        }
    }

    // At 1440x900 the Latencies table shows every column whole beside the distribution (the
    // page scrolls sideways when the window is narrower, no column is cut), the distribution
    // readable however short.
    void latenciesTableShowsEveryColumnWhole() {
        MainWindow w;
        w.resize(1440, 900);
        w.show();
        CompareTab *tab = open(w, m_a, m_b);
        QVERIFY(tab);
        ComparePane *pane = tab->pane();
        pane->tabs()->setCurrentIndex(ComparePane::LatenciesTab);
        QTableView *v = pane->latencyView();
        QTRY_VERIFY(v->isVisible() && v->viewport()->width() > 0);
        for (const QSize size : {QSize(1440, 900), QSize(1000, 800), QSize(900, 700)}) {
            w.resize(size);
            QTRY_VERIFY(v->viewport()->width() > 0);
            QApplication::processEvents();
            const int last = v->model()->columnCount() - 1;
            QVERIFY2(
                v->columnViewportPosition(last) + v->columnWidth(last) <= v->viewport()->width(),
                qPrintable(QStringLiteral("%1: %2 + %3 > %4")
                               .arg(size.width())
                               .arg(v->columnViewportPosition(last))
                               .arg(v->columnWidth(last))
                               .arg(v->viewport()->width())));
            QCOMPARE(v->horizontalScrollBar()->maximum(), 0);
        }
        // The distribution keeps its count labels apart and its legend off the bars, also as
        // short as the pane is at 1280x800.
        w.resize(1440, 900);
        QCustomPlot *p = pane->latencyPlot();
        QTRY_VERIFY(p->isVisible());
        for (const int height : {400, 150}) {
            p->setFixedHeight(height);
            QApplication::processEvents();
            p->replot(QCustomPlot::rpImmediateRefresh);
            p->replot(QCustomPlot::rpImmediateRefresh);  // (the tick count fitted: once more)
            const QVector<double> ticks = p->yAxis->tickVector();
            QVERIFY(ticks.size() >= 2);
            const int labelPx = QFontMetrics(p->yAxis->tickLabelFont()).height();
            for (int i = 1; i < ticks.size(); ++i) {
                const double apart = std::abs(p->yAxis->coordToPixel(ticks[i]) -
                                              p->yAxis->coordToPixel(ticks[i - 1]));
                QVERIFY2(
                    apart >= labelPx,
                    qPrintable(
                        QStringLiteral("%1 px high: ticks %2 px apart").arg(height).arg(apart)));
            }
            QVERIFY(p->legend->visible());
            QVERIFY(p->legend->outerRect().top() >= p->axisRect()->outerRect().bottom());
        }
    }

    // In a 1600x1000 window (the tab has about 1000x790 of it, the docks beside and under
    // it) both timelines show all their lanes at readable rows, nothing to scroll; in a
    // 1280x800 one (about 800x600) the pane keeps a third of the height and the timelines
    // scroll rather than squeeze their rows under the labels.
    void timelinesShowEveryLane() {
        CompareTab tab;
        tab.resize(1000, 790);
        tab.show();
        QSignalSpy done(&tab, &CompareTab::compared);
        tab.compareFiles(m_a, m_b);
        QVERIFY(done.wait(60000));
        const auto scrollOf = [](TimelineWidget *t) {
            return qobject_cast<QScrollArea *>(t->parentWidget()->parentWidget());
        };
        for (TimelineWidget *t : {tab.timelineA(), tab.timelineB()}) {
            QVERIFY(scrollOf(t));
            QTRY_VERIFY(!t->isIndexing());
        }
        QApplication::processEvents();
        for (TimelineWidget *t : {tab.timelineA(), tab.timelineB()}) {
            QTRY_COMPARE(scrollOf(t)->verticalScrollBar()->maximum(), 0);
            t->plot()->replot(QCustomPlot::rpImmediateRefresh);
            QCPAxisRect *lanes = t->plot()->axisRect(0);
            QVERIFY2(lanes->outerRect().bottom() <= t->plot()->height(),
                     qPrintable(QStringLiteral("lanes end at %1 of %2")
                                    .arg(lanes->outerRect().bottom())
                                    .arg(t->plot()->height())));
            QVERIFY(t->height() >= t->readableHeight());
        }
        tab.resize(800, 600);
        QApplication::processEvents();
        const QList<int> sizes = tab.splitter()->sizes();
        const int total = sizes[0] + sizes[1];
        QVERIFY2(sizes[1] >= int(total * CompareTab::kPaneLeastShare) - 1,
                 qPrintable(QStringLiteral("%1 of %2").arg(sizes[1]).arg(total)));
        for (TimelineWidget *t : {tab.timelineA(), tab.timelineB()}) {
            QVERIFY(t->height() >= t->minimumSizeHint().height());
        }
        // moved by hand, the splitter stays where it is put
        tab.splitter()->setSizes({total - 100, 100});
        emit tab.splitter()->splitterMoved(total - 100, 1);
        tab.resize(820, 620);
        QApplication::processEvents();
        QVERIFY(tab.splitter()->sizes()[1] < tab.splitter()->sizes()[0] / 2);
    }

    // At 1440x900 the Cache tab shows the figures with every column whole, and the plots with
    // their titles and bucket labels whole (the page scrolls, nothing is squeezed).
    void cacheTabIsReadableOnALaptopScreen() {
        MainWindow w;
        w.resize(1440, 900);
        w.show();
        CompareTab *tab = open(w, m_a, m_b);
        QVERIFY(tab);
        ComparePane *pane = tab->pane();
        pane->tabs()->setCurrentIndex(ComparePane::CacheTab);
        QTableView *v = pane->cacheView();
        QTRY_VERIFY(v->isVisible() && v->viewport()->width() > 0);
        auto *area = qobject_cast<QScrollArea *>(pane->tabs()->currentWidget());
        QVERIFY(area);
        QVERIFY2(
            v->width() <= area->viewport()->width(),
            qPrintable(QStringLiteral("%1 > %2").arg(v->width()).arg(area->viewport()->width())));
        for (int c = 0; c < FigureTableModel::kColumnCount; ++c) {
            QVERIFY(v->columnViewportPosition(c) >= 0);
            QVERIFY2(v->columnViewportPosition(c) + v->columnWidth(c) <= v->viewport()->width(),
                     qPrintable(QStringLiteral("column %1").arg(c)));
            QVERIFY(v->columnWidth(c) >= v->horizontalHeader()->sectionSizeHint(c));
        }
        QVERIFY(v->verticalHeader()->length() <= v->viewport()->height());
        for (QCustomPlot *p : {pane->whatIfPlot(), pane->reusePlot()}) {
            p->replot(QCustomPlot::rpImmediateRefresh);
            QVERIFY(p->width() >= 400 && p->height() >= 280);
            auto *title = qobject_cast<QCPTextElement *>(p->plotLayout()->element(0, 0));
            QVERIFY(title);
            QVERIFY(QFontMetrics(title->font()).horizontalAdvance(title->text()) < p->width());
            QVERIFY(QFontMetrics(p->xAxis->labelFont()).horizontalAdvance(p->xAxis->label()) <
                    p->axisRect()->width());
        }
        // The histogram's bucket labels stand apart and inside the plot.
        for (const int chooser : {0, 1}) {
            pane->reuseChooser()->setCurrentIndex(chooser);
            QCustomPlot *p = pane->reusePlot();
            p->replot(QCustomPlot::rpImmediateRefresh);
            const auto ticker = p->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
            QVERIFY(ticker && ticker->ticks().size() >= 2);
            const QFontMetrics fm(p->xAxis->tickLabelFont());
            double previousRight = -1e9;
            for (auto it = ticker->ticks().cbegin(); it != ticker->ticks().cend(); ++it) {
                const double x = p->xAxis->coordToPixel(it.key());
                const double half = fm.horizontalAdvance(it.value()) / 2.0;
                QVERIFY2(x - half > previousRight, qPrintable(it.value()));
                QVERIFY(x - half >= 0 && x + half <= p->width());
                previousRight = x + half;
            }
        }
    }

    void reasonWhenBHasNoConfig() {
        CacheTraceWriter writer;  // its header has no sm_config_json
        writer.call(1.0, QStringLiteral("finish_write"), {key(1)});
        writer.call(2.0, QStringLiteral("finish_write"), {key(2)});
        const QString bare = writeFile(m_dir, QStringLiteral("bare.lct"), writer.bytes());
        MainWindow w;
        w.show();
        CompareTab *tab = open(w, m_a, bare);
        QVERIFY(tab);
        const QString header = tab->pane()->reasonText(ComparePane::HeaderTab);
        QVERIFY2(header.contains(QStringLiteral("no JSON object")), qPrintable(header));
        QVERIFY(!tab->pane()->reasonText(ComparePane::CacheTab).isEmpty());
    }

    void filterTypedInAAppliesToB() {
        MainWindow w;
        w.show();
        CompareTab *tab = open(w, m_a, m_b);
        QVERIFY(tab);
        tab->filterBarA()->lineEdit()->setText(QStringLiteral("call == finish_write"));
        QVERIFY(tab->filterBarA()->apply());
        QCOMPARE(tab->stateB()->filterText(), QStringLiteral("call == finish_write"));
        QTRY_VERIFY_WITH_TIMEOUT(tab->stateB()->filterRecords() != nullptr, 20000);
        QCOMPARE(int(tab->stateB()->filterRecords()->size()), 16);  // one finish_write per key
        QCOMPARE(tab->filterBarB()->lineEdit()->text(), QStringLiteral("call == finish_write"));
    }

    void rangeSelectionAndWindowThroughTheOffset() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        CompareTab *tab = open(w, m_a, m_b);
        QVERIFY(tab);
        ViewState *a = tab->stateA();
        ViewState *b = tab->stateB();
        a->setTimeRange(ViewState::TimeRange{1.0, 1.2});
        QCOMPARE(b->timeRange()->from, 1.0);
        tab->offsetBox()->setValue(0.25);  // B drawn 0.25 s later
        QCOMPARE(tab->link()->offset(), 0.25);
        QVERIFY(b->timeRange());
        QCOMPARE(b->timeRange()->from, 0.75);
        QCOMPARE(b->timeRange()->to, 0.95);
        QVERIFY(tab->headerLabel(true)->text().contains(TimeFormat::delta(0.25)));
        // Go > Show All Records (Esc) clears both.
        QAction *showAll = nullptr;
        for (QAction *act : w.findChildren<QAction *>()) {
            if (act->text() == QStringLiteral("Show &All Records")) {
                showAll = act;
            }
        }
        QVERIFY(showAll && showAll->isEnabled());
        showAll->trigger();
        QVERIFY(!a->timeRange());
        QVERIFY(!b->timeRange());
        QVERIFY(!showAll->isEnabled());
        // The visible windows follow each other through the offset.
        tab->timelineA()->setVisibleRange(1.3, 1.5);
        const auto wb = tab->timelineB()->viewport()->window();
        QCOMPARE(wb.lower, 1.05);
        QCOMPARE(wb.upper, 1.25);
        QCOMPARE(tab->timelineB()->visibleRange().lower, 1.05);
        // Selection: a submit in A selects B's submit nearest in mapped time.
        const auto docA = a->document();
        const auto docB = b->document();
        const int sa = firstOf(*docA, "submit_prefetch_task");
        QVERIFY(sa >= 0);
        a->setSelectedRecord(sa);
        const int expected = ComparisonLink::nearestRecord(
            docB->records(), docA->records().qualname(sa), docA->records().tMono(sa) - 0.25);
        QVERIFY(expected >= 0);
        QCOMPARE(b->selectedRecord(), expected);
        QVERIFY(docB->records()
                    .qualname(b->selectedRecord())
                    .endsWith(QLatin1String("submit_prefetch_task")));
        QCOMPARE(a->selectedRecord(), sa);
    }

    void dragHandleShiftsB() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        CompareTab *tab = open(w, m_a, m_b);
        QVERIFY(tab);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QLabel *handle = tab->dragHandle();
        const double before = tab->link()->offset();
        const QPointF p(5, 5);
        QMouseEvent press(QEvent::MouseButtonPress, p, handle->mapToGlobal(p), Qt::LeftButton,
                          Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(handle, &press);
        const QPointF q(45, 5);
        QMouseEvent move(QEvent::MouseMove, q, handle->mapToGlobal(q), Qt::NoButton, Qt::LeftButton,
                         Qt::NoModifier);
        QApplication::sendEvent(handle, &move);
        QMouseEvent release(QEvent::MouseButtonRelease, q, handle->mapToGlobal(q), Qt::LeftButton,
                            Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(handle, &release);
        const double span = tab->timelineB()->visibleRange().size();
        const double width = tab->timelineB()->plot()->axisRect()->width();
        QVERIFY(tab->link()->offset() > before);
        QCOMPARE(tab->link()->offset(), before + 40 * span / width);
        QCOMPARE(tab->offsetBox()->value(), std::round(tab->link()->offset() * 1e6) / 1e6);
    }

    void alignmentByTWall() {
        MainWindow w;
        w.show();
        CompareTab *tab = open(w, m_a, m_later);
        QVERIFY(tab);
        QCOMPARE(tab->link()->base(), 0.0);
        tab->alignmentBox()->setCurrentIndex(1);
        QCOMPARE(tab->link()->alignment(), ComparisonLink::Alignment::Wall);
        // B started 100 s after A (t_wall_start): B's t_mono 1 is A's 101.
        QCOMPARE(tab->link()->base(), 100.0);
        QCOMPARE(tab->link()->toA(1.0), 101.0);
        QVERIFY(tab->headerLabel(true)->text().contains(
            QStringLiteral("t_wall %1").arg(TimeFormat::delta(100.0))));
        // Both shown whole on the new axis: A's window reaches B's end.
        QVERIFY(tab->timelineA()->visibleRange().upper >=
                100.0 + tab->stateB()->document()->duration());
        tab->alignmentBox()->setCurrentIndex(0);
        QCOMPARE(tab->link()->toA(1.0), 1.0);
    }

    // `lmct-viewer --align wall --offset -1.5 --compare A B`: the tab opens lined up so, its bar
    // saying it (the options as the report reads them).
    void opensWithTheAlignmentAndOffsetAsked() {
        {
            MainWindow w;
            w.show();
            CompareTab *tab = open(w, m_a, m_later, {ComparisonLink::Alignment::Wall, -1.5});
            QVERIFY(tab);
            QCOMPARE(tab->alignmentBox()->currentIndex(), 1);
            QCOMPARE(tab->link()->alignment(), ComparisonLink::Alignment::Wall);
            QCOMPARE(tab->offsetBox()->value(), -1.5);
            QCOMPARE(tab->link()->offset(), -1.5);
            // B started 100 s after A, drawn 1.5 s earlier: its t_mono 1 is A's 99.5.
            QCOMPARE(tab->link()->toA(1.0), 99.5);
            QVERIFY(tab->headerLabel(true)->text().contains(
                QStringLiteral("offset %1").arg(TimeFormat::delta(-1.5))));
            QVERIFY(tab->statusLabel()->text().isEmpty());
        }
        {
            // open tabs are compared as they are, lined up alike
            MainWindow w;
            w.show();
            TraceTab *ta = w.openFile(m_a);
            TraceTab *tb = w.openFile(m_b);
            QTRY_VERIFY_WITH_TIMEOUT(
                ta->document() && !ta->isLoading() && tb->document() && !tb->isLoading(), 20000);
            CompareTab *tab = open(w, m_a, m_b, {ComparisonLink::Alignment::Start, 0.25});
            QVERIFY(tab);
            QCOMPARE(tab->stateA()->document(), ta->document());
            QCOMPARE(tab->alignmentBox()->currentIndex(), 0);
            QCOMPARE(tab->offsetBox()->value(), 0.25);
            QCOMPARE(tab->link()->toA(1.0), 1.25);
        }
    }

    // By t_wall asked of a trace without t_wall: the tab aligns from each trace's start and says
    // why (the report refuses it; the window has the traces open by then).
    void wallWithoutTWallFallsBackAndSaysWhy() {
        const QString noWall = writeFile(m_dir, QStringLiteral("no-wall.lct"),
                                         combineTrace(qQNaN(), {qQNaN(), qQNaN()}, QString(), 2));
        MainWindow w;
        w.show();
        CompareTab *tab = open(w, m_a, noWall, {ComparisonLink::Alignment::Wall, 2.0});
        QVERIFY(tab);
        QCOMPARE(tab->alignmentBox()->currentIndex(), 0);
        QCOMPARE(tab->link()->alignment(), ComparisonLink::Alignment::Start);
        QCOMPARE(tab->link()->offset(), 2.0);
        QCOMPARE(tab->statusLabel()->text(),
                 QStringLiteral("By t_wall is unavailable (B has no t_wall (no t_wall_start and "
                                "no record)): aligned from each trace's start"));
    }

    void comparesOpenTabsAsTheyAre() {
        MainWindow w;
        w.setShowDialogs(false);
        w.show();
        TraceTab *ta = w.openFile(m_a);
        TraceTab *tb = w.openFile(m_b);
        QTRY_VERIFY_WITH_TIMEOUT(
            ta->document() && !ta->isLoading() && tb->document() && !tb->isLoading(), 20000);
        CompareDialog dialog({ta->filePath(), tb->filePath()}, MainWindow::traceFileFilters());
        QCOMPARE(dialog.pathA(), ta->filePath());
        QCOMPARE(dialog.pathB(), tb->filePath());
        CompareTab *tab = open(w, dialog.pathA(), dialog.pathB());
        QVERIFY(tab);
        QCOMPARE(w.tabCount(), 3);
        QCOMPARE(tab->stateA()->document(), ta->document());
        QCOMPARE(tab->stateB()->document(), tb->document());
        // While the comparison is current, its timelines replace the Timeline dock (which
        // would repeat A); a trace's tab gets it back.
        auto *timelineDock = w.findChild<QDockWidget *>(QStringLiteral("dock-timeline"));
        QVERIFY(timelineDock);
        QVERIFY(!timelineDock->isVisible());
        w.tabWidget()->setCurrentIndex(0);
        QVERIFY(timelineDock->isVisible());
        w.tabWidget()->setCurrentIndex(2);
        QVERIFY(!timelineDock->isVisible());
        QCOMPARE(w.tabAt(2), nullptr);
        w.closeTab(2);
        QCOMPARE(w.tabCount(), 2);
    }

    void cancelKeepsBothTimelines() {
        MainWindow w;
        w.setShowDialogs(false);
        TraceTab *ta = w.openFile(m_a);
        TraceTab *tb = w.openFile(m_b);
        QTRY_VERIFY_WITH_TIMEOUT(
            ta->document() && !ta->isLoading() && tb->document() && !tb->isLoading(), 20000);
        // File > Compare… is in the menu.
        bool hasAction = false;
        for (const QAction *a : w.findChildren<QAction *>()) {
            hasAction = hasAction || a->text() == QStringLiteral("Co&mpare…");
        }
        QVERIFY(hasAction);
        // Every job thread busy: the comparison waits in the queue until it is cancelled.
        QSemaphore hold;
        QThreadPool *pool = JobPool::instance();
        QList<QFuture<void>> blockers;
        for (int i = 0; i < pool->maxThreadCount(); ++i) {
            blockers << JobPool::run([&hold] { hold.acquire(); });
        }
        CompareTab *tab = w.compareFiles(m_a, m_b);
        QVERIFY(tab->isBusy());  // off the GUI thread, with progress and Cancel
        QVERIFY(tab->progressBar()->isVisibleTo(tab));
        QSignalSpy failed(tab, &CompareTab::failed);
        QSignalSpy compared(tab, &CompareTab::compared);
        tab->cancel();
        hold.release(pool->maxThreadCount());
        for (QFuture<void> &f : blockers) {
            f.waitForFinished();
        }
        QVERIFY(failed.wait(20000));
        QCOMPARE(compared.count(), 0);
        QCOMPARE(tab->statusLabel()->text(), QStringLiteral("Comparison cancelled"));
        QCOMPARE(w.tabCount(), 3);  // the timelines stay
        QVERIFY(!tab->pane()->comparison());
        QCOMPARE(tab->pane()->callModel()->rowCount(), 0);
    }

    void unreadableFileRemovesTheTab() {
        MainWindow w;
        w.setShowDialogs(false);
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        CompareTab *tab = w.compareFiles(m_a, m_dir.filePath(QStringLiteral("missing.lct")));
        QCOMPARE(tab->statusLabel()->text(), QStringLiteral("Loading…"));
        QVERIFY(tab->progressBar()->isVisibleTo(tab));
        QVERIFY(failed.wait(20000));
        QVERIFY(failed.first().at(1).toString().contains(QStringLiteral("missing.lct")));
        QTRY_COMPARE(w.tabCount(), 0);
    }

    void commandLine() {
        const QString viewer = QStringLiteral(LMCT_BIN_DIR "/lmct-viewer");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("cfg")));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(viewer, {QStringLiteral("--compare"), m_a});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(QString::fromUtf8(p.readAllStandardError())
                    .contains(QStringLiteral("--compare takes exactly two FILEs")));
        p.start(viewer, {QStringLiteral("--help")});
        QVERIFY(p.waitForFinished(20000));
        QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).contains(QStringLiteral("--compare")));
        p.start(viewer, {QStringLiteral("--compare"), m_a, m_b});
        QVERIFY(p.waitForStarted(20000));
        QVERIFY(!p.waitForFinished(3000));  // running, comparing
        p.terminate();
        QVERIFY(p.waitForFinished(20000));
        // --align and --offset line the tab up, refused as the report refuses them
        const struct {
            QStringList args;
            const char *says;
        } refused[] = {
            {{QStringLiteral("--align"), QStringLiteral("sideways")},
             "lmct-viewer: invalid --align: expected start (from each trace's start) or wall (by "
             "t_wall), found 'sideways'"},
            {{QStringLiteral("--offset"), QStringLiteral("soon")},
             "lmct-viewer: invalid --offset: expected B's shift in seconds such as 2.5, -1.5s or "
             "250ms, found 'soon'"},
            {{QStringLiteral("--offset=1MiB")}, "invalid --offset: expected B's shift"},
            {{QStringLiteral("--offset"), QStringLiteral("1e8")},
             "invalid --offset: B's shift is at most 10000000 s either way"},
        };
        for (const auto &r : refused) {
            p.start(viewer, r.args + QStringList{QStringLiteral("--compare"), m_a, m_b});
            QVERIFY(p.waitForFinished(20000));
            const QString err = QString::fromUtf8(p.readAllStandardError());
            QVERIFY2(p.exitCode() == 1, qPrintable(err));
            QVERIFY2(err.contains(QString::fromUtf8(r.says)), qPrintable(err));
        }
        p.start(viewer, {QStringLiteral("--align"), QStringLiteral("wall"), m_a});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(QString::fromUtf8(p.readAllStandardError())
                    .contains(QStringLiteral("they need --compare A B")));
        p.start(viewer,
                {QStringLiteral("--align"), QStringLiteral("wall"), QStringLiteral("--offset"),
                 QStringLiteral("-250ms"), QStringLiteral("--compare"), m_a, m_later});
        QVERIFY(p.waitForStarted(20000));
        QVERIFY(!p.waitForFinished(3000));  // accepted: running, comparing
        p.terminate();
        QVERIFY(p.waitForFinished(20000));
    }
};

QTEST_MAIN(TestGuiCompare)
#include "tst_gui_compare.moc"
