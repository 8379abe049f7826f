// Widget tests of filtering, following, searching and statistics: the filter bar (errors,
// evaluation off the GUI thread, counts), Filter to this / Exclude this from the inspector,
// Follow this key with `.`/`,`, the find bar's N of M counter, the statistics pane and the
// inspector's Copy Record as JSON and Frame dump, the context menus' entries for every key of a
// record (FilterMenuBuilder), and the last filter remembered per file (FilterMemory).

#include "codec/qualname.h"
#include "codec/valueformatter.h"
#include "itemmodels/argumenttree.h"
#include "itemmodels/inspectortreemodel.h"
#include "itemmodels/statisticstablemodel.h"
#include "msgpack/framedump.h"
#include "panes/inspectorpane.h"
#include "panes/statisticspane.h"
#include "records/decoratedrecordtablemodel.h"
#include "records/filterbar.h"
#include "records/filtercomposer.h"
#include "records/filtermemory.h"
#include "records/filtermenubuilder.h"
#include "records/findbar.h"
#include "records/recordtableview.h"
#include "shell/mainwindow.h"
#include "shell/tracetab.h"
#include "testutil.h"
#include "trace/traceloader.h"
#include "viewstate.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <algorithm>
#include <functional>

using namespace lmct;

namespace {

const QString kTraces = QFileInfo(QStringLiteral(LMCT_TRACES)).absoluteFilePath();
const QString kSchema2 = kTraces + QStringLiteral("/schema2-prefetch-spec-tp2.lct");

/** Raises the dock that holds `view` (its tab may be behind another dock's). */
void raiseDockOf(QWidget *view) {
    for (QWidget *p = view; p; p = p->parentWidget()) {
        if (auto *dock = qobject_cast<QDockWidget *>(p)) {
            dock->raise();
            QApplication::processEvents();
            return;
        }
    }
}

/** Waits until the tab's filter is evaluated and shown. */
bool waitFilter(TraceTab *tab) {
    return QTest::qWaitFor(
        [tab] { return !tab->viewState()->filterPending() && !tab->filterBar()->isBusy(); }, 30000);
}

int countIf(const TraceDocument &doc, const std::function<bool(int)> &pred) {
    int n = 0;
    for (int i = 0; i < doc.records().size(); ++i) {
        n += pred(i) ? 1 : 0;
    }
    return n;
}

/** Whether any node named `name` in record `rec`'s argument tree satisfies `pred`. */
bool anyNode(const TraceDocument &doc, int rec, const QString &name,
             const std::function<bool(const Value &)> &pred) {
    const auto args = doc.args(rec);
    const auto root = ArgumentTree::build(args->value);
    std::function<bool(const TreeNode *)> walk = [&](const TreeNode *n) {
        if (n->name == name && n->source && pred(*n->source)) {
            return true;
        }
        for (const auto &c : n->children) {
            if (walk(c.get())) {
                return true;
            }
        }
        return false;
    };
    return walk(root.get());
}

int firstRecordOf(const TraceDocument &doc, const QString &call) {
    for (int i = 0; i < doc.records().size(); ++i) {
        if (Qualname::shortName(doc.records().qualname(i)) == call) {
            return i;
        }
    }
    return -1;
}

/** The hex chunk hash of testutil's objectKey(seed). */
QString seedHex(int seed) {
    return QString::fromLatin1(lmct::test::chunkHash(seed).toHex());
}

/**
 * Writes `name` in `dir`: a trace whose record 0 is a reserve_write naming `keys` ObjectKeys
 * (seeds 0 .. keys-1), then a finish_write naming one other key (seed 1000). Returns its path.
 */
QString writeKeysTrace(const QTemporaryDir &dir, const QString &name, int keys) {
    using namespace lmct::test;
    QByteArray bytes = frame(headerBody());
    bytes += frame(
        recordBody(0.001, 1760000000.251, storageQualname("reserve_write"), keysArgs(keys, 0)));
    bytes += frame(
        recordBody(0.002, 1760000000.252, storageQualname("finish_write"), keysArgs(1, 1000)));
    return writeFile(dir, name, bytes);
}

/** The submenu of `menu` titled `title`, or nullptr. */
QMenu *submenu(QMenu *menu, const QString &title) {
    for (QAction *a : menu->actions()) {
        if (a->menu() && a->text() == title) {
            return a->menu();
        }
    }
    return nullptr;
}

/** The conditions (data()) of the plain actions of `menu`, in menu order. */
QStringList conditionsOf(QMenu *menu) {
    QStringList out;
    for (QAction *a : menu->actions()) {
        if (!a->menu() && !a->isSeparator() && !a->data().toString().isEmpty()) {
            out << a->data().toString();
        }
    }
    return out;
}

/** Every condition under `menu`, submenus included. */
QStringList allConditions(QMenu *menu) {
    QStringList out = conditionsOf(menu);
    for (QAction *a : menu->actions()) {
        if (a->menu()) {
            out += allConditions(a->menu());
        }
    }
    return out;
}

/** A shown StatisticsPane on a ViewState of `doc` (members: destroyed pane first). */
struct StatisticsOf {
    explicit StatisticsOf(std::shared_ptr<TraceDocument> doc) {
        state.setDocument(std::move(doc));
        pane.show();
        pane.setViewState(&state);
    }
    ViewState state;
    StatisticsPane pane;
};

}  // namespace

class TestFilter : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void invalidFilterShowsErrorAndKeepsTable();
    void validFilterShowsIndependentCount();
    void filterIntersectsTimeRange();
    void historyAndSavedFilters();
    void savedFiltersButtonSaysWhatItIs();
    void inspectorFilterToThisAndExclude();
    void followKeyStepsWithPeriodAndComma();
    void findBarCountsAndSteps();
    void statisticsPaneMatchesModelAndClickFilters();
    void statisticsWaitWhileHidden();
    void statisticsWaitForTheLoadToFinish();
    void statisticsOfAFollowedTraceDoNotWait();
    void statisticsSayWhenArgumentsCouldNotBeRead();
    void copyRecordAsJsonParsesBack();
    void frameDumpAnnotatesFields();
    void composerAppendsWithParentheses();
    void tableMenuFiltersToCallAndKeys();
    void tableMenuOffersEveryKey();
    void menuCapsValuesWithAnyOf();
    void inspectorMenuMatchesTableMenu();
    void lastFilterRestoredPerFile();
    void clearedOrInvalidFilterIsForgotten();
    void filterMemoryKeepsMostRecentFiles();
};

void TestFilter::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("lmct-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_gui_filter"));
    QVERIFY2(QFileInfo::exists(kSchema2), qPrintable(kSchema2));
}

void TestFilter::init() {
    QSettings().clear();
}

void TestFilter::invalidFilterShowsErrorAndKeepsTable() {
    MainWindow w;
    TraceTab *tab = test::showAndOpen(w, kSchema2);
    QVERIFY(tab);
    const int rows = tab->table()->model()->rowCount();
    QCOMPARE(rows, tab->document()->records().size());
    QLineEdit *edit = tab->filterBar()->lineEdit();
    QTest::keyClicks(edit, QStringLiteral("model_name =="));
    QVERIFY(!tab->filterBar()->isTextValid());
    QVERIFY2(tab->filterBar()->statusText().startsWith(QStringLiteral("column 14")),
             qPrintable(tab->filterBar()->statusText()));
    QTest::keyClick(edit, Qt::Key_Return);
    QCOMPARE(tab->viewState()->filterText(), QString());
    QVERIFY(!tab->viewState()->filterRecords());
    QCOMPARE(tab->table()->model()->rowCount(), rows);
}

void TestFilter::validFilterShowsIndependentCount() {
    MainWindow w;
    TraceTab *tab = test::showAndOpen(w, kSchema2);
    QVERIFY(tab);
    const auto doc = tab->document();
    QAbstractItemModelTester tester(tab->table()->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    const int expected = countIf(*doc, [&](int i) {
        return Qualname::shortName(doc->records().qualname(i)) == QLatin1String("reserve_write");
    });
    QVERIFY(expected > 0 && expected < doc->records().size());
    QLineEdit *edit = tab->filterBar()->lineEdit();
    QTest::keyClicks(edit, QStringLiteral("call == reserve_write"));
    QVERIFY(tab->filterBar()->isTextValid());
    // Typing alone does not apply.
    QCOMPARE(tab->viewState()->filterText(), QString());
    QTest::keyClick(edit, Qt::Key_Return);
    QVERIFY(waitFilter(tab));
    QCOMPARE(tab->viewState()->filterText(), QStringLiteral("call == reserve_write"));
    QCOMPARE(int(tab->viewState()->filterRecords()->size()), expected);
    QCOMPARE(tab->table()->model()->rowCount(), expected);
    QVERIFY2(
        tab->filterBar()->statusText().startsWith(QLocale().toString(expected) + QLatin1Char(' ')),
        qPrintable(tab->filterBar()->statusText()));
    for (int r = 0; r < expected; ++r) {
        const int rec = tab->table()->recordModel()->recordAt(r);
        QCOMPARE(Qualname::shortName(doc->records().qualname(rec)),
                 QStringLiteral("reserve_write"));
    }
    // Clearing the text clears the filter.
    edit->clear();
    QVERIFY(waitFilter(tab));
    QCOMPARE(tab->viewState()->filterText(), QString());
    QCOMPARE(tab->table()->model()->rowCount(), doc->records().size());
}

void TestFilter::filterIntersectsTimeRange() {
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab);
    const auto doc = tab->document();
    const RecordStore &rs = doc->records();
    const double mid = rs.maxTMono() / 2.0;
    tab->viewState()->setTimeRange(ViewState::TimeRange{0.0, mid});
    tab->viewState()->setFilterText(QStringLiteral("call != reserve_write"));
    QVERIFY(waitFilter(tab));
    const int expected = countIf(*doc, [&](int i) {
        return Qualname::shortName(rs.qualname(i)) != QLatin1String("reserve_write") &&
               rs.tMono(i) >= 0.0 && rs.tMono(i) <= mid;
    });
    QVERIFY(QTest::qWaitFor([&] { return tab->table()->model()->rowCount() == expected; }, 5000));
    // The filter bar shows what the ViewState holds.
    QCOMPARE(tab->filterBar()->lineEdit()->text(), QStringLiteral("call != reserve_write"));
}

void TestFilter::historyAndSavedFilters() {
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab);
    QLineEdit *edit = tab->filterBar()->lineEdit();
    edit->setText(QStringLiteral("call == finish_write"));
    QVERIFY(tab->filterBar()->apply());
    QVERIFY(waitFilter(tab));
    edit->setText(QStringLiteral("index < 10"));
    QVERIFY(tab->filterBar()->apply());
    QVERIFY(waitFilter(tab));
    QCOMPARE(FilterBar::history(),
             QStringList({QStringLiteral("call == finish_write"), QStringLiteral("index < 10")}));
    edit->clear();
    QTest::keyClick(edit, Qt::Key_Up);
    QCOMPARE(edit->text(), QStringLiteral("index < 10"));
    QTest::keyClick(edit, Qt::Key_Up);
    QCOMPARE(edit->text(), QStringLiteral("call == finish_write"));
    QTest::keyClick(edit, Qt::Key_Down);
    QCOMPARE(edit->text(), QStringLiteral("index < 10"));
    FilterBar::setSavedFilters({QStringLiteral("rank == 1")});
    QCOMPARE(FilterBar::savedFilters(), QStringList({QStringLiteral("rank == 1")}));
}

void TestFilter::savedFiltersButtonSaysWhatItIs() {
    // "Saved" beside the filter read as a state ("this filter is saved") and stayed so while
    // the filter was invalid: it is the saved filters' menu button, and says so.
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab);
    auto *saved = tab->filterBar()->findChild<QToolButton *>(QStringLiteral("savedFilters"));
    QVERIFY(saved);
    QCOMPARE(saved->text(), QStringLiteral("Saved Filters"));
    QVERIFY(saved->menu());
    QCOMPARE(saved->popupMode(), QToolButton::InstantPopup);  // drawn with a menu arrow
    QVERIFY(saved->toolTip().contains(QStringLiteral("every trace")));
    QVERIFY(!saved->toolTip().contains(QStringLiteral("not valid")));
    QLineEdit *edit = tab->filterBar()->lineEdit();
    edit->setFocus();
    QTest::keyClicks(edit, QStringLiteral("call =="));  // invalid: no value
    QVERIFY(saved->toolTip().contains(QStringLiteral("not valid")));
    emit saved->menu()->aboutToShow();
    const QList<QAction *> actions = saved->menu()->actions();
    QVERIFY(!actions.isEmpty());
    QCOMPARE(actions.first()->text(), QStringLiteral("Save Current Filter"));
    QVERIFY(!actions.first()->isEnabled());
    edit->clear();
    QTest::keyClicks(edit, QStringLiteral("index < 10"));
    QVERIFY(!saved->toolTip().contains(QStringLiteral("not valid")));
    emit saved->menu()->aboutToShow();
    QVERIFY(saved->menu()->actions().first()->isEnabled());
}

void TestFilter::inspectorFilterToThisAndExclude() {
    MainWindow w;
    TraceTab *tab = test::showAndOpen(w, kSchema2);
    QVERIFY(tab);
    const auto doc = tab->document();
    const int rec = firstRecordOf(*doc, QStringLiteral("reserve_write"));
    QVERIFY(rec >= 0);
    tab->viewState()->setSelectedRecord(rec);
    InspectorPane *insp = w.inspectorPane();
    QVERIFY(QTest::qWaitFor([&] { return insp->record() == rec; }, 5000));

    const QModelIndexList hashes = insp->model()->findByName(QStringLiteral("chunk_hash"));
    QVERIFY(!hashes.isEmpty());
    const QString hex = hashes.first().data(InspectorTreeModel::CopyTextRole).toString();
    QCOMPARE(insp->conditionAt(hashes.first(), false), QStringLiteral("chunk_hash == ") + hex);
    QCOMPARE(insp->conditionAt(hashes.first(), true), QStringLiteral("chunk_hash != ") + hex);
    const QByteArray hashBytes = QByteArray::fromHex(hex.toLatin1());
    const int withHash = countIf(*doc, [&](int i) {
        return anyNode(*doc, i, QStringLiteral("chunk_hash"),
                       [&](const Value &v) { return v.isBytes() && v.toBytes() == hashBytes; });
    });
    QVERIFY(withHash > 0);
    QVERIFY(insp->filterToRow(hashes.first(), false));
    QVERIFY(waitFilter(tab));
    QCOMPARE(tab->table()->model()->rowCount(), withHash);

    // Exclude on model_name, appended with &&.
    tab->viewState()->setFilterText(QString());
    tab->viewState()->setSelectedRecord(rec);
    QVERIFY(QTest::qWaitFor([&] { return insp->record() == rec; }, 5000));
    const QModelIndexList models = insp->model()->findByName(QStringLiteral("model_name"));
    QVERIFY(!models.isEmpty());
    const QString model =
        insp->model()->node(models.first().siblingAtColumn(0))->source->toString();
    QCOMPARE(insp->conditionAt(models.first(), false),
             QStringLiteral("model_name == \"%1\"").arg(model));
    QVERIFY(insp->filterToRow(models.first(), true));
    QVERIFY(waitFilter(tab));
    QCOMPARE(tab->viewState()->filterText(), QStringLiteral("model_name != \"%1\"").arg(model));
    const int withModel = countIf(*doc, [&](int i) {
        return anyNode(*doc, i, QStringLiteral("model_name"),
                       [&](const Value &v) { return v.isString() && v.toString() == model; });
    });
    QCOMPARE(tab->table()->model()->rowCount(), doc->records().size() - withModel);

    // Filter to this appends to an existing filter.
    tab->viewState()->setFilterText(QStringLiteral("call == reserve_write"));
    QVERIFY(waitFilter(tab));
    tab->viewState()->setSelectedRecord(rec);
    QVERIFY(QTest::qWaitFor([&] { return insp->record() == rec; }, 5000));
    const QModelIndex hash = insp->model()->findByName(QStringLiteral("chunk_hash")).first();
    QVERIFY(insp->filterToRow(hash, false));
    QVERIFY(waitFilter(tab));
    QCOMPARE(tab->viewState()->filterText(),
             QStringLiteral("call == reserve_write && chunk_hash == ") + hex);
    const int both = countIf(*doc, [&](int i) {
        return Qualname::shortName(doc->records().qualname(i)) == QLatin1String("reserve_write") &&
               anyNode(*doc, i, QStringLiteral("chunk_hash"),
                       [&](const Value &v) { return v.isBytes() && v.toBytes() == hashBytes; });
    });
    QCOMPARE(tab->table()->model()->rowCount(), both);
}

void TestFilter::followKeyStepsWithPeriodAndComma() {
    MainWindow w;
    TraceTab *tab = test::showAndOpen(w, kSchema2);
    QVERIFY(tab);
    const auto doc = tab->document();
    const int rec = firstRecordOf(*doc, QStringLiteral("reserve_write"));
    tab->viewState()->setSelectedRecord(rec);
    InspectorPane *insp = w.inspectorPane();
    QVERIFY(QTest::qWaitFor([&] { return insp->record() == rec; }, 5000));
    const QModelIndex hash = insp->model()->findByName(QStringLiteral("chunk_hash")).first();
    QVERIFY(insp->followRow(hash));
    QVERIFY(tab->viewState()->followedKey().startsWith(QStringLiteral("chunk_hash == ")));
    QVERIFY(QTest::qWaitFor([&] { return tab->viewState()->followedRecords() != nullptr; }, 10000));
    const auto followed = tab->viewState()->followedRecords();
    const QByteArray hashBytes =
        QByteArray::fromHex(hash.data(InspectorTreeModel::CopyTextRole).toString().toLatin1());
    std::vector<int> expected;
    for (int i = 0; i < doc->records().size(); ++i) {
        if (anyNode(*doc, i, QStringLiteral("chunk_hash"),
                    [&](const Value &v) { return v.isBytes() && v.toBytes() == hashBytes; })) {
            expected.push_back(i);
        }
    }
    QCOMPARE(*followed, expected);
    QVERIFY(expected.size() >= 2);
    tab->viewState()->setSelectedRecord(expected.front());
    // Highlighted rows.
    auto *model = tab->table()->recordModel();
    QVERIFY(model->isFollowed(expected[1]));
    QVERIFY(model->data(model->index(model->rowOf(expected[1]), 0), Qt::BackgroundRole).isValid());

    RecordTableView *table = tab->table();
    table->setFocus();
    QTest::keyClick(table, Qt::Key_Period);
    QCOMPARE(tab->viewState()->selectedRecord(), expected[1]);
    QTest::keyClick(table, Qt::Key_Period);
    QCOMPARE(tab->viewState()->selectedRecord(), expected.size() > 2 ? expected[2] : expected[1]);
    QTest::keyClick(table, Qt::Key_Comma);
    QTest::keyClick(table, Qt::Key_Comma);
    QCOMPARE(tab->viewState()->selectedRecord(), expected[0]);
}

void TestFilter::findBarCountsAndSteps() {
    MainWindow w;
    TraceTab *tab = test::showAndOpen(w, kSchema2);
    QVERIFY(tab);
    const auto doc = tab->document();
    const int total = doc->records().size();
    const int m = countIf(*doc, [&](int i) {
        return Qualname::shortName(doc->records().qualname(i)) == QLatin1String("finish_write");
    });
    QVERIFY(m >= 2);
    FindBar *find = tab->findBar();
    QVERIFY(find->isHidden());
    QTest::keySequence(tab->table(), QKeySequence::Find);
    QVERIFY(find->isVisible());
    QSignalSpy searched(find, &FindBar::searched);
    find->lineEdit()->setText(QStringLiteral("call == finish_write"));
    find->search();
    QVERIFY(QTest::qWaitFor(
        [&] { return find->counterText().endsWith(QStringLiteral(" of %1").arg(m)); }, 10000));
    QCOMPARE(find->counterText(), QStringLiteral("1 of %1").arg(m));
    // Does not filter.
    QCOMPARE(tab->table()->model()->rowCount(), total);
    const int first = tab->viewState()->selectedRecord();
    QCOMPARE(Qualname::shortName(doc->records().qualname(first)), QStringLiteral("finish_write"));
    QTest::keyClick(find->lineEdit(), Qt::Key_Return);
    QCOMPARE(find->counterText(), QStringLiteral("2 of %1").arg(m));
    QVERIFY(tab->viewState()->selectedRecord() > first);
    QTest::keyClick(find->lineEdit(), Qt::Key_Return, Qt::ShiftModifier);
    QCOMPARE(find->counterText(), QStringLiteral("1 of %1").arg(m));
    QCOMPARE(tab->viewState()->selectedRecord(), first);

    // Plain text: searched in call and summary.
    tab->viewState()->setSelectedRecord(-1);
    find->lineEdit()->setText(QStringLiteral("FINISH_WRITE"));
    find->search();
    QVERIFY(QTest::qWaitFor(
        [&] {
            return find->counterText().endsWith(QStringLiteral(" of %1").arg(m)) ||
                   find->counterText().contains(QStringLiteral("of"));
        },
        10000));
    QVERIFY(find->matchCount() >= m);
    QTest::keyClick(find->lineEdit(), Qt::Key_Escape);
    QVERIFY(find->isHidden());
}

void TestFilter::statisticsPaneMatchesModelAndClickFilters() {
    MainWindow w;
    w.setShowDialogs(false);
    w.resize(1400, 900);
    w.show();
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab);
    const auto doc = tab->document();
    StatisticsPane *pane = w.statisticsPane();
    QVERIFY(pane);
    raiseDockOf(pane);  // (tabbed behind Diagnostics: computed only when shown)
    tab->viewState()->setFilterText(QStringLiteral("rank == 1"));
    QVERIFY(waitFilter(tab));
    QVERIFY(QTest::qWaitFor(
        [&] {
            return !pane->isBusy() && pane->statistics() &&
                   pane->statistics()->records == qint64(tab->viewState()->filterRecords()->size());
        },
        20000));
    QAbstractItemModelTester tester(pane->callsView()->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    TraceStatistics::Options o;
    const auto filter = tab->viewState()->filterRecords();
    o.subset = filter.get();
    auto expected = std::make_shared<const TraceStatistics>(TraceStatistics::compute(*doc, o));
    for (auto table : {StatisticsTableModel::Table::Calls, StatisticsTableModel::Table::Models,
                       StatisticsTableModel::Table::Ranks, StatisticsTableModel::Table::Salts}) {
        StatisticsTableModel ref(table);
        ref.setStatistics(expected);
        StatisticsTableModel *shown =
            table == StatisticsTableModel::Table::Calls    ? pane->callsModel()
            : table == StatisticsTableModel::Table::Models ? pane->modelsModel()
            : table == StatisticsTableModel::Table::Ranks  ? pane->ranksModel()
                                                           : pane->saltsModel();
        QCOMPARE(shown->rowCount(), ref.rowCount());
        for (int r = 0; r < ref.rowCount(); ++r) {
            for (int c = 0; c < ref.columnCount(); ++c) {
                QCOMPARE(shown->index(r, c).data().toString(), ref.index(r, c).data().toString());
            }
        }
    }
    // The totals row is last and stays last when sorted.
    QTableView *view = pane->callsView();
    const int n = view->model()->rowCount();
    QVERIFY(n >= 2);
    QVERIFY(view->model()->index(n - 1, 0).data(StatisticsTableModel::IsTotalRole).toBool());
    view->sortByColumn(1, Qt::DescendingOrder);
    QVERIFY(view->model()->index(n - 1, 0).data(StatisticsTableModel::IsTotalRole).toBool());
    view->sortByColumn(1, Qt::AscendingOrder);
    QVERIFY(view->model()->index(n - 1, 0).data(StatisticsTableModel::IsTotalRole).toBool());

    // Clicking a row sets the filter to that call.
    const QModelIndex row = view->model()->index(0, 0);
    const QString call = row.data().toString();
    view->scrollTo(row);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(row).center());
    QVERIFY(tab->viewState()->filterText().startsWith(QStringLiteral("call == ")));
    QVERIFY(tab->viewState()->filterText().contains(call));
    QVERIFY(waitFilter(tab));
    const int expectedRows = countIf(
        *doc, [&](int i) { return Qualname::shortName(doc->records().qualname(i)) == call; });
    QCOMPARE(tab->table()->model()->rowCount(), expectedRows);
}

void TestFilter::statisticsWaitWhileHidden() {
    // Regression: the pane, tabbed behind Diagnostics, decoded every record's arguments
    // again and again while a 10 M record trace loaded (400 MB and seconds of CPU per pass).
    MainWindow w;
    w.setShowDialogs(false);
    w.resize(1400, 900);
    w.show();
    w.diagnosticsDock()->raise();  // (the default: Statistics tabbed behind Diagnostics)
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab);
    StatisticsPane *pane = w.statisticsPane();
    QVERIFY(pane);
    tab->viewState()->setFilterText(QStringLiteral("rank == 1"));
    QVERIFY(waitFilter(tab));
    QTest::qWait(50);
    QVERIFY(!pane->isBusy());
    QVERIFY(!pane->statistics());
    raiseDockOf(pane);
    QVERIFY(QTest::qWaitFor([&] { return !pane->isBusy() && pane->statistics(); }, 20000));
    QCOMPARE(pane->statistics()->records, qint64(tab->viewState()->filterRecords()->size()));
}

void TestFilter::statisticsWaitForTheLoadToFinish() {
    // Statistics of a trace still being read would cover a fraction of it (and slowed the load).
    QString error;
    auto doc = TraceLoader::open(kSchema2, &error);  // header read, records not yet
    QVERIFY2(doc, qPrintable(error));
    QVERIFY(doc->isLoading());
    StatisticsOf shown(doc);
    ViewState &state = shown.state;
    StatisticsPane &pane = shown.pane;
    QVERIFY(pane.isWaitingForLoad());
    QVERIFY(!pane.isBusy());
    state.notifyDocumentGrew();  // still loading: still waiting
    QVERIFY(pane.isWaitingForLoad());
    QVERIFY(!pane.isBusy());
    TraceLoader::scan(doc.get());
    state.notifyDocumentGrew();  // (TraceTab's last notification when loading ends)
    QVERIFY(!pane.isWaitingForLoad());
    QVERIFY(QTest::qWaitFor([&] { return !pane.isBusy() && pane.statistics(); }, 20000));
    QCOMPARE(pane.statistics()->records, qint64(doc->records().size()));
}

void TestFilter::statisticsOfAFollowedTraceDoNotWait() {
    // Regression: following a trace written a record in two halves, the pane said "Waiting
    // for the trace to finish loading…" whenever half a record was pending (the scan offset
    // short of the file's end), most of the time. A followed trace read once is not loading.
    const lmct::test::SmallTrace t = lmct::test::smallTrace(5);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("live.lct"));
    QVERIFY(
        !lmct::test::writeFile(dir, QStringLiteral("live.lct"), t.bytes.left(t.frameEnds[2] + 7))
             .isEmpty());
    TraceLoadOptions opt;
    opt.follow = true;
    QString error;
    auto doc = TraceLoader::open(path, &error, opt);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 3);
    QVERIFY(doc->isLoading() && doc->scannedBytes() < doc->fileSize());  // half a record pending
    QVERIFY(doc->isReadToEnd());
    StatisticsOf shown(doc);
    ViewState &state = shown.state;
    StatisticsPane &pane = shown.pane;
    QVERIFY(!pane.isWaitingForLoad());
    QVERIFY(QTest::qWaitFor([&] { return !pane.isBusy() && pane.statistics(); }, 20000));
    QCOMPARE(pane.statistics()->records, qint64(3));
    state.notifyDocumentGrew();
    QVERIFY(!pane.isWaitingForLoad());
}

void TestFilter::statisticsSayWhenArgumentsCouldNotBeRead() {
    // Regression: after the file was cut short, the statistics counted the records whose
    // arguments were gone as records without keys, and said nothing.
    QByteArray b = lmct::test::frame(lmct::test::headerBody());
    b += lmct::test::frame(lmct::test::recordBody(
        0.1, 1.7e9, lmct::test::storageQualname("reserve_write"), lmct::test::keysArgs(1)));
    b += lmct::test::frame(lmct::test::recordBody(0.2, 1.7e9,
                                                  lmct::test::storageQualname("finish_write"),
                                                  QByteArray("\x81\xa4keys\xc1", 7)));
    QString error;
    ViewState state;
    state.setDocument(TraceLoader::loadBytes(b, QStringLiteral("bad-args.lct"), &error));
    QVERIFY2(state.document(), qPrintable(error));
    StatisticsPane pane;
    pane.show();
    pane.setViewState(&state);
    QVERIFY(QTest::qWaitFor([&] { return !pane.isBusy() && pane.statistics(); }, 20000));
    QCOMPARE(pane.statistics()->decodeErrors, qint64(1));
    auto *scope = pane.findChild<QLabel *>(QStringLiteral("statisticsScope"));
    QVERIFY(scope);
    QVERIFY2(scope->text().contains(QStringLiteral("the arguments of 1 records could not be read")),
             qPrintable(scope->text()));
}

void TestFilter::copyRecordAsJsonParsesBack() {
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab);
    const auto doc = tab->document();
    const int rec = firstRecordOf(*doc, QStringLiteral("submit_prefetch_task"));
    QVERIFY(rec >= 0);
    tab->viewState()->setSelectedRecord(rec);
    InspectorPane *insp = w.inspectorPane();
    QVERIFY(QTest::qWaitFor([&] { return insp->record() == rec; }, 5000));
    insp->copyRecordJson();
    QJsonParseError err;
    const QJsonDocument parsed =
        QJsonDocument::fromJson(QApplication::clipboard()->text().toUtf8(), &err);
    QCOMPARE(err.error, QJsonParseError::NoError);
    const QJsonObject o = parsed.object();
    QCOMPARE(o.value(QStringLiteral("index")).toInt(), rec);
    QCOMPARE(o.value(QStringLiteral("t_mono")).toDouble(), doc->records().tMono(rec));
    QCOMPARE(o.value(QStringLiteral("t_wall")).toDouble(), doc->records().tWall(rec));
    QCOMPARE(o.value(QStringLiteral("qualname")).toString(), doc->records().qualname(rec));
    QCOMPARE(o.value(QStringLiteral("args")), ValueFormatter::toJson(doc->args(rec)->value));
    QCOMPARE(QByteArray::fromHex(o.value(QStringLiteral("bytes")).toString().toLatin1()),
             doc->frameBytes(rec));
}

void TestFilter::frameDumpAnnotatesFields() {
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab);
    const auto doc = tab->document();
    tab->viewState()->setSelectedRecord(0);
    InspectorPane *insp = w.inspectorPane();
    QVERIFY(QTest::qWaitFor([&] { return insp->record() == 0; }, 5000));
    const QString text = insp->frameText();
    QVERIFY2(text.contains(
                 QStringLiteral("u32 big-endian length = %1").arg(doc->records().bodyLength(0))),
             qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("key \"t_mono\" (fixstr(6)) → float64")));
    QVERIFY(text.contains(QStringLiteral("key \"qualname\"")));
    QVERIFY(text.contains(QStringLiteral("key \"args\"")));
    QVERIFY(text.contains(QStringLiteral("|")));
    // Bounded for large frames.
    const QByteArray big(100000, 'x');
    const QString dump = FrameDump::hexLines(big, 0, 256);
    QCOMPARE(dump.count(QLatin1Char('\n')), 16);
    QVERIFY(dump.endsWith(QStringLiteral("99744 more bytes not shown")));
}

void TestFilter::composerAppendsWithParentheses() {
    QCOMPARE(FilterComposer::append(QString(), QStringLiteral("rank == 1")),
             QStringLiteral("rank == 1"));
    QCOMPARE(
        FilterComposer::append(QStringLiteral("a == 1 || b == 2"), QStringLiteral("rank == 1")),
        QStringLiteral("(a == 1 || b == 2) && rank == 1"));
    QCOMPARE(FilterComposer::condition(QStringLiteral("model_name"), QStringLiteral("a\"b")),
             QStringLiteral("model_name == \"a\\\"b\""));
}

void TestFilter::tableMenuFiltersToCallAndKeys() {
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = test::openAndWait(w, kSchema2);
    QVERIFY(tab);
    const auto doc = tab->document();
    const int rec = firstRecordOf(*doc, QStringLiteral("reserve_write"));
    QMenu menu;
    tab->table()->addFilterActions(&menu, rec);
    QMenu *to = nullptr;
    QMenu *follow = nullptr;
    for (QAction *a : menu.actions()) {
        if (a->menu() && a->text() == QStringLiteral("Filter to This")) {
            to = a->menu();
        }
        if (a->menu() && a->text() == QStringLiteral("Follow This Key")) {
            follow = a->menu();
        }
    }
    QVERIFY(to && follow);
    const QStringList texts = allConditions(to);
    QVERIFY2(texts.contains(QStringLiteral("call == reserve_write")), qPrintable(texts.join('|')));
    QVERIFY(std::any_of(texts.begin(), texts.end(), [](const QString &t) {
        return t.startsWith(QStringLiteral("chunk_hash == "));
    }));
    QVERIFY(std::any_of(texts.begin(), texts.end(), [](const QString &t) {
        return t.startsWith(QStringLiteral("model_name == \""));
    }));
    QVERIFY(std::any_of(texts.begin(), texts.end(),
                        [](const QString &t) { return t.startsWith(QStringLiteral("rank == ")); }));
    to->actions().first()->trigger();
    QVERIFY(waitFilter(tab));
    QCOMPARE(tab->viewState()->filterText(), QStringLiteral("call == reserve_write"));
    const int expected = countIf(*doc, [&](int i) {
        return Qualname::shortName(doc->records().qualname(i)) == QLatin1String("reserve_write");
    });
    QCOMPARE(tab->table()->model()->rowCount(), expected);
}

void TestFilter::tableMenuOffersEveryKey() {
    QTemporaryDir dir;
    const QString path = writeKeysTrace(dir, QStringLiteral("three.lct"), 3);
    QVERIFY(!path.isEmpty());
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = test::openAndWait(w, path);
    QVERIFY(tab);
    QMenu menu;
    tab->table()->addFilterActions(&menu, 0);
    QMenu *to = submenu(&menu, QStringLiteral("Filter to This"));
    QMenu *ex = submenu(&menu, QStringLiteral("Exclude This"));
    QMenu *follow = submenu(&menu, QStringLiteral("Follow This Key"));
    QVERIFY(to && ex && follow);

    // Three keys: three chunk hash entries, each its own hash; one model, one rank.
    QMenu *hashes = submenu(to, QStringLiteral("chunk_hash (3 values)"));
    QVERIFY(hashes);
    const QStringList expected = {QStringLiteral("chunk_hash == ") + seedHex(0),
                                  QStringLiteral("chunk_hash == ") + seedHex(1),
                                  QStringLiteral("chunk_hash == ") + seedHex(2)};
    QCOMPARE(conditionsOf(hashes), expected);
    const QStringList direct = conditionsOf(to);
    QVERIFY2(direct.contains(QStringLiteral("call == reserve_write")),
             qPrintable(direct.join('|')));
    QVERIFY(direct.contains(QStringLiteral("model_name == \"Qwen/Qwen3-8B\"")));
    QVERIFY(direct.contains(QStringLiteral("rank == 0")));
    QVERIFY(direct.contains(QStringLiteral("object_group_id == 0")));

    // Exclude gives the negations, Follow the key conditions.
    QCOMPARE(conditionsOf(submenu(ex, QStringLiteral("chunk_hash (3 values)"))),
             QStringList({QStringLiteral("chunk_hash != ") + seedHex(0),
                          QStringLiteral("chunk_hash != ") + seedHex(1),
                          QStringLiteral("chunk_hash != ") + seedHex(2)}));
    QCOMPARE(conditionsOf(submenu(follow, QStringLiteral("chunk_hash (3 values)"))), expected);
    // Follow offers keys only: no call, and no field of many keys (model, rank, group).
    QCOMPARE(allConditions(follow), expected);

    // The third hash filters to record 0 only; excluding it keeps record 1 only.
    hashes->actions().at(2)->trigger();
    QVERIFY(waitFilter(tab));
    QCOMPARE(tab->viewState()->filterText(), expected.at(2));
    QCOMPARE(tab->table()->model()->rowCount(), 1);
    tab->viewState()->setFilterText(QString());
    QMenu menu2;
    tab->table()->addFilterActions(&menu2, 0);
    submenu(submenu(&menu2, QStringLiteral("Exclude This")),
            QStringLiteral("chunk_hash (3 values)"))
        ->actions()
        .at(1)
        ->trigger();
    QVERIFY(waitFilter(tab));
    QCOMPARE(tab->viewState()->filterText(), QStringLiteral("chunk_hash != ") + seedHex(1));
    QCOMPARE(tab->table()->model()->rowCount(), 1);
    QCOMPARE(tab->table()->recordModel()->recordAt(0), 1);
}

void TestFilter::menuCapsValuesWithAnyOf() {
    const int n = FilterMenuBuilder::valueCap() + 5;
    QTemporaryDir dir;
    const QString path = writeKeysTrace(dir, QStringLiteral("many.lct"), n);
    QVERIFY(!path.isEmpty());
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = test::openAndWait(w, path);
    QVERIFY(tab);
    QMenu menu;
    tab->table()->addFilterActions(&menu, 0);
    const QString title = QStringLiteral("chunk_hash (%1 values)").arg(n);
    QMenu *to = submenu(submenu(&menu, QStringLiteral("Filter to This")), title);
    QMenu *ex = submenu(submenu(&menu, QStringLiteral("Exclude This")), title);
    QVERIFY(to && ex);
    QStringList all;
    for (int i = 0; i < n; ++i) {
        all << seedHex(i);
    }
    const QString anyOf = QStringLiteral("chunk_hash in [%1]").arg(all.join(QStringLiteral(", ")));
    const QStringList conds = conditionsOf(to);
    QCOMPARE(conds.size(), FilterMenuBuilder::valueCap() + 1);  // the cap, then "5 more…"
    QCOMPARE(conds.at(FilterMenuBuilder::valueCap() - 1),
             QStringLiteral("chunk_hash == ") + seedHex(FilterMenuBuilder::valueCap() - 1));
    QCOMPARE(conds.last(), anyOf);
    QVERIFY(to->actions().last()->text().startsWith(QStringLiteral("5 more…")));
    QCOMPARE(conditionsOf(ex).last(), QStringLiteral("!(%1)").arg(anyOf));

    to->actions().last()->trigger();
    QVERIFY(waitFilter(tab));
    QCOMPARE(tab->viewState()->filterText(), anyOf);
    QCOMPARE(tab->table()->model()->rowCount(), 1);
    ex->actions().last()->trigger();  // appended: nothing is left
    QVERIFY(waitFilter(tab));
    QCOMPARE(tab->viewState()->filterText(), anyOf + QStringLiteral(" && !(") + anyOf + ')');
    QCOMPARE(tab->table()->model()->rowCount(), 0);
}

void TestFilter::inspectorMenuMatchesTableMenu() {
    QTemporaryDir dir;
    const QString path = writeKeysTrace(dir, QStringLiteral("three.lct"), 3);
    MainWindow w;
    TraceTab *tab = test::showAndOpen(w, path);
    QVERIFY(tab);
    tab->viewState()->setSelectedRecord(0);
    InspectorPane *insp = w.inspectorPane();
    QVERIFY(QTest::qWaitFor([&] { return insp->record() == 0; }, 5000));

    // On the `keys` row: every key's values, as the table offers them (less the call).
    const QModelIndexList keys = insp->model()->findByName(QStringLiteral("keys"));
    QVERIFY(!keys.isEmpty());
    QMenu inspMenu;
    insp->addFilterActions(&inspMenu, keys.first());
    QMenu tableMenu;
    tab->table()->addFilterActions(&tableMenu, 0);
    for (const QString &title : {QStringLiteral("Filter to This"), QStringLiteral("Exclude This"),
                                 QStringLiteral("Follow This Key")}) {
        QMenu *a = submenu(&inspMenu, title);
        QMenu *b = submenu(&tableMenu, title);
        QVERIFY2(a && b, qPrintable(title));
        QStringList fromTable = allConditions(b);
        fromTable.removeIf([](const QString &c) { return c.startsWith(QStringLiteral("call ")); });
        QCOMPARE(allConditions(a), fromTable);
    }

    // On a model row: filter and exclude, nothing to follow.
    const QModelIndexList models = insp->model()->findByName(QStringLiteral("model_name"));
    QVERIFY(!models.isEmpty());
    QMenu modelMenu;
    insp->addFilterActions(&modelMenu, models.first());
    QStringList entries;
    for (QAction *a : modelMenu.actions()) {
        if (!a->isSeparator()) {
            entries << a->text();
        }
    }
    QCOMPARE(entries.size(), 2);
    QVERIFY2(entries.at(0).startsWith(QStringLiteral("Filter to This: model_name")),
             qPrintable(entries.join('|')));
    QVERIFY2(entries.at(1).startsWith(QStringLiteral("Exclude This: model_name")),
             qPrintable(entries.join('|')));

    // On one chunk hash row: plain entries for that hash.
    const QModelIndexList hashes = insp->model()->findByName(QStringLiteral("chunk_hash"));
    QCOMPARE(hashes.size(), 3);
    QMenu one;
    insp->addFilterActions(&one, hashes.at(1));
    QCOMPARE(conditionsOf(&one), QStringList({QStringLiteral("chunk_hash == ") + seedHex(1),
                                              QStringLiteral("chunk_hash != ") + seedHex(1),
                                              QStringLiteral("chunk_hash == ") + seedHex(1)}));
    QCOMPARE(one.actions().first()->text(),
             QStringLiteral("Filter to This: chunk_hash == ") + seedHex(1));
    one.actions().first()->trigger();
    QVERIFY(waitFilter(tab));
    QCOMPARE(tab->table()->model()->rowCount(), 1);
}

void TestFilter::lastFilterRestoredPerFile() {
    QTemporaryDir dir;
    const QString a = writeKeysTrace(dir, QStringLiteral("a.lct"), 3);
    const QString b = writeKeysTrace(dir, QStringLiteral("b.lct"), 2);
    QVERIFY(!a.isEmpty() && !b.isEmpty());
    const QString filter = QStringLiteral("call == finish_write");
    {
        MainWindow w;
        w.setShowDialogs(false);
        TraceTab *tab = test::openAndWait(w, a);
        QVERIFY(tab);
        QCOMPARE(tab->table()->model()->rowCount(), 2);
        tab->filterBar()->lineEdit()->setText(filter);
        QVERIFY(tab->filterBar()->apply());
        QVERIFY(waitFilter(tab));
        QCOMPARE(tab->table()->model()->rowCount(), 1);
        QVERIFY(test::openAndWait(w, b));
        QCOMPARE(w.tabCount(), 2);
        w.closeTab(0);
    }
    QCOMPARE(FilterMemory::filterFor(a), filter);
    QVERIFY(FilterMemory::filterFor(b).isEmpty());

    MainWindow w;
    w.setShowDialogs(false);
    // Another name of the same file (a symbolic link) finds the same entry (canonical path).
    const QString other = QDir(dir.path()).filePath(QStringLiteral("link-to-a.lct"));
    QVERIFY(QFile::link(a, other));
    TraceTab *tab = test::openAndWait(w, other);
    QVERIFY(tab);
    QVERIFY(waitFilter(tab));
    QCOMPARE(tab->viewState()->filterText(), filter);
    QCOMPARE(tab->filterBar()->lineEdit()->text(), filter);
    QCOMPARE(tab->table()->model()->rowCount(), 1);
    QCOMPARE(tab->table()->recordModel()->recordAt(0), 1);
    // ... and says so (a restored filter was not announced; the table looked whole)
    QVERIFY2(tab->filterBar()->statusText().contains(QStringLiteral("filter restored")),
             qPrintable(tab->filterBar()->statusText()));
    tab->filterBar()->lineEdit()->setText(QStringLiteral("call == reserve_write"));
    QVERIFY(tab->filterBar()->apply());
    QVERIFY(waitFilter(tab));
    QVERIFY2(!tab->filterBar()->statusText().contains(QStringLiteral("restored")),
             qPrintable(tab->filterBar()->statusText()));
    tab->filterBar()->lineEdit()->setText(filter);
    QVERIFY(tab->filterBar()->apply());
    QVERIFY(waitFilter(tab));
    QVERIFY(!tab->filterBar()->statusText().contains(QStringLiteral("restored")));

    // The other file is unaffected.
    TraceTab *tabB = test::openAndWait(w, b);
    QVERIFY(tabB && tabB != tab);
    QVERIFY(waitFilter(tabB));
    QVERIFY(tabB->viewState()->filterText().isEmpty());
    QVERIFY(tabB->filterBar()->lineEdit()->text().isEmpty());
    QCOMPARE(tabB->table()->model()->rowCount(), 2);
}

void TestFilter::clearedOrInvalidFilterIsForgotten() {
    QTemporaryDir dir;
    const QString a = writeKeysTrace(dir, QStringLiteral("a.lct"), 1);
    {
        MainWindow w;
        w.setShowDialogs(false);
        TraceTab *tab = test::openAndWait(w, a);
        QVERIFY(tab);
        tab->viewState()->setFilterText(QStringLiteral("rank == 0"));
        QVERIFY(waitFilter(tab));
        QCOMPARE(FilterMemory::filterFor(a), QStringLiteral("rank == 0"));
        tab->filterBar()->lineEdit()->clear();  // the clear button clears the filter
        QVERIFY(waitFilter(tab));
        QVERIFY(tab->viewState()->filterText().isEmpty());
        QVERIFY(FilterMemory::filterFor(a).isEmpty());
    }
    // An invalid filter is not remembered, and forgets what was.
    FilterMemory::remember(a, QStringLiteral("rank == 1"));
    FilterMemory::remember(a, QStringLiteral("rank =="));
    QVERIFY(FilterMemory::filterFor(a).isEmpty());

    // A remembered filter that no longer parses is dropped on opening, not applied.
    {
        QSettings s;
        s.beginWriteArray(QStringLiteral("filter/lastPerFile"), 1);
        s.setArrayIndex(0);
        s.setValue(QStringLiteral("file"), FilterMemory::fileKey(a));
        s.setValue(QStringLiteral("filter"), QStringLiteral("rank == == 1"));
        s.endArray();
    }
    QCOMPARE(FilterMemory::filterFor(a), QStringLiteral("rank == == 1"));
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = test::openAndWait(w, a);
    QVERIFY(tab);
    QVERIFY(tab->viewState()->filterText().isEmpty());
    QCOMPARE(tab->table()->model()->rowCount(), 2);
    QVERIFY(FilterMemory::filterFor(a).isEmpty());
}

void TestFilter::filterMemoryKeepsMostRecentFiles() {
    const int cap = FilterMemory::maxCount();
    auto file = [](int i) { return QStringLiteral("/nonexistent-lmct/f%1.lct").arg(i); };
    for (int i = 0; i <= cap; ++i) {
        FilterMemory::remember(file(i), QStringLiteral("rank == %1").arg(i % 4));
    }
    QCOMPARE(FilterMemory::files().size(), cap);
    QVERIFY(FilterMemory::filterFor(file(0)).isEmpty());  // the oldest was dropped
    QCOMPARE(FilterMemory::filterFor(file(1)), QStringLiteral("rank == 1"));
    QCOMPARE(FilterMemory::files().first(), file(cap));
    // Using an old entry again makes it the most recent: the next drop takes file 2.
    FilterMemory::remember(file(1), QStringLiteral("rank == 3"));
    FilterMemory::remember(file(cap + 1), QStringLiteral("rank == 2"));
    QCOMPARE(FilterMemory::files().size(), cap);
    QCOMPARE(FilterMemory::filterFor(file(1)), QStringLiteral("rank == 3"));
    QVERIFY(FilterMemory::filterFor(file(2)).isEmpty());
}

QTEST_MAIN(TestFilter)
#include "tst_gui_filter.moc"
