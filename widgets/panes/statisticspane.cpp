#include "panes/statisticspane.h"

#include "common/jobpool.h"
#include "itemmodels/statisticstablemodel.h"
#include "panes/statisticscharts.h"
#include "records/filtercomposer.h"
#include "util/timeformat.h"
#include "viewstate.h"

#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QThreadPool>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <cmath>

namespace lmct {

namespace {

using Stats = std::shared_ptr<const TraceStatistics>;

/** Sorts by StatisticsTableModel::SortRole and keeps the totals row last in both orders. */
class StatisticsSortProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex &a, const QModelIndex &b) const override {
        const bool ta = a.data(StatisticsTableModel::IsTotalRole).toBool();
        const bool tb = b.data(StatisticsTableModel::IsTotalRole).toBool();
        if (ta != tb) {
            return (sortOrder() == Qt::AscendingOrder) ? tb : ta;
        }
        const QVariant va = a.data(StatisticsTableModel::SortRole);
        const QVariant vb = b.data(StatisticsTableModel::SortRole);
        if (va.typeId() == QMetaType::QString || vb.typeId() == QMetaType::QString) {
            return va.toString() < vb.toString();
        }
        const double da = va.toDouble();
        const double db = vb.toDouble();
        if (std::isnan(da) || std::isnan(db)) {
            return std::isnan(da) && !std::isnan(db);
        }
        return da < db;
    }
};

}  // namespace

StatisticsPane::StatisticsPane(QWidget *parent)
    : QWidget(parent),
      m_calls(new StatisticsTableModel(StatisticsTableModel::Table::Calls, this)),
      m_models(new StatisticsTableModel(StatisticsTableModel::Table::Models, this)),
      m_ranks(new StatisticsTableModel(StatisticsTableModel::Table::Ranks, this)),
      m_salts(new StatisticsTableModel(StatisticsTableModel::Table::Salts, this)) {
    // A growing document (loading, live follow) is recomputed at most once a second.
    m_regrow = new QTimer(this);
    m_regrow->setSingleShot(true);
    m_regrow->setInterval(1000);
    connect(m_regrow, &QTimer::timeout, this, [this] {
        if (m_busy) {
            m_regrow->start();  // let the running computation finish rather than restart it
        } else {
            recompute();
        }
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_scope = new QLabel(this);
    m_scope->setObjectName(QStringLiteral("statisticsScope"));
    m_scope->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_scope);
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_callsView = makeView(m_calls);
    m_tabs->addTab(m_callsView, tr("Calls"));
    m_tabs->addTab(makeView(m_models), tr("Models"));
    m_tabs->addTab(makeView(m_ranks), tr("Ranks"));
    m_tabs->addTab(makeView(m_salts), tr("Cache Salts"));
    m_charts = new StatisticsCharts(this);
    m_charts->setObjectName(QStringLiteral("statisticsCharts"));
    m_tabs->addTab(m_charts, tr("Charts"));
    layout->addWidget(m_tabs, 1);
    m_pairs = new QLabel(this);
    m_pairs->setObjectName(QStringLiteral("statisticsPairs"));
    m_pairs->setWordWrap(true);
    m_pairs->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_pairs);
    showStatistics(nullptr);
}

StatisticsPane::~StatisticsPane() {
    if (m_cancel) {
        m_cancel->store(true);
    }
}

QTableView *StatisticsPane::makeView(StatisticsTableModel *model) {
    auto *proxy = new StatisticsSortProxy(this);
    proxy->setSourceModel(model);
    auto *view = new QTableView(this);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(-1, Qt::AscendingOrder);  // model order until the user sorts
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setShowGrid(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setToolTip(tr("Click a row to filter the records to it"));
    connect(view, &QTableView::clicked, this, &StatisticsPane::onRowClicked);
    return view;
}

void StatisticsPane::setViewState(ViewState *state) {
    if (!rebind(m_state, state, this)) {
        return;
    }
    if (m_state) {
        connect(m_state, &ViewState::documentChanged, this, &StatisticsPane::recompute);
        connect(m_state, &ViewState::filterChanged, this, &StatisticsPane::recompute);
        connect(m_state, &ViewState::timeRangeChanged, this, &StatisticsPane::recompute);
        connect(m_state, &ViewState::documentGrew, this, [this] {
            if (m_waitingForLoad) {
                recompute();  // (waits again while the file is still being read)
            } else if (!m_regrow->isActive()) {
                m_regrow->start();
            }
        });
    }
    recompute();
}

void StatisticsPane::recompute() {
    const quint64 generation = ++m_generation;
    if (m_cancel) {
        m_cancel->store(true);
        m_cancel.reset();
    }
    m_busy = false;
    m_regrow->stop();
    m_waitingForLoad = false;
    const auto doc = m_state ? m_state->document() : nullptr;
    if (!doc) {
        m_dirty = false;
        m_statsDocument = doc.get();
        showStatistics(nullptr);
        return;
    }
    if (!isOnScreen()) {
        // Hidden (e.g. a dock tabbed behind another): computed when shown. Statistics decode every
        // record's arguments; a 10 M record trace took seconds of CPU and 400 MB per pass.
        m_dirty = true;
        if (doc.get() != m_statsDocument) {
            showStatistics(nullptr);  // of another document
        }
        return;
    }
    if (doc->isLoading() && !doc->isReadToEnd()) {
        // Still reading the file the first time: statistics now would cover a fraction of it,
        // and each pass over the records read so far slowed the load. (A followed trace, once
        // read, is recomputed as it grows.)
        m_waitingForLoad = true;
        m_dirty = true;
        m_scope->setText(tr("Waiting for the trace to finish loading…"));
        return;
    }
    m_dirty = false;
    const auto filter = m_state->filterRecords();
    TMonoRange range;
    if (const auto r = m_state->timeRange()) {
        range.from = r->from;
        range.to = r->to;
    }
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_cancel = cancel;
    m_busy = true;
    m_scope->setText(tr("Computing…"));
    auto *watcher = new QFutureWatcher<Stats>(this);
    connect(watcher, &QFutureWatcher<Stats>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation) {
            return;
        }
        m_busy = false;
        m_cancel.reset();
        showStatistics(watcher->result());
    });
    watcher->setFuture(JobPool::run([doc, filter, range, cancel]() -> Stats {
        TraceStatistics::Options o;
        o.range = range;
        o.subset = filter.get();
        o.cancel = cancel.get();
        return std::make_shared<const TraceStatistics>(TraceStatistics::compute(*doc, o));
    }));
}

void StatisticsPane::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    if (m_dirty && !m_waitingForLoad && isOnScreen()) {
        recompute();
    }
}

void StatisticsPane::setShown(bool shown) {
    m_shown = shown;
    if (m_dirty && !m_waitingForLoad && isOnScreen()) {
        recompute();
    }
}

void StatisticsPane::showStatistics(std::shared_ptr<const TraceStatistics> stats) {
    m_stats = std::move(stats);
    for (StatisticsTableModel *m : {m_calls, m_models, m_ranks, m_salts}) {
        m->setStatistics(m_stats);
    }
    const auto doc = m_state ? m_state->document() : nullptr;
    m_charts->setStatistics(
        m_stats, doc ? doc->fileName() : QString(), doc ? doc->filePath() : QString(),
        m_stats && m_state && m_state->filterRecords() ? m_state->filterAppliedText() : QString(),
        m_stats ? m_stats->range : TMonoRange());
    if (!m_stats) {
        m_scope->setText(m_state && m_state->document() ? QString() : tr("No trace"));
        m_pairs->clear();
        return;
    }
    const QLocale loc;
    QStringList scope;
    scope << tr("%1 records").arg(loc.toString(m_stats->records));
    if (m_state && m_state->filterRecords()) {
        scope << tr("filter: %1").arg(m_state->filterAppliedText());
    }
    if (m_state && m_state->timeRange()) {
        scope << tr("t_mono in [%1 s, %2 s]")
                     .arg(TimeFormat::mono(m_state->timeRange()->from),
                          TimeFormat::mono(m_state->timeRange()->to));
    }
    if (m_stats->decodeErrors > 0) {
        // e.g. a file cut short after it loaded: those records count, their arguments do not
        // (the numbers looked whole)
        scope << tr("the arguments of %1 records could not be read: their keys and bytes are "
                    "not counted")
                     .arg(loc.toString(m_stats->decodeErrors));
    }
    m_scope->setText(scope.join(QStringLiteral(" · ")));
    m_scope->setToolTip(m_scope->text());
    m_pairs->setText(pairsText());
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (auto *v = qobject_cast<QTableView *>(m_tabs->widget(i))) {
            v->resizeColumnsToContents();
        }
    }
    emit updated();
}

QString StatisticsPane::pairsText() const {
    if (!m_stats) {
        return {};
    }
    const auto &p = m_stats->pairs;
    if (!m_stats->argsDecoded) {
        return tr("read_prefetched_results pairs: not computed");
    }
    auto dur = [](double s) {
        return std::isnan(s) ? QStringLiteral("—") : TimeFormat::duration(s);
    };
    return tr("read_prefetched_results pairs: %1 matched, %2 enter without exit, %3 exit without "
              "enter · duration p50 %4, p95 %5, max %6")
        .arg(p.matched)
        .arg(p.unmatchedEnter)
        .arg(p.unmatchedExit)
        .arg(dur(p.durationP50), dur(p.durationP95), dur(p.durationMax));
}

QString StatisticsPane::filterForRow(const QModelIndex &index) {
    if (!index.isValid() || index.data(StatisticsTableModel::IsTotalRole).toBool()) {
        return {};
    }
    const QString filter = index.data(StatisticsTableModel::FilterRole).toString();
    if (filter.startsWith(QLatin1String("qualname"))) {
        // A call row: the short call name, as the filter language writes it.
        const QString call = index.siblingAtColumn(0).data(Qt::DisplayRole).toString();
        static const QRegularExpression ident(QStringLiteral("^[A-Za-z_][A-Za-z0-9_.]*$"));
        return QStringLiteral("call == %1")
            .arg(ident.match(call).hasMatch() ? call : FilterComposer::quote(call));
    }
    return filter;
}

void StatisticsPane::onRowClicked(const QModelIndex &index) {
    const QString filter = filterForRow(index);
    if (!filter.isEmpty() && m_state) {
        m_state->setFilterText(filter);
    }
}

}  // namespace lmct
