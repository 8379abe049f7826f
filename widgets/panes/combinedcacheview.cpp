#include "panes/combinedcacheview.h"

#include "itemmodels/cachesummarytablemodel.h"

#include "common/tracechooser.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace lmct {

CombinedCacheView::CombinedCacheView(QWidget *parent)
    : QWidget(parent), m_model(new CacheSummaryTableModel(this)) {
    auto *v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Cache behaviour of:")));
    m_chooser = new TraceChooser;
    m_chooser->setObjectName(QStringLiteral("cacheChooser"));
    row->addWidget(m_chooser);
    m_note = new QLabel;
    m_note->setWordWrap(true);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    row->addWidget(m_note, 1);
    v->addLayout(row);
    m_view = new QTableView;
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    m_view->setColumnWidth(
        CacheSummaryTableModel::FigureColumn,
        fontMetrics().horizontalAdvance(QStringLiteral("Prefetch hit ratio (infinite cache)    ")));
    m_view->setColumnWidth(CacheSummaryTableModel::ValueColumn,
                           fontMetrics().horizontalAdvance(QStringLiteral("000,000,000,000  ")));
    v->addWidget(m_view, 1);
    connect(m_chooser, &TraceChooser::traceChosen, this, [this](int choice) { show(choice); });
    m_note->setText(tr("analysed once every trace is read and this tab is shown"));
}

CombinedCacheView::~CombinedCacheView() {
    cancel();
}

void CombinedCacheView::cancel() {
    m_job.cancel();
}

void CombinedCacheView::setTraceSet(const TraceSet &set) {
    if (isVisible()) {
        m_hasPending = false;
        compute(set);
        return;
    }
    m_pending = set;
    m_hasPending = true;
}

void CombinedCacheView::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    if (m_hasPending) {
        m_hasPending = false;
        compute(m_pending);
    }
}

void CombinedCacheView::compute(const TraceSet &set) {
    m_note->setText(tr("analysing %n trace(s)…", nullptr, set.size()));
    QStringList labels;
    for (int t = 0; t < set.size(); ++t) {
        labels << set.displayLabel(t);
    }
    using Result = std::shared_ptr<const TraceSetCache>;
    m_job.start(
        [set](const std::atomic_bool *cancel) -> Result {
            TraceSetCache::Options o;
            o.cancel = cancel;
            auto s = std::make_shared<const TraceSetCache>(TraceSetCache::compute(set, o));
            return s->cancelled ? nullptr : s;
        },
        [this, labels](const Result &r) {
            setSummary(r, labels);
            emit ready();
        });
}

void CombinedCacheView::setSummary(std::shared_ptr<const TraceSetCache> summary,
                                   const QStringList &labels) {
    m_summary = std::move(summary);
    m_chooser->setTraces(labels);
    show(choice());
}

int CombinedCacheView::choice() const {
    return m_chooser->choice();
}

void CombinedCacheView::setChoice(int trace) {
    m_chooser->setChoice(trace);
}

void CombinedCacheView::show(int choice) {
    if (!m_summary) {
        m_model->setFigures({});
        return;
    }
    m_model->setFigures(m_summary->figures(choice));
    m_note->setText(
        choice < 0
            ? tr("Distinct keys over the merged keys of every trace; the other counts are the "
                 "traces' own figures summed (each trace's calls act on its own server's "
                 "store: a key one server wrote and another prefetched is a miss).")
            : tr("This trace alone; the Cache Behaviour dock shows its keys, requests, "
                 "anomalies and what-if."));
}

}  // namespace lmct
