#include "shell/combinedtab.h"

#include "common/jobpool.h"
#include "deploymentlink.h"
#include "filter/filterexpression.h"
#include "itemmodels/combinedrecordtablemodel.h"
#include "panes/combinedcacheview.h"
#include "panes/combinedstatisticsview.h"
#include "records/combinedfilterbar.h"
#include "records/combinedrecordview.h"
#include "shell/deploymenttimelines.h"
#include "shell/lanegroupview.h"
#include "shell/traceloadjob.h"
#include "shell/traceoffsetsdialog.h"
#include "timeline/timelineactions.h"
#include "timeline/timelinewidget.h"
#include "util/terminaltext.h"
#include "viewstate.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

constexpr int kGrowMs = 250;  // the merge catches up with growing documents this often

struct Merged {
    std::shared_ptr<const MergedOrder> order;
    quint64 revision = 0;
    std::shared_ptr<const std::vector<qint64>> rows;  // the filter's rows in it, or null
};

struct Filtered {
    TraceSetFilter::Result result;
    qint64 total = 0;
};

}  // namespace

CombinedTab::CombinedTab(QWidget *parent)
    : QWidget(parent),
      m_link(new DeploymentLink(this)),
      m_model(new CombinedRecordTableModel(this)) {
    auto *v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    v->setSpacing(4);

    auto *bar = new QHBoxLayout;
    m_status = new QLabel;
    m_status->setTextFormat(Qt::PlainText);
    bar->addWidget(m_status, 1);
    m_progress = new QProgressBar;
    m_progress->setRange(0, 0);
    m_progress->setMaximumWidth(200);
    m_progress->setMaximumHeight(14);
    m_progress->setTextVisible(false);
    m_progress->hide();
    bar->addWidget(m_progress);
    m_stopFollow = new QPushButton(tr("Stop Following"));
    m_stopFollow->hide();
    connect(m_stopFollow, &QPushButton::clicked, this, &CombinedTab::stopFollowing);
    bar->addWidget(m_stopFollow);
    bar->addWidget(new QLabel(tr("Group lanes:")));
    m_groupBox = new QComboBox;
    m_groupBox->setObjectName(QStringLiteral("groupLanes"));
    for (const LaneGrouping::By by : LaneGrouping::all()) {
        if (by != LaneGrouping::By::None) {
            m_groupBox->addItem(tr("by %1").arg(LaneGrouping::name(by).toLower()), int(by));
        }
    }
    m_groupBox->setEnabled(false);
    connect(m_groupBox, &QComboBox::activated, this,
            [this](int i) { setGrouping(LaneGrouping::By(m_groupBox->itemData(i).toInt())); });
    bar->addWidget(m_groupBox);
    bar->addWidget(new QLabel(tr("Docks show:")));
    m_docks = new QComboBox;
    m_docks->setObjectName(QStringLiteral("docksChooser"));
    m_docks->setToolTip(
        tr("The trace whose Inspector, Header, Diagnostics, Statistics and Cache Behaviour the "
           "docks show (also set by selecting one of its records)"));
    m_docks->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_docks->setEnabled(false);
    connect(m_docks, &QComboBox::activated, this, [this](int t) { m_link->setCurrentTrace(t); });
    bar->addWidget(m_docks);
    m_offsetsButton = new QPushButton(tr("Offsets…"));
    m_offsetsButton->setToolTip(tr("Each trace's clock offset on the common t_wall axis"));
    m_offsetsButton->setEnabled(false);
    connect(m_offsetsButton, &QPushButton::clicked, this, &CombinedTab::showOffsetsDialog);
    bar->addWidget(m_offsetsButton);
    v->addLayout(bar);

    m_warning = new QLabel;
    m_warning->setObjectName(QStringLiteral("combinedWarning"));
    m_warning->setTextFormat(Qt::PlainText);
    m_warning->setWordWrap(true);
    m_warning->setAutoFillBackground(true);
    m_warning->setBackgroundRole(QPalette::ToolTipBase);
    m_warning->setForegroundRole(QPalette::ToolTipText);
    m_warning->setContentsMargins(8, 3, 8, 3);
    m_warning->hide();
    v->addWidget(m_warning);

    auto *split = new QSplitter(Qt::Vertical);
    m_timelines = new DeploymentTimelines;
    m_groupView = new LaneGroupView;
    m_lanes = new QStackedWidget;
    for (QWidget *w : {static_cast<QWidget *>(m_timelines), static_cast<QWidget *>(m_groupView)}) {
        auto *scroll = new QScrollArea;
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidgetResizable(true);
        scroll->setWidget(w);
        m_lanes->addWidget(scroll);
    }
    split->addWidget(m_lanes);

    auto *records = new QWidget;
    auto *rl = new QVBoxLayout(records);
    rl->setContentsMargins(0, 0, 0, 0);
    rl->setSpacing(0);
    m_filterBar = new CombinedFilterBar;
    rl->addWidget(m_filterBar);
    m_table = new CombinedRecordView(m_model);
    rl->addWidget(m_table, 1);
    m_bottom = new QTabWidget;
    m_bottom->setDocumentMode(true);
    m_bottom->addTab(records, tr("Records"));
    m_stats = new CombinedStatisticsView;
    connect(m_stats, &CombinedStatisticsView::ready, this, &CombinedTab::statisticsReady);
    m_bottom->addTab(m_stats, tr("Statistics"));
    m_cache = new CombinedCacheView;
    m_bottom->addTab(m_cache, tr("Cache Behaviour"));
    split->addWidget(m_bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({3000, 2000});
    v->addWidget(split, 1);

    connect(m_filterBar, &CombinedFilterBar::applyRequested, this, &CombinedTab::applyFilter);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &CombinedTab::onRowSelected);
    connect(m_link, &DeploymentLink::currentTraceChanged, this, [this](int t) {
        m_docks->setCurrentIndex(t);
        emit currentStateChanged(currentState());
    });
    m_growTimer = new QTimer(this);
    m_growTimer->setInterval(kGrowMs);
    connect(m_growTimer, &QTimer::timeout, this, &CombinedTab::onGrowTimer);
    updateStatus();
}

CombinedTab::~CombinedTab() {
    cancel();
}

QString CombinedTab::title() const {
    // the traces shown once the set is made (a file that could not be read is not among them)
    const int count = m_started ? m_set.size() : int(m_paths.size());
    const QString first = TerminalText::escaped(
        m_started && m_set.size() > 0 ? m_set.label(0) : QFileInfo(m_paths.value(0)).fileName());
    if (count <= 1) {
        return tr("Deployment: %1").arg(first);
    }
    return tr("Deployment: %1 + %2 more").arg(first).arg(count - 1);
}

bool CombinedTab::isBusy() const {
    for (const TraceLoadJob *j : m_jobs) {
        if (j->isRunning() && !j->isFollowing()) {
            return true;
        }
    }
    return m_merging || m_filtering;
}

bool CombinedTab::isFollowing() const {
    for (const TraceLoadJob *j : m_jobs) {
        if (j->isFollowing()) {
            return true;
        }
    }
    return false;
}

QTableView *CombinedTab::table() const {
    return m_table;
}

ViewState *CombinedTab::currentState() const {
    return m_states.value(m_link->currentTrace(), nullptr);
}

void CombinedTab::combineFiles(const QStringList &paths, const QSet<int> &followed) {
    m_followed = followed;
    for (const QString &p : paths) {
        m_paths.append(QFileInfo(p).absoluteFilePath());
    }
    m_opened = QList<std::shared_ptr<const TraceDocument>>(m_paths.size());
    m_ended = QList<bool>(m_paths.size(), false);
    m_progress->show();
    for (int i = 0; i < m_paths.size(); ++i) {
        auto *job = new TraceLoadJob(this);
        m_jobs.append(job);
        connect(job, &TraceLoadJob::opened, this,
                [this, i](std::shared_ptr<const TraceDocument> doc) { onOpened(i, doc); });
        connect(job, &TraceLoadJob::finished, this,
                [this, i](std::shared_ptr<const TraceDocument> doc, const QString &error) {
                    onFinished(i, std::move(doc), error);
                });
        if (followed.contains(i)) {
            job->follow(m_paths[i]);
        } else {
            job->start(m_paths[i]);
        }
    }
    updateStatus();
}

void CombinedTab::combineDocuments(const QList<std::shared_ptr<const TraceDocument>> &docs) {
    QStringList paths;
    for (const auto &d : docs) {
        paths.append(d->filePath());
    }
    m_paths = paths;
    start(docs, paths);
}

void CombinedTab::onOpened(int i, std::shared_ptr<const TraceDocument> doc) {
    if (!m_opened[i]) {
        m_opened[i] = std::move(doc);
        m_ended[i] = true;
        maybeStart();
    }
}

void CombinedTab::onFinished(int i, std::shared_ptr<const TraceDocument> doc,
                             const QString &error) {
    if (!doc) {
        m_refused.append(
            tr("%1: %2").arg(TerminalText::escaped(QFileInfo(m_paths[i]).fileName()), error));
        m_ended[i] = true;
        maybeStart();
        updateWarning();
        return;
    }
    onOpened(i, std::move(doc));
    // The last records and the argument check's findings.
    const int t = m_set.indexOf(m_paths[i]);
    if (ViewState *s = m_states.value(t)) {
        s->notifyDocumentGrew();
    }
    if (m_started) {
        startMerge();
        updateWarning();
    }
}

void CombinedTab::maybeStart() {
    if (m_started || m_ended.contains(false)) {
        return;
    }
    QList<std::shared_ptr<const TraceDocument>> docs;
    QStringList paths;
    for (int i = 0; i < m_paths.size(); ++i) {
        if (m_opened[i]) {
            docs.append(m_opened[i]);
            paths.append(m_paths[i]);
        }
    }
    if (docs.isEmpty()) {
        m_progress->hide();
        m_status->setText(tr("No trace could be read"));
        emit failed(m_refused.join(QLatin1Char('\n')));
        return;
    }
    start(docs, paths);
}

void CombinedTab::start(const QList<std::shared_ptr<const TraceDocument>> &docs,
                        const QStringList &paths) {
    m_started = true;
    for (int i = 0; i < docs.size(); ++i) {
        m_set.add(docs[i], paths.value(i));
    }
    for (int t = 0; t < m_set.size(); ++t) {
        auto *s = new ViewState(this);
        s->setDocument(m_set.documentPtr(t));
        m_states.append(s);
        connect(s, &ViewState::selectedRecordChanged, this,
                [this, t](int record) { onStateSelection(t, record); });
        connect(s, &ViewState::timeRangeChanged, this, &CombinedTab::updateTableRange);
        // A filter set on one trace by another view (a dock's "Filter to this") is the tab's.
        connect(s, &ViewState::filterTextChanged, this, [this](const QString &text) {
            if (!m_syncing && text != m_filterText) {
                applyFilter(text);
            }
        });
    }
    m_link->setTraces(m_set, m_states);
    m_table->setStates(m_states);
    m_timelines->setTraces(m_set, m_states, m_link);
    if (TimelineWidget *first = m_timelines->timeline(0)) {
        if (auto *actions = first->findChild<TimelineActions *>()) {
            // after the timeline's own entries
            connect(actions->lanesMenu(), &QMenu::aboutToShow, this, [this, actions] {
                QMenu *menu = actions->lanesMenu();
                menu->addSeparator();
                QMenu *group = menu->addMenu(tr("&Group Lanes By"));
                for (int i = 0; i < m_groupBox->count(); ++i) {
                    QAction *a = group->addAction(m_groupBox->itemText(i));
                    const auto by = LaneGrouping::By(m_groupBox->itemData(i).toInt());
                    a->setCheckable(true);
                    a->setChecked(by == m_grouping);
                    a->setEnabled(m_groupBox->isEnabled());
                    connect(a, &QAction::triggered, this, [this, by] { setGrouping(by); });
                }
                menu->addAction(tr("Trace &Offsets…"), this, &CombinedTab::showOffsetsDialog);
            });
        }
    }
    m_model->setTraces(m_set, std::make_shared<const MergedOrder>());
    m_offsetsButton->setEnabled(true);
    for (int t = 0; t < m_set.size(); ++t) {
        m_docks->addItem(TerminalText::escaped(m_set.displayLabel(t)));
    }
    m_docks->setEnabled(m_set.size() > 1);
    m_stopFollow->setVisible(isFollowing());
    m_growTimer->start();
    updateWarning();
    startMerge();
    emit combined();
    emit currentStateChanged(currentState());
}

bool CombinedTab::anyLoading() const {
    for (int t = 0; t < m_set.size(); ++t) {
        if (m_set.document(t).isLoading()) {
            return true;
        }
    }
    return false;
}

void CombinedTab::onGrowTimer() {
    if (!m_started) {
        return;
    }
    const bool loading = anyLoading();
    for (ViewState *s : std::as_const(m_states)) {
        if (s->document() && s->document()->isLoading()) {
            s->notifyDocumentGrew();
        }
    }
    // A catch-up copies the order (5 bytes a row): a large one catches up less often, about
    // every 250 ms plus 100 ms per million rows.
    const qint64 rows = m_order ? m_order->size() : 0;
    const bool due = !m_lastMerge.isValid() || m_lastMerge.elapsed() >= kGrowMs + rows / 10000;
    if (due && (loading || !m_order || rows < m_set.recordCount())) {
        startMerge();
    }
    m_stopFollow->setVisible(isFollowing());
    if (!loading && m_order && m_order->isComplete()) {
        m_growTimer->stop();
    }
}

void CombinedTab::startMerge() {
    if (!m_started) {
        return;
    }
    if (m_merging) {
        m_mergeAgain = true;
        return;
    }
    m_merging = true;
    m_mergeAgain = false;
    m_progress->show();
    m_mergeCancel = std::make_shared<std::atomic_bool>(false);
    m_lastMerge.start();
    auto *watcher = new QFutureWatcher<Merged>(this);
    connect(watcher, &QFutureWatcher<Merged>::finished, this, [this, watcher] {
        watcher->deleteLater();
        const Merged m = watcher->result();
        onMerged(m.order, m.revision, m.rows);
    });
    // The worker updates a copy: the shown order stays as it is until the new one is in.
    watcher->setFuture(JobPool::run([set = m_set, base = m_order, filter = m_filterPerTrace,
                                     hasFilter = !m_filterText.isEmpty(), cancel = m_mergeCancel] {
        MergedOrder order = base ? *base : MergedOrder();
        MergedOrder::Options o;
        o.cancel = cancel.get();
        order.update(set, o);
        Merged m;
        m.revision = set.revision();
        if (hasFilter && !filter.empty()) {
            m.rows =
                std::make_shared<const std::vector<qint64>>(TraceSetFilter::rowsOf(order, filter));
        }
        m.order = std::make_shared<const MergedOrder>(std::move(order));
        return m;
    }));
}

void CombinedTab::onMerged(std::shared_ptr<const MergedOrder> order, quint64 revision,
                           std::shared_ptr<const std::vector<qint64>> rows) {
    m_merging = false;
    if (revision == m_set.revision() && order && !order->wasCancelled()) {
        const qint64 before = m_order ? m_order->size() : -1;
        const bool rebuilt = !m_order || order->rebuilds() != m_order->rebuilds() ||
                             m_model->set().revision() != revision;
        m_order = order;
        m_model->setOrder(m_set, m_order);
        if (rows) {
            m_model->setRows(rows);
        }
        if (rebuilt) {
            updateTableRange();
        }
        if (rebuilt || m_order->size() != before) {
            emit orderChanged();
        }
        if (rebuilt && m_loadedOnce && m_order->isComplete()) {
            startStatistics();  // other offsets: other times on the common axis
        }
    }
    m_timelines->updateSet(m_set);
    const bool again = m_mergeAgain || revision != m_set.revision();
    if (again) {
        startMerge();
    } else {
        m_progress->setVisible(m_filtering);
        if (!m_loadedOnce && m_order && m_order->isComplete()) {
            m_loadedOnce = true;
            updateWarning();  // the diagnostics found at the end of the read
            m_groupBox->setEnabled(!isFollowing());
            if (m_grouping != LaneGrouping::By::Trace) {
                setGrouping(m_grouping);  // asked for before every trace was read
            }
            if (!m_filterText.isEmpty()) {
                startFilter();  // over the records that arrived after it ran
            } else {
                startStatistics();
            }
            if (!isFollowing()) {
                m_cache->setTraceSet(m_set);  // analysed when its tab is shown
            }
            emit loaded();
        }
    }
    updateStatus();
}

void CombinedTab::applyFilter(const QString &text) {
    m_filterText = text;
    m_filterBar->setText(text);
    m_syncing = true;
    for (ViewState *s : std::as_const(m_states)) {
        s->setFilterText(text);
    }
    m_syncing = false;
    if (text.isEmpty()) {
        if (m_filterCancel) {
            m_filterCancel->store(true);
        }
        ++m_filterGeneration;
        m_filtering = false;
        m_filterPerTrace.clear();
        m_groupView->setFilter({});
        m_model->setRows(nullptr);
        m_filterBar->setProgress(-1);
        m_filterBar->setStatus(QString());
        emit filtered();
        updateStatus();
        startStatistics();
        return;
    }
    startFilter();
}

void CombinedTab::startFilter() {
    if (!m_started || !m_order) {
        return;
    }
    if (m_filterCancel) {
        m_filterCancel->store(true);
    }
    const QString text = m_filterText;
    const FilterExpression expr = FilterExpression::parse(text);
    if (!expr.isValid()) {
        m_filterBar->setStatus(expr.errorString(), true);
        return;
    }
    const quint64 generation = ++m_filterGeneration;
    m_filtering = true;
    m_filterCancel = std::make_shared<std::atomic_bool>(false);
    m_filterBar->setProgress(0);
    m_filterBar->setStatus(tr("filtering…"));
    QPointer<CombinedFilterBar> bar = m_filterBar;
    auto *watcher = new QFutureWatcher<Filtered>(this);
    connect(watcher, &QFutureWatcher<Filtered>::finished, this, [this, watcher, generation, text] {
        watcher->deleteLater();
        if (generation != m_filterGeneration) {
            return;
        }
        m_filtering = false;
        m_filterBar->setProgress(-1);
        const Filtered f = watcher->result();
        if (f.result.cancelled) {
            m_filterBar->setStatus(tr("cancelled"));
            return;
        }
        m_filterPerTrace = f.result.perTrace;
        m_groupView->setFilter(m_filterPerTrace);
        m_syncing = true;
        for (int t = 0; t < m_states.size(); ++t) {
            m_states[t]->setFilterResult(text, f.result.perTrace[size_t(t)]);
        }
        m_syncing = false;
        m_model->setRows(std::make_shared<const std::vector<qint64>>(f.result.rows));
        const QLocale loc;
        m_filterBar->setStatus(
            tr("%1 of %2 records match")
                .arg(loc.toString(qint64(f.result.rows.size())), loc.toString(f.total)));
        emit filtered();
        updateStatus();
        startStatistics();
    });
    watcher->setFuture(JobPool::run(
        [set = m_set, order = m_order, expr, cancel = m_filterCancel, bar, generation] {
            TraceSetFilter::Options o;
            o.cancel = cancel.get();
            o.progress = [bar](qint64 done, qint64 total) {
                QMetaObject::invokeMethod(
                    bar.data(),
                    [bar, done, total] {
                        if (bar && total > 0) {
                            bar->setProgress(int(double(done) / double(total) * 1000.0));
                        }
                    },
                    Qt::QueuedConnection);
            };
            Filtered f;
            f.result = TraceSetFilter::run(set, *order, expr, o);
            f.total = order->size();
            return f;
        }));
}

void CombinedTab::setGrouping(LaneGrouping::By by) {
    m_grouping = by;
    m_groupBox->setCurrentIndex(std::max(0, m_groupBox->findData(int(by))));
    const quint64 generation = ++m_groupGeneration;
    if (by == LaneGrouping::By::Trace || by == LaneGrouping::By::None) {
        m_lanes->setCurrentIndex(0);
        emit grouped();
        return;
    }
    if (!m_loadedOnce || isFollowing()) {
        return;  // grouped once every trace is read
    }
    m_groupBox->setEnabled(false);
    using Result = LaneGrouping::Result;
    auto *watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        m_groupBox->setEnabled(true);
        if (generation != m_groupGeneration) {
            return;
        }
        m_groupView->setGroups(m_set, watcher->result(), m_states);
        m_groupView->setFilter(m_filterText.isEmpty()
                                   ? std::vector<std::shared_ptr<const std::vector<int>>>()
                                   : m_filterPerTrace);
        m_lanes->setCurrentIndex(1);
        emit grouped();
    });
    watcher->setFuture(JobPool::run([set = m_set, by] { return LaneGrouping::compute(set, by); }));
}

void CombinedTab::startStatistics() {
    if (!m_loadedOnce || !m_order || isFollowing()) {
        return;  // a pass decodes every record: once the traces are read
    }
    m_stats->compute(m_set, m_order,
                     m_filterText.isEmpty() ? std::vector<std::shared_ptr<const std::vector<int>>>()
                                            : m_filterPerTrace);
}

void CombinedTab::onRowSelected() {
    if (m_syncing) {
        return;
    }
    const int row = m_table->selectionModel()->currentIndex().row();
    const int t = m_model->traceAt(row);
    const int r = m_model->recordAt(row);
    if (t < 0 || r < 0) {
        return;
    }
    m_syncing = true;
    m_states[t]->setSelectedRecord(r);
    m_syncing = false;
}

void CombinedTab::updateTableRange() {
    int from = m_link->currentTrace();
    if (!m_states.value(from) || !m_states[from]->timeRange()) {
        from = -1;
        for (int t = 0; t < m_states.size() && from < 0; ++t) {
            if (m_states[t]->timeRange()) {
                from = t;
            }
        }
    }
    std::optional<CombinedRecordTableModel::WallRange> range;
    const double origin = m_link->origin();
    if (from >= 0 && std::isfinite(origin)) {  // no t_wall anywhere: no common axis to narrow
        const ViewState::TimeRange r = *m_states[from]->timeRange();
        range = CombinedRecordTableModel::WallRange{m_link->toCommon(from, r.from) + origin,
                                                    m_link->toCommon(from, r.to) + origin};
    }
    const auto shown = m_model->timeRange();
    // Each trace's range maps to the same span: a rounding apart is the same range.
    const auto same = [](double a, double b) { return std::abs(a - b) < 1e-9; };
    if (shown.has_value() == range.has_value() &&
        (!range || (same(shown->from, range->from) && same(shown->to, range->to)))) {
        return;
    }
    m_model->setTimeRange(range);
    if (ViewState *s = currentState(); s && s->selectedRecord() >= 0) {
        onStateSelection(m_link->currentTrace(), s->selectedRecord());
    }
    updateStatus();
}

void CombinedTab::onStateSelection(int t, int record) {
    if (m_syncing || record < 0) {
        return;
    }
    const int row = m_model->rowOf(t, record);
    m_syncing = true;
    if (row >= 0) {
        const QModelIndex index = m_model->index(row, CombinedRecordTableModel::CallColumn);
        m_table->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_table->scrollTo(index);
    } else {
        m_table->selectionModel()->clearSelection();
    }
    m_syncing = false;
}

bool CombinedTab::selectRecord(int t, int record) {
    ViewState *s = m_states.value(t);
    if (!s || record < 0 || record >= s->document()->records().size()) {
        return false;
    }
    s->setSelectedRecord(record);
    return true;
}

void CombinedTab::setOffset(int t, double seconds) {
    std::vector<double> all;
    for (int i = 0; i < m_set.size(); ++i) {
        all.push_back(i == t ? seconds : m_set.offset(i));
    }
    setOffsets(all);
}

void CombinedTab::setOffsets(const std::vector<double> &seconds) {
    const quint64 before = m_set.revision();
    for (int t = 0; t < m_set.size() && size_t(t) < seconds.size(); ++t) {
        m_set.setOffset(t, seconds[size_t(t)]);
    }
    if (m_set.revision() == before) {
        return;
    }
    if (m_mergeCancel && m_merging) {
        m_mergeCancel->store(true);  // its order is for the old offsets
    }
    m_link->setSet(m_set);
    m_timelines->updateSet(m_set);
    m_groupView->setSet(m_set);
    updateTableRange();
    startMerge();
    updateStatus();
}

void CombinedTab::showOffsetsDialog() {
    if (!m_started) {
        return;
    }
    TraceOffsetsDialog dialog(m_set, this);
    if (dialog.exec() == QDialog::Accepted) {
        setOffsets(dialog.offsets());
    }
}

void CombinedTab::setWallUtc(bool utc) {
    m_model->setWallUtc(utc);
    for (ViewState *s : std::as_const(m_states)) {
        s->setWallUtc(utc);
    }
}

void CombinedTab::cancel() {
    for (TraceLoadJob *j : std::as_const(m_jobs)) {
        if (j->isRunning()) {
            j->cancel();
        }
    }
    m_stats->cancel();
    m_cache->cancel();
    for (const auto &flag : {m_mergeCancel, m_filterCancel}) {
        if (flag) {
            flag->store(true);
        }
    }
}

void CombinedTab::stopFollowing() {
    for (TraceLoadJob *j : std::as_const(m_jobs)) {
        if (j->isFollowing()) {
            j->cancel();
        }
    }
    m_stopFollow->hide();
}

void CombinedTab::updateWarning() {
    QStringList lines;
    for (const QString &r : std::as_const(m_refused)) {
        lines << tr("⚠ Left out, cannot be read: %1").arg(r);
    }
    for (int t = 0; t < m_set.size(); ++t) {
        const TraceDocument &d = m_set.document(t);
        if (d.errorCount() > 0 || d.warningCount() > 0) {
            lines << tr("⚠ %1 is damaged: %2, %3. Select one of its records to see its "
                        "Diagnostics.")
                         .arg(TerminalText::escaped(m_set.label(t)),
                              tr("%n error(s)", nullptr, d.errorCount()),
                              tr("%n warning(s)", nullptr, d.warningCount()));
        }
    }
    m_warning->setText(lines.join(QLatin1Char('\n')));
    m_warning->setVisible(!lines.isEmpty());
}

void CombinedTab::updateStatus() {
    const QLocale loc;
    if (!m_started) {
        m_status->setText(tr("Reading %n trace(s)…", nullptr, int(m_paths.size())));
        emit statusChanged();
        return;
    }
    QString text = tr("%n trace(s)", nullptr, m_set.size());
    text += tr(" · %1 records").arg(loc.toString(m_set.recordCount()));
    if (m_model->hasRows() || m_model->timeRange()) {
        text += tr(" · %1 shown").arg(loc.toString(m_model->rowCount()));
    }
    if (m_merging) {
        text += tr(" · merging…");
    } else if (m_order && m_order->pendingCount(m_set) > 0) {
        text +=
            tr(" · %1 waiting for a slower trace").arg(loc.toString(m_order->pendingCount(m_set)));
    }
    if (isFollowing()) {
        text += tr(" · following");
    }
    if (m_status->text() != text) {
        m_status->setText(text);
        emit statusChanged();
    }
}

}  // namespace lmct
