#pragma once

#include <QObject>
#include <QPalette>

class QCustomPlot;
class QCPItemRect;
class QCPItemStraightLine;
class QMouseEvent;
class QWheelEvent;
class QWidget;

namespace lmct {

class TimelineFollowLayer;
class TimelineLanes;
class TimelineViewport;

/**
 * The timeline's overview strip: the whole trace in rows of equal height (TimelineLanes in its
 * Overview style), the visible window as a rectangle with the rest shaded, the time range's
 * band, the selected record's line and the followed records (a TimelineFollowLayer), all on a
 * buffered "window" layer over the lanes.
 *
 * Mouse: dragging the window moves it, dragging its edges (within 5 px, when it is over 12 px
 * wide) resizes it, clicking outside it centres the view there, the wheel zooms around the
 * cursor; all through the TimelineViewport, one history entry per drag. Only while active
 * (setActive(): an index is shown).
 *
 * Ownership: a QObject child of the timeline; its plot (plot()) is a child widget of the timeline,
 * which lays it out. Keeps no ownership of the viewport. Thread-safety: GUI thread only.
 */
class TimelineOverview : public QObject {
    Q_OBJECT
public:
    TimelineOverview(TimelineViewport *viewport, QWidget *timeline);

    QCustomPlot *plot() const { return m_plot; }
    TimelineLanes *lanes() const { return m_lanes; }
    TimelineFollowLayer *followLayer() const { return m_followLayer; }

    /** Whether there is something to show (an index): the window and the mouse work. */
    void setActive(bool on) { m_active = on; }
    /** Moves the window's rectangle and shading to the viewport's window (at least 5 px). */
    void updateWindow();
    /** The selected record's line at t_mono `t`, or none. */
    void setSelection(bool shown, double t);
    /** The time range's band [from, to], or none. */
    void setBand(bool shown, double from, double to);
    QCPItemRect *band() const { return m_band; }
    /** Colours from `pal`; the band's as the plot's time range bands. */
    void applyPalette(const QPalette &pal);
    /** Keeps the plot area under the lanes' (`lanesMargins`: their axis rect's margins, px). */
    void alignTo(const QMargins &lanesMargins);
    /** Whether the window is being dragged; cancelDrag() ends that (Esc). */
    bool isDragging() const { return m_drag != Drag::None; }
    void cancelDrag() { m_drag = Drag::None; }

private:
    enum class Drag { None, Move, Left, Right };
    void onPress(QMouseEvent *e);
    void onMove(QMouseEvent *e);
    void onRelease(QMouseEvent *e);
    void onWheel(QWheelEvent *e);

    TimelineViewport *m_viewport = nullptr;
    QCustomPlot *m_plot = nullptr;
    TimelineLanes *m_lanes = nullptr;
    QCPItemRect *m_window = nullptr;
    QCPItemRect *m_shadeLeft = nullptr;
    QCPItemRect *m_shadeRight = nullptr;
    QCPItemRect *m_band = nullptr;
    QCPItemStraightLine *m_selection = nullptr;
    TimelineFollowLayer *m_followLayer = nullptr;
    bool m_active = false;
    Drag m_drag = Drag::None;
    double m_pressLower = 0.0;  // the window when the drag began
    double m_pressUpper = 0.0;
    double m_pressTime = 0.0;  // t_mono under the press
};

}  // namespace lmct
