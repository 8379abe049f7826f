#pragma once

#include "panes/cachetab.h"

class QLabel;
class QLineEdit;
class QTableView;
class QTableWidget;

namespace lmct {

class KeyTableModel;

/**
 * The Keys tab of the Cache Behaviour pane: every distinct ObjectKey of the analysis
 * (KeyTableModel, sortable, filtered by a chunk hash prefix), and under it the lifecycle of the
 * selected key (KeyLifecycle: each call, the gap since the previous one, write latencies; the
 * first 10,000 events).
 *
 * Clicking a key row (or moving to it with the keyboard) shows its lifecycle and emits
 * keyActivated() (the pane makes it the followed key) and then recordActivated() with the key's
 * record; clicking a lifecycle row emits recordActivated() with that event's record.
 *
 * Units: `t_mono` seconds, shown as times and durations; records are record indices.
 * Ownership: owns its model and views. Thread-safety: GUI thread only. Errors: none; an invalid
 * key shows the "Select a key" hint.
 */
class CacheKeysTab : public CacheTab {
    Q_OBJECT
public:
    explicit CacheKeysTab(QWidget *parent = nullptr);

    KeyTableModel *model() const { return m_keyModel; }
    QTableView *view() const { return m_keyView; }
    QTableWidget *lifecycleView() const { return m_lifecycle; }

    /** Shows the lifecycle of `key` (a KeyAnalysis key index) under the key table. */
    void showLifecycle(int key);

signals:
    /** A key row was clicked or moved to: `key` is its KeyAnalysis key index. */
    void keyActivated(int key);

protected:
    void showAnalysis() override;

private:
    KeyTableModel *m_keyModel = nullptr;
    QTableView *m_keyView = nullptr;
    QLineEdit *m_prefix = nullptr;
    QTableWidget *m_lifecycle = nullptr;
    QLabel *m_lifecycleTitle = nullptr;
};

}  // namespace lmct
