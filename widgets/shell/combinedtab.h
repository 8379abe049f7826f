#pragma once

#include "filter/tracesetfilter.h"
#include "timeline/lanegrouping.h"
#include "trace/mergedorder.h"
#include "trace/traceset.h"

#include <QElapsedTimer>
#include <QList>
#include <QSet>
#include <QStringList>
#include <QWidget>
#include <atomic>
#include <memory>
#include <vector>

class QLabel;
class QProgressBar;
class QStackedWidget;
class QPushButton;
class QComboBox;
class QTableView;
class QTabWidget;
class QTimer;

namespace lmct {

class CombinedCacheView;
class CombinedFilterBar;
class CombinedRecordTableModel;
class CombinedRecordView;
class CombinedStatisticsView;
class DeploymentLink;
class DeploymentTimelines;
class LaneGroupView;
class TraceLoadJob;
class ViewState;

/**
 * Several traces of one deployment in one tab of the main window (File > Open as One
 * Deployment…, `lmct-viewer --combine FILE...`): their records merged on one aligned `t_wall`
 * axis.
 *
 * - The traces form a TraceSet (labels by file name, instances by `level_meta.instance_id`,
 *   an offset per trace); each has its own ViewState, linked by a DeploymentLink, and its own
 *   timeline (DeploymentTimelines: one lane group per trace, labelled).
 * - The record table (CombinedRecordTableModel) interleaves the records of all traces by
 *   aligned t_wall (MergedOrder), with a Trace column. The filter line above it
 *   (CombinedFilterBar) takes one expression for all traces, `trace` included; it is evaluated
 *   off the GUI thread over every trace (TraceSetFilter) and each trace's result goes to its
 *   ViewState (its timeline dims the rest). A filter set on a trace's ViewState by another view
 *   (a dock's "Filter to this") becomes the tab's filter.
 * - A time range (set on any trace's ViewState, e.g. dragged on a timeline; the DeploymentLink
 *   maps it to the others) narrows the table to the rows in it on the aligned t_wall axis
 *   (CombinedRecordTableModel::setTimeRange, from the current trace's range); Esc or the
 *   table's "Show All Records" clears it. The table sorts by a header click and offers
 *   "Filter to This" (CombinedRecordView).
 * - Selecting a row selects its record in its trace's ViewState; the current trace
 *   (currentState(), currentStateChanged()) is the one of the selected record, the state the
 *   main window's docks (Inspector, Header, Diagnostics, Statistics, Cache Behaviour) follow.
 * - The Statistics tab beside the records shows TraceSetStatistics over all traces or one
 *   (a chooser), of the filter's records, computed off the GUI thread once every trace is read
 *   and again after an offset or the filter changed. The Cache Behaviour tab beside it shows
 *   the cache figures of all traces or one (CombinedCacheView: the keys a union over the
 *   traces, the other counts sums of the per-trace analyses), analysed once every trace is read
 *   and the tab is shown. The "Docks show:" chooser picks the trace
 *   the docks follow without selecting a record.
 * - Group lanes: (the bar, and Lanes > Group Lanes By of the first timeline) shows the lanes by
 *   trace (a timeline per trace) or by model, rank or tenant (LaneGroupView: a timeline per
 *   trace and group), grouped off the GUI thread (LaneGrouping) once every trace is read.
 * - Offsets (setOffset(), the Offsets… button and Lanes > Trace Offsets… of the first
 *   timeline) move a whole trace on the common axis; the merge is rebuilt on a worker
 *   (MergedOrder, JobPool) while the previous order stays shown.
 * - Loading: every file loads off the GUI thread (TraceLoadJob); the tab shows the set as soon
 *   as every file is opened, and the merge grows as the documents do (MergedOrder::update, a
 *   few times a second). A file the loader refuses is left out with a warning naming it; a
 *   damaged trace (errors or warnings) gets a warning naming it and how to see its
 *   diagnostics. Traces given as followed are followed as LMCache writes them (until
 *   stopFollowing()).
 *
 * Ownership: owns the ViewStates, link, loads and running jobs (cancelled and waited for on
 * destruction); the documents are shared. Thread-safety: GUI thread only.
 */
class CombinedTab : public QWidget {
    Q_OBJECT
public:
    explicit CombinedTab(QWidget *parent = nullptr);
    ~CombinedTab() override;

    /** Loads `paths` (the indices in `followed` are followed as they are written) and combines
     *  them. Call one of the combine functions once. */
    void combineFiles(const QStringList &paths, const QSet<int> &followed = {});
    /** Combines documents already loaded (e.g. of open tabs). */
    void combineDocuments(const QList<std::shared_ptr<const TraceDocument>> &docs);
    /** Stops running loads and jobs. */
    void cancel();
    /** Stops following the followed traces (their documents stay shown). */
    void stopFollowing();
    bool isFollowing() const;

    /** "Deployment: a.lct + N more", for the tab's label: the files given until the set is
     *  made, then the traces in it (those that could be read). */
    QString title() const;
    QStringList filePaths() const { return m_paths; }
    /** Files the loader refused, each "name: reason". */
    QStringList refusedFiles() const { return m_refused; }
    bool isBusy() const;

    const TraceSet &traceSet() const { return m_set; }
    std::shared_ptr<const MergedOrder> order() const { return m_order; }
    int traceCount() const { return m_set.size(); }
    ViewState *state(int t) const { return m_states.value(t); }
    /** The ViewState of the selected record's trace (trace 0 before any), or null. */
    ViewState *currentState() const;
    /** Every ViewState of the tab. */
    QList<ViewState *> states() const { return m_states; }
    DeploymentLink *link() const { return m_link; }
    DeploymentTimelines *timelines() const { return m_timelines; }
    /** The lanes grouped by model, rank or tenant (shown instead of timelines() then). */
    LaneGroupView *groupView() const { return m_groupView; }
    /** Groups the lanes (Trace: a timeline per trace, the default); grouping by model, rank or
     *  tenant scans the records on a worker (grouped() when shown). */
    void setGrouping(LaneGrouping::By by);
    LaneGrouping::By grouping() const { return m_grouping; }
    /** "Group lanes:" of the tab's bar. */
    QComboBox *groupingBox() const { return m_groupBox; }
    CombinedFilterBar *filterBar() const { return m_filterBar; }
    QTableView *table() const;
    CombinedRecordView *recordView() const { return m_table; }
    CombinedRecordTableModel *model() const { return m_model; }
    CombinedStatisticsView *statisticsView() const { return m_stats; }
    CombinedCacheView *cacheView() const { return m_cache; }
    /** The bottom tabs: Records, Statistics, Cache Behaviour. */
    QTabWidget *bottomTabs() const { return m_bottom; }
    /** "Docks show:": the trace the main window's docks follow. */
    QComboBox *docksChooser() const { return m_docks; }
    QLabel *warningLabel() const { return m_warning; }
    QLabel *statusLabel() const { return m_status; }

    /** Moves trace `t` by `seconds` on the common axis; the merge is rebuilt off the GUI
     *  thread (orderChanged() when shown). */
    void setOffset(int t, double seconds);
    /** All offsets at once (seconds, by trace); one rebuild. */
    void setOffsets(const std::vector<double> &seconds);
    /** Asks for every trace's offset in ms (TraceOffsetsDialog) and applies them. */
    void showOffsetsDialog();
    void setWallUtc(bool utc);
    /** Selects record `record` of trace `t` (table, its timeline, the docks). */
    bool selectRecord(int t, int record);
    /** Whether the merge is being built or brought up to date. */
    bool isMerging() const { return m_merging; }
    /** Whether a filter is being evaluated. */
    bool isFiltering() const { return m_filtering; }
    /** Applies `text` as the filter of every trace (empty: none). */
    void applyFilter(const QString &text);

signals:
    /** The set is shown: every file opened (or refused) and the ViewStates hold the traces. */
    void combined();
    /** Every trace is read (or followed) and the merge covers it. */
    void loaded();
    /** A newer merge is shown (grown documents, or other offsets). */
    void orderChanged();
    /** The filter's result is shown. */
    void filtered();
    /** The Statistics tab shows statistics of the current offsets and filter. */
    void statisticsReady();
    /** No file could be read (`error`: the reasons). */
    void failed(const QString &error);
    /** statusLabel()'s text changed (what the main window's status bar repeats). */
    void statusChanged();
    /** The lanes are shown grouped as setGrouping() asked. */
    void grouped();
    /** The current trace changed (currentState()). */
    void currentStateChanged(lmct::ViewState *state);

private:
    void onOpened(int i, std::shared_ptr<const TraceDocument> doc);
    void onFinished(int i, std::shared_ptr<const TraceDocument> doc, const QString &error);
    void maybeStart();
    void start(const QList<std::shared_ptr<const TraceDocument>> &docs, const QStringList &paths);
    void onGrowTimer();
    /** Brings the merge up to date with the set on a worker (or rebuilds it: other offsets). */
    void startMerge();
    void onMerged(std::shared_ptr<const MergedOrder> order, quint64 revision,
                  std::shared_ptr<const std::vector<qint64>> rows);
    void startFilter();
    /** TraceSetStatistics of the current merge and filter (CombinedStatisticsView::compute). */
    void startStatistics();
    void onStateSelection(int t, int record);
    void onRowSelected();
    /** The table's time range from the traces' ranges (the current trace's first). */
    void updateTableRange();
    void updateWarning();
    void updateStatus();
    bool anyLoading() const;

    QStringList m_paths;
    QSet<int> m_followed;
    QList<TraceLoadJob *> m_jobs;
    QList<std::shared_ptr<const TraceDocument>> m_opened;  // by path, null until opened
    QList<bool> m_ended;                                   // by path: opened or refused
    QStringList m_refused;
    TraceSet m_set;
    std::shared_ptr<const MergedOrder> m_order;
    QList<ViewState *> m_states;
    DeploymentLink *m_link = nullptr;
    DeploymentTimelines *m_timelines = nullptr;
    LaneGroupView *m_groupView = nullptr;
    QStackedWidget *m_lanes = nullptr;  // the timelines by trace, or grouped
    QComboBox *m_groupBox = nullptr;
    LaneGrouping::By m_grouping = LaneGrouping::By::Trace;
    quint64 m_groupGeneration = 0;
    CombinedFilterBar *m_filterBar = nullptr;
    CombinedRecordTableModel *m_model = nullptr;
    CombinedRecordView *m_table = nullptr;
    QTabWidget *m_bottom = nullptr;
    CombinedStatisticsView *m_stats = nullptr;
    CombinedCacheView *m_cache = nullptr;
    QComboBox *m_docks = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_warning = nullptr;
    QPushButton *m_offsetsButton = nullptr;
    QPushButton *m_stopFollow = nullptr;
    QProgressBar *m_progress = nullptr;
    QTimer *m_growTimer = nullptr;
    QElapsedTimer m_lastMerge;  // when the last merge started
    bool m_started = false;
    bool m_loadedOnce = false;
    bool m_merging = false;
    bool m_mergeAgain = false;
    std::shared_ptr<std::atomic_bool> m_mergeCancel;
    QString m_filterText;
    bool m_filtering = false;
    bool m_filterAgain = false;
    quint64 m_filterGeneration = 0;
    std::shared_ptr<std::atomic_bool> m_filterCancel;
    /** The last filter result per trace, to match the rows of a grown merge. */
    std::vector<std::shared_ptr<const std::vector<int>>> m_filterPerTrace;
    bool m_syncing = false;  // a selection carried between the table and the states
    std::shared_ptr<std::atomic_int> m_jobsRunning;  // workers that still read the set
};

}  // namespace lmct
