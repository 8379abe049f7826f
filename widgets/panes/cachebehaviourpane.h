#pragma once

#include "cache/cacheanalysis.h"
#include "common/viewstateobserver.h"
#include "panes/cacheanomaliestab.h"
#include "panes/cachekeystab.h"
#include "panes/cacherequeststab.h"
#include "panes/cachewhatiftab.h"

#include <QPointer>
#include <QThreadPool>
#include <QWidget>
#include <atomic>
#include <memory>

class QComboBox;
class QCPItemStraightLine;
class QCPItemTracer;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QSlider;
class QTabWidget;
class QTableView;
class QTableWidget;

namespace lmct {

class AnomalyTableModel;
class KeyTableModel;
class RequestTableModel;
class StableLabel;
class ViewState;

/**
 * "See the cache behave": the keys, requests, anomalies and what-if of the current trace
 * (CacheAnalysis), in four tabs, each a widget of its own (CacheKeysTab, CacheRequestsTab,
 * CacheAnomaliesTab, CacheWhatIfTab); the pane runs the analysis, hands the tabs its results (and
 * the document, to the What-if tab), shows the summary line and binds the ViewState.
 *
 * - Keys: every distinct ObjectKey (KeyTableModel, sortable, filtered by a hash prefix), and the
 *   lifecycle of the selected key below it (KeyLifecycle: each call, the gap since the previous
 *   one, write latencies).
 * - Requests: one row per submit_prefetch_task (RequestTableModel).
 * - Anomalies: counts per kind and the items (AnomalyTableModel), filterable by kind.
 * - What-if: the prefetch hit ratio of each eviction policy against the capacity (chunks or
 *   bytes, log scale), per model and tenant, with the configured L1 capacity marked and a
 *   capacity slider reading every policy at C, and the reuse histograms (CacheWhatIfTab). Its
 *   chosen capacity and policies and their hit ratio over time go to the ViewState
 *   (setWhatIfChoice(), setHitOverTime()), for the timeline's hit-ratio plot.
 *
 * The What-if tab's plots export from their context menus (CachePlotExports).
 *
 * Clicking a row (or moving to it with the keyboard) selects its record in the ViewState (the
 * read, the first reserve or the last finish for the matching request columns); a time range that
 * hides the record is cleared first. A key row also makes its key the followed key (followKey()).
 *
 * The analysis runs off the GUI thread, in a pool of its own, whenever the ViewState's document
 * changes while the pane is visible (a hidden pane, e.g. a dock tab behind another (setShown()),
 * waits until it is shown; a document still being read is waited for, until a documentGrew() finds
 * it read), and on "Analyse again" (e.g. for a trace that grew while followed: a hint then says how
 * many records came after the analysis); a progress bar shows it and a newer run cancels an older
 * one. analysisFinished() is emitted when results are shown.
 *
 * Ownership: owns its tabs (and so the models) and worker pool (the destructor cancels and waits);
 * does not own the ViewState. Thread-safety: GUI thread only.
 */
class CacheBehaviourPane : public QWidget, public ViewStateObserver {
    Q_OBJECT
public:
    /** The tabs; ReuseTab is the What-if tab's earlier name. */
    enum Tab { KeysTab, RequestsTab, AnomaliesTab, WhatIfTab, ReuseTab = WhatIfTab };
    /** The What-if tab's histograms (ReuseAnalysis::Stats). */
    using Histogram = CacheWhatIfTab::Histogram;
    using enum ReuseHistograms::Histogram;
    static constexpr int kHistogramCount = CacheWhatIfTab::kHistogramCount;

    explicit CacheBehaviourPane(QWidget *parent = nullptr);
    ~CacheBehaviourPane() override;

    void setViewState(ViewState *state) override;
    void setShown(bool shown) override;
    QSize sizeHint() const override;

    /** The ViewState shown (not owned), or nullptr. */
    ViewState *viewState() const { return m_state; }
    /** The results shown, or nullptr (no trace, or still analysing). */
    std::shared_ptr<const CacheAnalysis> analysis() const { return m_analysis; }
    bool isAnalysing() const { return m_running; }
    /** Whether the analysis waits for the document to finish loading (it starts then). */
    bool isWaitingForLoad() const { return m_waitingForLoad; }
    /** Starts a new analysis of the current document (cancelling a running one). */
    void analyse();

    QTabWidget *tabs() const { return m_tabs; }
    KeyTableModel *keyModel() const { return m_keysTab->model(); }
    RequestTableModel *requestModel() const { return m_requestsTab->model(); }
    AnomalyTableModel *anomalyModel() const { return m_anomaliesTab->model(); }
    QTableView *keyView() const { return m_keysTab->view(); }
    QTableView *requestView() const { return m_requestsTab->view(); }
    QTableView *anomalyView() const { return m_anomaliesTab->view(); }
    QTableWidget *lifecycleView() const { return m_keysTab->lifecycleView(); }
    CacheWhatIfTab *whatIfTab() const { return m_whatIfTab; }
    QSlider *capacitySlider() const { return m_whatIfTab->capacitySlider(); }
    QCustomPlot *hitPlot() const { return m_whatIfTab->hitPlot(); }
    /** The hit curve's point at the slider's capacity C (hit ratio in %), and its line. */
    QCPItemTracer *capacityMarker() const { return m_whatIfTab->capacityMarker(); }
    QCPItemStraightLine *capacityLine() const { return m_whatIfTab->capacityLine(); }
    /** The What-if tab's model selector: "All models" (data -1), then each model (its index). */
    QComboBox *reuseModelSelector() const { return m_whatIfTab->reuseModelSelector(); }
    /** A histogram of the model selected (power-of-two buckets: bar b is bucket b). */
    QCustomPlot *histogramPlot(Histogram h) const { return m_whatIfTab->histogramPlot(h); }
    /** Its title, with the median and the 95th percentile ("… median 12 · p95 340 …"). */
    QString histogramTitle(Histogram h) const { return m_whatIfTab->histogramTitle(h); }
    /**
     * "N new records since analysis — Analyse again" when the document grew (live follow)
     * after the records shown were analysed; empty otherwise (also while analysing).
     */
    QString staleText() const;
    /** The summary line ("11,906 keys · 600 requests · 117 anomalies"). */
    QString summaryText() const;
    /** The capacity (chunks) the slider stands for, and the text read from the curve there. */
    qint64 capacity() const { return m_whatIfTab->capacity(); }
    QString capacityText() const { return m_whatIfTab->capacityText(); }

    /** Shows the lifecycle of `key` under the key table. */
    void showLifecycle(int key) { m_keysTab->showLifecycle(key); }
    /**
     * Makes `key` the ViewState's followed key (KeyAnalysis::followExpression), so the timeline
     * and the record table show its lifecycle; false without analysis or for an invalid key.
     */
    bool followKey(int key);
    /** Selects `record` in the ViewState (clearing a range that hides it); false if none. */
    bool selectRecord(int record);

signals:
    void analysisFinished();

protected:
    void showEvent(QShowEvent *event) override;
    /** Shown and on screen: isVisible() and not a dock tab behind another (setShown). */
    bool isOnScreen() const { return m_shown && isVisible(); }

private:
    void onDocumentChanged();
    void onProgress(quint64 generation, int percent);
    void onFinished(quint64 generation, std::shared_ptr<const CacheAnalysis> result);
    void showResults(std::shared_ptr<const CacheAnalysis> result);
    void updateStale();
    void cancelRunning();

    QPointer<ViewState> m_state;
    std::shared_ptr<const CacheAnalysis> m_analysis;
    QThreadPool m_pool;
    std::shared_ptr<std::atomic_bool> m_cancel;
    quint64 m_generation = 0;
    bool m_running = false;
    bool m_waitingForLoad = false;  // analyse() found the document still loading
    bool m_dirty = false;           // the document changed while hidden
    bool m_shown = true;            // the dock is on screen (setShown)

    QLabel *m_summary = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_again = nullptr;
    QTabWidget *m_tabs = nullptr;
    CacheKeysTab *m_keysTab = nullptr;
    CacheRequestsTab *m_requestsTab = nullptr;
    CacheAnomaliesTab *m_anomaliesTab = nullptr;
    CacheWhatIfTab *m_whatIfTab = nullptr;
    StableLabel *m_stale = nullptr;  // objectName "cacheStale"
};

}  // namespace lmct
