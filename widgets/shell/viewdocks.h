#pragma once

#include <QList>
#include <QObject>
#include <QPointer>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;
class QWidget;

namespace lmct {

class ViewState;

/**
 * The main window's dock views and their binding: each view goes into a dock of its own (inside
 * a frameless QScrollArea, so that a pane squeezed below its minimum scrolls instead of raising
 * the window's minimum size), its toggle action into the View menu, and every view that is a
 * ViewStateObserver (or has an invokable `setViewState(lmct::ViewState*)`) is bound to the
 * current tab's ViewState, and rebound by bindAll() when the tab changes.
 *
 * Units: none.
 *
 * Ownership: a QObject child of the window; the docks are the window's, each view its dock's
 * (the views are held in QPointers).
 *
 * Thread-safety: GUI thread only.
 *
 * Errors: none; a view with no way to take a ViewState is docked and left unbound.
 */
class ViewDocks : public QObject {
    Q_OBJECT
public:
    /** Docks into `window`; toggle actions go into `viewMenu` before `before` (not owned). */
    ViewDocks(QMainWindow *window, QMenu *viewMenu, QAction *before);

    /**
     * Adds `view` in a new dock titled `title` in `area` and binds it to `state`; returns the
     * dock. The dock's object name (for saving the layout) is derived from the title.
     */
    QDockWidget *add(const QString &title, QWidget *view, Qt::DockWidgetArea area,
                     ViewState *state);
    /** Binds every docked view to `state` (nullptr: none). */
    void bindAll(ViewState *state);
    /** The view that add() put in `dock` (inside its scroll area), or nullptr. */
    static QWidget *viewOf(const QDockWidget *dock);

private:
    static void bind(QWidget *view, ViewState *state);

    QMainWindow *m_window;
    QMenu *m_viewMenu;
    QAction *m_before;
    QList<QPointer<QWidget>> m_views;
};

}  // namespace lmct
