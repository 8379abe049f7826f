#pragma once

#include "timeline/timelinelanes.h"

#include <QObject>

class QKeyEvent;
class QMenu;
class QPoint;

namespace lmct {

class TimelineWidget;

/**
 * What the timeline's commands do: the toolbar's actions (TimelineActions) connected to the
 * widget's operations, the keys beside the navigation keys (F fits the time range or selected
 * record, Home everything, End toggles Keep newest, `.` and `,` step through the followed key,
 * Backspace goes back, Esc cancels a drag or clears the time range), and the plot's context
 * menu (a lane row's entries, the Lanes menu, the view's entries, the exports). The filter
 * mode the Hide filtered toggle chooses is persisted as QSettings "timeline/filterMode".
 *
 * Units: positions are the plot's logical pixels.
 *
 * Ownership: a QObject child of the widget it commands; uses the widget's parts (it is the
 * widget's friend), owns none.
 *
 * Thread-safety: GUI thread only.
 *
 * Errors: none; keys it does not handle are left to the widget.
 */
class TimelineCommands : public QObject {
    Q_OBJECT
public:
    /** Connects the actions of `widget` (its TimelineActions exist) to its operations. */
    explicit TimelineCommands(TimelineWidget *widget);

    /** The filter mode the user chose last (QSettings), Dim when none. */
    static TimelineLanes::FilterMode savedFilterMode();

    /**
     * Handles a key pressed in the widget (accepting it); false when it is not one of the
     * timeline's or there is nothing to navigate (the widget passes it on).
     */
    bool keyPressed(QKeyEvent *event);

    /** Shows the plot's context menu at `pos` (the plot's coordinates). */
    void showContextMenu(const QPoint &pos);

    /** Fills a Lanes menu (the toolbar's or a context menu's), then the plots under the lanes. */
    void fillLanesMenu(QMenu *menu);

private:
    TimelineWidget *m_w;
};

}  // namespace lmct
