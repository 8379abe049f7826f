#pragma once

#include <QPointer>

namespace lmct {

class ViewState;

/**
 * A view that shows one trace through a ViewState: the record table, the inspector, the header
 * and diagnostics panes, the timeline.
 *
 * MainWindow rebinds every observer docked with MainWindow::addViewDock() to the current tab's
 * ViewState whenever the current tab changes, and to nullptr when no tab is open.
 *
 * Contract for implementers:
 * - setViewState(nullptr) means "show nothing" (clear the view, keep no pointer).
 * - The observer does not own the state. It must drop its connections to the previous state when
 *   rebound, and must cope with the state being destroyed later (MainWindow rebinds before it
 *   deletes a tab, but hold it in a QPointer anyway).
 * - Views never talk to each other; they read and write only the ViewState.
 *
 * Thread-safety: GUI thread only.
 */
class ViewStateObserver {
public:
    virtual ~ViewStateObserver() = default;

    /** Shows `state` (not owned), or nothing when it is nullptr. */
    virtual void setViewState(ViewState *state) = 0;

    /**
     * Whether the view's dock is on screen: MainWindow calls it with QDockWidget's
     * visibilityChanged, which, unlike QWidget::isVisible(), turns false while the dock is a tab
     * behind another dock's (Qt keeps such a dock "visible", moved out of the window). Views
     * that compute something costly (statistics, cache analyses) wait until shown. Views outside
     * a dock are never told and count as shown. The default ignores it.
     */
    virtual void setShown(bool shown) { (void)shown; }

protected:
    /** Whether rebind() does its work when the state is the one already held. */
    enum class Rebind { IfChanged, Always };

    /**
     * The common first half of setViewState(): drops every connection from the held state
     * `current` to `receiver` and holds `state` instead. Returns false, doing nothing, when
     * `state` is already held and `when` is Rebind::IfChanged; true otherwise, and the caller then
     * connects the signals it wants from `current` (when not null) and refreshes itself.
     */
    static bool rebind(QPointer<ViewState> &current, ViewState *state, QObject *receiver,
                       Rebind when = Rebind::IfChanged);
};

}  // namespace lmct
