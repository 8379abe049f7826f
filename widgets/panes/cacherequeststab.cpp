#include "panes/cacherequeststab.h"

#include "itemmodels/requesttablemodel.h"

#include <QHeaderView>
#include <QTableView>
#include <QVBoxLayout>

namespace lmct {

CacheRequestsTab::CacheRequestsTab(QWidget *parent)
    : CacheTab(parent), m_requestModel(new RequestTableModel(this)) {
    m_requestView = createTable(m_requestModel);
    m_requestView->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_requestView->setSortingEnabled(true);
    m_requestView->setColumnWidth(
        RequestTableModel::RequestIdColumn,
        fontMetrics().horizontalAdvance(QStringLiteral("chatcmpl-0123456789abcdef-01234567")));
    auto activate = [this](const QModelIndex &i) {
        if (i.isValid()) {
            emit recordActivated(i.data(RequestTableModel::RecordRole).toInt());
        }
    };
    connect(m_requestView, &QTableView::clicked, this, activate);
    connect(m_requestView->selectionModel(), &QItemSelectionModel::currentChanged, this, activate);
    m_requestView->setToolTip(
        tr("Click a read column to go to the read, a write column to the writes, any other to "
           "the submit_prefetch_task"));
    // the table is the whole tab
    auto *v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->addWidget(m_requestView);
    setFocusProxy(m_requestView);
}

void CacheRequestsTab::showAnalysis() {
    const CacheAnalysis *a = m_analysis.get();
    m_requestModel->setAnalysis(a ? a->requests : nullptr);
}

}  // namespace lmct
