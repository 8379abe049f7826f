#pragma once

#include "cache/followedtrail.h"
#include "common/viewstateobserver.h"
#include "timeline/contextpairs.h"
#include "timeline/lanelayout.h"
#include "timeline/timeaxisticker.h"
#include "timeline/timelinebuilder.h"
#include "timeline/timelineindex.h"
#include "timeline/timelinelanes.h"
#include "timeline/timelinemainplot.h"
#include "timeline/timelineoverlay.h"
#include "timeline/timelineviewport.h"
#include "viewstate.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QWidget>
#include <atomic>
#include <memory>

class QCustomPlot;
class QCPAxisRect;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;
class QCPGraph;
class QCPLegend;
class QCPLayer;
class QLabel;
class QToolBar;
class QAction;
class QMenu;

namespace lmct {

class StableLabel;
class TimelineActions;
class TimelineBandLayer;
class TimelineCommands;
class TimelineExportActions;
class TimelineFollowLayer;
class TimelineHitPlot;
class TimelineInteraction;
class TimelineMarginGroup;
class TimelineOverview;
class TimelinePlotLayout;
class TimelineRatePlot;

/**
 * The timeline: one lane per call (qualname) with a tick per record, span rows for context
 * managers (read_prefetched_results.__enter__ → __exit__), an overview strip of the whole trace,
 * and a calls-per-second plot sharing the time axis; under the lanes, once the What-if tab has
 * one (ViewState::hitOverTime()), the prefetch hit ratio over time of the what-if chosen there
 * (hidden with the Hit ratio action). Fluid at 10 million records: drawing reads
 * per-pixel counts from a TimelineIndex (see TimelineLanes), never the records themselves.
 *
 * It only talks to a ViewState: clicking a tick selects its record; the selected record is
 * marked and brought into view; Shift+drag sets the time range (Esc clears it), shown as a
 * shaded band; the wall clock follows ViewState::wallUtc.
 *
 * Navigation: wheel zooms around the cursor (Shift+wheel pans), drag pans, Ctrl+drag zooms to
 * a rubber band, W/S and +/− zoom, A/D and ←/→ pan, F fits the time range or selected record
 * (again: everything), Home fits everything, Backspace steps back through the zoom history,
 * double-click zooms into a span or tick. The overview's window can be dragged and resized;
 * clicking the overview centres the view there.
 *
 * Lanes follow Qualname's call flow; they can be hidden, shown and reordered from the lane
 * labels' context menu or the toolbar's Lanes menu. The rate plot's legend toggles its series.
 * The time axis shows relative time (t_mono) or the wall clock (toolbar or context menu).
 * The plot's context menu also exports it (PNG, SVG, PDF, Copy Image: exportActions()).
 *
 * The filter (ViewState::filterRecords) drives what is drawn: records that do not match are
 * dimmed or hidden (filterMode(), a toolbar toggle persisted as QSettings
 * "timeline/filterMode"); the rate plot counts the matching records only. A second index over
 * the matching records is built on a worker whenever the filter's result changes (not when the
 * document merely grows); the previous state stays shown until it is ready.
 *
 * The followed key (ViewState::followedRecords) is drawn by a TimelineFollowLayer: a marker per
 * followed record, successive ones joined, gaps labelled; the overview marks them too. `.` and
 * `,` select the next / previous followed record (time order) and centre it.
 *
 * Keep newest in view (toolbar, End): while on, the view keeps its width and its right edge on
 * the newest record as the trace grows; panning or zooming by hand turns it off.
 *
 * The index and the pairs are built on worker threads when the document changes, and again,
 * throttled, while it grows (ViewState::documentGrew, or polling while it loads); the lanes show
 * as soon as the index is ready, the spans when they are paired, and the view follows the end of
 * the trace while it shows everything. While the file is first read (TraceDocument::isReadToEnd
 * false) the span rows are shown empty and the spans are paired once, after the read: pairing
 * again at every growth cost a pass over the bodies each time and kept two pairings in memory.
 * A followed trace, once read, is paired again as it grows. The toolbar counts what is drawn in
 * view; while the index lags behind what was read it says "Loading…" (its tooltip: N records read,
 * M drawn). Its labels keep stable widths (StableLabel), so that a growing trace does not move
 * them.
 *
 * It is a facade of parts: TimelineMainPlot (the main plot's parts, built in their order and
 * styled), TimelineViewport (the visible window, zoom history, fits, keep
 * newest; the time axis follows it), LaneLayout (lane order and hidden lanes), TimelineBuilder
 * (the background builds), TimelineActions (the toolbar, the context menu's view entries and
 * the shortcuts, one QAction each; the info and busy labels; the navigation keys),
 * TimelineCommands (what the actions, the other keys and the context menu do),
 * TimelineBandLayer (the backdrop, the time range's bands and its duration label),
 * TimelineRatePlot (the calls-per-second plot and its legend), TimelineHitPlot (the what-if's
 * hit-ratio plot and its legend), TimelineOverview (the overview strip
 * and its mouse), TimelineInteraction (the plot's mouse, drags and hover tooltips) and
 * TimelinePlotLayout (the share of height of lanes, rate plot and legend, and the labels' font);
 * TimelineLanes draws the rows, in passes.
 *
 * Ownership: a QWidget; keeps no ownership of the ViewState (held in a QPointer).
 * Thread-safety: GUI thread only.
 */
class TimelineWidget : public QWidget, public ViewStateObserver {
    Q_OBJECT
    friend class TimelineCommands;

public:
    explicit TimelineWidget(QWidget *parent = nullptr);
    ~TimelineWidget() override;

    /** Shows `state` (not owned), or nothing when nullptr. */
    Q_INVOKABLE void setViewState(lmct::ViewState *state) override;
    ViewState *viewState() const { return m_state; }

    enum class TimeMode { Relative, Wall };
    void setTimeMode(TimeMode mode);
    TimeMode timeMode() const { return m_timeMode; }
    /** Seconds added to the wall clock the axis shows (a combined trace's offset on the
     *  common axis); 0 by default. */
    void setWallShift(double seconds);
    double wallShift() const { return m_wallShift; }
    /** Said on the time axis after its unit and base (how a report's pictures share their
     *  axis); empty (the default): nothing. */
    void setAxisNote(const QString &note);
    QString axisNote() const { return m_axisNote; }

    /** Visible t_mono range. */
    QCPRange visibleRange() const;
    /** Shows [from, to] (clamped to sensible bounds), remembering the previous view. */
    void setVisibleRange(double from, double to);
    void fitAll();
    /** Goes back to the previous view; false when there is none. */
    bool zoomBack();

    /** Whether the index is being built. */
    bool isIndexing() const;

    /** Row keys in display order (hidden ones excluded) and the hidden keys. */
    QStringList laneKeys() const;
    void setLaneHidden(const QString &key, bool hidden);
    void moveLane(const QString &key, int delta);
    void resetLanes();

    /** How records that do not match the filter are drawn. The toolbar toggle (the user's choice)
     *  is persisted as QSettings "timeline/filterMode" and read at construction; a call here
     *  (e.g. the headless exporter forcing Hide) is not persisted. */
    using FilterMode = TimelineLanes::FilterMode;
    void setFilterMode(FilterMode mode);
    FilterMode filterMode() const { return m_filterMode; }
    /** The index over the records matching the applied filter; null without a filter. */
    std::shared_ptr<const TimelineIndex> filterIndex() const { return m_builder->filterIndex(); }
    /** The index of the whole document shown (null until built); shared with other timelines
     *  on the same document (TimelineBuildCache). */
    std::shared_ptr<const TimelineIndex> documentIndex() const { return m_index; }
    /** Whether the index of the current filter result is being built. */
    bool isFiltering() const { return m_builder->isFiltering(); }

    /** The followed key's records in time order (null: none followed or not evaluated yet). */
    std::shared_ptr<const FollowedTrail> followedTrail() const { return m_builder->trail(); }
    TimelineFollowLayer *followLayer() const { return m_main.followLayer; }
    TimelineFollowLayer *overviewFollowLayer() const { return m_ovFollowLayer; }
    /**
     * Selects the next (direction > 0) or previous followed record in time order from the
     * selected one and centres it; false when there is none.
     */
    bool stepFollowed(int direction);

    /** Keeps the right edge of the view on the newest record while the trace grows. */
    void setKeepNewest(bool on);
    bool keepNewest() const;

    void setRatePlotVisible(bool visible);
    bool isRatePlotVisible() const;
    /** The calls-per-second plot under the lanes (owned), e.g. to share its scale. */
    TimelineRatePlot *ratePlot() const { return m_main.ratePlot; }

    /** The what-if's hit-ratio plot under the lanes (ViewState::hitOverTime()), and the action
     *  that shows or hides it (enabled while there is a result). */
    TimelineHitPlot *hitPlot() const { return m_main.hitPlot; }
    QAction *hitRatioAction() const;
    void setHitPlotVisible(bool visible);

    /**
     * Lays the plot out as if it were `size` logical pixels: the lanes' row height, the rate
     * plot's share, the legend's columns, the time axis's tick count and the rate buckets, as a
     * plot of that size on screen has them; the plot's viewport is set to `size` (the widget
     * keeps its geometry). An empty size goes back to the plot's own size (what a resize does)
     * and queues a replot. TimelineExport lays out at the export's size while it renders, so
     * the GUI's exports and the headless `lmct-viewer --export-*` share this one layout.
     * `reservedHeight`: logical pixels of `size` taken by what the caller adds to the plot's
     * layout (the export's caption), left out of the room shared by the lanes and rate plot.
     * A size too small for everything (a short export, e.g. 640x200) leaves out the legends,
     * then the rate and hit-ratio plots; rows then too short for the labels' font get a smaller
     * font that fits a row (laneLabelFont()), and rows still too many merge (TimelinePlotLayout).
     */
    void layOutFor(QSize size, int reservedHeight = 0);

    /** A lane's label as the lane axis and the rate legend show it: at most 320 px, elided in
     *  the middle (a capped qualname keeps its "… (N characters)" tail). */
    static QString elidedLabel(const QString &label, const QFont &font);

    /** The lane labels' font: the widget's, or smaller when the rows are shorter than it. */
    QFont laneLabelFont() const;
    /** The widget's height that shows every lane at readable rows, its toolbar and overview
     *  strip (when shown) included (TimelinePlotLayout::readableHeight()): no less scrolls. */
    int readableHeight() const;

    /** Where a record's tick is drawn, in the plot's coordinates; null when not shown. */
    QPointF tickPosition(int record) const;

    /** The left and right margins the plot areas need (lane labels, axes) at the last layout,
     *  in logical pixels, without the floor below. */
    QMargins naturalPlotMargins() const;
    /**
     * A floor under the plot areas' left and right margins (logical pixels; top and bottom
     * ignored), so that two timelines' areas start and end at the same x (TimelineAlignment);
     * queues a replot when it changes.
     */
    void setPlotMarginFloor(const QMargins &floor);
    QMargins plotMarginFloor() const;

    /**
     * Shows a guide line at `t` (t_mono, this timeline's axis) with its time tag, as the hover
     * line is drawn, while the mouse is not over this plot: the time hovered in another
     * timeline (a comparison's). NaN hides it. It follows the view until hidden.
     */
    void showTimeGuide(double t);
    /** The guide's time; NaN when none. */
    double timeGuide() const;

    /** The visible window's logic (owned), e.g. to link two timelines' windows. */
    TimelineViewport *viewport() const { return m_viewport; }
    QCustomPlot *plot() const { return m_main.plot; }
    QCustomPlot *overview() const { return m_overview; }
    TimelineLanes *lanes() const { return m_main.lanes; }
    TimeAxisTicker *ticker() const { return m_ticker.data(); }
    QCPAxis *timeAxis() const;
    const QVector<QCPGraph *> &rateGraphs() const;
    /** Calls per record lane shown in the rate plot legend (for tests). */
    QCPLegend *rateLegend() const { return m_main.rateLegend; }
    /** The export actions of the context menu, shared with File > Export (owned). */
    TimelineExportActions *exportActions() const { return m_exportActions; }

signals:
    /** The index and the pairs of the current document are ready and shown. */
    void indexReady();
    /** The index of the current filter result is shown (filterIndex(), null for no filter). */
    void filterIndexReady();
    /** followedTrail() changed. */
    void followedTrailReady();
    /** The mouse hovers time `t` (t_mono) over the plot's data; NaN when it left. */
    void hoverTimeChanged(double t);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;
    bool event(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void buildUi();
    void applyPalette();
    void updateDevicePixelRatio();
    void onDocumentChanged();
    /** Shows a build's result: the index alone first (`final` false), then with the pairs. */
    void apply(const TimelineBuilder::Built &b, bool final);
    void onSelectedRecordChanged(int record);
    /** Marks `record` as selected; with `centre`, moves the view to it when it is off view. */
    void showSelection(int record, bool centre);
    void onFilterChanged();
    void onHitOverTimeChanged();
    void applyFilterIndex();
    void onFollowedRecordsChanged();
    void onTrailReady();
    void onTimeRangeChanged();
    void onWallUtcChanged(bool utc);
    void onRangeChanged(const QCPRange &range);
    void rebuildRows();
    /** The lanes' and the rate plot's heights and the legend's columns (TimelinePlotLayout). */
    void updateHeights();
    void updateAxisCaption();
    void updateInfo();
    /** The busy label: the build stage, or how much of what was read is drawn. */
    void updateBusy();
    void updateBands();
    void replotAll();

    void fitSelection();

    QPointer<ViewState> m_state;
    std::shared_ptr<const TraceDocument> m_doc;
    std::shared_ptr<const TimelineIndex> m_index;
    std::vector<std::shared_ptr<const ContextPairs>> m_pairs;
    QStringList m_families;

    TimelineBuilder *m_builder = nullptr;  // the index, filter index and trail builds
    bool m_firstBuild = true;

    TimelineActions *m_actions = nullptr;    // toolbar, context menu and shortcuts
    TimelineCommands *m_commands = nullptr;  // what the actions, keys and context menu do
    QLabel *m_empty = nullptr;               // over the plot when there is nothing to draw

    QCustomPlot *m_overview = nullptr;
    TimelineLanes *m_overviewLanes = nullptr;
    TimelineOverview *m_overviewPart = nullptr;  // owns m_overview, m_overviewLanes

    TimelineMainPlot m_main;  // the main plot and its parts
    QSharedPointer<TimeAxisTicker> m_ticker;
    TimelineFollowLayer *m_ovFollowLayer = nullptr;

    FilterMode m_filterMode = FilterMode::Dim;
    TimelineExportActions *m_exportActions = nullptr;

    LaneLayout m_layout;  // lane order and hidden lanes
    TimeMode m_timeMode = TimeMode::Relative;
    QString m_axisNote;
    double m_wallShift = 0.0;
    TimelineViewport *m_viewport = nullptr;  // the visible window; the time axis follows it

    TimelineInteraction *m_interaction = nullptr;  // mouse, drags and hover on m_main.plot
    int m_laidOutWidth = -1;
    std::unique_ptr<TimelinePlotLayout> m_plotLayout;  // heights, legend columns, label font
};

}  // namespace lmct
