#pragma once

#include "comparealignmentoptions.h"

#include <QList>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>

class QAction;
class QDockWidget;
class QMenu;
class QScrollArea;
class QStackedWidget;
class QTabWidget;

namespace lmct {

class CombineActions;
class CompareTab;
class DiagnosticsPane;
class DockLayout;
class ExportActions;
class HeaderPane;
class InspectorPane;
class StatisticsPane;
class RecentFiles;
class RefusedFiles;
class TraceStatusBar;
class TraceTab;
class ViewDocks;
class ViewState;
class WelcomePage;

/**
 * The viewer's main window: one tab per open trace (TraceTab: its ViewState and record table),
 * and dock views that follow the current tab.
 *
 * Files open from File > Open (several at once), File > Open Recent, drag and drop, the command
 * line (openFiles) and Help > Open Sample Trace. Each file loads off the GUI thread inside its
 * tab; a file the loader refuses produces loadFailed() and, unless dialogs are off
 * (setShowDialogs(false), for tests), a warning box with the loader's reason; its tab is
 * removed. Files refused while that box is open join it (one box lists them all, in the order
 * they were opened). Opening a file that is already open switches to its tab.
 *
 * File > Compare… (compareFiles(), also `--compare A B`) opens two traces side by side in a
 * comparison tab (CompareTab); while it is current, the docks follow its trace A, and the
 * Timeline and Cache Behaviour docks are hidden (its own timelines and Compare pane take their
 * room), to come back when a trace's tab is current again.
 *
 * Docks: Inspector, Header and Diagnostics, added with addViewDock(). Every dock view that
 * implements ViewStateObserver (or has an invokable `setViewState(lmct::ViewState*)`) is rebound
 * to the current tab's ViewState when the tab changes, and to nullptr when none is open. To add
 * a view (e.g. a timeline), one line in createDocks():
 *
 *     addViewDock(tr("Timeline"), new TimelineWidget, Qt::BottomDockWidgetArea);
 *
 * The status bar (TraceStatusBar) shows the current file's name, size, records (and how many
 * the time range shows), duration, a clickable count of errors and warnings (raises the
 * Diagnostics dock), and "partial" when its load was cancelled, or "partial check" (and at which
 * record) when only the check of the arguments after indexing was; the tab's title says the same.
 * Geometry, dock layout, the UTC setting, the last folder and recent files are kept in QSettings.
 * Its parts: ViewDocks (the dock views and their binding), DockLayout (geometry, dock layout, the
 * docks a tab leaves out), RefusedFiles (the box of files that cannot be opened), ExportActions,
 * RecentFiles, TraceStatusBar.
 *
 * Thread-safety: GUI thread only.
 */
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /**
     * Whether the saved window layout was dropped at start because the previous start that
     * restored it did not live DockLayout::kLayoutSurvivalMs (a crash while laying it out).
     */
    bool layoutWasReset() const;
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /** Opens each file in its own tab (see openFile). */
    void openFiles(const QStringList &paths);
    /**
     * Opens `path` in a new tab and starts loading it; returns the tab. When the file is already
     * open, switches to its tab and returns it. The tab goes away again if the load fails.
     */
    TraceTab *openFile(const QString &path);
    /** Opens `path` in a new tab and follows it as it is written (File > Follow, --follow). */
    TraceTab *followFile(const QString &path);
    /** Opens the bundled sample trace (:/samples/sample.lct); nullptr if it is not built in. */
    TraceTab *openSample();
    /**
     * Opens a comparison of the traces at `a` and `b` in a new tab (CompareTab) and returns it:
     * traces open in loaded tabs are compared as they are, other files are loaded first, B
     * lined up with A as `alignment` says (CompareTab::lineUp()). File > Compare… and
     * `lmct-viewer --compare A B` come here. A file that cannot be read
     * removes the tab again, with loadFailed() (and a warning box unless dialogs are off).
     */
    CompareTab *compareFiles(const QString &a, const QString &b,
                             const CompareAlignmentOptions &alignment = {});
    /** The comparison tab at `index`, or nullptr when it is a trace's tab. */
    CompareTab *compareTabAt(int index) const;
    /** Closes the tab at `index` (cancelling its load if one is running). */
    void closeTab(int index);

    /**
     * Adds `view` in a new dock titled `title` in `area` and returns the dock. When `view` is a
     * ViewStateObserver, or has an invokable setViewState(lmct::ViewState*), it is bound to the
     * current tab's ViewState now and rebound whenever the current tab changes. The dock's
     * object name (for saving the layout) is derived from the title. Its toggle action goes to
     * the View menu.
     *
     * The dock holds `view` inside a frameless QScrollArea (dockView() finds it again): a pane
     * squeezed below its minimum size scrolls instead of raising the window's minimum size.
     * Without it the panes' minimums added up to 1233x971 px, more than a laptop screen or a
     * layout saved on a larger screen allows, and Qt 6.4's dock layout then corrupted memory
     * while laying out the window (a crash at every start, issues #3/#5).
     */
    QDockWidget *addViewDock(const QString &title, QWidget *view, Qt::DockWidgetArea area);

    /** The view that addViewDock() put in `dock` (inside its scroll area), or nullptr. */
    static QWidget *dockView(const QDockWidget *dock);

    /**
     * The name filters of the File > Open and File > Follow dialogs, in order: LMCache traces
     * by extension ("LMCache traces (*.lct *.lmct)", the default), then "All files (*)" for a
     * trace saved under another name.
     */
    static QStringList traceFileFilters();

    /**
     * Reports a file that cannot be opened (`reason`: the loader's message) in the one warning
     * box of refused files, created or extended, unless dialogs are off. Refused loads come
     * here; so do command-line arguments refused before loading.
     */
    void reportRefused(const QString &path, const QString &reason);
    /** The open box listing refused files, or nullptr. */
    QMessageBox *refusedBox() const;

    /** Whether load errors are shown in a message box (default true; tests turn it off). */
    void setShowDialogs(bool show) { m_showDialogs = show; }

    TraceTab *currentTab() const;
    TraceTab *tabAt(int index) const;
    int tabCount() const;
    QTabWidget *tabWidget() const { return m_tabs; }
    InspectorPane *inspectorPane() const { return m_inspector; }
    HeaderPane *headerPane() const { return m_header; }
    DiagnosticsPane *diagnosticsPane() const { return m_diagnostics; }
    StatisticsPane *statisticsPane() const { return m_statistics; }
    QDockWidget *diagnosticsDock() const { return m_diagnosticsDock; }
    RecentFiles *recentFiles() const { return m_recent; }
    /** File > Open as One Deployment… and `--combine` (CombineActions). */
    CombineActions *combine() const { return m_combine; }
    /** The status bar's texts joined with " | " (what a user reads there). */
    QString statusText() const;

signals:
    /** A file could not be opened; `error` is the loader's reason. */
    void loadFailed(const QString &path, const QString &error);
    /** A tab's document is loaded and shown. */
    void traceLoaded(lmct::TraceTab *tab);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    void createDocks();
    void createStatusBar();
    TraceTab *addTab(TraceTab *tab, const QString &title, const QString &toolTip);
    void onCurrentTabChanged();
    void onTabLoaded(TraceTab *tab);
    void onTabFailed(TraceTab *tab, const QString &error);
    void updateStatus();
    void updateActions();
    void showOpenDialog();
    void showCompareDialog();
    void showAbout();

    QStackedWidget *m_center = nullptr;
    WelcomePage *m_welcome = nullptr;
    QScrollArea *m_welcomeArea = nullptr;  // holds m_welcome
    QTabWidget *m_tabs = nullptr;
    InspectorPane *m_inspector = nullptr;
    HeaderPane *m_header = nullptr;
    DiagnosticsPane *m_diagnostics = nullptr;
    StatisticsPane *m_statistics = nullptr;
    QDockWidget *m_inspectorDock = nullptr;
    QDockWidget *m_headerDock = nullptr;
    QDockWidget *m_diagnosticsDock = nullptr;
    QDockWidget *m_timelineDock = nullptr;
    QDockWidget *m_cacheDock = nullptr;
    ExportActions *m_exportActions = nullptr;
    ViewDocks *m_viewDocks = nullptr;  // the dock views and their binding
    QPointer<ViewState> m_boundState;
    RecentFiles *m_recent = nullptr;
    RefusedFiles *m_refused = nullptr;  // the box of files that cannot be opened
    DockLayout *m_layout = nullptr;     // geometry, dock layout, docks left out per tab
    CombineActions *m_combine = nullptr;
    friend class CombineActions;  // rebinds the docks and closes its tabs

    QMenu *m_viewMenu = nullptr;
    QAction *m_closeTabAction = nullptr;
    QAction *m_goToAction = nullptr;
    QAction *m_showAllAction = nullptr;
    QAction *m_utcAction = nullptr;
    QAction *m_docksSeparator = nullptr;

    TraceStatusBar *m_statusBar = nullptr;

    bool m_showDialogs = true;
};

}  // namespace lmct
