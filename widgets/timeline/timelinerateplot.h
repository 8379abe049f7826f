#pragma once

#include "timeline/timelineindex.h"

#include <QObject>
#include <QSet>
#include <QSharedPointer>
#include <QVector>
#include <QtNumeric>
#include <memory>

class QCustomPlot;
class QCPAxisRect;
class QCPAxisTicker;
class QCPGraph;
class QCPItemText;
class QCPLegend;
class QCPRange;
class QWidget;

namespace lmct {

class TimelineBuilder;
class TimelineLanes;
class TimelineViewport;

/**
 * The timeline's calls-per-second plot under the lanes: one step graph per shown calls row
 * (RateSeries over the visible window, buckets of a nice width about 6 device columns wide), a
 * legend whose entries toggle their series (wrapped into as many columns as the width holds),
 * value ticks fitted to its height and a caption naming the bucket width. With a filter it
 * counts the matching records only (TimelineLanes::strongIndex()) and its legend lists the calls
 * the filter matches.
 *
 * Its value axis (calls/s) runs from 0 to naturalUpper(), the highest visible step with room
 * above it for the caption, or to a larger least upper end a caller sets (setLeastUpper(): two
 * pictures that compare their rates on one scale, a comparison report's A and B).
 *
 * It lives in the timeline's plot: the timeline makes the axis rect and the legend (they are
 * part of its layout) and lays them out (updateHeights); place() puts them into the plot's layout
 * when shown. It asks for the timeline's palette (restyle()) and layout (layoutNeeded()) when its
 * entries change.
 *
 * Ownership: a QObject child of the timeline; the graphs and the caption belong to the plot.
 * Keeps no ownership of the lanes, viewport or builder. Thread-safety: GUI thread only.
 */
class TimelineRatePlot : public QObject {
    Q_OBJECT
public:
    /** The rate plot's least plot area when the timeline is short of room: two value labels. */
    static constexpr int kLeastPlotPx = 36;

    /** Configures `rect`'s axes (the key axis on `ticker`, the time axis' ticker) and the
     *  legend (on the "legend" layer, entries in rows, columns following the width). */
    TimelineRatePlot(QCustomPlot *plot, QCPAxisRect *rect, QCPLegend *legend,
                     QSharedPointer<QCPAxisTicker> ticker, TimelineLanes *lanes,
                     const TimelineViewport *viewport, const TimelineBuilder *builder,
                     QWidget *timeline);
    /** Makes the caption (on the plot's "legend" layer) and wires the legend's clicks. */
    void createCaption();
    void connectLegend();

    /** The index shown (null: none). */
    void setIndex(std::shared_ptr<const TimelineIndex> index) { m_index = std::move(index); }
    /** Graphs by qualname id (nullptr: not a shown lane). */
    const QVector<QCPGraph *> &graphs() const { return m_graphs; }
    QCPItemText *caption() const { return m_caption; }

    /** Whether the user shows it (the toolbar's toggle). */
    bool isShown() const { return m_visible; }
    void setShown(bool on) { m_visible = on; }
    /**
     * Leaves the plot, or its legend only, out of a picture too small for them (TimelineFit;
     * place() follows); both false again for the plot on screen. True when either changed.
     */
    bool setLeftOut(bool plot, bool legend);
    /** Whether it is in the plot's layout: shown and not left out. */
    bool isPlaced() const { return m_visible && !m_plotLeftOut; }
    /** Whether its legend is: placed, not left out, with entries. */
    bool isLegendPlaced() const;

    /** New graphs for the lanes' calls rows (the rows or the index changed). */
    void rebuildGraphs();
    /** The rates over the visible window, the value range and the caption. */
    void update();
    /**
     * Colours and fonts of the rate axes' grid, the legend (its entries greyed while their
     * graph is hidden) and the caption; after the plot's axes got the common style.
     */
    void applyPalette(const QPalette &pal, const QFont &small);
    /** The legend: every call's graph, or with a filter those of the calls it matches. */
    void updateLegend();
    /** Puts the rate plot and its legend into the plot's layout when shown (and not empty). */
    void place();
    /** Re-wraps the legend into as many columns as `width` holds (each as wide as its widest
     *  entry); the legend's height follows. */
    void wrapLegend(int width);
    /** Fits the value ticks to the plot's height; true when the count changed. */
    bool fitTicks();

    /**
     * The least upper end of the value axis, calls/s: the axis reaches at least this (the larger
     * of several pictures' naturalUpper(), so that they share one scale). NaN or ≤ 0 (the
     * default): its own. Takes effect at the next update().
     */
    void setLeastUpper(double callsPerSecond) { m_leastUpper = callsPerSecond; }
    double leastUpper() const { return m_leastUpper; }
    /** The upper end its own rates need, calls/s, as of the last update() that counted them
     *  (placed, with records); NaN before that. */
    double naturalUpper() const { return m_naturalUpper; }
    /** The calls/s axis. */
    QCPAxis *valueAxis() const;

signals:
    /** Entries were added or toggled: the timeline's palette is due (greys hidden ones). */
    void restyle();
    /** The legend's entries changed: the timeline's heights are due. */
    void layoutNeeded();

private:
    QCPRange window() const;

    QCustomPlot *m_plot = nullptr;
    QCPAxisRect *m_rect = nullptr;
    QCPLegend *m_legend = nullptr;
    QCPItemText *m_caption = nullptr;
    TimelineLanes *m_lanes = nullptr;
    const TimelineViewport *m_viewport = nullptr;
    const TimelineBuilder *m_builder = nullptr;
    QWidget *m_timeline = nullptr;
    std::shared_ptr<const TimelineIndex> m_index;
    QVector<int> m_legendLanes;    // lanes in the legend, in row order
    QVector<QCPGraph *> m_graphs;  // by qualname id (nullptr: not a shown lane)
    QSet<QString> m_hidden;        // qualnames whose series are toggled off
    bool m_visible = true;
    bool m_plotLeftOut = false;       // by a small picture's layout (setLeftOut())
    bool m_legendLeftOut = false;     // the legend only
    double m_leastUpper = qQNaN();    // calls/s (setLeastUpper())
    double m_naturalUpper = qQNaN();  // calls/s, of the last update()
};

}  // namespace lmct
