#pragma once

#include "timeline/contextpairs.h"
#include "timeline/timelineindex.h"
#include "timeline/timelinelanes.h"
#include "trace/tracedocument.h"
#include "viewstate.h"

#include <QObject>
#include <QPoint>
#include <QPointer>
#include <memory>
#include <vector>

class QCustomPlot;
class QCPAxis;
class QCPAxisRect;
class QMouseEvent;
class QWheelEvent;

namespace lmct {

class TimeAxisTicker;
class TimelineOverlay;
class TimelineOverview;
class TimelineRatePlot;
class TimelineViewport;

/**
 * The mouse on the timeline's plot: click selects the record under it (TimelineLanes::hitTest,
 * 5 px either side), drag pans, Ctrl+drag zooms to a rubber band, Shift+drag sets the time range
 * (ViewState::setTimeRange), double-click zooms into a span or around the cursor, the wheel zooms
 * around the cursor (Shift or a horizontal wheel pans); and the hover: a time tag at the cursor
 * (TimelineOverlay) and a tooltip for the record, span or pixel under it.
 *
 * It talks to the TimelineViewport (every move), the ViewState (selection, time range), the
 * lanes' hitTest and the overlay. Esc during a drag cancels it (cancelDrag(); the plot's
 * ShortcutOverride is taken so that no window shortcut on Esc sees it first).
 *
 * Ownership: a QObject child of the timeline; keeps no ownership of the parts it is given, nor of
 * the ViewState (a QPointer). Thread-safety: GUI thread only.
 */
class TimelineInteraction : public QObject {
    Q_OBJECT
public:
    /** The timeline's parts it works on (not owned). */
    struct Parts {
        QCustomPlot *plot = nullptr;
        QCPAxisRect *lanesRect = nullptr;
        QCPAxisRect *rateRect = nullptr;
        TimelineLanes *lanes = nullptr;
        TimelineOverlay *overlay = nullptr;
        TimelineViewport *viewport = nullptr;
        TimeAxisTicker *ticker = nullptr;
        TimelineRatePlot *ratePlot = nullptr;
        TimelineOverview *overview = nullptr;
    };
    TimelineInteraction(const Parts &parts, QObject *parent);

    void setViewState(ViewState *state) { m_state = state; }
    /** What is shown (null index: nothing, the mouse does nothing). */
    void setData(std::shared_ptr<const TraceDocument> doc,
                 std::shared_ptr<const TimelineIndex> index,
                 std::vector<std::shared_ptr<const ContextPairs>> pairs);

    /** A drag in the plot or the overview. */
    bool isDragging() const;
    /** Ends a drag (Esc) and its rubber band. */
    void cancelDrag();
    /** Whether `pos` (plot pixels) is in the lanes' or the shown rate plot's area. */
    bool inData(const QPoint &pos) const;
    /** The time under the cursor when it is over the data, else the window's middle. */
    double anchorTime() const;
    /** Gives the overlay the lanes' and the shown rate plot's areas (after a replot: the layout
     *  is known then); its time tags end above the time axis' tick labels. */
    void placeOverlay();
    /** The view moved under a still mouse: the hover and its tooltip follow, or hide. */
    void refreshHover();
    void hideHover();
    /**
     * A guide line at `t` (t_mono; NaN: none), drawn as the hover line (with its time tag) while
     * the mouse does not hover this plot: another timeline's hover time. refreshGuide() places
     * it again after the view moved (called after every replot).
     */
    void showGuide(double t);
    double guide() const { return m_guide; }
    void refreshGuide();

signals:
    /** The mouse hovers time `t` over the data; NaN when the hover went away. */
    void hoverTimeChanged(double t);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    enum class Drag { None, Pan, Zoom, Range };
    void onPress(QMouseEvent *e);
    void onMove(QMouseEvent *e);
    void onRelease(QMouseEvent *e);
    void onDoubleClick(QMouseEvent *e);
    void onWheel(QWheelEvent *e);
    void showHover(const QPoint &pos, const QPoint &globalPos);
    QString tooltipFor(const TimelineLanes::Hit &hit) const;
    /** `t` as the hover line's tag shows it: the axis' display, to the pixel's precision. */
    QString timeTag(double t) const;
    double timeAt(double x) const;
    QCPAxis *timeAxis() const;
    QCPRange visibleRange() const;

    QCustomPlot *m_plot = nullptr;
    QCPAxisRect *m_lanesRect = nullptr;
    QCPAxisRect *m_rateRect = nullptr;
    TimelineLanes *m_lanes = nullptr;
    TimelineOverlay *m_overlay = nullptr;
    TimelineViewport *m_viewport = nullptr;
    TimeAxisTicker *m_ticker = nullptr;
    TimelineRatePlot *m_ratePlot = nullptr;
    TimelineOverview *m_overview = nullptr;
    QPointer<ViewState> m_state;
    std::shared_ptr<const TraceDocument> m_doc;
    std::shared_ptr<const TimelineIndex> m_index;
    std::vector<std::shared_ptr<const ContextPairs>> m_pairs;

    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    QCPRange m_pressRange;
    double m_pressTime = 0.0;
    bool m_moved = false;
    int m_hoverRecord = -2;  // the record whose tooltip is shown (-2: none)
    QString m_hoverTip;      // the tooltip shown
    QPoint m_lastMouse{-1, -1};
    bool m_ownHover = false;   // the overlay's hover line is the mouse's (not the guide)
    double m_guide = qQNaN();  // showGuide()'s time
};

}  // namespace lmct
