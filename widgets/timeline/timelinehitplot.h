#pragma once

#include "viewstate.h"
#include "whatif/hitovertime.h"

#include <QObject>
#include <QSharedPointer>
#include <QVector>
#include <memory>

class QCustomPlot;
class QCPAxisRect;
class QCPAxisTicker;
class QCPGraph;
class QCPItemText;
class QCPLayoutGrid;
class QCPLegend;
class QFont;
class QPalette;
class QWidget;

namespace lmct {

class TimelineViewport;

/**
 * The timeline's hit-ratio plot under the lanes: the prefetch hit ratio over time of the
 * what-if chosen in the What-if tab (ViewState::hitOverTime(): the checked policies at the
 * slider's capacity), one line per policy in PolicyColors' colours, LMCache's own account (the
 * PrefetchHandle's `l1_prefix_hit_count` over `total_requested_keys`, summed per window) dashed
 * beside them where the trace has it, and the cache occupancy (bytes resident, or chunks when
 * the keys' sizes are unknown) of the first policy as a grey area on a right axis.
 *
 * Windows: the visible window cut into one window per kWindowPx pixels of the plot's width
 * (HitOverTime::windowed(): counted prefetch hits over prefetch occurrences in the window); a
 * window without prefetches is a gap. The value axis ticks 0–100 % (every 25, or 50 or 100 as
 * the height holds); above 100 % it keeps the headroom of the caption in the top-left corner
 * (the capacity and the window width), so no line runs under the caption. The occupancy's axis
 * ticks at the same heights: 0 to the capacity (what it fills to) at the 100 % line, its labels
 * inside the plot and whole. A legend row below the plot names the lines.
 *
 * It lives in the timeline's plot: the timeline makes the axis rect and the legend, shares its
 * time axis ticker and lays them out; place() puts them into the plot's layout right under the
 * lanes while the plot is shown (setShown(), the View menu's toggle) and has a result. The
 * first time it is placed, the timeline's dock grows by its height and its legend's (DockRoom),
 * so that the lanes and the rate plot keep theirs.
 *
 * Ownership: a QObject child of the timeline; the graphs and the caption belong to the plot.
 * Keeps no ownership of the viewport. Thread-safety: GUI thread only.
 */
class TimelineHitPlot : public QObject {
    Q_OBJECT
public:
    /** The least plot area, also when the timeline is short of room: 0, 50 and 100 % readable
     *  with the caption's headroom above. */
    static constexpr int kLeastPlotPx = 80;
    /** Pixels of the plot's width per window. */
    static constexpr int kWindowPx = 6;

    /** Configures `rect`'s axes (the time axis on `ticker`, 0–100 % left, occupancy right) and
     *  the legend (on the "legend" layer, one row). */
    TimelineHitPlot(QCustomPlot *plot, QCPAxisRect *rect, QCPLegend *legend,
                    QSharedPointer<QCPAxisTicker> ticker, const TimelineViewport *viewport,
                    QWidget *timeline);
    /** Makes the caption (on the plot's "legend" layer). */
    void createCaption();

    /** Shows `result` (null: none; the plot leaves the layout), made for `choice`. */
    void setResult(std::shared_ptr<const HitOverTime> result,
                   const ViewState::WhatIfChoice &choice);
    const std::shared_ptr<const HitOverTime> &result() const { return m_result; }

    /** Whether the plot is wanted (the View menu's toggle); it shows when it also has a result. */
    bool isShown() const { return m_shown; }
    void setShown(bool on) { m_shown = on; }
    /** Whether it is in the plot's layout: isWanted() and not left out. */
    bool isPlaced() const;
    /** Whether it is shown and has a result (whether or not a small picture leaves it out). */
    bool isWanted() const;
    /**
     * Leaves the plot, or its legend only, out of a picture too small for them (TimelineFit;
     * place() follows); both false again for the plot on screen. True when either changed.
     */
    bool setLeftOut(bool plot, bool legend);

    /** One graph per series of the result, in its order (policy order). */
    const QVector<QCPGraph *> &graphs() const { return m_graphs; }
    /** LMCache's own account (null: the trace has none). */
    QCPGraph *lmcacheGraph() const { return m_lmcache; }
    /** Bytes (or chunks) resident (null: no result). */
    QCPGraph *occupancyGraph() const { return m_occupancy; }
    QCPAxisRect *rect() const { return m_rect; }
    QCPLegend *legend() const { return m_legend; }
    QCPItemText *caption() const { return m_caption; }
    /** Windows of the last update(). */
    int windowCount() const { return m_windows; }

    /** The ratios over the visible window and the caption. */
    void update();
    /** Puts the plot and its legend right under the lanes (row 0) when isPlaced(), else takes
     *  them out; the rows' stretch follows (stretchRows()). */
    void place();
    /** Colours and fonts of the grid, the legend and the caption. */
    void applyPalette(const QPalette &pal, const QFont &small);
    /** Re-wraps the legend into as many columns as `width` holds. */
    void wrapLegend(int width);
    /** Fits the value ticks to the plot's height; true when the count changed. */
    bool fitTicks();
    /** The percent step of the value ticks (25, 50 or 100). */
    int percentStep() const { return m_percentStep; }
    /** After a layout: update() again when the plot's width asks for other windows; true then. */
    bool followWidth();

    /** The stretch of the rows of `grid`: plot areas below the first take the room, the lanes
     *  (row 0) and legends their own height. */
    static void stretchRows(QCPLayoutGrid *grid);

signals:
    /** The result or the legend's entries changed, or the height in view of the timeline did
     *  (TimelineViewWatch): the timeline's heights and palette are due. */
    void layoutNeeded();

private:
    void rebuildGraphs();
    /** The value ticks every m_percentStep % and the occupancy's at the same heights. */
    void applyTicks();

    QCustomPlot *m_plot = nullptr;
    QCPAxisRect *m_rect = nullptr;
    QCPLegend *m_legend = nullptr;
    QCPItemText *m_caption = nullptr;
    const TimelineViewport *m_viewport = nullptr;
    QWidget *m_timeline = nullptr;
    std::shared_ptr<const HitOverTime> m_result;
    ViewState::WhatIfChoice m_choice;
    QVector<QCPGraph *> m_graphs;
    QCPGraph *m_lmcache = nullptr;
    QCPGraph *m_occupancy = nullptr;
    bool m_shown = true;
    bool m_grown = false;          // the dock made room for the plot once
    bool m_plotLeftOut = false;    // by a small picture's layout (setLeftOut())
    bool m_legendLeftOut = false;  // the legend only
    int m_windows = 0;
    int m_percentStep = 25;
    double m_occupancyTop = 1.0;  // the occupancy at the 100 % line: the capacity (or more)
    bool m_occupancyInBytes = false;
};

}  // namespace lmct
