#pragma once

#include <QObject>
#include <QSet>
#include <QStringList>

class QMenu;
class QWidget;

namespace lmct {

class CombinedTab;
class MainWindow;
class TimelineWidget;
class ViewState;

/**
 * The main window's side of combined tabs (CombinedTab: several traces of one deployment on one
 * t_wall axis): File > Open as One Deployment…, `lmct-viewer --combine FILE...` (combineFiles()),
 * and what the window asks of a tab that is not a single trace's: which ViewState its docks
 * follow (the selected record's trace), its status text, its UTC setting, closing it.
 *
 * While a combined tab is current the docks follow its current trace, rebound when a record of
 * another trace is selected; the Timeline and Cache Behaviour docks are hidden, as for a
 * comparison (the tab has a timeline per trace). A tab none of whose files can be read is
 * removed again with MainWindow::loadFailed() and, unless dialogs are off, a warning box.
 *
 * Ownership: a QObject child of the window. Thread-safety: GUI thread only.
 */
class CombineActions : public QObject {
    Q_OBJECT
public:
    explicit CombineActions(MainWindow *window);

    /** Adds File > Open as One Deployment… to `file`. */
    void addTo(QMenu *file);
    /** Opens `paths` as one deployment in a new tab (the indices in `followed` are followed
     *  as they are written) and returns it. */
    CombinedTab *combineFiles(const QStringList &paths, const QSet<int> &followed = {});
    /** Asks for the traces (DeploymentDialog: files, or open tabs' traces, and which to
     *  follow) and combines them. */
    void showOpenDialog();
    /**
     * Adds Group Lanes By (model, rank, tenant) to the Lanes menu of `timeline` (the Timeline
     * dock's): it opens the current trace's tab as a one-trace deployment, its lanes grouped,
     * so that e.g. a TP=4 trace shows its four ranks one under the other.
     */
    void addGroupingTo(TimelineWidget *timeline);
    /** Opens the loaded document of the current trace's tab grouped by `by` in a new combined
     *  tab; null when no trace's tab with a loaded document is current. */
    CombinedTab *groupCurrentTrace(int by);

    /** The ViewState the docks follow for tab widget `w` when it is a combined tab, else null. */
    static ViewState *stateOf(QWidget *w);
    static bool isCombined(QWidget *w);
    /** The status bar's text for a combined tab `w`; empty when it is none. */
    static QString statusOf(QWidget *w);
    static void setWallUtc(QWidget *w, bool utc);
    static void cancel(QWidget *w);
    /** Closes tab `index` when it is a combined tab; false (nothing done) otherwise. */
    bool close(int index);

private:
    /** Adds `tab` (its files given or its documents set) to the window's tabs. */
    void addTab(CombinedTab *tab);

    MainWindow *m_window;
};

}  // namespace lmct
