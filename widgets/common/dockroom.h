#pragma once

class QWidget;

namespace lmct {

/**
 * Room for a view that needs more height than its dock has: the dock that holds the view (a
 * QDockWidget docked in a QMainWindow, the view anywhere inside it) is made taller, the window's
 * other areas (the central widget first) giving the height, as far as a share of the window's
 * height. A view that grows a part of itself (the timeline's hit-ratio plot) asks for the part's
 * height so that what was in view stays in view instead of being scrolled away.
 *
 * A widget outside the docks can keep a height (keepHeight(): the record table its rows): a dock
 * grown here takes no more from it.
 *
 * Units: logical pixels. Thread-safety: GUI thread. Errors: none; a view in no dock, a floating
 * dock, or a dock already at the share or at a kept height gets nothing (0).
 */
class DockRoom {
public:
    /** The share of the window's height a dock grown here may take at most. */
    static constexpr double kMaxShare = 0.55;

    /** Makes the dock of `view` `pixels` taller (at most kMaxShare of the window's height, and
     *  no shown widget of the window with a kept height below it); returns the pixels it grew
     *  by. */
    static int growHeight(QWidget *view, int pixels);
    /** Keeps `pixels` of `widget`'s height when a dock of its window grows here (0: none): the
     *  dock grows at most by what `widget` has above that. */
    static void keepHeight(QWidget *widget, int pixels);
    /** The height keepHeight() gave `widget`; 0 when none. */
    static int keptHeight(const QWidget *widget);
    /** How much taller than the scroll area around it shows (the dock's) `view` has to be:
     *  its minimum height over the area's; 0 in no scroll area or when it fits. */
    static int shortfall(const QWidget *view);
};

}  // namespace lmct
