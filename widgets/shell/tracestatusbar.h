#pragma once

#include <QList>
#include <QStatusBar>

class QFrame;
class QLabel;
class QToolButton;

namespace lmct {

class StableLabel;
class TraceTab;

/**
 * The main window's status bar: what the current trace is. It shows the file's name (its path
 * as a tooltip), its size (and "shrank" when another process truncated it), its records (and how
 * many the time range shows), its duration, a clickable count of errors and warnings
 * (problemsClicked(): the main window raises the Diagnostics dock), and "partial" when its load
 * was cancelled or "partial check" (and at which record) when only the check of the arguments
 * after indexing was. Without a tab it says how to open a trace.
 *
 * The counts change while a trace loads or is followed: their labels keep a stable width
 * (StableLabel, object names "statusSize", "statusRecords", "statusDuration"), so that they and
 * the button beside them do not jump.
 *
 * Units: sizes in bytes (shown with the locale's data size units), durations in `t_mono`
 * seconds. Ownership: owns its labels; does not own the tab shown (read in showTab() only).
 * Thread-safety: GUI thread only. Errors: none.
 */
class TraceStatusBar : public QStatusBar {
    Q_OBJECT
public:
    explicit TraceStatusBar(QWidget *parent = nullptr);

    /** Shows what `tab` holds now (nullptr: no tab is open). */
    void showTab(TraceTab *tab);
    /** Shows `text` alone (e.g. what a comparison tab compares), as for no trace's tab. */
    void showText(const QString &text);
    /** The texts shown, joined with " | " (what a user reads there). */
    QString statusText() const;

signals:
    /** The count of errors and warnings was clicked. */
    void problemsClicked();

private:
    QLabel *m_statusFile = nullptr;
    StableLabel *m_statusSize = nullptr;      // objectName "statusSize"
    StableLabel *m_statusRecords = nullptr;   // objectName "statusRecords"
    StableLabel *m_statusDuration = nullptr;  // objectName "statusDuration"
    QToolButton *m_statusProblems = nullptr;
    QLabel *m_statusPartial = nullptr;
    QList<QFrame *> m_statusSeparators;
};

}  // namespace lmct
