#include "panes/combinedstatisticsview.h"

#include "itemmodels/statisticstablemodel.h"

#include "common/tracechooser.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace lmct {

namespace {

QTableView *tableOf(StatisticsTableModel *model) {
    auto *t = new QTableView;
    t->setModel(model);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    t->setWordWrap(false);
    return t;
}

}  // namespace

CombinedStatisticsView::CombinedStatisticsView(QWidget *parent) : QWidget(parent) {
    auto *v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Statistics of:")));
    m_chooser = new TraceChooser;
    m_chooser->setObjectName(QStringLiteral("statisticsChooser"));
    row->addWidget(m_chooser);
    m_note = new QLabel;
    m_note->setWordWrap(true);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    row->addWidget(m_note, 1);
    v->addLayout(row);
    m_calls = new StatisticsTableModel(StatisticsTableModel::Table::Calls, this);
    m_calls->setTimeAxis(QStringLiteral("aligned t_wall"));  // seconds on the deployment's axis
    m_models = new StatisticsTableModel(StatisticsTableModel::Table::Models, this);
    m_ranks = new StatisticsTableModel(StatisticsTableModel::Table::Ranks, this);
    m_salts = new StatisticsTableModel(StatisticsTableModel::Table::Salts, this);
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(tableOf(m_calls), tr("Calls"));
    m_tabs->addTab(tableOf(m_models), tr("Models"));
    m_tabs->addTab(tableOf(m_ranks), tr("Ranks"));
    m_tabs->addTab(tableOf(m_salts), tr("Cache Salts"));
    v->addWidget(m_tabs, 1);
    connect(m_chooser, &TraceChooser::traceChosen, this, [this](int choice) { show(choice); });
    setBusy(tr("computed once every trace is read"));
}

CombinedStatisticsView::~CombinedStatisticsView() {
    cancel();
}

void CombinedStatisticsView::cancel() {
    m_job.cancel();
}

void CombinedStatisticsView::compute(
    const TraceSet &set, std::shared_ptr<const MergedOrder> order,
    const std::vector<std::shared_ptr<const std::vector<int>>> &subsets) {
    setBusy(tr("computing…"));
    QStringList labels;
    for (int t = 0; t < set.size(); ++t) {
        labels << set.displayLabel(t);
    }
    using Result = std::shared_ptr<const TraceSetStatistics>;
    m_job.start(
        [set, order, subsets](const std::atomic_bool *cancel) -> Result {
            TraceSetStatistics::Options o;
            o.cancel = cancel;
            for (const auto &s : subsets) {
                o.subsets.push_back(s.get());
            }
            auto stats = std::make_shared<const TraceSetStatistics>(
                TraceSetStatistics::compute(set, *order, o));
            return cancel->load() ? nullptr : stats;
        },
        [this, labels](const Result &r) {
            setStatistics(r, labels);
            emit ready();
        });
}

StatisticsTableModel *CombinedStatisticsView::groupModel(int table) const {
    switch (StatisticsTableModel::Table(table)) {
        case StatisticsTableModel::Table::Models:
            return m_models;
        case StatisticsTableModel::Table::Ranks:
            return m_ranks;
        case StatisticsTableModel::Table::Salts:
            return m_salts;
        case StatisticsTableModel::Table::Calls:
            break;
    }
    return m_calls;
}

void CombinedStatisticsView::setStatistics(std::shared_ptr<const TraceSetStatistics> stats,
                                           const QStringList &labels) {
    m_stats = std::move(stats);
    m_chooser->setTraces(labels);
    show(choice());
}

void CombinedStatisticsView::setBusy(const QString &text) {
    if (!text.isEmpty()) {
        m_note->setText(text);
    } else {
        show(choice());
    }
}

int CombinedStatisticsView::choice() const {
    return m_chooser->choice();
}

void CombinedStatisticsView::setChoice(int trace) {
    m_chooser->setChoice(trace);
}

void CombinedStatisticsView::show(int choice) {
    std::shared_ptr<const TraceStatistics> s;
    if (m_stats && choice < 0) {
        s = std::shared_ptr<const TraceStatistics>(m_stats, &m_stats->all);
        m_note->setText(
            tr("Counts over every trace; first and last in seconds from the combined start "
               "(aligned t_wall); distinct keys summed over the traces (a key several traces "
               "touch counts once per each)."));
    } else if (m_stats && choice < m_stats->perTrace.size()) {
        s = std::shared_ptr<const TraceStatistics>(m_stats, &m_stats->perTrace[choice]);
        m_note->setText(tr("This trace alone; first and last in its own t_mono."));
    }
    for (StatisticsTableModel *m : {m_calls, m_models, m_ranks, m_salts}) {
        m->setStatistics(s);
    }
}

}  // namespace lmct
