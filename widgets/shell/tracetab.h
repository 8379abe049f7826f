#pragma once

#include "trace/tracedocument.h"
#include "util/terminaltext.h"

#include <QElapsedTimer>
#include <QWidget>
#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;
class QStackedWidget;

class QTimer;
class QLabel;
class QProgressBar;
class QPushButton;

namespace lmct {

class FilterBar;
class FindBar;
class RecordTableView;
class TraceLoadJob;
class ViewState;

/**
 * One open trace in the main window's tab bar: it owns the trace's ViewState, its record table
 * and the load that fills them.
 *
 * While the file loads (TraceLoadJob, off the GUI thread) the tab shows a progress bar with
 * bytes and records read and a Cancel button; a cancelled load shows what was read, and the
 * document is marked partial. Above the table, a FilterBar edits the ViewState's filter and a
 * FindBar (Ctrl+F, hidden until then) searches without filtering. When the ViewState has a time
 * range, a bar above the table says how many records it shows and offers to show all again (Esc).
 * A file opened with load() or follow() gets its last applied filter back (FilterMemory) as soon
 * as its document is shown, and every filter applied to it later is remembered.
 *
 * Once a file on disk is loaded (or no longer followed), the tab checks about once a second
 * whether another process truncated it (TraceDocument::checkShrunk(), one fstat): the document
 * then gets its one "shrank" error, and the views (Diagnostics, status bar) are told through
 * ViewState::notifyDocumentGrew(), as they are when a read of a record's arguments past the new
 * end noticed it first. Nothing is told while nothing changed.
 *
 * The record table keeps kKeptTableRows rows of height when a dock grows for a view
 * (DockRoom::keepHeight(), e.g. the timeline for its hit-ratio plot).
 *
 * Ownership: owns its ViewState, table and load job; the document is shared. Thread-safety: GUI
 * thread only.
 */
class TraceTab : public QWidget {
    Q_OBJECT
public:
    /** The record table's rows a dock grown by DockRoom leaves in view. */
    static constexpr int kKeptTableRows = 12;

    explicit TraceTab(QWidget *parent = nullptr);
    ~TraceTab() override;

    /** Starts loading the file at `path`. Call one of the load functions once. */
    void load(const QString &path);
    /**
     * Opens `path` and follows it while LMCache is still writing it: new complete records
     * appear within about half a second; stopFollowing() (or closing the tab) ends it.
     */
    void follow(const QString &path);
    void stopFollowing();
    bool isFollowing() const { return m_following; }
    /** Starts loading `bytes` (the bundled sample); `name` is the tab's file name. */
    void loadBytes(const QByteArray &bytes, const QString &name);
    /** Stops a running load; loaded() follows with what was read (partial). */
    void cancelLoad();

    /** The file's path as given to load() (or the name given to loadBytes()). */
    QString filePath() const { return m_path; }
    /** The file name without its directory, for the tab's label: controls and bidi overrides
     *  escaped (TerminalText). */
    QString fileName() const;
    bool isLoading() const { return m_loading; }
    /** The loaded document, or nullptr while loading or after a failure. */
    std::shared_ptr<const TraceDocument> document() const;
    /** How long the load took, in milliseconds (0 while loading). */
    qint64 loadMilliseconds() const { return m_loadMs; }

    ViewState *viewState() const { return m_state; }
    RecordTableView *table() const { return m_table; }
    FilterBar *filterBar() const { return m_filterBar; }
    FindBar *findBar() const { return m_findBar; }

signals:
    /** Load progress (bytes of the file read, total bytes, records indexed). */
    void loadProgress(qint64 bytesDone, qint64 bytesTotal, qint64 records);
    /** The header is read and the document is in the ViewState, still filling. */
    void opened();
    /** The document is in the ViewState and complete (possibly partial, if the load was
     *  cancelled); when following, as soon as it is opened. */
    void loaded();
    /** The file was refused; `error` is the loader's reason (file, offset, expected/found). */
    void loadFailed(const QString &error);
    /** Following ended (stopFollowing(), or the file shrank); the document stays shown. */
    void followingEnded();

private:
    void startJob();
    void onProgress(qint64 done, qint64 total, qint64 records);
    void onFinished(std::shared_ptr<const TraceDocument> doc, const QString &error);
    void onOpened(std::shared_ptr<const TraceDocument> doc);
    void updateLiveBar();
    /** While loading or following: tells the views the document grew. Once loaded: checks
     *  whether the file shrank and tells the views only when the document found something new. */
    void onGrowTimer();
    /** Once the load (or following) ended: keeps an eye on a file on disk (see onGrowTimer()). */
    void watchLoadedFile();
    void updateRangeBar();
    /** Once the document is shown: applies the file's remembered filter (FilterMemory) and
     *  remembers every later change of the filter. Not for loadBytes(). */
    void restoreFilter();

    QString m_path;
    ViewState *m_state = nullptr;
    TraceLoadJob *m_job = nullptr;
    QStackedWidget *m_stack = nullptr;
    QWidget *m_loadingBox = nullptr;
    QLabel *m_loadingTitle = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_progressText = nullptr;
    QPushButton *m_cancel = nullptr;
    QWidget *m_rangeBar = nullptr;
    QLabel *m_rangeText = nullptr;
    RecordTableView *m_table = nullptr;
    FilterBar *m_filterBar = nullptr;
    FindBar *m_findBar = nullptr;
    bool m_loading = false;
    bool m_following = false;
    bool m_remembersFilter = false;  // a file on disk: its last filter is remembered
    bool m_filterRestored = false;
    static constexpr int kGrowMs = 200;    // while loading or following
    static constexpr int kWatchMs = 1000;  // once loaded: checks whether the file shrank
    QTimer *m_growTimer = nullptr;         // tells views the document grew (see onGrowTimer())
    bool m_onDisk = false;                 // load() or follow(), not loadBytes()
    qint64 m_diagnosticsSeen = 0;  // the document's diagnosticCount() the views were told of
    qint64 m_shrunkSeen = -1;      // the size the file shrank to at the last look, or -1
    QWidget *m_liveBar = nullptr;  // loading or following, above the table
    QLabel *m_liveText = nullptr;
    QProgressBar *m_liveProgress = nullptr;
    QPushButton *m_liveStop = nullptr;
    QElapsedTimer m_clock;
    qint64 m_loadMs = 0;
};

}  // namespace lmct
