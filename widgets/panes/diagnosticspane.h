#pragma once

#include "common/viewstateobserver.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QTableView;

namespace lmct {

class DiagnosticsModel;
class ViewState;

/**
 * The diagnostics pane: what reading the file had to skip, recover or warn about, as a table
 * over DiagnosticsModel (Severity with icon and colour, Offset in bytes, Kind, Message; long
 * messages are elided, the full text is the tooltip and Ctrl+C copies it).
 *
 * Clicking a row (or moving to it with the keyboard) selects the record nearest the
 * diagnostic's offset (DiagnosticsModel::RecordRole) in the ViewState; when the current time
 * range hides that record, the range is cleared so the record can be shown.
 *
 * A summary line counts errors, warnings and notes. Ownership: owns its model; does not own the
 * ViewState. Thread-safety: GUI thread only.
 */
class DiagnosticsPane : public QWidget, public ViewStateObserver {
    Q_OBJECT
public:
    explicit DiagnosticsPane(QWidget *parent = nullptr);
    ~DiagnosticsPane() override;

    void setViewState(ViewState *state) override;

    DiagnosticsModel *model() const { return m_model; }
    QTableView *tableView() const { return m_table; }
    /** The summary line as shown ("1 error, 0 warnings, 1 note"). */
    QString summaryText() const;

    /** Selects in the ViewState the record nearest the diagnostic at `row`; false if none. */
    bool activateRow(int row);

    /** Copies the current row's full message to the clipboard (Ctrl+C). */
    void copyCurrentMessage();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onDocumentChanged();
    void updateSummary();

    QPointer<ViewState> m_state;
    DiagnosticsModel *m_model = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_summary = nullptr;
};

}  // namespace lmct
