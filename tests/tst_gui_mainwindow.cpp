// Widget tests of the viewer's main window: opening traces through the same code path as
// File > Open (async load), the inspector, header and diagnostics docks, tabs and rebinding,
// time ranges, errors for files that are not traces, cancelling, drag and drop.

#include "codec/qualname.h"
#include "common/callcolors.h"
#include "common/statuscolors.h"
#include "common/viewstateobserver.h"
#include "itemmodels/diagnosticsmodel.h"
#include "itemmodels/inspectortreemodel.h"
#include "itemmodels/recordtablemodel.h"
#include "legendcheck.h"
#include "panes/diagnosticspane.h"
#include "panes/headerpane.h"
#include "panes/inspectorpane.h"
#include "panes/inspectortreeview.h"
#include "records/decoratedrecordtablemodel.h"
#include "records/recordtableview.h"
#include "shell/mainwindow.h"
#include "shell/recentfiles.h"
#include "shell/tracetab.h"
#include "testutil.h"
#include "trace/traceloader.h"
#include "viewstate.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrl>
#include <atomic>

using namespace lmct;

namespace {

const QString kTraces = QFileInfo(QStringLiteral(LMCT_TRACES)).absoluteFilePath();
const QString kFixtures = QFileInfo(QStringLiteral(LMCT_FIXTURES)).absoluteFilePath();
const QString kSchema2 = kTraces + QStringLiteral("/schema2-prefetch-spec-tp2.lct");
const QString kMalformed = kTraces + QStringLiteral("/malformed-record.lmct");
const QString kFirst = kTraces + QStringLiteral("/lmcache-first-recorder-storage.lct");

QJsonObject readJson(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QJsonDocument::fromJson(f.readAll()).object();
}

/** The record count the truth file of the trace at `path` gives. */
int truthRecords(const QString &path) {
    return readJson(path + QStringLiteral(".truth.json")).value(QStringLiteral("records")).toInt();
}

int firstRecordOf(const TraceDocument &doc, const QString &shortName) {
    for (int i = 0; i < doc.records().size(); ++i) {
        if (Qualname::shortName(doc.records().qualname(i)) == shortName) {
            return i;
        }
    }
    return -1;
}

/** The menu-bar menu titled `title` (e.g. "&File"), or nullptr. */
QMenu *menuBarMenu(const MainWindow &w, const QString &title) {
    for (QAction *a : w.menuBar()->actions()) {
        if (a->menu() && a->menu()->title() == title) {
            return a->menu();
        }
    }
    return nullptr;
}

/** The action of `menu` whose text is `text`, or nullptr. */
QAction *menuAction(const QMenu *menu, const QString &text) {
    for (QAction *a : menu->actions()) {
        if (a->text() == text) {
            return a;
        }
    }
    return nullptr;
}

/** A dock view that records what it is bound to (the extension point for new docks). */
class RecordingView : public QWidget, public ViewStateObserver {
public:
    void setViewState(ViewState *state) override {
        bound = state;
        ++calls;
    }
    ViewState *bound = nullptr;
    int calls = 0;
};

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void opensReferenceTraceAndInspectsKeys();
    void headerPaneShowsDigestMatch();
    void notATraceReportsErrorAndAddsNoTab();
    void errorDialogNamesTheReason();
    void everyFixtureOpensOrIsRefusedCleanly();
    void twoFilesTwoTabsDocksFollowCurrentTab();
    void reopeningAFileSwitchesToItsTab();
    void addViewDockRebindsObservers();
    void diagnosticsClickSelectsNearestRecord();
    void timeRangeShowsOnlyRecordsInRange();
    void goToRecordClearsAHidingRange();
    void sortingKeepsSelection();
    void clickingARowSelectsItsRecord();
    void cancelledLoadKeepsWhatWasRead();
    void cancelledArgumentCheckIsMarked();
    void shrinkAfterLoadingIsReportedWhenARecordIsRead();
    void shrinkAfterLoadingIsNoticedWithoutReading();
    void hostileFileNameAndSummaryAreEscaped();
    void dropOpensFiles();
    void manyFilesAtOnceAllLoad();
    void damagedArgumentsAreShownWithTheirReason();
    void recentFilesRemembersOpenedTraces();
    void openDialogFiltersTraces();
    void openRecentMenuReopensATrace();
    void statusBarSummarisesTheTrace();
    void inspectorCopiesValueAndPath();
    void callColorsAreStableAndDistinct();
    void layoutFromACrashedStartIsDropped();
    void windowFitsASmallScreen();
    void timelineLegendFitsTheDefaultLayout();
    void manyTabsStayReadable();
    void stopFollowingOnlyWhenFollowing();
    void refusedFilesShareOneDialog();
    void defaultLayoutShowsTwentyRecords();
    void welcomePageHasTheWindow();

private:
    QTemporaryDir m_tmp;
};

void TestMainWindow::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("lmct-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_gui_mainwindow"));
    QVERIFY(m_tmp.isValid());
    QVERIFY2(QFileInfo::exists(kSchema2), qPrintable(kSchema2));
}

void TestMainWindow::init() {
    QSettings().clear();
}

void TestMainWindow::opensReferenceTraceAndInspectsKeys() {
    MainWindow w;
    w.setShowDialogs(false);
    w.resize(1400, 900);
    w.show();
    QSignalSpy loaded(&w, &MainWindow::traceLoaded);
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab);
    QCOMPARE(loaded.count(), 1);
    const auto doc = tab->document();
    QVERIFY(doc);
    const QJsonObject truth = readJson(kSchema2 + QStringLiteral(".truth.json"));
    QCOMPARE(doc->records().size(), truth.value(QStringLiteral("records")).toInt());
    QCOMPARE(w.tabCount(), 1);
    QCOMPARE(w.tabWidget()->tabText(0), QStringLiteral("schema2-prefetch-spec-tp2.lct"));
    QVERIFY(w.tabWidget()->tabToolTip(0).endsWith(QStringLiteral("schema2-prefetch-spec-tp2.lct")));

    RecordTableView *table = tab->table();
    QAbstractItemModelTester tester(table->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(table->model()->rowCount(), doc->records().size());

    // Select a submit_prefetch_task row the way a user does (current row of the table).
    const int rec = firstRecordOf(*doc, QStringLiteral("submit_prefetch_task"));
    QVERIFY(rec >= 0);
    const int row = table->recordModel()->rowOf(rec);
    table->selectionModel()->setCurrentIndex(
        table->model()->index(row, 0),
        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QCOMPARE(tab->viewState()->selectedRecord(), rec);

    InspectorPane *insp = w.inspectorPane();
    QTRY_COMPARE(insp->record(), rec);
    QVERIFY(insp->titleText().contains(QStringLiteral("submit_prefetch_task")));
    QVERIFY(insp->titleText().contains(QStringLiteral("#%1").arg(rec)));
    QVERIFY(insp->errorText().isEmpty());

    InspectorTreeModel *m = insp->model();
    QAbstractItemModelTester treeTester(m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QModelIndexList hashes = m->findByName(QStringLiteral("chunk_hash"));
    QVERIFY(hashes.size() >= 2);
    const QRegularExpression hex64(QStringLiteral("^[0-9a-f]{64}$"));
    for (const QModelIndex &h : hashes) {
        const QString value = h.siblingAtColumn(InspectorTreeModel::ValueColumn).data().toString();
        QVERIFY2(hex64.match(value).hasMatch(), qPrintable(value));
        QVERIFY(h.data(InspectorTreeModel::PathRole)
                    .toString()
                    .startsWith(QStringLiteral("spec.keys[")));
    }
    // kv_rank unpacked into derived rows: TP=2.
    const QModelIndexList worlds = m->findByName(QStringLiteral("world_size"));
    const QModelIndexList ranks = m->findByName(QStringLiteral("rank"));
    int derivedWorlds = 0;
    for (const QModelIndex &i : worlds) {
        if (i.data(InspectorTreeModel::DerivedRole).toBool()) {
            ++derivedWorlds;
            QCOMPARE(i.siblingAtColumn(InspectorTreeModel::ValueColumn).data().toString(),
                     QStringLiteral("2"));
        }
    }
    QVERIFY(derivedWorlds >= 2);
    QSet<QString> rankValues;
    for (const QModelIndex &i : ranks) {
        QVERIFY(i.data(InspectorTreeModel::DerivedRole).toBool());
        rankValues.insert(i.siblingAtColumn(InspectorTreeModel::ValueColumn).data().toString());
    }
    QCOMPARE(rankValues, (QSet<QString>{QStringLiteral("0"), QStringLiteral("1")}));

    // The first key is expanded so its hash is on screen without clicking.
    const QModelIndex firstHash = hashes.first();
    for (QModelIndex p = firstHash.parent(); p.isValid(); p = p.parent()) {
        QVERIFY2(insp->treeView()->isExpanded(p), qPrintable(p.data().toString()));
    }
    QTRY_VERIFY2(insp->treeView()->visualRect(firstHash).isValid(),
                 qPrintable(QStringLiteral("viewport %1x%2, row rect y=%3")
                                .arg(insp->treeView()->viewport()->width())
                                .arg(insp->treeView()->viewport()->height())
                                .arg(insp->treeView()->visualRect(firstHash).y())));
}

void TestMainWindow::headerPaneShowsDigestMatch() {
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab && tab->document());
    HeaderPane *hp = w.headerPane();
    QVERIFY(hp->digestText().contains(QStringLiteral("match")));
    QVERIFY(!hp->digestText().contains(QStringLiteral("mismatch")));
    QCOMPARE(hp->digestColor(), StatusColors::ok(hp->palette()));
    QAbstractItemModelTester tester(hp->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QModelIndexList checks = hp->model()->findByName(QStringLiteral("digest check"));
    QCOMPARE(checks.size(), 1);
    QVERIFY(checks.first()
                .siblingAtColumn(InspectorTreeModel::ValueColumn)
                .data()
                .toString()
                .contains(QStringLiteral("match")));
    // File facts.
    const QModelIndexList paths = hp->model()->findByName(QStringLiteral("path"));
    QVERIFY(!paths.isEmpty());
    QCOMPARE(paths.first().siblingAtColumn(InspectorTreeModel::ValueColumn).data().toString(),
             kSchema2);
    const QModelIndexList records = hp->model()->findByName(QStringLiteral("records"));
    QVERIFY(!records.isEmpty());
    // The record count and the header fields as in the truth file.
    const QJsonObject truth = readJson(kSchema2 + QStringLiteral(".truth.json"));
    QCOMPARE(records.first().data(InspectorTreeModel::CopyTextRole).toString(),
             QString::number(truth.value(QStringLiteral("records")).toInt()));
    const QModelIndexList digests = hp->model()->findByName(QStringLiteral("sm_config_digest"));
    QCOMPARE(digests.size(), 1);
    const QString digest =
        truth.value(QStringLiteral("header")).toObject().value("sm_config_digest").toString();
    QCOMPARE(digest.size(), 64);
    QCOMPARE(digests.first().data(InspectorTreeModel::CopyTextRole).toString(), digest);

    // A placeholder header (no config): digest absent, grey.
    TraceTab *only = test::openAndWait(w, kTraces + QStringLiteral("/header-only.lmct"));
    QVERIFY(only && only->document());
    QVERIFY(hp->digestText().contains(QStringLiteral("absent")));
    QCOMPARE(hp->digestColor(), StatusColors::muted(hp->palette()));

    // A mismatching digest fixture: red.
    TraceTab *bad = test::openAndWait(w, kFixtures + QStringLiteral("/digest-mismatch.lct"));
    QVERIFY(bad && bad->document());
    QVERIFY(hp->digestText().contains(QStringLiteral("mismatch")));
    QCOMPARE(hp->digestColor(), StatusColors::error(hp->palette()));

    // A header rewritten in place by the first recorder: config and digest lost, orange.
    TraceTab *lost = test::openAndWait(w, kFixtures + QStringLiteral("/header-rewritten.lct"));
    QVERIFY(lost && lost->document());
    QVERIFY(hp->digestText().contains(QStringLiteral("lost")));
    QCOMPARE(hp->digestColor(), StatusColors::warning(hp->palette()));
    // Switching back shows the first file's header again.
    w.tabWidget()->setCurrentWidget(tab);
    QVERIFY(hp->digestText().contains(QStringLiteral("✓ match")));
}

void TestMainWindow::notATraceReportsErrorAndAddsNoTab() {
    MainWindow w;
    w.setShowDialogs(false);
    // A trace stays open while another file fails.
    QVERIFY(test::openAndWait(w, kSchema2));
    const QString junk = m_tmp.filePath(QStringLiteral("notes.lct"));
    {
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("These are my notes about LMCache, not a trace.\n");
    }
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    w.openFile(junk);
    QTRY_COMPARE(failed.count(), 1);
    QCOMPARE(failed.first().at(0).toString(), junk);
    const QString error = failed.first().at(1).toString();
    QVERIFY2(error.contains(QStringLiteral("notes.lct")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("offset")), qPrintable(error));
    QTRY_COMPARE(w.tabCount(), 1);
    QCOMPARE(w.currentTab()->filePath(), kSchema2);
    QVERIFY(!w.recentFiles()->files().contains(junk));

    // A missing file too, and then the window is still usable.
    w.openFile(m_tmp.filePath(QStringLiteral("does-not-exist.lct")));
    QTRY_COMPARE(failed.count(), 2);
    QCOMPARE(w.tabCount(), 1);
    QVERIFY(test::openAndWait(w, kMalformed));
    QCOMPARE(w.tabCount(), 2);
}

void TestMainWindow::errorDialogNamesTheReason() {
    MainWindow w;  // dialogs on, as for users
    w.show();
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    w.openFile(kFixtures + QStringLiteral("/bad-magic.lct"));
    QTRY_COMPARE(failed.count(), 1);
    QMessageBox *box = w.findChild<QMessageBox *>();
    QVERIFY(box);
    QVERIFY(box->isVisible());  // shown without blocking (window-modal)
    QCOMPARE(box->icon(), QMessageBox::Warning);
    QVERIFY(box->text().contains(QStringLiteral("bad-magic.lct")));
    QCOMPARE(box->informativeText(), failed.first().at(1).toString());
    QVERIFY(box->informativeText().contains(QStringLiteral("magic")));
    box->accept();
    QCOMPARE(w.tabCount(), 0);
}

void TestMainWindow::everyFixtureOpensOrIsRefusedCleanly() {
    const QJsonObject manifest = readJson(kFixtures + QStringLiteral("/manifest.json"));
    QVERIFY(manifest.size() > 20);
    MainWindow w;
    w.setShowDialogs(false);
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    int refused = 0;
    for (auto it = manifest.begin(); it != manifest.end(); ++it) {
        const QJsonObject fx = it.value().toObject();
        const QString path = kFixtures + QLatin1Char('/') + it.key();
        const int before = w.tabCount();
        TraceTab *tab = w.openFile(path);
        QVERIFY(tab);
        if (fx.value(QStringLiteral("opens")).toBool()) {
            QTRY_VERIFY_WITH_TIMEOUT(tab->document() != nullptr, 30000);
            QCOMPARE(tab->document()->records().size(),
                     fx.value(QStringLiteral("records")).toInt());
            // (the table takes the rows from the document's last growth notification)
            QTRY_COMPARE(tab->table()->model()->rowCount(),
                         fx.value(QStringLiteral("records")).toInt());
            QCOMPARE(w.tabCount(), before + 1);
            const bool damaged = !fx.value(QStringLiteral("diagnostics")).toArray().isEmpty();
            if (damaged) {
                QVERIFY2(tab->document()->errorCount() + tab->document()->warningCount() > 0,
                         qPrintable(it.key()));
                QVERIFY(w.diagnosticsPane()->model()->rowCount() > 0);
                QVERIFY(w.statusText().contains(QStringLiteral("error")) ||
                        w.statusText().contains(QStringLiteral("warning")));
            }
            // Selecting every record of small fixtures must not trip the inspector.
            if (tab->document()->records().size() <= 40) {
                for (int r = 0; r < tab->document()->records().size(); ++r) {
                    tab->viewState()->setSelectedRecord(r);
                    QTRY_COMPARE(w.inspectorPane()->record(), r);
                }
            }
        } else {
            ++refused;
            QTRY_COMPARE(failed.count(), refused);
            QCOMPARE(failed.last().at(0).toString(), path);
            QVERIFY(!failed.last().at(1).toString().isEmpty());
            QTRY_COMPARE(w.tabCount(), before);
        }
    }
    QVERIFY(refused >= 5);
}

void TestMainWindow::twoFilesTwoTabsDocksFollowCurrentTab() {
    MainWindow w;
    w.setShowDialogs(false);
    w.openFiles({kSchema2, kMalformed});
    QCOMPARE(w.tabCount(), 2);
    TraceTab *a = w.tabAt(0);
    TraceTab *b = w.tabAt(1);
    // Loaded, not just opened: a selection made while the records still arrive may be dropped
    // (seen once under load: the inspector stayed at -1).
    QTRY_VERIFY_WITH_TIMEOUT(a->document() && b->document() && !a->isLoading() && !b->isLoading(),
                             30000);
    QCOMPARE(w.tabWidget()->tabText(0), QStringLiteral("schema2-prefetch-spec-tp2.lct"));
    QCOMPARE(w.tabWidget()->tabText(1), QStringLiteral("malformed-record.lmct"));
    QCOMPARE(w.currentTab(), b);  // the last opened is shown

    // Each tab has its own ViewState and selection.
    a->viewState()->setSelectedRecord(10);
    b->viewState()->setSelectedRecord(20);
    QTRY_COMPARE(w.inspectorPane()->record(), 20);
    auto headerPath = [&w] {
        const QModelIndexList p = w.headerPane()->model()->findByName(QStringLiteral("path"));
        return p.isEmpty()
                   ? QString()
                   : p.first().siblingAtColumn(InspectorTreeModel::ValueColumn).data().toString();
    };
    QCOMPARE(headerPath(), kMalformed);
    // The background argument check may still add diagnostics: wait for them.
    QTRY_VERIFY(w.diagnosticsPane()->model()->rowCount() >= 1);

    w.tabWidget()->setCurrentIndex(0);
    QTRY_COMPARE(w.inspectorPane()->record(), 10);
    QCOMPARE(headerPath(), kSchema2);
    QTRY_COMPARE(w.diagnosticsPane()->model()->rowCount(), a->document()->diagnostics().size());
    // The docks now follow tab 0's state only.
    b->viewState()->setSelectedRecord(30);
    QCOMPARE(w.inspectorPane()->record(), 10);
    a->viewState()->setSelectedRecord(11);
    QTRY_COMPARE(w.inspectorPane()->record(), 11);

    // Closing tabs rebinds to what is left, then to nothing.
    w.closeTab(0);
    QCOMPARE(w.tabCount(), 1);
    QTRY_COMPARE(w.inspectorPane()->record(), 30);
    QCOMPARE(headerPath(), kMalformed);
    w.closeTab(0);
    QCOMPARE(w.tabCount(), 0);
    QCOMPARE(w.inspectorPane()->record(), -1);
    QCOMPARE(w.headerPane()->model()->rowCount(), 0);
    QCOMPARE(w.diagnosticsPane()->model()->rowCount(), 0);
}

void TestMainWindow::reopeningAFileSwitchesToItsTab() {
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *a = test::openAndWait(w, kSchema2);
    TraceTab *b = test::openAndWait(w, kMalformed);
    QVERIFY(a && b);
    QCOMPARE(w.currentTab(), b);
    QCOMPARE(w.openFile(kSchema2), a);
    QCOMPARE(w.tabCount(), 2);
    QCOMPARE(w.currentTab(), a);
}

void TestMainWindow::addViewDockRebindsObservers() {
    MainWindow w;
    w.setShowDialogs(false);
    auto *view = new RecordingView;
    QDockWidget *dock = w.addViewDock(QStringLiteral("Timeline"), view, Qt::BottomDockWidgetArea);
    QVERIFY(dock);
    QCOMPARE(MainWindow::dockView(dock), view);
    QCOMPARE(dock->objectName(), QStringLiteral("dock-timeline"));
    QCOMPARE(view->bound, nullptr);
    TraceTab *a = test::openAndWait(w, kSchema2);
    QCOMPARE(view->bound, a->viewState());
    TraceTab *b = test::openAndWait(w, kMalformed);
    QCOMPARE(view->bound, b->viewState());
    w.tabWidget()->setCurrentIndex(0);
    QCOMPARE(view->bound, a->viewState());
    w.closeTab(0);
    w.closeTab(0);
    QCOMPARE(view->bound, nullptr);
}

void TestMainWindow::diagnosticsClickSelectsNearestRecord() {
    MainWindow w;
    w.setShowDialogs(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.diagnosticsDock()->hide();
    TraceTab *tab = test::openAndWait(w, kMalformed);
    QVERIFY(tab && tab->document());
    const auto doc = tab->document();
    QCOMPARE(doc->records().size(), truthRecords(kMalformed));
    // An error was found: the diagnostics dock comes up and the status bar counts it.
    QVERIFY(w.diagnosticsDock()->isVisible());
    QVERIFY(w.statusText().contains(QStringLiteral("1 error")));

    DiagnosticsPane *pane = w.diagnosticsPane();
    QAbstractItemModelTester tester(pane->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    int row = -1;
    for (int r = 0; r < pane->model()->rowCount(); ++r) {
        if (pane->model()->index(r, DiagnosticsModel::KindColumn).data().toString() ==
            QLatin1String("malformed")) {
            row = r;
        }
    }
    QVERIFY(row >= 0);
    const qint64 offset =
        pane->model()->index(row, DiagnosticsModel::OffsetColumn).data().toLongLong();
    const int expected = doc->recordNearOffset(offset);
    QVERIFY(expected >= 0);
    QVERIFY(doc->records().frameOffset(expected) <= offset);
    QVERIFY(expected + 1 >= doc->records().size() ||
            doc->records().frameOffset(expected + 1) > offset);

    // Hide that record behind a time range: the click must still bring it up.
    const double t = doc->records().tMono(expected);
    tab->viewState()->setTimeRange(ViewState::TimeRange{t + 0.5, t + 0.6});
    QVERIFY(tab->table()->model()->rowCount() < doc->records().size());

    QTableView *view = pane->tableView();
    const QRect rect = view->visualRect(pane->model()->index(row, DiagnosticsModel::MessageColumn));
    QVERIFY(rect.isValid());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
    QCOMPARE(tab->viewState()->selectedRecord(), expected);
    QVERIFY(!tab->viewState()->timeRange().has_value());
    QTRY_COMPARE(w.inspectorPane()->record(), expected);
    // The table follows: the record's row is current.
    QTRY_COMPARE(tab->table()->recordModel()->recordAt(tab->table()->currentIndex().row()),
                 expected);
}

void TestMainWindow::timeRangeShowsOnlyRecordsInRange() {
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab && tab->document());
    const auto doc = tab->document();
    const RecordStore &rs = doc->records();
    const double from = rs.tMono(1000);
    const double to = rs.tMono(1500);
    int expected = 0;
    for (int i = 0; i < rs.size(); ++i) {
        expected += (rs.tMono(i) >= from && rs.tMono(i) <= to) ? 1 : 0;
    }
    QVERIFY(expected > 100 && expected < rs.size());

    RecordTableView *table = tab->table();
    QAbstractItemModelTester tester(table->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy applied(table, &RecordTableView::subsetApplied);
    tab->viewState()->setTimeRange(ViewState::TimeRange{from, to});
    QTRY_VERIFY(applied.count() >= 1);
    QCOMPARE(table->model()->rowCount(), expected);
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        const double t = table->model()->index(r, 0).data(RecordTableModel::TMonoRole).toDouble();
        QVERIFY(t >= from && t <= to);
    }
    QVERIFY(w.statusText().contains(QStringLiteral("%1 of %2 records")
                                        .arg(QLocale().toString(expected))
                                        .arg(QLocale().toString(rs.size()))));

    // Esc in the table clears the range.
    table->setFocus();
    QTest::keyClick(table, Qt::Key_Escape);
    QVERIFY(!tab->viewState()->timeRange().has_value());
    QCOMPARE(table->model()->rowCount(), rs.size());

    // Narrowing to a selection of rows sets the range to their t_mono span.
    table->selectionModel()->select(
        QItemSelection(table->model()->index(200, 0), table->model()->index(260, 0)),
        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    table->narrowToSelection();
    QVERIFY(tab->viewState()->timeRange().has_value());
    double lo = 1e300, hi = -1e300;
    for (int i = 200; i <= 260; ++i) {
        lo = std::min(lo, rs.tMono(i));
        hi = std::max(hi, rs.tMono(i));
    }
    QCOMPARE(tab->viewState()->timeRange()->from, lo);
    QCOMPARE(tab->viewState()->timeRange()->to, hi);
    QVERIFY(table->model()->rowCount() >= 61);
}

void TestMainWindow::goToRecordClearsAHidingRange() {
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab && tab->document());
    RecordTableView *table = tab->table();
    QVERIFY(table->goToRecord(3000));
    QCOMPARE(tab->viewState()->selectedRecord(), 3000);
    QCOMPARE(table->recordModel()->recordAt(table->currentIndex().row()), 3000);
    const auto &rs = tab->document()->records();
    tab->viewState()->setTimeRange(ViewState::TimeRange{rs.tMono(10), rs.tMono(20)});
    QVERIFY(table->goToRecord(4000));
    QVERIFY(!tab->viewState()->timeRange().has_value());
    QCOMPARE(table->recordModel()->recordAt(table->currentIndex().row()), 4000);
    QVERIFY(!table->goToRecord(rs.size()));
    QVERIFY(!table->goToRecord(-1));
}

void TestMainWindow::sortingKeepsSelection() {
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab && tab->document());
    RecordTableView *table = tab->table();
    tab->viewState()->setSelectedRecord(123);
    table->sortByColumn(RecordTableModel::CallColumn, Qt::AscendingOrder);
    QCOMPARE(table->recordModel()->recordAt(table->currentIndex().row()), 123);
    // Calls are grouped after sorting by call.
    const QString firstCall =
        table->model()->index(0, RecordTableModel::CallColumn).data().toString();
    const QString lastCall =
        table->model()
            ->index(table->model()->rowCount() - 1, RecordTableModel::CallColumn)
            .data()
            .toString();
    QVERIFY(firstCall <= lastCall);
    // Selection of another record through the ViewState still finds its row.
    tab->viewState()->setSelectedRecord(7);
    QCOMPARE(table->recordModel()->recordAt(table->currentIndex().row()), 7);
    // The call column carries a colour chip, the same for the same call.
    const QIcon chip = table->model()
                           ->index(0, RecordTableModel::CallColumn)
                           .data(Qt::DecorationRole)
                           .value<QIcon>();
    QVERIFY(!chip.isNull());
}

void TestMainWindow::clickingARowSelectsItsRecord() {
    MainWindow w;
    w.setShowDialogs(false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab && tab->document());
    RecordTableView *table = tab->table();
    QTRY_VERIFY(table->hasFocus());
    // Focus alone makes a row current but selects no record.
    QCOMPARE(tab->viewState()->selectedRecord(), -1);
    QCOMPARE(w.inspectorPane()->record(), -1);
    const QRect r = table->visualRect(table->model()->index(5, RecordTableModel::CallColumn));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, r.center());
    QCOMPARE(tab->viewState()->selectedRecord(), 5);
    QTRY_COMPARE(w.inspectorPane()->record(), 5);
    QTest::keyClick(table, Qt::Key_Down);
    QCOMPARE(tab->viewState()->selectedRecord(), 6);
    QTRY_COMPARE(w.inspectorPane()->record(), 6);
}

void TestMainWindow::cancelledLoadKeepsWhatWasRead() {
    // A trace large enough that a cancel lands mid-way: the schema2 records repeated.
    QFile src(kSchema2);
    QVERIFY(src.open(QIODevice::ReadOnly));
    const QByteArray bytes = src.readAll();
    const qint64 recordsStart = 4 + qFromBigEndian<quint32>(bytes.constData());  // the header
    const int records = truthRecords(kSchema2);
    QVERIFY(records > 4000);
    const QString big = m_tmp.filePath(QStringLiteral("big.lct"));
    {
        QFile out(big);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes);
        for (int i = 0; i < 15; ++i) {
            out.write(bytes.constData() + recordsStart, bytes.size() - recordsStart);
        }
    }
    MainWindow w;
    w.setShowDialogs(false);
    {
        // Uncancelled: progress is reported, every record arrives.
        TraceTab *full = w.openFile(big);
        QSignalSpy progress(full, &TraceTab::loadProgress);
        QTRY_VERIFY_WITH_TIMEOUT(!full->isLoading(), 60000);
        QVERIFY(full->document());
        QCOMPARE(full->document()->recordsStart(), recordsStart);
        QCOMPARE(full->document()->records().size(), records * 16);
        QVERIFY(!full->document()->isPartial());
        QVERIFY(progress.count() >= 1);
        QCOMPARE(progress.last().at(1).toLongLong(), QFileInfo(big).size());
        w.closeTab(0);
    }
    TraceTab *tab = w.openFile(big);
    tab->cancelLoad();
    QTRY_VERIFY_WITH_TIMEOUT(!tab->isLoading(), 60000);
    QVERIFY(tab->document());
    QVERIFY(tab->document()->isPartial());
    QVERIFY(tab->document()->records().size() < records * 16);
    QCOMPARE(tab->table()->model()->rowCount(), tab->document()->records().size());
    QCOMPARE(w.tabCount(), 1);
    QVERIFY(w.statusText().contains(QStringLiteral("partial")));
    QVERIFY(w.tabWidget()->tabText(0).contains(QStringLiteral("partial")));
}

// Regression: a cancel during the argument check after indexing ended like a
// complete load: no "partial" anywhere. The status bar and the tab now say that the check was
// cancelled and where. (The load is cancelled from its progress callback at the end of
// indexing, which a tab's own load cannot be made to do reliably; the tab then gets that
// document as its cancelled load would deliver it.)
void TestMainWindow::cancelledArgumentCheckIsMarked() {
    std::atomic_bool cancel{false};
    TraceLoadOptions opt;
    opt.cancel = &cancel;
    opt.progress = [&](qint64 done, qint64 total, qint64) {
        if (done >= total) {
            cancel = true;
        }
    };
    QString error;
    std::shared_ptr<const TraceDocument> doc = TraceLoader::load(kSchema2, &error, opt);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(doc->argsCheckCancelledAt(), 0);
    MainWindow w;
    TraceTab *tab = lmct::test::showAndOpen(w, kSchema2);
    QVERIFY(tab);
    QVERIFY(!w.statusText().contains(QStringLiteral("partial")));
    tab->viewState()->setDocument(doc);
    emit tab->loaded();
    const QString marker =
        QStringLiteral("partial check: argument check cancelled at record 0 of %1")
            .arg(QLocale().toString(truthRecords(kSchema2)));
    QVERIFY2(w.statusText().contains(marker), qPrintable(w.statusText()));
    QCOMPARE(w.tabWidget()->tabText(w.tabWidget()->indexOf(tab)),
             QStringLiteral("schema2-prefetch-spec-tp2.lct (partial check)"));
    // a complete load says nothing of the kind
    tab->viewState()->setDocument(TraceLoader::load(kSchema2, &error));
    QVERIFY(!w.statusText().contains(QStringLiteral("partial")));
}

namespace {

/** Rows of the Diagnostics pane whose kind is "shrank", as "SEVERITY|OFFSET|MESSAGE". */
QStringList shrankRows(MainWindow &w) {
    QStringList out;
    QAbstractItemModel *m = w.diagnosticsPane()->model();
    for (int r = 0; r < m->rowCount(); ++r) {
        if (m->index(r, DiagnosticsModel::KindColumn).data().toString() ==
            Diagnostic::kindName(Diagnostic::Kind::Shrank)) {
            out << QStringLiteral("%1|%2|%3")
                       .arg(m->index(r, DiagnosticsModel::SeverityColumn).data().toString(),
                            m->index(r, DiagnosticsModel::OffsetColumn).data().toString(),
                            m->index(r, DiagnosticsModel::MessageColumn).data().toString());
        }
    }
    return out;
}

/** A trace of 3000 small records (over 256 KiB) in `dir`, opened in `w`. */
TraceTab *openTruncatable(MainWindow &w, QTemporaryDir &dir, lmct::test::SmallTrace *trace,
                          QString *path) {
    *trace = lmct::test::smallTrace(3000);
    *path = lmct::test::writeFile(dir, QStringLiteral("shrinks.lct"), trace->bytes);
    return lmct::test::showAndOpen(w, *path);
}

/** Truncates `path` through a handle of its own, as another process would. */
bool truncateTo(const QString &path, qint64 size) {
    QFile f(path);
    return f.open(QIODevice::ReadWrite) && f.resize(size);
}

/** The Diagnostics pane shows one "shrank" error naming the file, both sizes and the offset. */
void verifyOneShrankError(MainWindow &w, const QString &path, qint64 oldSize, qint64 newSize) {
    const QStringList rows = shrankRows(w);
    QCOMPARE(rows.size(), 1);
    const QStringList parts = rows.first().split(QLatin1Char('|'));
    QCOMPARE(parts.value(0), Diagnostic::severityName(Diagnostic::Severity::Error));
    const QString message = parts.mid(2).join(QLatin1Char('|'));
    QVERIFY2(message.contains(path), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("shrank to %1 bytes").arg(newSize)),
             qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("from %1 bytes").arg(oldSize)), qPrintable(message));
    QVERIFY2(message.contains(
                 QStringLiteral("records after offset %1 are no longer readable").arg(newSize)),
             qPrintable(message));
}

}  // namespace

// Regression: a trace truncated on disk after it loaded (not followed): the
// inspector warned about the record it read past the new end, but the Diagnostics pane got no
// error and the status bar kept the old size. Reading a record now reports the shrink once.
void TestMainWindow::shrinkAfterLoadingIsReportedWhenARecordIsRead() {
    QTemporaryDir dir;
    lmct::test::SmallTrace t;
    QString path;
    MainWindow w;
    TraceTab *tab = openTruncatable(w, dir, &t, &path);
    QVERIFY(tab && tab->document());
    const QLocale loc;
    const qint64 oldSize = t.bytes.size();
    QVERIFY2(w.statusText().contains(loc.formattedDataSize(oldSize)), qPrintable(w.statusText()));
    QVERIFY(shrankRows(w).isEmpty());
    const qint64 newSize = t.frameEnds[99] + 10;  // inside record 100
    QVERIFY(truncateTo(path, newSize));
    tab->viewState()->setSelectedRecord(2000);  // its page now lies beyond the end (SIGBUS)
    QTRY_VERIFY(w.inspectorPane()->errorText().contains(QStringLiteral("shrank")));
    // the Frame tab says so too (it dumped the zeros read in the frame's place)
    QVERIFY2(w.inspectorPane()->frameText().contains(
                 QStringLiteral("is no longer in the file: it shrank to %1 bytes").arg(newSize)),
             qPrintable(w.inspectorPane()->frameText().left(200)));
    QTRY_COMPARE_WITH_TIMEOUT(shrankRows(w).size(), 1, 5000);
    verifyOneShrankError(w, path, oldSize, newSize);
    QTRY_VERIFY2(w.statusText().contains(loc.formattedDataSize(newSize)),
                 qPrintable(w.statusText()));
    // reading more records past the end adds nothing: one error, not one per record or check
    for (int r : {150, 2500, 2999}) {
        tab->viewState()->setSelectedRecord(r);
        QTRY_COMPARE(w.inspectorPane()->record(), r);
    }
    QTest::qWait(2500);
    verifyOneShrankError(w, path, oldSize, newSize);
    QCOMPARE(tab->document()->errorCount(), 1);
}

// The same truncation noticed without reading a record: the tab checks the size of the file it
// shows now and then (one fstat), like a followed file's polling.
void TestMainWindow::shrinkAfterLoadingIsNoticedWithoutReading() {
    QTemporaryDir dir;
    lmct::test::SmallTrace t;
    QString path;
    MainWindow w;
    TraceTab *tab = openTruncatable(w, dir, &t, &path);
    QVERIFY(tab && tab->document());
    const qint64 oldSize = t.bytes.size();
    const qint64 newSize = t.frameEnds[1999];
    QVERIFY(truncateTo(path, newSize));
    QTRY_COMPARE_WITH_TIMEOUT(shrankRows(w).size(), 1, 5000);
    verifyOneShrankError(w, path, oldSize, newSize);
    QTRY_VERIFY2(w.statusText().contains(QLocale().formattedDataSize(newSize)),
                 qPrintable(w.statusText()));
    // The Header pane's size line too (it kept the size the file was opened with).
    auto headerSize = [&w] {
        const QModelIndexList p = w.headerPane()->model()->findByName(QStringLiteral("size"));
        return p.isEmpty()
                   ? QString()
                   : p.first().siblingAtColumn(InspectorTreeModel::ValueColumn).data().toString();
    };
    QTRY_VERIFY2(
        headerSize().contains(QStringLiteral("%1 bytes): shrank from %2 bytes")
                                  .arg(QLocale().toString(newSize), QLocale().toString(oldSize))),
        qPrintable(headerSize()));
    QTest::qWait(2500);
    QCOMPARE(shrankRows(w).size(), 1);
    // Cut again: the status bar shows the size now (it kept the first shrink's size),
    // and the Diagnostics pane lists the second cut too (it named only the first)
    const qint64 smaller = t.frameEnds[500];
    QVERIFY(truncateTo(path, smaller));
    QTRY_VERIFY2_WITH_TIMEOUT(w.statusText().contains(QLocale().formattedDataSize(smaller)),
                              qPrintable(w.statusText()), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(shrankRows(w).size(), 2, 5000);
    QVERIFY2(shrankRows(w).constLast().contains(
                 QStringLiteral("shrank to %1 bytes while being read").arg(smaller)),
             qPrintable(shrankRows(w).constLast()));
    QTRY_VERIFY2(
        headerSize().contains(QStringLiteral("(%1 bytes)").arg(QLocale().toString(smaller))),
        qPrintable(headerSize()));
}

void TestMainWindow::dropOpensFiles() {
    MainWindow w;
    w.setShowDialogs(false);
    w.show();
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(kSchema2), QUrl::fromLocalFile(kFirst)});
    QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    QCOMPARE(w.tabCount(), 2);
    QTRY_VERIFY(w.tabAt(0)->document() && w.tabAt(1)->document());
    QCOMPARE(w.tabAt(1)->document()->records().size(), truthRecords(kFirst));

    // Something that is not a file is refused.
    QMimeData text;
    text.setText(QStringLiteral("hello"));
    QDragEnterEvent enter2(QPoint(50, 50), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
    enter2.setAccepted(false);
    QApplication::sendEvent(&w, &enter2);
    QVERIFY(!enter2.isAccepted());
}

void TestMainWindow::manyFilesAtOnceAllLoad() {
    // More loads at once than the machine has cores: each loader also fans out to the global
    // thread pool, which must not deadlock.
    MainWindow w;
    w.setShowDialogs(false);
    const QStringList files{kSchema2,
                            kMalformed,
                            kFirst,
                            kTraces + QStringLiteral("/newest-unknown-spec-tp4.lct"),
                            kTraces + QStringLiteral("/schema1-sliding-window-tp2.lct"),
                            kTraces + QStringLiteral("/schema1-trimpolicy-tp2.lct")};
    w.openFiles(files);
    QCOMPARE(w.tabCount(), files.size());
    for (int i = 0; i < w.tabCount(); ++i) {
        TraceTab *tab = w.tabAt(i);
        QTRY_VERIFY_WITH_TIMEOUT(!tab->isLoading(), 60000);
        QVERIFY(tab->document());
        const QJsonObject truth = readJson(files.at(i) + QStringLiteral(".truth.json"));
        QCOMPARE(tab->document()->records().size(), truth.value(QStringLiteral("records")).toInt());
    }
}

void TestMainWindow::damagedArgumentsAreShownWithTheirReason() {
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = test::openAndWait(w, kFixtures + QStringLiteral("/deep-nesting.lct"));
    QVERIFY(tab && tab->document());
    const RecordStore &rs = tab->document()->records();
    int bad = -1;
    for (int i = 0; i < rs.size(); ++i) {
        if (rs.flags(i) & RecordStore::BadArgs) {
            bad = i;
        }
    }
    QVERIFY(bad >= 0);
    // The table marks the record, the inspector says what went wrong.
    const QModelIndex cell = tab->table()->model()->index(tab->table()->recordModel()->rowOf(bad),
                                                          RecordTableModel::IndexColumn);
    QVERIFY(!cell.data(Qt::DecorationRole).value<QIcon>().isNull());
    QVERIFY(
        cell.data(Qt::ToolTipRole).toString().contains(QStringLiteral("arguments are damaged")));
    tab->viewState()->setSelectedRecord(bad);
    QTRY_COMPARE(w.inspectorPane()->record(), bad);
    QVERIFY2(w.inspectorPane()->errorText().contains(QStringLiteral("nesting")),
             qPrintable(w.inspectorPane()->errorText()));
    // A good record shows no warning.
    tab->viewState()->setSelectedRecord(0);
    QTRY_COMPARE(w.inspectorPane()->record(), 0);
    QVERIFY(w.inspectorPane()->errorText().isEmpty());
}

void TestMainWindow::recentFilesRemembersOpenedTraces() {
    {
        MainWindow w;
        w.setShowDialogs(false);
        QVERIFY(test::openAndWait(w, kSchema2));
        QVERIFY(test::openAndWait(w, kMalformed));
        QCOMPARE(w.recentFiles()->files(), (QStringList{kMalformed, kSchema2}));
    }
    // Kept across sessions (QSettings), capped at ten, clearable.
    RecentFiles recent;
    QCOMPARE(recent.files(), (QStringList{kMalformed, kSchema2}));
    for (int i = 0; i < 12; ++i) {
        recent.add(m_tmp.filePath(QStringLiteral("f%1.lct").arg(i)));
    }
    QCOMPARE(recent.files().size(), RecentFiles::maxCount());
    QCOMPARE(recent.files().first(), m_tmp.filePath(QStringLiteral("f11.lct")));
    recent.clear();
    QVERIFY(RecentFiles().files().isEmpty());
}

void TestMainWindow::openDialogFiltersTraces() {
    QCOMPARE(MainWindow::traceFileFilters(),
             (QStringList{QStringLiteral("LMCache traces (*.lct *.lmct)"),
                          QStringLiteral("All files (*)")}));
    // File > Open shows them, traces first. Qt's own dialog (not a platform one) so that it is a
    // QFileDialog this test can read and close while its exec() runs.
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs, true);
    MainWindow w;
    w.setShowDialogs(false);
    w.show();
    QMenu *file = menuBarMenu(w, QStringLiteral("&File"));
    QVERIFY(file);
    QAction *open = menuAction(file, QStringLiteral("&Open…"));
    QVERIFY(open);
    QStringList filters;
    QString selected;
    QFileDialog::FileMode mode = QFileDialog::AnyFile;
    QTimer poll;
    poll.setInterval(10);
    connect(&poll, &QTimer::timeout, this, [&] {
        if (auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget())) {
            poll.stop();
            filters = dialog->nameFilters();
            selected = dialog->selectedNameFilter();
            mode = dialog->fileMode();
            dialog->reject();
        }
    });
    poll.start();
    QTimer::singleShot(10000, &poll, &QTimer::stop);
    open->trigger();  // returns when the dialog is closed
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs, false);
    QCOMPARE(filters, MainWindow::traceFileFilters());
    QCOMPARE(selected, QStringLiteral("LMCache traces (*.lct *.lmct)"));
    QCOMPARE(mode, QFileDialog::ExistingFiles);  // several at once
    QCOMPARE(w.tabCount(), 0);                   // cancelled: nothing opened
}

void TestMainWindow::openRecentMenuReopensATrace() {
    MainWindow w;
    w.setShowDialogs(false);
    w.show();
    QVERIFY(test::openAndWait(w, kSchema2));
    QVERIFY(test::openAndWait(w, kFirst));
    QMenu *file = menuBarMenu(w, QStringLiteral("&File"));
    QVERIFY(file);
    QAction *recentEntry = menuAction(file, QStringLiteral("Open &Recent"));
    QVERIFY(recentEntry && recentEntry->menu());
    QMenu *recent = recentEntry->menu();
    emit recent->aboutToShow();
    // Newest first: one numbered entry per file (name, then folder; the full path as tool tip),
    // then a separator and Clear Menu.
    QList<QAction *> entries;
    for (QAction *a : recent->actions()) {
        if (!a->isSeparator() && a->text() != QStringLiteral("Clear Menu")) {
            entries.append(a);
        }
    }
    QCOMPARE(entries.size(), 2);
    QCOMPARE(entries[0]->toolTip(), kFirst);
    QCOMPARE(entries[1]->toolTip(), kSchema2);
    QVERIFY2(
        entries[0]->text().startsWith(QStringLiteral("&1  lmcache-first-recorder-storage.lct")),
        qPrintable(entries[0]->text()));
    QVERIFY2(entries[1]->text().startsWith(QStringLiteral("&2  schema2-prefetch-spec-tp2.lct")),
             qPrintable(entries[1]->text()));
    QVERIFY(entries[0]->isEnabled() && entries[1]->isEnabled());
    QAction *clear = menuAction(recent, QStringLiteral("Clear Menu"));
    QVERIFY(clear && clear->isEnabled());

    // Close the older trace's tab, then reopen it from the menu: a tab for it loads again.
    int schema2Tab = -1;
    for (int i = 0; i < w.tabCount(); ++i) {
        if (w.tabAt(i)->filePath() == kSchema2) {
            schema2Tab = i;
        }
    }
    QVERIFY(schema2Tab >= 0);
    w.closeTab(schema2Tab);
    QCOMPARE(w.tabCount(), 1);
    QCOMPARE(w.tabAt(0)->filePath(), kFirst);
    QAction *reopen = nullptr;  // found again: the menu is rebuilt whenever the list changes
    for (QAction *a : recent->actions()) {
        if (a->toolTip() == kSchema2) {
            reopen = a;
        }
    }
    QVERIFY(reopen);
    reopen->trigger();
    QCOMPARE(w.tabCount(), 2);
    TraceTab *reopened = w.currentTab();
    QVERIFY(reopened);
    QCOMPARE(reopened->filePath(), kSchema2);
    QTRY_VERIFY_WITH_TIMEOUT(!reopened->isLoading(), 30000);
    QVERIFY(reopened->document());
    QVERIFY(reopened->document()->records().size() > 0);
    // Reopening moved it to the top of the menu.
    emit recent->aboutToShow();
    QCOMPARE(recent->actions().first()->toolTip(), kSchema2);
}

void TestMainWindow::statusBarSummarisesTheTrace() {
    MainWindow w;
    w.setShowDialogs(false);
    QVERIFY(w.statusText().contains(QStringLiteral("Open a trace")));
    // The bundled sample lives in lmct-viewer's resources, not in this test: refused cleanly.
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    QCOMPARE(w.openSample(), nullptr);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(w.tabCount(), 0);
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab);
    const QString s = w.statusText();
    QVERIFY2(s.contains(QStringLiteral("schema2-prefetch-spec-tp2.lct")), qPrintable(s));
    QVERIFY2(s.contains(QLocale().toString(truthRecords(kSchema2)) + QStringLiteral(" records")),
             qPrintable(s));
    const double duration =
        readJson(kSchema2 + QStringLiteral(".truth.json")).value("duration_s").toDouble();
    QVERIFY2(s.contains(QString::number(duration, 'f', 2)), qPrintable(s));  // duration
    QVERIFY2(s.contains(QStringLiteral("MiB")), qPrintable(s));
    QVERIFY2(!s.contains(QStringLiteral("error")), qPrintable(s));
    QVERIFY(w.windowTitle().startsWith(QStringLiteral("schema2-prefetch-spec-tp2.lct")));
}

void TestMainWindow::inspectorCopiesValueAndPath() {
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab && tab->document());
    const int rec = firstRecordOf(*tab->document(), QStringLiteral("submit_prefetch_task"));
    tab->viewState()->setSelectedRecord(rec);
    QTRY_COMPARE(w.inspectorPane()->record(), rec);
    InspectorTreeView *tree = w.inspectorPane()->treeView();
    const QModelIndex hash =
        w.inspectorPane()->model()->findByName(QStringLiteral("chunk_hash")).first();
    tree->setCurrentIndex(hash);
    tree->setFocus();
    QTest::keyClick(tree, Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(QApplication::clipboard()->text(),
             hash.data(InspectorTreeModel::CopyTextRole).toString());
    QCOMPARE(QApplication::clipboard()->text().size(), 64);
    QTest::keyClick(tree, Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("spec.keys[0].chunk_hash"));
}

void TestMainWindow::callColorsAreStableAndDistinct() {
    const QString prefix = Qualname::storagePrefix();
    QCOMPARE(CallColors::forQualname(prefix + QStringLiteral("reserve_write")),
             CallColors::color(QStringLiteral("reserve_write")));
    QSet<QRgb> seen;
    for (const QString &call : Qualname::callFlow()) {
        const QColor c = CallColors::color(call);
        QVERIFY(c.isValid());
        // Mid-tone: readable on light and dark backgrounds.
        QVERIFY2(c.lightness() > 60 && c.lightness() < 200, qPrintable(call));
        seen.insert(c.rgb());
    }
    QCOMPARE(seen.size(), int(Qualname::callFlow().size()));
    // Unknown calls: stable (not per-process hashing), and not all the same.
    QCOMPARE(CallColors::color(QStringLiteral("events.batch")),
             CallColors::color(QStringLiteral("events.batch")));
    QVERIFY(CallColors::color(QStringLiteral("events.batch")) !=
            CallColors::color(QStringLiteral("events.lifecycle")));
    QVERIFY(!CallColors::chip(QStringLiteral("reserve_write")).isNull());
}

void TestMainWindow::windowFitsASmallScreen() {
    // Regression: the panes' minimum sizes added up to a 1233x971 px window, taller than a
    // 1366x768 laptop screen; with a layout saved on a larger screen Qt's dock layout then
    // crashed at start. Panes scroll inside their docks instead.
    MainWindow w;
    w.setShowDialogs(false);
    w.show();
    QVERIFY(test::openAndWait(w, kSchema2));
    for (QDockWidget *d : w.findChildren<QDockWidget *>()) {
        d->show();
        d->raise();
        QVERIFY2(MainWindow::dockView(d), qPrintable(d->objectName()));
    }
    QTRY_VERIFY(w.minimumSizeHint().isValid());
    const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
    QVERIFY2(min.width() <= 1024 && min.height() <= 600,  // a small laptop screen
             qPrintable(QStringLiteral("minimum %1x%2").arg(min.width()).arg(min.height())));
}

void TestMainWindow::timelineLegendFitsTheDefaultLayout() {
    // Issue #5: at the default layout of a 1920x1080 window the rate legend's second row was cut
    // off (the timeline dock scrolled). At 1920x1080 and 1366x768 every entry shows, inside
    // the plot and inside the dock's view.
    for (const QSize size : {QSize(1920, 1080), QSize(1366, 768)}) {
        QSettings().clear();
        MainWindow w;
        w.setShowDialogs(false);
        w.setWindowState(Qt::WindowNoState);
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_COMPARE(w.size(), size);
        QAction *reset = nullptr;
        for (QAction *a : w.findChildren<QAction *>()) {
            if (a->text() == QStringLiteral("&Reset Layout")) {
                reset = a;
            }
        }
        QVERIFY(reset);
        reset->trigger();  // the default dock sizes of this window size
        QVERIFY(test::openAndWait(w, kSchema2));
        const QString why = test::legendOutOfView(w, 6);  // one entry per call lane
        QVERIFY2(
            why.isEmpty(),
            qPrintable(QStringLiteral("%1x%2: %3").arg(size.width()).arg(size.height()).arg(why)));
    }
}

void TestMainWindow::layoutFromACrashedStartIsDropped() {
    // Regression: a saved layout made every start crash inside Qt's dock layout. A start
    // that dies before the window has lived a few seconds leaves "window/layoutPending" set;
    // the next start drops the saved geometry and state instead of crashing again.
    {
        MainWindow w;
        w.show();
        QVERIFY(!w.layoutWasReset());
        QVERIFY(QSettings().value(QStringLiteral("window/layoutPending")).toBool());
        w.close();  // saves the layout: a clean end
    }
    QVERIFY(!QSettings().value(QStringLiteral("window/layoutPending")).toBool());
    QVERIFY(QSettings().contains(QStringLiteral("window/state")));
    {
        MainWindow w;  // a start that "crashes": never closed, nothing saved
        QVERIFY(!w.layoutWasReset());
    }
    QVERIFY(QSettings().value(QStringLiteral("window/layoutPending")).toBool());
    MainWindow again;
    QVERIFY(again.layoutWasReset());
    QVERIFY(!QSettings().contains(QStringLiteral("window/geometry")));
    QVERIFY(!QSettings().contains(QStringLiteral("window/state")));
    // and a start that lives long enough clears the flag
    QTRY_VERIFY_WITH_TIMEOUT(!QSettings().value(QStringLiteral("window/layoutPending")).toBool(),
                             10000);
}

void TestMainWindow::manyTabsStayReadable() {
    // Regression: nine files at the default window size gave tabs titled "…" and "sch…lct".
    MainWindow w;
    w.setShowDialogs(false);
    w.resize(1000, 700);
    w.show();
    QStringList files;
    for (const QString &f : QDir(QStringLiteral(LMCT_TRACES))
                                .entryList({QStringLiteral("*.lct"), QStringLiteral("*.lmct")})) {
        files << QStringLiteral(LMCT_TRACES "/") + f;
    }
    QVERIFY(files.size() >= 9);
    w.openFiles(files);
    QCOMPARE(w.tabCount(), files.size());
    QTabBar *bar = w.tabWidget()->tabBar();
    const int minWidth = bar->fontMetrics().horizontalAdvance(QStringLiteral("schema2-prefe"));
    for (int i = 0; i < bar->count(); ++i) {
        QVERIFY2(
            bar->tabRect(i).width() >= minWidth,
            qPrintable(QStringLiteral("tab %1 is %2 px wide").arg(i).arg(bar->tabRect(i).width())));
    }
}

void TestMainWindow::stopFollowingOnlyWhenFollowing() {
    // Regression: File > Stop Following was enabled for a file opened normally.
    MainWindow w;
    w.setShowDialogs(false);
    w.openFiles({kSchema2});
    QTRY_VERIFY(w.currentTab() && w.currentTab()->document());
    QAction *stop = nullptr;
    QMenu *file = nullptr;
    for (QAction *a : w.findChildren<QAction *>()) {
        if (a->text() == QStringLiteral("S&top Following")) {
            stop = a;
        }
    }
    for (QMenu *m : w.menuBar()->findChildren<QMenu *>()) {
        if (m->title() == QStringLiteral("&File")) {
            file = m;
        }
    }
    QVERIFY(stop && file);
    emit file->aboutToShow();
    QVERIFY(!stop->isEnabled());
    QVERIFY(!w.currentTab()->isFollowing());
}

void TestMainWindow::refusedFilesShareOneDialog() {
    // Several refused files opened each their own box, stacked so that they read in reverse
    // order: one box lists them all, in the order given.
    MainWindow w;  // dialogs on
    w.show();
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    const QStringList names = {QStringLiteral("not-a-trace.bin"), QStringLiteral("bad-magic.lct"),
                               QStringLiteral("empty.lct")};
    QStringList paths;
    for (const QString &n : names) {
        paths << kFixtures + QLatin1Char('/') + n;
    }
    w.openFiles(paths);
    QTRY_COMPARE(failed.count(), 3);
    w.reportRefused(QStringLiteral("/nowhere/missing.lct"), QStringLiteral("no such file"));
    QCOMPARE(w.findChildren<QMessageBox *>().size(), 1);
    QMessageBox *box = w.refusedBox();
    QVERIFY(box);
    QVERIFY(box->isVisible());
    QCOMPARE(box->text(), QStringLiteral("4 files are not traces this viewer can open."));
    const QString info = box->informativeText();
    int at = -1;
    for (const QString &n : names + QStringList{QStringLiteral("missing.lct")}) {
        const int next = info.indexOf(QStringLiteral("“%1”: ").arg(n));
        QVERIFY2(next > at, qPrintable(info));
        at = next;
    }
    QVERIFY(info.contains(QStringLiteral("no such file")));
    box->accept();
    QTRY_VERIFY(!w.refusedBox());
    // the next refusal opens a new box of its own
    w.openFile(paths.first());
    QTRY_COMPARE(failed.count(), 4);
    QVERIFY(w.refusedBox());
    QVERIFY(w.refusedBox()->text().contains(QStringLiteral("“not-a-trace.bin” is not a trace")));
    w.refusedBox()->accept();
}

void TestMainWindow::defaultLayoutShowsTwentyRecords() {
    // At 1600x1000 the default layout showed about 9 records and cut the Frame tab's hex dump
    // (its ASCII column) off on the right.
    QSettings().clear();
    MainWindow w;
    w.setShowDialogs(false);
    w.setWindowState(Qt::WindowNoState);
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_COMPARE(w.size(), QSize(1600, 1000));
    QAction *reset = nullptr;
    for (QAction *a : w.findChildren<QAction *>()) {
        if (a->text() == QStringLiteral("&Reset Layout")) {
            reset = a;
        }
    }
    QVERIFY(reset);
    reset->trigger();
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab);
    QTest::qWait(50);
    QTableView *table = tab->table();
    QVERIFY(table->model()->rowCount() > 30);
    const int rows = table->viewport()->height() / table->rowHeight(0);
    QVERIFY2(rows >= 18, qPrintable(QStringLiteral("%1 rows").arg(rows)));
    QVERIFY2(test::legendOutOfView(w, 6).isEmpty(), qPrintable(test::legendOutOfView(w, 6)));
    // a full hex line fits the Frame tab without scrolling
    InspectorPane *insp = w.inspectorPane();
    QVERIFY(insp->frameDumpWidth() > 300);
    auto *inspectorDock = w.findChild<QDockWidget *>(QStringLiteral("dock-inspector"));
    QVERIFY(inspectorDock);
    QVERIFY2(
        inspectorDock->width() >= insp->frameDumpWidth(),
        qPrintable(
            QStringLiteral("%1 < %2").arg(inspectorDock->width()).arg(insp->frameDumpWidth())));
}

void TestMainWindow::welcomePageHasTheWindow() {
    // Regression: with no trace open an empty timeline plot, an empty Inspector and an empty
    // Diagnostics table stood beside the welcome page. It has the window; the docks come back
    // as the user left them once a trace opens, and the layout is saved with them.
    const auto visibleDocks = [](const MainWindow &w) {
        QStringList names;
        for (QDockWidget *d : w.findChildren<QDockWidget *>()) {
            if (d->isVisible()) {
                names << d->objectName();
            }
        }
        return names;
    };
    {
        MainWindow w;
        w.setShowDialogs(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(visibleDocks(w), QStringList());
        QVERIFY(test::openAndWait(w, kSchema2));
        const QStringList open = visibleDocks(w);
        QVERIFY2(open.contains(QStringLiteral("dock-timeline")), qPrintable(open.join(u' ')));
        QVERIFY(open.contains(QStringLiteral("dock-inspector")));
        QVERIFY(open.contains(QStringLiteral("dock-diagnostics")));
        w.closeTab(0);
        QCOMPARE(visibleDocks(w), QStringList());
        w.close();
    }
    MainWindow again;
    again.setShowDialogs(false);
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    QCOMPARE(visibleDocks(again), QStringList());
    QVERIFY(test::openAndWait(again, kSchema2));
    QVERIFY(visibleDocks(again).contains(QStringLiteral("dock-timeline")));
    QVERIFY(visibleDocks(again).contains(QStringLiteral("dock-inspector")));
}

QTEST_MAIN(TestMainWindow)
#include "tst_gui_mainwindow.moc"

// Regression: a file named with U+202E and ESC showed as a reversed tab title, and a model
// name with U+202E reversed the record table's Summary cell.
void TestMainWindow::hostileFileNameAndSummaryAreEscaped() {
    QTemporaryDir dir;
    lmct::test::Mp args;
    args.map(1).str("keys").arr(1).raw(lmct::test::objectKey(1, 33554944,
                                                             "Qwen\xe2\x80\xae"
                                                             "8B"));
    QByteArray b = lmct::test::frame(lmct::test::headerBody());
    b += lmct::test::frame(lmct::test::recordBody(
        0.1, 1.7e9, lmct::test::storageQualname("reserve_write"), args.bytes));
    const QString name = QStringLiteral("name\u202eevil\x1b[31m.lct");
    const QString path = lmct::test::writeFile(dir, name, b);
    QVERIFY(!path.isEmpty());
    MainWindow w;
    TraceTab *tab = lmct::test::showAndOpen(w, path);
    QVERIFY(tab && tab->document());
    const QString title = w.tabWidget()->tabText(w.tabWidget()->indexOf(tab));
    QCOMPARE(title, QStringLiteral("name\\u{202e}evil\\x1b[31m.lct"));
    QVERIFY(!w.windowTitle().contains(QChar(0x202e)));
    const QString summary =
        tab->table()->model()->index(0, RecordTableModel::SummaryColumn).data().toString();
    QVERIFY2(
        summary.contains(QStringLiteral("Qwen\\u{202e}8B")) && !summary.contains(QChar(0x202e)),
        qPrintable(summary));
}
