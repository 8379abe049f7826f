#pragma once

#include "panes/cachetab.h"

class QTableView;

namespace lmct {

class RequestTableModel;

/**
 * The Requests tab of the Cache Behaviour pane: one row per submit_prefetch_task of the analysis
 * (RequestTableModel, sortable). Clicking a cell (or moving to it) emits recordActivated() with
 * the record its column stands for: the read for a read column, the writes for a write column,
 * the submit_prefetch_task for any other.
 *
 * Units: records are record indices. Ownership: owns its model and view. Thread-safety: GUI
 * thread only. Errors: none.
 */
class CacheRequestsTab : public CacheTab {
    Q_OBJECT
public:
    explicit CacheRequestsTab(QWidget *parent = nullptr);

    RequestTableModel *model() const { return m_requestModel; }
    QTableView *view() const { return m_requestView; }

protected:
    void showAnalysis() override;

private:
    RequestTableModel *m_requestModel = nullptr;
    QTableView *m_requestView = nullptr;
};

}  // namespace lmct
