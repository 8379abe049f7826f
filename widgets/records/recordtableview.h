#pragma once

#include "common/viewstateobserver.h"
#include "viewstate.h"

#include <QPointer>
#include <QTableView>
#include <memory>
#include <vector>

class QMenu;

namespace lmct {

class DecoratedRecordTableModel;

/**
 * The record table of one trace: a QTableView over a DecoratedRecordTableModel it owns, bound to
 * a ViewState.
 *
 * - Sortable by clicking a header (the model sorts itself); rows have one fixed height; column
 *   widths follow the content of the document, and the summary column takes the rest.
 * - Selecting a row sets ViewState::selectedRecord; a change of ViewState::selectedRecord from
 *   any view selects the record's row and scrolls to it.
 * - When ViewState::timeRange is set, only the records whose t_mono lies inside it (inclusive)
 *   are shown. t_mono may step back slightly in file order, so the subset is a linear scan, done
 *   on a worker thread for large traces (more than asyncThreshold() records). Esc clears the
 *   range.
 * - When ViewState::filterRecords is set, only those records are shown (intersected with the
 *   time range when one is set).
 * - Records touching ViewState::followedKey are highlighted (the view evaluates the key's
 *   expression off the GUI thread and stores the records in the ViewState); `.` and `,` select
 *   the next / previous shown record touching it.
 * - The context menu offers Filter to this / Exclude this / Follow this key for the row's call
 *   and for every distinct chunk hash, model, rank, object group, cache salt and request id in
 *   its arguments (FilterMenuBuilder: one submenu per field with several values, capped).
 * - An empty table says why (a trace without records, or a time range without any).
 * - Ctrl+C copies the selected rows as tab-separated text; the context menu also narrows the
 *   time range to the selected rows and goes to a record by number.
 *
 * Ownership: owns its model; does not own the ViewState. Thread-safety: GUI thread only.
 */
class RecordTableView : public QTableView, public ViewStateObserver {
    Q_OBJECT
public:
    explicit RecordTableView(QWidget *parent = nullptr);
    ~RecordTableView() override;

    void setViewState(ViewState *state) override;
    ViewState *viewState() const { return m_state; }

    DecoratedRecordTableModel *recordModel() const { return m_model; }

    /**
     * Selects record `record` (file-order index) and scrolls to it. When a time range hides it,
     * the range is cleared first. Returns false when there is no such record.
     */
    bool goToRecord(int record);
    /** Asks for a record number (Ctrl+G) and goes there. */
    void promptGoToRecord();
    /** Narrows the ViewState's time range to the t_mono span of the selected rows. */
    void narrowToSelection();
    /** Copies the selected rows as tab-separated text (with a header line) to the clipboard. */
    void copySelectedRows();

    /**
     * Selects the next (`direction` > 0) or previous shown record touching the followed key,
     * after / before the selected one. Returns false when there is none.
     */
    bool stepFollowed(int direction);
    /**
     * Adds Filter to This / Exclude This / Follow This Key submenus for record `record`: its
     * call and every value of FilterComposer::choicesInTree() (FilterMenuBuilder).
     */
    void addFilterActions(QMenu *menu, int record);

    /**
     * What the table says over its empty viewport: no record matches the filter, none in the
     * time range, the trace is still being read or followed ("Waiting for records…": a followed
     * file may not even have its header yet), or it has no records. Empty while rows are shown
     * or no trace is open.
     */
    QString emptyMessage() const;

    /** Traces with more records than this compute their time-range subset off the GUI thread. */
    static int asyncThreshold() { return 200000; }

signals:
    /** The shown rows changed after a time range change (the subset is in place). */
    void subsetApplied();

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    void pushSelectionToState();
    void onDocumentChanged();
    void onSelectedRecordChanged(int record);
    void onTimeRangeChanged();
    void onFollowedKeyChanged();
    void applySubset(std::shared_ptr<const std::vector<int>> rows);
    void syncSelectionFromState();
    void fitColumns();

    DecoratedRecordTableModel *m_model = nullptr;
    QPointer<ViewState> m_state;
    bool m_syncing = false;
    quint64 m_subsetGeneration = 0;
    quint64 m_followGeneration = 0;
};

}  // namespace lmct
