#pragma once

#include <QList>
#include <QPointer>
#include <QTableView>

class QMenu;

namespace lmct {

class CombinedRecordTableModel;
class ViewState;

/**
 * The record table of a combined tab: a QTableView over a CombinedRecordTableModel (not owned),
 * rows selected whole and one at a time, one fixed row height, column widths for the usual
 * contents and the summary taking the rest.
 *
 * - Sortable by clicking a header (the model sorts itself; Row restores the merge order).
 * - The context menu offers, as the single-trace record table does, Filter to This / Exclude
 *   This for the row's trace (`trace == "label"`), its call and every distinct chunk hash,
 *   model, rank, object group, cache salt and request id in its arguments (FilterMenuBuilder).
 *   The condition goes to the filter of the row's trace's ViewState, which the combined tab
 *   takes as the filter of every trace. Following a key is left to the docks (the combined
 *   table highlights none).
 * - "Show All Records" (and Esc) clears the time range of every trace (setStates()).
 * - An empty table says why (no record in the time range, none matching the filter).
 *
 * Ownership: does not own the model or the ViewStates (QPointers). Thread-safety: GUI thread
 * only.
 */
class CombinedRecordView : public QTableView {
    Q_OBJECT
public:
    explicit CombinedRecordView(CombinedRecordTableModel *model, QWidget *parent = nullptr);

    /** The ViewStates of the traces (states[t] shows trace t of the model's set). */
    void setStates(const QList<ViewState *> &states);
    /** Adds the Filter to This / Exclude This entries for the table row `row`. */
    void addFilterActions(QMenu *menu, int row);
    /** Clears the time range of every trace. */
    void showAllRecords();
    /** What the table says over its empty viewport; empty while rows are shown. */
    QString emptyMessage() const;

protected:
    void contextMenuEvent(QContextMenuEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    CombinedRecordTableModel *m_model = nullptr;
    QList<QPointer<ViewState>> m_states;
};

}  // namespace lmct
