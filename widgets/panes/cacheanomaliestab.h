#pragma once

#include "panes/cachetab.h"

class QComboBox;
class QLabel;
class QTableView;

namespace lmct {

class AnomalyTableModel;

/**
 * The Anomalies tab of the Cache Behaviour pane: the count of each kind (AnomalyReport::Kind)
 * and the anomalies found (AnomalyTableModel), filtered by a kind chosen in a selector that
 * shows each kind's count and, as a tooltip, its description. Clicking a row (or moving to it)
 * emits recordActivated() with the anomaly's record.
 *
 * Units: records are record indices; times are `t_mono` seconds. Ownership: owns its model and
 * views. Thread-safety: GUI thread only. Errors: none.
 */
class CacheAnomaliesTab : public CacheTab {
    Q_OBJECT
public:
    explicit CacheAnomaliesTab(QWidget *parent = nullptr);

    AnomalyTableModel *model() const { return m_anomalyModel; }
    QTableView *view() const { return m_anomalyView; }

protected:
    void showAnalysis() override;

private:
    AnomalyTableModel *m_anomalyModel = nullptr;
    QTableView *m_anomalyView = nullptr;
    QComboBox *m_kind = nullptr;
    QLabel *m_anomalyCounts = nullptr;
};

}  // namespace lmct
