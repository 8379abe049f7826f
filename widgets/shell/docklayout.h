#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPointer>

class QDockWidget;
class QMainWindow;

namespace lmct {

class InspectorPane;

/**
 * The main window's geometry and dock layout: restored from QSettings at start (with a safety
 * net against a saved layout that crashed the last start), bounded to the screen, saved on close;
 * the default layout's dock sizes for the window's size (Reset Layout); and which docks the
 * current tab leaves out (none for a trace, the Timeline and Cache Behaviour docks for a
 * comparison, every dock on the welcome page), shown again as they were when it goes.
 *
 * Units: sizes and geometry are logical pixels; kLayoutSurvivalMs is milliseconds.
 *
 * Ownership: a QObject child of the window it lays out; the docks and the inspector pane are the
 * window's (held as pointers, never deleted here).
 *
 * Thread-safety: GUI thread only.
 *
 * Errors: a saved layout Qt cannot restore leaves the default one; a start that did not live
 * kLayoutSurvivalMs drops the saved layout at the next start (layoutWasReset()).
 */
class DockLayout : public QObject {
    Q_OBJECT
public:
    /** The docks whose sizes and visibility the layout sets (the window's). */
    struct Docks {
        QDockWidget *inspector = nullptr;
        QDockWidget *timeline = nullptr;
        QDockWidget *diagnostics = nullptr;
        QDockWidget *cache = nullptr;
        InspectorPane *inspectorPane = nullptr;
    };

    /** Which docks the current tab leaves out: none for a trace; the Timeline and Cache
     *  Behaviour docks for a comparison (its own timelines take their room, the Timeline dock
     *  would repeat trace A); every dock on the welcome page, which then has the window. */
    enum class DockSet { None, Timelines, All };

    /** How long a start must live before its restored layout counts as safe (ms). */
    static constexpr int kLayoutSurvivalMs = 4000;

    DockLayout(QMainWindow *window, const Docks &docks);

    /**
     * Restores the saved geometry and dock state, or lays the window out for the screen on a
     * first start (maximized); remembers the default layout for reset().
     */
    void restore();
    /** Saves the geometry and dock state (as the user left them: call hide(None) first). */
    void save();
    /**
     * Back to the default layout, every dock shown; true when done now, false on the welcome
     * page, where it is what the first trace finds.
     */
    bool reset();
    /** Leaves out the docks of `set`, showing again those the previous set left out. */
    void hide(DockSet set);

    /**
     * Whether the saved window layout was dropped at start because the previous start that
     * restored it did not live kLayoutSurvivalMs (a crash while laying it out).
     */
    bool layoutWasReset() const { return m_layoutReset; }

private:
    /**
     * After restoreGeometry(): bounds the restored window to its screen's available geometry (a
     * layout saved on a larger screen), and gives a maximized or full-screen window a normal
     * geometry of 90% of the screen when the saved one is missing or does not fit.
     */
    void fitToScreen();
    /**
     * Sizes the docks of the default layout for the window's current size: the inspector 30% of
     * the width (320..560 px), the timeline 36% of the height (at least 384 px, at most half)
     * and the diagnostics 10% (at least 90 px).
     */
    void applyDefaultDockSizes();

    QMainWindow *m_window;
    Docks m_docks;
    bool m_layoutReset = false;  // the saved layout was dropped (the last start with it crashed)
    QByteArray m_defaultState;
    /** The docks hidden for the current tab, shown again when it goes. */
    QList<QPointer<QDockWidget>> m_hiddenDocks;
    DockSet m_docksHidden = DockSet::None;
    /** The dock layout as the welcome page found it, restored (sizes included) when it goes. */
    QByteArray m_stateBeforeWelcome;
    bool m_defaultSizesPending = false;  ///< Reset Layout on the welcome page, applied on leaving
};

}  // namespace lmct
