#pragma once

#include <QObject>
#include <QString>
#include <functional>

class QAction;
class QWidget;

namespace lmct {

class CompareTab;
class ReportJob;
class TraceTab;

/**
 * File > Export Report…: the report of the current tab (ReportJob, what `lmct-viewer --report`
 * writes): of its trace with its applied filter and time range (TraceTab), or of the comparison
 * (CompareTab: both traces, trace A's filter and range for the timelines, lined up as the tab
 * lines them up: its alignment and B's offset). A file dialog asks
 * where (PDF, or one HTML file; a name without either suffix becomes .pdf); the report is made
 * off the GUI thread with a window-modal progress dialog whose Cancel stops it (nothing is
 * written); a failure shows a message box naming the path and the reason and leaves no file.
 *
 * Ownership: a child of the window (the action too). Thread-safety: GUI thread.
 */
class ReportActions : public QObject {
    Q_OBJECT
public:
    ReportActions(QWidget *window, std::function<TraceTab *()> currentTab);

    /** "Export &Report…" (object name "exportReport"), enabled while there is a report to make. */
    QAction *action() const { return m_action; }
    /** The comparison shown, when the current tab is one (nullptr otherwise). */
    void setCurrentComparison(std::function<CompareTab *()> currentComparison);
    /** Enables the action when the current tab has a trace or a finished comparison. */
    void updateEnabled();

    /**
     * Asks where to save: (dialog title, suggested path, name filter) → path, empty to cancel.
     * The default is QFileDialog::getSaveFileName; tests replace it to avoid a modal dialog.
     */
    using PathProvider = std::function<QString(const QString &title, const QString &suggested,
                                               const QString &filter)>;
    void setPathProvider(PathProvider provider);

    /** Starts the report of the current tab to `path` (no dialog); false when there is none. */
    bool start(const QString &path);
    bool isRunning() const { return m_job != nullptr; }
    /** Stops a report being made (what the progress dialog's Cancel does); nothing is written. */
    void cancel();

signals:
    /** A report ended: `ok`, or `error` (empty when cancelled). */
    void finished(bool ok, const QString &error);

private:
    void exportReport();

    QWidget *m_window;
    QAction *m_action = nullptr;
    std::function<TraceTab *()> m_currentTab;
    std::function<CompareTab *()> m_currentComparison;
    PathProvider m_pathProvider;
    ReportJob *m_job = nullptr;
};

}  // namespace lmct
