#include "panes/cacheanomaliestab.h"

#include "itemmodels/anomalytablemodel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace lmct {

CacheAnomaliesTab::CacheAnomaliesTab(QWidget *parent)
    : CacheTab(parent), m_anomalyModel(new AnomalyTableModel(this)) {
    auto *v = new QVBoxLayout(this);
    v->setContentsMargins(0, 2, 0, 0);
    auto *row = new QHBoxLayout;
    row->setContentsMargins(6, 0, 6, 0);
    m_kind = new QComboBox;
    m_kind->addItem(tr("All kinds"), -1);
    for (int k = 0; k < AnomalyReport::kKindCount; ++k) {
        m_kind->addItem(AnomalyReport::kindName(AnomalyReport::Kind(k)), k);
        m_kind->setItemData(k + 1, AnomalyReport::kindDescription(AnomalyReport::Kind(k)),
                            Qt::ToolTipRole);
    }
    connect(m_kind, &QComboBox::currentIndexChanged, this,
            [this] { m_anomalyModel->setKindFilter(m_kind->currentData().toInt()); });
    row->addWidget(m_kind);
    m_anomalyCounts = new QLabel;
    m_anomalyCounts->setWordWrap(true);
    row->addWidget(m_anomalyCounts, 1);
    v->addLayout(row);
    m_anomalyView = createTable(m_anomalyModel);
    const QFontMetrics fm(font());
    m_anomalyView->setColumnWidth(
        AnomalyTableModel::KindColumn,
        fm.horizontalAdvance(QStringLiteral("finish_without_reserve")) + 16);
    m_anomalyView->setColumnWidth(AnomalyTableModel::RecordsColumn,
                                  fm.horizontalAdvance(QStringLiteral("#0000000, #0000000")) + 12);
    m_anomalyView->setColumnWidth(AnomalyTableModel::TimeColumn,
                                  fm.horizontalAdvance(QStringLiteral("00:00.000000")) + 16);
    auto activate = [this](const QModelIndex &i) {
        if (i.isValid()) {
            emit recordActivated(i.data(AnomalyTableModel::RecordRole).toInt());
        }
    };
    connect(m_anomalyView, &QTableView::clicked, this, activate);
    connect(m_anomalyView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            activate);
    v->addWidget(m_anomalyView, 1);
}

void CacheAnomaliesTab::showAnalysis() {
    const CacheAnalysis *a = m_analysis.get();
    m_anomalyModel->setReport(a ? a->anomalies : nullptr);
    if (!a) {
        m_anomalyCounts->clear();
        return;
    }
    QStringList parts;
    for (int k = 0; k < AnomalyReport::kKindCount; ++k) {
        const auto kind = AnomalyReport::Kind(k);
        parts.append(QStringLiteral("%1 %2").arg(count(a->anomalies->count(kind)),
                                                 AnomalyReport::kindName(kind)));
        m_kind->setItemText(k + 1, QStringLiteral("%1 (%2)").arg(AnomalyReport::kindName(kind),
                                                                 count(a->anomalies->count(kind))));
    }
    m_anomalyCounts->setText(parts.join(QStringLiteral(" · ")));
}

}  // namespace lmct
