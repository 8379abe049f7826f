#pragma once

#include <QObject>
#include <QString>
#include <functional>
#include <vector>

class QMenu;
class QWidget;

namespace lmct {

class CompareTab;
class ReportActions;
class TimelineWidget;
class TraceTab;

/**
 * File > Export Report… (ReportActions) and the File > Export submenu: records of the current tab
 * (the filtered set, in table order) as CSV or JSON Lines (RecordExport), the statistics tables as
 * CSV (TableCsv), header and configuration as JSON, Chrome trace-event JSON for Perfetto
 * (ChromeTraceExport), the records shown with the trace's keys, requests, diagnostics and header as
 * one SQLite database (SqliteExport: off the GUI thread, on JobPool, with a progress dialog and
 * Cancel), a PNG screenshot of the whole window (QWidget::grab at the device pixel ratio), and,
 * once addTimeline() is called, the timeline as PNG, SVG or PDF, Copy Image and the Export Size
 * submenu (the timeline's own TimelineExportActions, the very actions of its context menu).
 *
 * Every file is written through ExportFile (QSaveFile), the SQLite database through a temporary
 * file renamed over the target; an error shows a QMessageBox naming the path and the reason,
 * and leaves nothing behind (as does a cancelled SQLite export). The static write functions do the
 * work without dialogs (tests call them).
 *
 * Ownership: a child of the window. Thread-safety: GUI thread.
 */
class ExportActions : public QObject {
    Q_OBJECT
public:
    /** `currentTab` returns the tab to export (nullptr: actions disabled). */
    ExportActions(QWidget *window, std::function<TraceTab *()> currentTab);

    /** Adds File > Export Report… (ReportActions) and the Export submenu to `fileMenu`. */
    QMenu *addMenu(QMenu *fileMenu);
    /** The comparison shown when the current tab is one, for Export Report…. */
    void setCurrentComparison(std::function<CompareTab *()> currentComparison);
    /** File > Export Report…. */
    ReportActions *reportActions() const { return m_report; }
    /** Adds `timeline`'s export actions at the top of the submenu made by addMenu(). */
    void addTimeline(TimelineWidget *timeline);

    /** The tab's records as shown by its table (filter and sort applied). */
    static std::vector<int> tableRecords(const TraceTab &tab);

    enum class Kind { RecordsCsv, RecordsJsonl, StatisticsCsv, HeaderJson, ChromeJson, Sqlite };

    /** Writes `kind` of `tab` to `path` (on the calling thread); false with `error` set. */
    static bool write(const TraceTab &tab, Kind kind, const QString &path, QString *error);

    /**
     * Writes the current tab as SQLite to `path` off the GUI thread, with a window-modal
     * progress dialog whose Cancel stops it; sqliteExportFinished() follows (after the error's
     * QMessageBox, shown unless cancelled). What the menu action runs once a path is chosen.
     */
    void startSqliteExport(const QString &path);

    /** A PNG of `widget` as shown, at its device pixel ratio. */
    static bool writeScreenshot(QWidget *widget, const QString &path, QString *error);

signals:
    /** A startSqliteExport() ended: `ok`, or `error` ("cancelled" when cancelled). */
    void sqliteExportFinished(bool ok, const QString &error);

private:
    void exportKind(Kind kind);
    void exportScreenshot();
    QString askPath(const QString &title, const QString &suggested, const QString &filter);

    QWidget *m_window;
    QMenu *m_menu = nullptr;
    std::function<TraceTab *()> m_currentTab;
    ReportActions *m_report = nullptr;
};

}  // namespace lmct
