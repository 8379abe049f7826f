// The combined tab: three traces of one deployment (known starts, one instance id, one clock
// 3 ms off) merged on one t_wall axis: one timeline per trace with its label, the record table
// interleaved by aligned t_wall with its Trace column (narrowed to a time range, sorted by a
// header click, "Filter to This" from its context menu), the `trace` filter, the cache
// behaviour of all traces or one, the docks following the selected record's trace, offsets edited
// (the merge rebuilt off the GUI thread), a damaged and an unreadable trace named in the warning, a
// followed trace that grows, and `lmct-viewer --combine`.

#include "cache/tracesetcache.h"
#include "combinefixture.h"
#include "common/tracechooser.h"
#include "deploymentlink.h"
#include "itemmodels/cachesummarytablemodel.h"
#include "itemmodels/combinedrecordtablemodel.h"
#include "itemmodels/statisticstablemodel.h"
#include "panes/combinedcacheview.h"
#include "panes/combinedstatisticsview.h"
#include "records/combinedfilterbar.h"
#include "records/combinedrecordview.h"
#include "shell/combineactions.h"
#include "shell/combinedtab.h"
#include "shell/deploymentdialog.h"
#include "shell/deploymenttimelines.h"
#include "shell/lanegroupview.h"
#include "shell/mainwindow.h"
#include "shell/traceoffsetsdialog.h"
#include "shell/tracetab.h"
#include "timeline/lanegrouping.h"
#include "timeline/timelineactions.h"
#include "timeline/timelinewidget.h"
#include "viewstate.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>
#include <QtTest>

using namespace lmct;
using namespace lmct::test;

namespace {

/** The action of `menu` or its submenus whose text is `text`, or null. */
QAction *findAction(const QMenu *menu, const QString &text) {
    for (QAction *a : menu->actions()) {
        if (a->text() == text) {
            return a;
        }
        if (a->menu()) {
            if (QAction *found = findAction(a->menu(), text)) {
                return found;
            }
        }
    }
    return nullptr;
}

}  // namespace

class TestGuiCombine : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::vector<double> m_starts{1000.0, 1000.003, 1000.2};
    std::vector<std::vector<double>> m_walls;
    QStringList m_files;
    QString m_damaged;

    /** A window combining `files`, the tab once every trace is merged. */
    CombinedTab *open(MainWindow &w, const QStringList &files) {
        w.setShowDialogs(false);
        CombinedTab *tab = w.combine()->combineFiles(files);
        QSignalSpy loaded(tab, &CombinedTab::loaded);
        if (!loaded.wait(60000)) {
            return nullptr;
        }
        return tab;
    }

    /** (trace, record) of every row of the tab's table. */
    static std::vector<std::pair<int, int>> rowsOf(const CombinedTab &tab) {
        std::vector<std::pair<int, int>> out;
        for (int r = 0; r < tab.model()->rowCount(); ++r) {
            out.emplace_back(tab.model()->traceAt(r), tab.model()->recordAt(r));
        }
        return out;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_walls.resize(3);
        for (int i = 0; i < 60; ++i) {
            m_walls[0].push_back(1000.0 + 0.005 * (i + 1));
            m_walls[1].push_back(1000.003 + 0.0051 * (i + 1));
            m_walls[2].push_back(1000.2 + 0.004 * (i + 1));
        }
        m_files << writeFile(m_dir, QStringLiteral("worker-0.lct"),
                             combineTrace(m_starts[0], m_walls[0], QStringLiteral("vllm-0")));
        m_files << writeFile(m_dir, QStringLiteral("worker-1.lct"),
                             combineTrace(m_starts[1], m_walls[1], QString(), 1000));
        m_files << writeFile(m_dir, QStringLiteral("worker-2.lct"),
                             combineTrace(m_starts[2], m_walls[2], QString(), 2000));
        QByteArray cut = combineTrace(m_starts[2], m_walls[2], QString(), 3000);
        cut.chop(7);  // a truncated last record: an error
        m_damaged = writeFile(m_dir, QStringLiteral("damaged.lct"), cut);
    }

    void mergedTabWithLanesPerTrace() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        CombinedTab *tab = open(w, m_files);
        QVERIFY(tab);
        QAbstractItemModelTester tester(tab->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(w.tabCount(), 1);
        QCOMPARE(w.currentTab(), nullptr);  // not one trace's tab
        QCOMPARE(w.tabWidget()->tabText(0), QStringLiteral("Deployment: worker-0.lct + 2 more"));
        QCOMPARE(tab->traceCount(), 3);
        // one timeline (lane group) per trace, labelled by file name and instance
        QCOMPARE(tab->timelines()->count(), 3);
        QVERIFY(tab->timelines()->header(0)->text().startsWith(
            QStringLiteral("worker-0.lct (vllm-0)")));
        QVERIFY(tab->timelines()->header(1)->text().startsWith(QStringLiteral("worker-1.lct")));
        for (int t = 0; t < 3; ++t) {
            QCOMPARE(tab->timelines()->timeline(t)->viewState(), tab->state(t));
            QCOMPARE(tab->timelines()->timeline(t)->timeMode(), TimelineWidget::TimeMode::Wall);
        }
        // the table interleaves the records by t_wall
        QCOMPARE(rowsOf(*tab), referenceOrder(m_starts, m_walls, {0.0, 0.0, 0.0}));
        const QModelIndex trace = tab->model()->index(0, CombinedRecordTableModel::TraceColumn);
        QCOMPARE(trace.data().toString(), QStringLiteral("worker-0.lct (vllm-0)"));
        QCOMPARE(tab->model()
                     ->headerData(CombinedRecordTableModel::TraceColumn, Qt::Horizontal)
                     .toString(),
                 QStringLiteral("Trace"));
        QVERIFY(!tab->warningLabel()->isVisibleTo(tab));
        QVERIFY2(w.statusText().contains(QStringLiteral("3 trace(s) · 180 records")),
                 qPrintable(w.statusText()));
        // Once indexed, the windows span every trace on the common axis: worker-2 starts 0.2 s
        // after worker-0, so worker-0's window reaches past its own end.
        QTRY_VERIFY_WITH_TIMEOUT(!tab->timelines()->timeline(2)->isIndexing(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(tab->timelines()->timeline(0)->visibleRange().upper > 0.4, 20000);
        const double upper0 = tab->timelines()->timeline(0)->visibleRange().upper;
        QTRY_COMPARE(tab->timelines()->timeline(2)->visibleRange().upper,
                     tab->link()->map(0, 2, upper0));
        w.closeTab(0);
        QCOMPARE(w.tabCount(), 0);
    }

    void docksFollowTheSelectedTrace() {
        MainWindow w;
        w.show();
        CombinedTab *tab = open(w, m_files);
        QVERIFY(tab);
        const auto docked = [&]() -> ViewState * {
            for (TimelineWidget *t : w.findChildren<TimelineWidget *>()) {
                if (!tab->isAncestorOf(t)) {
                    return t->viewState();
                }
            }
            return nullptr;
        };
        QCOMPARE(docked(), tab->state(0));
        // a row of worker-1 selected: its record in its state, the docks on it
        const int row = tab->model()->rowOf(1, 5);
        QVERIFY(row >= 0);
        tab->table()->selectRow(row);
        QCOMPARE(tab->state(1)->selectedRecord(), 5);
        QCOMPARE(tab->currentState(), tab->state(1));
        QCOMPARE(docked(), tab->state(1));
        QVERIFY2(w.statusText().contains(QStringLiteral("the docks show worker-1.lct")),
                 qPrintable(w.statusText()));
        // a record selected in a timeline's state selects its row
        tab->state(2)->setSelectedRecord(7);
        QCOMPARE(tab->state(1)->selectedRecord(), -1);
        QCOMPARE(tab->table()->currentIndex().row(), tab->model()->rowOf(2, 7));
        QCOMPARE(docked(), tab->state(2));
    }

    void filterByTrace() {
        MainWindow w;
        w.show();
        CombinedTab *tab = open(w, m_files);
        QVERIFY(tab);
        QSignalSpy filtered(tab, &CombinedTab::filtered);
        tab->filterBar()->lineEdit()->setText(QStringLiteral("trace == \"worker-1.lct\""));
        QVERIFY(tab->filterBar()->apply());
        QVERIFY(filtered.wait(20000));
        QCOMPARE(tab->model()->rowCount(), 60);
        for (int r = 0; r < 60; ++r) {
            QCOMPARE(tab->model()->traceAt(r), 1);
        }
        QVERIFY(tab->filterBar()->statusText().contains(QStringLiteral("60 of 180")));
        // each trace's state has its part: the timelines dim the rest
        QCOMPARE(tab->state(1)->filterRecords()->size(), size_t(60));
        QVERIFY(tab->state(0)->filterRecords()->empty());
        // by instance and number
        tab->applyFilter(QStringLiteral("trace == \"vllm-0\" || trace == 2"));
        QVERIFY(filtered.wait(20000));
        QCOMPARE(tab->model()->rowCount(), 120);
        // a filter set on one trace's state by another view becomes the tab's
        tab->state(0)->setFilterText(QStringLiteral("index < 2"));
        QVERIFY(filtered.wait(20000));
        QCOMPARE(tab->filterBar()->text(), QStringLiteral("index < 2"));
        QCOMPARE(tab->model()->rowCount(), 6);
        QCOMPARE(tab->state(2)->filterText(), QStringLiteral("index < 2"));
        // an invalid text is not applied
        tab->filterBar()->lineEdit()->setText(QStringLiteral("trace =="));
        QVERIFY(!tab->filterBar()->apply());
        QCOMPARE(tab->model()->rowCount(), 6);
        tab->filterBar()->lineEdit()->clear();
        QCOMPARE(tab->model()->rowCount(), 180);
    }

    void tableNarrowsToTheTimeRange() {
        MainWindow w;
        w.show();
        CombinedTab *tab = open(w, m_files);
        QVERIFY(tab);
        QAbstractItemModelTester tester(tab->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        // the rows whose t_wall lies in [lo, hi], in merge order
        const auto inRange = [&](double lo, double hi) {
            std::vector<std::pair<int, int>> out;
            for (const auto &k : referenceOrder(m_starts, m_walls, {0.0, 0.0, 0.0})) {
                const double wall = m_walls[size_t(k.first)][size_t(k.second)];
                if (wall >= lo && wall <= hi) {
                    out.push_back(k);
                }
            }
            return out;
        };
        // worker-0's t_mono 0.0525 – 0.2525 s: t_wall 1000.0525 – 1000.2525, rows of all three
        tab->state(0)->setTimeRange(ViewState::TimeRange{0.0525, 0.2525});
        const auto first = inRange(1000.0525, 1000.2525);
        QVERIFY(first.size() > 60 && first.size() < 120);
        QCOMPARE(rowsOf(*tab), first);
        QVERIFY2(w.statusText().contains(QStringLiteral("%1 shown").arg(first.size())),
                 qPrintable(w.statusText()));
        // a record selected in it stays selected when a range set on worker-2 (its timeline)
        // narrows the table again: worker-2's t_mono 0 is t_wall 1000.2
        tab->table()->selectRow(tab->model()->rowOf(2, 3));
        QCOMPARE(tab->state(2)->selectedRecord(), 3);
        tab->state(2)->setTimeRange(ViewState::TimeRange{0.0105, 0.0505});
        QCOMPARE(rowsOf(*tab), inRange(1000.2105, 1000.2505));
        QCOMPARE(tab->table()->currentIndex().row(), tab->model()->rowOf(2, 3));
        QVERIFY(tab->table()->selectionModel()->isRowSelected(tab->model()->rowOf(2, 3)));
        // with a filter: the rows of both
        QSignalSpy filtered(tab, &CombinedTab::filtered);
        tab->applyFilter(QStringLiteral("trace == 1"));
        QVERIFY(filtered.wait(20000));
        std::vector<std::pair<int, int>> both;
        for (const auto &k : inRange(1000.2105, 1000.2505)) {
            if (k.first == 1) {
                both.push_back(k);
            }
        }
        QVERIFY(!both.empty());
        QCOMPARE(rowsOf(*tab), both);
        // nothing in it: the table says why
        tab->state(0)->setTimeRange(ViewState::TimeRange{5.0, 6.0});
        QCOMPARE(tab->model()->rowCount(), 0);
        auto *view = tab->recordView();
        QVERIFY2(view->emptyMessage().contains(QStringLiteral("filter in this time range")),
                 qPrintable(view->emptyMessage()));
        tab->applyFilter(QString());
        QVERIFY2(view->emptyMessage().contains(QStringLiteral("No record in this time range")),
                 qPrintable(view->emptyMessage()));
        // Esc in the table clears the range of every trace
        tab->table()->setFocus();
        QTest::keyClick(tab->table(), Qt::Key_Escape);
        for (int t = 0; t < 3; ++t) {
            QVERIFY(!tab->state(t)->timeRange());
        }
        QCOMPARE(tab->model()->rowCount(), 180);
        QVERIFY(view->emptyMessage().isEmpty());
        // an offset moves a trace's rows in or out of the range on the common axis (the range
        // stays on the current trace, worker-0)
        tab->state(0)->setSelectedRecord(20);
        tab->state(0)->setTimeRange(ViewState::TimeRange{0.0525, 0.2525});
        QSignalSpy changed(tab, &CombinedTab::orderChanged);
        tab->setOffset(2, 1.0);
        QVERIFY(changed.wait(20000));
        for (const auto &[t, r] : rowsOf(*tab)) {
            QVERIFY(t != 2);
        }
        QCOMPARE(
            tab->model()->rowCount(),
            int(first.size()) - int(std::count_if(first.begin(), first.end(),
                                                  [](const auto &k) { return k.first == 2; })));
    }

    void contextMenuFiltersToThis() {
        MainWindow w;
        w.show();
        CombinedTab *tab = open(w, m_files);
        QVERIFY(tab);
        QSignalSpy filtered(tab, &CombinedTab::filtered);
        QMenu menu;
        tab->recordView()->addFilterActions(&menu, tab->model()->rowOf(1, 4));
        QAction *to = findAction(&menu, QStringLiteral("Filter to This"));
        QVERIFY(to && to->menu());
        QVERIFY(!findAction(&menu, QStringLiteral("Follow This Key")));
        // the row's trace, call and key are offered
        QStringList offered;
        for (QAction *a : to->menu()->actions()) {
            offered << a->data().toString();
        }
        QVERIFY2(offered.contains(QStringLiteral("trace == \"worker-1.lct\"")),
                 qPrintable(offered.join(QLatin1Char('|'))));
        QVERIFY(offered.contains(QStringLiteral("call == reserve_write")));  // seed 1004
        QVERIFY(std::any_of(offered.begin(), offered.end(), [](const QString &c) {
            return c.startsWith(QStringLiteral("chunk_hash == "));
        }));
        findAction(to->menu(), QStringLiteral("trace == \"worker-1.lct\""))->trigger();
        QVERIFY(filtered.wait(20000));
        QCOMPARE(tab->filterBar()->text(), QStringLiteral("trace == \"worker-1.lct\""));
        QCOMPARE(tab->model()->rowCount(), 60);
        for (int r = 0; r < 60; ++r) {
            QCOMPARE(tab->model()->traceAt(r), 1);
        }
        // Exclude This appends to the combined filter
        QMenu again;
        tab->recordView()->addFilterActions(&again, 0);  // worker-1's record 0: reserve_write
        QAction *exclude = findAction(&again, QStringLiteral("Exclude This"));
        QVERIFY(exclude && exclude->menu());
        QAction *notCall = findAction(exclude->menu(), QStringLiteral("call != reserve_write"));
        QVERIFY(notCall);
        notCall->trigger();
        QVERIFY(filtered.wait(20000));
        QCOMPARE(tab->filterBar()->text(),
                 QStringLiteral("trace == \"worker-1.lct\" && call != reserve_write"));
        QCOMPARE(tab->model()->rowCount(), 30);
        for (int r = 0; r < 30; ++r) {
            QCOMPARE(tab->model()->traceAt(r), 1);
            QCOMPARE(tab->model()->recordAt(r) % 2, 1);
        }
        for (int t = 0; t < 3; ++t) {
            QCOMPARE(tab->state(t)->filterText(), tab->filterBar()->text());
        }
    }

    void tableSortsByHeader() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        CombinedTab *tab = open(w, m_files);
        QVERIFY(tab);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAbstractItemModelTester tester(tab->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTableView *table = tab->table();
        QVERIFY(table->isSortingEnabled());
        table->selectRow(tab->model()->rowOf(1, 7));
        QCOMPARE(tab->state(1)->selectedRecord(), 7);
        // a click on the Trace header: the traces by label, each in file order
        QHeaderView *h = table->horizontalHeader();
        const auto click = [&](int column) {
            QTest::mouseClick(h->viewport(), Qt::LeftButton, {},
                              QPoint(h->sectionViewportPosition(column) + 6, h->height() / 2));
        };
        click(CombinedRecordTableModel::TraceColumn);
        QCOMPARE(tab->model()->sortColumn(), int(CombinedRecordTableModel::TraceColumn));
        std::vector<std::pair<int, int>> byTrace;
        for (int t = 0; t < 3; ++t) {
            for (int r = 0; r < 60; ++r) {
                byTrace.emplace_back(t, r);
            }
        }
        if (tab->model()->sortOrder() == Qt::DescendingOrder) {
            std::reverse(byTrace.begin(), byTrace.end());
        }
        QCOMPARE(rowsOf(*tab), byTrace);
        // the selection followed its record
        const int held = table->currentIndex().row();
        QCOMPARE(tab->model()->traceAt(held), 1);
        QCOMPARE(tab->model()->recordAt(held), 7);
        QCOMPARE(tab->state(1)->selectedRecord(), 7);
        // rows and records still map both ways
        table->selectRow(130);
        const int t130 = tab->model()->traceAt(130);
        QCOMPARE(tab->state(t130)->selectedRecord(), tab->model()->recordAt(130));
        QCOMPARE(tab->currentState(), tab->state(t130));
        tab->state(0)->setSelectedRecord(59);
        QCOMPARE(tab->model()->traceAt(table->currentIndex().row()), 0);
        QCOMPARE(tab->model()->recordAt(table->currentIndex().row()), 59);
        // the other way round
        click(CombinedRecordTableModel::TraceColumn);
        std::reverse(byTrace.begin(), byTrace.end());
        QCOMPARE(rowsOf(*tab), byTrace);
        QCOMPARE(tab->model()->recordAt(table->currentIndex().row()), 59);
        // by t_wall, by call, and the merge order again
        table->sortByColumn(CombinedRecordTableModel::TWallColumn, Qt::DescendingOrder);
        auto merged = referenceOrder(m_starts, m_walls, {0.0, 0.0, 0.0});
        QCOMPARE(rowsOf(*tab), decltype(merged)(merged.rbegin(), merged.rend()));
        table->sortByColumn(CombinedRecordTableModel::CallColumn, Qt::AscendingOrder);
        const QString first =
            tab->model()->index(0, CombinedRecordTableModel::CallColumn).data().toString();
        const QString last =
            tab->model()->index(179, CombinedRecordTableModel::CallColumn).data().toString();
        QCOMPARE(first, QStringLiteral("finish_write"));
        QCOMPARE(last, QStringLiteral("reserve_write"));
        table->sortByColumn(CombinedRecordTableModel::RowColumn, Qt::AscendingOrder);
        QCOMPARE(rowsOf(*tab), merged);
        // a filter keeps the sort
        table->sortByColumn(CombinedRecordTableModel::TraceColumn, Qt::DescendingOrder);
        QSignalSpy filtered(tab, &CombinedTab::filtered);
        tab->applyFilter(QStringLiteral("index < 2"));
        QVERIFY(filtered.wait(20000));
        QCOMPARE(rowsOf(*tab), (std::vector<std::pair<int, int>>{
                                   {2, 1}, {2, 0}, {1, 1}, {1, 0}, {0, 1}, {0, 0}}));
    }

    void cacheBehaviourOfAllTraces() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        CombinedTab *tab = open(w, m_files);
        QVERIFY(tab);
        CombinedCacheView *cache = tab->cacheView();
        QVERIFY(!cache->hasSummary());  // not analysed while its tab is hidden
        QSignalSpy ready(cache, &CombinedCacheView::ready);
        tab->bottomTabs()->setCurrentWidget(cache);
        QVERIFY(ready.count() > 0 || ready.wait(20000));
        QCOMPARE(cache->chooser()->count(), 4);  // all traces, then each
        QCOMPARE(cache->choice(), -1);
        // the figures of all traces, as TraceSetCache computes them here
        const TraceSetCache want = TraceSetCache::compute(tab->traceSet());
        const auto compare = [&](const QList<TraceSetCache::Figure> &figures) {
            QCOMPARE(cache->model()->rowCount(), int(figures.size()));
            for (int r = 0; r < int(figures.size()); ++r) {
                const auto &got = cache->model()->figures()[r];
                QCOMPARE(got.name, figures[r].name);
                QCOMPARE(got.value, figures[r].value);
                QCOMPARE(got.how, figures[r].how);
            }
        };
        compare(want.figures(-1));
        QCOMPARE(cache->model()->index(1, CacheSummaryTableModel::HowColumn).data().toString(),
                 QStringLiteral("union of the keys"));
        QVERIFY(cache->noteLabel()->text().contains(QStringLiteral("summed")));
        // one trace: its own figures
        cache->chooser()->setCurrentIndex(2);
        QCOMPARE(cache->choice(), 1);
        compare(want.figures(1));
        QVERIFY(cache->noteLabel()->text().contains(QStringLiteral("This trace alone")));
    }

    void offsetsRebuildTheMerge() {
        MainWindow w;
        w.show();
        CombinedTab *tab = open(w, m_files);
        QVERIFY(tab);
        // the first timeline's Lanes menu has the offsets and the grouping
        QMenu *lanes = tab->timelines()->timeline(0)->findChild<TimelineActions *>()->lanesMenu();
        emit lanes->aboutToShow();
        QVERIFY(findAction(lanes, QStringLiteral("Trace &Offsets…")));
        QVERIFY(findAction(lanes, QStringLiteral("by rank")));
        QSignalSpy changed(tab, &CombinedTab::orderChanged);
        tab->setOffset(1, -0.003);  // worker-1's clock 3 ms ahead
        QVERIFY(tab->isMerging());
        QVERIFY(changed.wait(20000));
        QCOMPARE(rowsOf(*tab), referenceOrder(m_starts, m_walls, {0.0, -0.003, 0.0}));
        QVERIFY(tab->timelines()->header(1)->text().contains(QStringLiteral("offset")));
        QCOMPARE(tab->timelines()->timeline(1)->wallShift(), -0.003);
        QCOMPARE(tab->link()->set().offset(1), -0.003);
        // the dialog shows and returns milliseconds
        TraceOffsetsDialog dialog(tab->traceSet());
        QCOMPARE(dialog.box(1)->value(), -3.0);
        dialog.box(2)->setValue(250.0);
        const std::vector<double> offsets = dialog.offsets();
        QCOMPARE(offsets.size(), size_t(3));
        QCOMPARE(offsets[2], 0.25);
        tab->setOffsets(offsets);
        QVERIFY(changed.wait(20000));
        QCOMPARE(rowsOf(*tab), referenceOrder(m_starts, m_walls, {0.0, -0.003, 0.25}));
        // a filter stays applied over a rebuilt merge
        QSignalSpy filtered(tab, &CombinedTab::filtered);
        tab->applyFilter(QStringLiteral("trace == 0"));
        QVERIFY(filtered.wait(20000));
        tab->setOffset(0, 1.0);
        QVERIFY(changed.wait(20000));
        QCOMPARE(tab->model()->rowCount(), 60);
        QCOMPARE(tab->model()->traceAt(0), 0);
        QCOMPARE(tab->model()->mergedRowAt(0), 120);  // worker-0 now last
    }

    void damagedAndUnreadableAreNamed() {
        MainWindow w;
        w.show();
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        const QString missing = m_dir.filePath(QStringLiteral("missing.lct"));
        CombinedTab *tab = open(w, {m_files[0], m_damaged, missing});
        QVERIFY(tab);
        QCOMPARE(tab->traceCount(), 2);
        QVERIFY(tab->warningLabel()->isVisibleTo(tab));
        const QString warning = tab->warningLabel()->text();
        QVERIFY2(warning.contains(QStringLiteral("damaged.lct is damaged: 1 error")),
                 qPrintable(warning));
        QVERIFY2(warning.contains(QStringLiteral("missing.lct")), qPrintable(warning));
        QCOMPARE(tab->refusedFiles().size(), 1);
        QCOMPARE(failed.count(), 0);  // the tab stays: one trace is enough
        QVERIFY(tab->timelines()->header(1)->text().contains(QStringLiteral("1 error")));
        QCOMPARE(tab->model()->rowCount(), 60 + 59);
        // the tab's label names the traces shown: "+ 1 more", not "+ 2 more"
        const int index = w.tabWidget()->indexOf(tab);
        QVERIFY2(w.tabWidget()->tabText(index).endsWith(QStringLiteral(" + 1 more")),
                 qPrintable(w.tabWidget()->tabText(index)));
    }

    void noReadableTraceRemovesTheTab() {
        MainWindow w;
        w.setShowDialogs(false);
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        w.combine()->combineFiles({m_dir.filePath(QStringLiteral("none.lct"))});
        QVERIFY(failed.wait(20000));
        QTRY_COMPARE(w.tabCount(), 0);
    }

    void followedTraceGrows() {
        // worker-1 is still being written: half of it now, the rest later
        const QString live = m_dir.filePath(QStringLiteral("live.lct"));
        const QByteArray whole = combineTrace(m_starts[1], m_walls[1], QString(), 1000);
        const QList<qint64> ends = frameEnds(whole);
        {
            QFile f(live);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(whole.left(ends[30]));  // header and 30 records
        }
        MainWindow w;
        w.show();
        w.setShowDialogs(false);
        CombinedTab *tab = w.combine()->combineFiles({m_files[0], live}, {1});
        QSignalSpy combined(tab, &CombinedTab::combined);
        QVERIFY(combined.wait(20000));
        QTRY_VERIFY_WITH_TIMEOUT(tab->model()->rowCount() >= 30, 20000);
        QVERIFY(tab->isFollowing());
        {
            QFile f(live);
            QVERIFY(f.open(QIODevice::Append));
            f.write(whole.mid(ends[30]));
        }
        QTRY_COMPARE_WITH_TIMEOUT(tab->state(1)->document()->records().size(), 60, 20000);
        // worker-1's last records come after all of worker-0's (its clock runs later): all
        // merged once they are read; the rows still held back wait for worker-1 only
        QTRY_VERIFY_WITH_TIMEOUT(tab->model()->rowCount() >= 60 + 59, 20000);
        tab->stopFollowing();
        QTRY_VERIFY_WITH_TIMEOUT(!tab->isFollowing(), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(tab->model()->rowCount(), 120, 20000);
        QCOMPARE(rowsOf(*tab),
                 referenceOrder({m_starts[0], m_starts[1]}, {m_walls[0], m_walls[1]}, {0.0, 0.0}));
    }

    void deploymentFixtureAligns() {
        // gen_fixtures.py --deployment: four servers started 0, 120, 250, 410 ms apart whose
        // clocks are 0, +3, -2, +5 ms off; deployment.json's offsets line them up.
        const QString dir = QStringLiteral(LMCT_FIXTURES "/deployment");
        const QJsonObject about = readJson(dir + QStringLiteral("/deployment.json"));
        const QJsonArray traces = about.value(QStringLiteral("traces")).toArray();
        QCOMPARE(traces.size(), 4);
        QStringList files;
        std::vector<double> offsets;
        for (const QJsonValue &t : traces) {
            files << dir + QLatin1Char('/') + t[QStringLiteral("file")].toString();
            offsets.push_back(t[QStringLiteral("offset_s")].toDouble());
        }
        MainWindow w;
        w.show();
        CombinedTab *tab = open(w, files);
        QVERIFY(tab);
        for (int t = 0; t < 4; ++t) {
            QCOMPARE(tab->traceSet().instanceId(t), QStringLiteral("vllm-%1").arg(t));
            QCOMPARE(tab->state(t)->document()->records().size(),
                     traces[t][QStringLiteral("records")].toInt());
        }
        QSignalSpy changed(tab, &CombinedTab::orderChanged);
        tab->setOffsets(offsets);
        QVERIFY(changed.wait(20000));
        const double starts[] = {0.0, 0.120, 0.250, 0.410};
        for (int t = 0; t < 4; ++t) {
            QVERIFY2(std::abs(tab->link()->base(t) - starts[t]) < 1e-6,
                     qPrintable(QString::number(tab->link()->base(t))));
        }
        QCOMPARE(tab->model()->rowCount(), int(tab->traceSet().recordCount()));
        // the statistics over all traces count every record
        QSignalSpy stats(tab, &CombinedTab::statisticsReady);
        QVERIFY(stats.count() > 0 || stats.wait(60000));
        QCOMPARE(tab->statisticsView()->chooser()->count(), 5);
        QVERIFY(tab->statisticsView()->callModel()->rowCount() > 1);
    }

    void lanesGroupedByRank() {
        // a TP=4 trace in a trace's tab: Lanes > Group Lanes By > Rank opens it grouped
        const QString tp4 = QStringLiteral(LMCT_FIXTURES "/deployment/tp4.lct");
        MainWindow w;
        w.show();
        w.setShowDialogs(false);
        TraceTab *single = w.openFile(tp4);
        QSignalSpy loaded(&w, &MainWindow::traceLoaded);
        QVERIFY(loaded.wait(20000));
        // the Timeline dock's Lanes menu: Group Lanes By > Rank…
        TimelineWidget *docked = nullptr;
        for (TimelineWidget *t : w.findChildren<TimelineWidget *>()) {
            docked = t->viewState() == single->viewState() ? t : docked;
        }
        QVERIFY(docked);
        QMenu *lanes = docked->findChild<TimelineActions *>()->lanesMenu();
        emit lanes->aboutToShow();
        QAction *rank = findAction(lanes, QStringLiteral("Rank…"));
        QVERIFY(rank && rank->isEnabled());
        rank->trigger();
        QCOMPARE(w.tabCount(), 2);
        auto *tab = qobject_cast<CombinedTab *>(w.tabWidget()->widget(1));
        QVERIFY(tab);
        QSignalSpy grouped(tab, &CombinedTab::grouped);
        QVERIFY(grouped.wait(20000));
        QCOMPARE(w.tabCount(), 2);
        QCOMPARE(tab->grouping(), LaneGrouping::By::Rank);
        LaneGroupView *view = tab->groupView();
        QVERIFY(view->isVisibleTo(tab));
        QVERIFY(!tab->timelines()->isVisibleTo(tab));
        // the four ranks one under the other, then the calls with keys of every rank (submits)
        QCOMPARE(view->rowCount(), 5);
        QVERIFY(view->timelines()->header(4)->text().startsWith(QStringLiteral("(several ranks)")));
        const auto ranks = LaneGrouping::compute(single->document(), LaneGrouping::By::Rank);
        for (int r = 0; r < 4; ++r) {
            QVERIFY2(
                view->timelines()->header(r)->text().startsWith(QStringLiteral("rank %1/4").arg(r)),
                qPrintable(view->timelines()->header(r)->text()));
            QCOMPARE(*view->rowState(r)->filterRecords(), *ranks.groups[size_t(r)].records[0]);
            QCOMPARE(view->timelines()->timeline(r)->filterMode(),
                     TimelineWidget::FilterMode::Hide);
        }
        // the rows on one trace share one index of it (built once, not once per rank)
        QTRY_VERIFY_WITH_TIMEOUT(view->timelines()->timeline(0)->documentIndex() &&
                                     view->timelines()->timeline(4)->documentIndex(),
                                 20000);
        for (int r = 1; r < 5; ++r) {
            QCOMPARE(view->timelines()->timeline(r)->documentIndex().get(),
                     view->timelines()->timeline(0)->documentIndex().get());
        }
        // a rank's timeline leaves out the lanes of calls it has none of (the submits)
        const QString submit = storageQualname("submit_prefetch_task");
        QTRY_VERIFY_WITH_TIMEOUT(!view->timelines()->timeline(1)->laneKeys().isEmpty() &&
                                     !view->timelines()->timeline(1)->laneKeys().contains(submit),
                                 20000);
        QVERIFY(
            view->timelines()->timeline(1)->laneKeys().contains(storageQualname("reserve_write")));
        QTRY_VERIFY_WITH_TIMEOUT(view->timelines()->timeline(4)->laneKeys().contains(submit),
                                 20000);
        // a record selected in rank 2's timeline is the trace's selection (table, docks)
        const int record = ranks.groups[2].records[0]->at(3);
        view->rowState(2)->setSelectedRecord(record);
        QCOMPARE(tab->state(0)->selectedRecord(), record);
        QCOMPARE(tab->model()->recordAt(tab->table()->currentIndex().row()), record);
        // and the other way round: a row of the table selects it in its rank's timeline
        const int other = ranks.groups[1].records[0]->at(0);
        tab->selectRecord(0, other);
        QCOMPARE(view->rowState(1)->selectedRecord(), other);
        QCOMPARE(view->rowState(2)->selectedRecord(), -1);
        // a filter keeps only its matches in every group
        QSignalSpy filtered(tab, &CombinedTab::filtered);
        tab->applyFilter(QStringLiteral("call == finish_write"));
        QVERIFY(filtered.wait(20000));
        for (int r = 0; r < 4; ++r) {
            for (const int rec : *view->rowState(r)->filterRecords()) {
                QVERIFY2(single->document()->records().qualname(rec).endsWith(
                             QLatin1String("finish_write")),
                         qPrintable(single->document()->records().qualname(rec)));
            }
        }
        // back to one timeline per trace
        tab->setGrouping(LaneGrouping::By::Trace);
        QVERIFY(tab->timelines()->isVisibleTo(tab));
    }

    void deploymentGroupedByModel() {
        MainWindow w;
        w.show();
        CombinedTab *tab = open(w, {m_files[0], m_files[1]});
        QVERIFY(tab);
        QSignalSpy grouped(tab, &CombinedTab::grouped);
        tab->setGrouping(LaneGrouping::By::Model);
        QVERIFY(grouped.wait(20000));
        // the fixture's keys are all of one model: a row per trace
        QCOMPARE(tab->groupView()->rowCount(), 2);
        QCOMPARE(tab->groupView()->traceOfRow(1), 1);
        QVERIFY(tab->groupView()->timelines()->header(1)->text().startsWith(
            QStringLiteral("worker-1.lct · Qwen/Qwen3-8B")));
    }

    void deploymentDialog() {
        DeploymentDialog dialog({m_files[2]}, MainWindow::traceFileFilters(), m_dir.path());
        QPushButton *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QVERIFY(dialog.paths().isEmpty());  // an open tab's trace is offered, not ticked
        QVERIFY(!ok->isEnabled());
        dialog.addFiles({m_files[0], m_files[1], m_files[0]});
        QCOMPARE(dialog.list()->topLevelItemCount(), 3);  // listed once each
        QCOMPARE(dialog.paths(), QStringList({m_files[0], m_files[1]}));
        QVERIFY(ok->isEnabled());
        dialog.setFollowed(m_files[1], true);
        QCOMPARE(dialog.followed(), QSet<int>({1}));
        dialog.list()->topLevelItem(0)->setCheckState(0, Qt::Checked);  // the open tab's too
        QCOMPARE(dialog.paths(), QStringList({m_files[2], m_files[0], m_files[1]}));
        QCOMPARE(dialog.followed(), QSet<int>({2}));
    }

    void commandLine() {
        const QString viewer = QStringLiteral(LMCT_BIN_DIR "/lmct-viewer");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("cfg")));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(viewer, {QStringLiteral("--combine")});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains(QStringLiteral("--combine")));
        p.start(viewer,
                {QStringLiteral("--combine"), QStringLiteral("--compare"), m_files[0], m_files[1]});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 1);
        p.start(viewer, {QStringLiteral("--help")});
        QVERIFY(p.waitForFinished(20000));
        QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).contains(QStringLiteral("--combine")));
        p.start(viewer, QStringList{QStringLiteral("--combine")} + m_files);
        QVERIFY(p.waitForStarted(20000));
        QVERIFY(!p.waitForFinished(3000));  // running, combined
        p.terminate();
        QVERIFY(p.waitForFinished(20000));
    }
};

QTEST_MAIN(TestGuiCombine)
#include "tst_gui_combine.moc"
