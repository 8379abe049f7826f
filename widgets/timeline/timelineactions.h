#pragma once

#include "timeline/timelinelanes.h"

#include <QObject>
#include <functional>

class QAction;
class QActionGroup;
class QMenu;
class QToolBar;
class QWidget;

namespace lmct {

class LaneLayout;
class StableLabel;
class TimelineIndex;
class TimelineViewport;
class TraceDocument;

/**
 * The timeline's actions, made once and shared by its toolbar, its context menu and its
 * keyboard shortcuts: Relative / Wall clock (exclusive), UTC, Fit (the time range or the
 * selected record, again: everything; F), Fit everything (Home), Back (Backspace), Rate, Hit
 * ratio (the what-if's hit-ratio plot, in the menus only; enabled while there is one to show),
 * Hide filtered out,
 * Keep newest in view (End), Clear the time range (Esc) and the Lanes menu; and the toolbar's busy
 * and info labels.
 *
 * The toolbar shows an action's icon text (short: "Fit", "Back"), menus its text ("Previous
 * view"). The shortcuts work while the focus is within the timeline (Qt::WidgetWithChildrenShortcut
 * on the widget given) and only while setShortcutsEnabled(true), i.e. while there is something to
 * navigate; Esc is left to the timeline's key handling (the main window has an Esc shortcut of its
 * own, and Esc first cancels a drag). The owner connects the actions' triggered/toggled signals.
 *
 * Ownership: a QObject child of `timeline`; the toolbar is a child of `timeline` (the owner puts
 * it into its layout). Thread-safety: GUI thread only.
 */
class TimelineActions : public QObject {
    Q_OBJECT
public:
    explicit TimelineActions(QWidget *timeline);

    QToolBar *toolbar() const { return m_toolbar; }
    QAction *relative() const { return m_relative; }
    QAction *wall() const { return m_wall; }
    QAction *utc() const { return m_utc; }
    QAction *fit() const { return m_fit; }
    QAction *fitAll() const { return m_fitAll; }
    QAction *back() const { return m_back; }
    QAction *rate() const { return m_rate; }
    QAction *hitRatio() const { return m_hitRatio; }
    QAction *hideFiltered() const { return m_hideFiltered; }
    QAction *keepNewest() const { return m_keepNewest; }
    QAction *clearRange() const { return m_clearRange; }
    /** The toolbar's Lanes menu; lanesMenuAboutToShow() asks the owner to fill it. */
    QMenu *lanesMenu() const { return m_lanesMenu; }
    /** What is visible; objectName "timelineInfo". */
    StableLabel *info() const { return m_info; }

    /** The busy label ("Indexing…"; objectName "timelineBusy"): `text` shown, empty: hidden
     *  (the last text is kept while hidden); `tip` on it and on the info label. */
    void setBusy(const QString &text, const QString &tip);
    /**
     * The info label: the duration of [from, to] (t_mono, seconds) and the calls of the call rows
     * of `rows` drawn in it; with `filterIndex`, how many of them match; "filtering…" while the
     * filter's index is built. Empty without `index`.
     */
    void showInfo(const TimelineIndex *index, const TimelineIndex *filterIndex, bool filtering,
                  const QVector<TimelineLanes::Row> &rows, double from, double to);
    /**
     * The busy label: `stage` (the build's), or, while the index lags behind what `doc` read,
     * "Loading…" / "Indexing…" with the counts read and drawn in the tooltip.
     */
    void showProgress(const TraceDocument *doc, const TimelineIndex *index, const QString &stage);
    /**
     * The navigation keys: W, + and = zoom in around `anchor()` (t_mono, seconds), S and −
     * zoom out, A and ← pan left, D and → pan right. False for any other key (not handled).
     */
    static bool navigate(int key, TimelineViewport *viewport,
                         const std::function<double()> &anchor);
    /**
     * Fills `menu` (cleared first) with a checkable entry per lane of `layout` in its order
     * (checked: shown) and "Show all lanes in call-flow order"; toggling calls
     * `setHidden(key, hidden)`, the last `reset()`. `context` scopes the connections.
     */
    static void fillLanesMenu(QMenu *menu, const LaneLayout &layout, QObject *context,
                              const std::function<void(const QString &, bool)> &setHidden,
                              const std::function<void()> &reset);
    /**
     * Adds the entries of the lane row `row` (of `rowCount`) labelled `name` to a context menu:
     * Hide, Move up / down / to top / to bottom (calling `move(delta)`, disabled at the ends),
     * then a separator. `context` scopes the connections.
     */
    static void addLaneActions(QMenu *menu, const QString &name, int row, int rowCount,
                               QObject *context, const std::function<void()> &hide,
                               const std::function<void(int)> &move);
    /** Checks one of the exclusive time-axis actions. */
    void setTimeAxis(bool wall);
    /** Turns the shortcuts on (something to navigate) or off (they pass through). */
    void setShortcutsEnabled(bool on);

    /**
     * Adds the view's part of the context menu to `menu`: the time axis, fits (the fit action
     * titled after what it fits: the time range when there is one, else the selected record;
     * left out for neither), Clear the time range (with one), Back, Rate and Hit ratio.
     */
    void addViewActions(QMenu *menu, bool hasRecord, bool hasRange);

signals:
    /** The Lanes menu (`menu`: the toolbar's or a context menu's) is about to show. */
    void lanesMenuAboutToShow(QMenu *menu);

private:
    QToolBar *m_toolbar = nullptr;
    QAction *m_relative = nullptr;
    QAction *m_wall = nullptr;
    QAction *m_utc = nullptr;
    QAction *m_fit = nullptr;
    QAction *m_fitAll = nullptr;
    QAction *m_back = nullptr;
    QAction *m_rate = nullptr;
    QAction *m_hitRatio = nullptr;
    QAction *m_hideFiltered = nullptr;
    QAction *m_keepNewest = nullptr;
    QAction *m_clearRange = nullptr;
    QMenu *m_lanesMenu = nullptr;
    StableLabel *m_info = nullptr;
    StableLabel *m_busy = nullptr;
    QAction *m_busyAction = nullptr;  // shows and hides m_busy in the toolbar
};

}  // namespace lmct
