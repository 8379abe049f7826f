#pragma once

#include "common/whatifcurveplot.h"
#include "panes/cachetab.h"
#include "panes/reusehistograms.h"
#include "panes/whatifcontrols.h"
#include "viewstate.h"
#include "whatif/cachepolicy.h"
#include "whatif/chunksize.h"
#include "whatif/configuredrun.h"
#include "whatif/hitovertime.h"
#include "whatif/usesequence.h"
#include "whatif/whatifanalysis.h"
#include "whatif/whatifscope.h"

#include <QThreadPool>
#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemTracer;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSlider;
class QTimer;

namespace lmct {

/**
 * The What-if tab of the Cache Behaviour pane: what another capacity or eviction policy would
 * have done (WhatIfAnalysis), and how the keys are reused (ReuseAnalysis).
 *
 * - The curves (WhatIfCurvePlot): one per checked policy (LRU, FIFO, CLOCK, S3-FIFO, ARC, OPT;
 *   all by default), the prefetch hit ratio against the capacity C on a log axis, in chunks or,
 *   switched, in bytes (each key its model's bytes per object from the layouts; the switch is
 *   disabled, with a tooltip saying why, for a scope without layout), for all models or one and,
 *   when the trace has cache_salt, all tenants or one (WhatIfControls, beside the curves).
 * - A scope with nothing to plot (a trace without key calls, a model or tenant without uses,
 *   uses without submit_prefetch_task) draws no curve and says why in their place
 *   (emptyReason()).
 * - The configured L1 capacity and policy (the header's StorageManagerConfig) as a vertical line
 *   and a sentence (ConfiguredRun): "You ran LRU at 48 GiB ≈ 24576 chunks: 41.2% …"; bytes turn
 *   into chunks by ChunkSize, as `lmct whatif` turns them.
 * - A damaged trace (DamageSummary) is named in a warning above: the figures leave the damage
 *   out.
 * - A capacity slider (log scale, 1 to the scope's keys or bytes) that reads every policy at C:
 *   a marker per curve (the red one on LRU), the figures in a label, exact where known (LRU
 *   from the stack distances, the others once the hit ratio over time at C is built), else
 *   read between the curve's samples ("≈"). Sizes are written as `lmct whatif --capacity`
 *   reads them (no digit grouping).
 * - For the model chosen, the reuse histograms (ReuseHistograms).
 *
 * Off the GUI thread (a pool of its own, two threads), once the tab is on screen (a hidden tab
 * waits until it is shown): per scope, UseSequence::build, then
 * WhatIfAnalysis::run of the checked policies lacking a curve (capacities: the defaults and the
 * configured one), a progress bar and a Cancel button meanwhile; curves are drawn as onCurve
 * reports them. A change of scope or unit cancels the run and starts another; checking a policy
 * whose curve is missing starts a run for it, unchecking hides its curve. For the slider's C and
 * the checked policies it builds HitOverTime (a quarter second after the slider stops) and emits
 * hitOverTimeReady(); whatIfChosen() says the choice at once. For all models and tenants in
 * chunks, the LRU curve is ReuseAnalysis' (the same replay, shown at once). The model and tenant
 * chosen are kept across analyses while the new one still has them.
 *
 * Units: capacities in chunks (distinct keys) or bytes; reuse distances in keys or seconds
 * (`t_mono`); hit ratios shown in percent. Ownership: owns its plots, controls and pool (the
 * destructor cancels and waits); shares the document and the analyses. Thread-safety: GUI
 * thread only. Errors: none; without an analysis the plots are empty and the label says so; a
 * cancelled run leaves the curves it finished and a Run button.
 */
class CacheWhatIfTab : public CacheTab {
    Q_OBJECT
public:
    using Histogram = ReuseHistograms::Histogram;
    static constexpr int kHistogramCount = ReuseHistograms::kHistogramCount;
    using Unit = WhatIfAnalysis::Unit;

    explicit CacheWhatIfTab(QWidget *parent = nullptr);
    ~CacheWhatIfTab() override;

    /** The document of the analyses (its records and header); set before setAnalysis(). */
    void setDocument(std::shared_ptr<const TraceDocument> doc);

    QSlider *capacitySlider() const { return m_capacity; }
    WhatIfCurvePlot *hitPlot() const { return m_plot; }
    /** The red marker at the slider's capacity C (on LRU's curve, else the first shown), and
     *  the line at C. */
    QCPItemTracer *capacityMarker() const { return m_plot->capacityMarker(); }
    QCPItemStraightLine *capacityLine() const { return m_plot->capacityLine(); }
    WhatIfControls *controls() const { return m_controls; }
    /** WhatIfControls' model and tenant choosers, policy boxes, unit switch, progress, run. */
    QComboBox *reuseModelSelector() const { return m_controls->modelSelector(); }
    QComboBox *tenantSelector() const { return m_controls->tenantSelector(); }
    QCheckBox *policyBox(CachePolicy::Kind kind) const { return m_controls->policyBox(kind); }
    QRadioButton *chunksButton() const { return m_controls->chunksButton(); }
    QRadioButton *bytesButton() const { return m_controls->bytesButton(); }
    QProgressBar *progressBar() const { return m_controls->progressBar(); }
    /** "Cancel" while a run goes, "Run" after a cancel. */
    QPushButton *runButton() const { return m_controls->runButton(); }
    /** The curve of `kind`, or nullptr when not shown (unchecked or not computed yet). */
    QCPGraph *curveGraph(CachePolicy::Kind kind) const { return m_graphs[size_t(kind)]; }
    /** The configured L1 capacity's line and the sentence beside it (empty without config). */
    QCPItemStraightLine *configuredLine() const { return m_plot->configuredLine(); }
    QString configuredText() const;
    /** Why the scope has no curves to plot (shown in their place); empty when it has. */
    QString emptyReason() const;
    /** The damage warning above the curves (DamageSummary::sentence; empty: not damaged). */
    QString damageText() const;
    /** A reuse histogram of the model selected (power-of-two buckets: bar b is bucket b). */
    QCustomPlot *histogramPlot(Histogram h) const { return m_histograms->plot(h); }
    /** Its title, with the median and the 95th percentile ("… median 12 · p95 340 …"). */
    QString histogramTitle(Histogram h) const { return m_histograms->title(h); }
    ReuseHistograms *histograms() const { return m_histograms; }
    /** The capacity the slider stands for (chunks, or bytes in Unit::Bytes), and the text read
     *  from the curves there. */
    qint64 capacity() const;
    QString capacityText() const;

    Unit unit() const { return m_unit; }
    /** The scope chosen (model and tenant as UseSequence indices). */
    UseSequence::Scope scope() const { return m_controls->scope(); }
    std::vector<CachePolicy::Kind> checkedPolicies() const { return m_controls->checkedPolicies(); }
    /** Whether a curve run is going. */
    bool isRunning() const { return m_running; }
    /** The uses of the scope chosen, once built (null before). */
    std::shared_ptr<const UseSequence> uses() const { return m_uses; }
    /** The last hit ratio over time built (null: none yet, or stale). */
    std::shared_ptr<const HitOverTime> hitOverTime() const { return m_hot; }
    /** The capacity and policies chosen. */
    ViewState::WhatIfChoice choice() const;

signals:
    /** The curve run of the scope and unit chosen has ended (or found nothing to run). */
    void curvesFinished();
    /** The capacity, unit or policies chosen changed. */
    void whatIfChosen(const ViewState::WhatIfChoice &choice);
    /** The hit ratio over time of choice() was built (null: none to show). */
    void hitOverTimeReady(std::shared_ptr<const HitOverTime> result);

protected:
    void showAnalysis() override;
    void showEvent(QShowEvent *event) override;

private:
    struct UsesFacts {
        std::shared_ptr<const UseSequence> uses;
        qint64 countedPrefetches = 0;  // hits of an infinite cache
        ChunkSize chunkSize;           // the keys' sizes (unknown without layouts)
    };

    void onScopeChanged();
    void onUnitChanged();
    void onPolicyToggled(CachePolicy::Kind kind, bool on);
    void startRun();
    void cancelRun();
    void onRunProgress(quint64 generation, int percent);
    void onUses(quint64 generation, const UsesFacts &facts);
    void onCurve(quint64 generation, const WhatIfAnalysis::Curve &curve);
    void onRunFinished(quint64 generation, std::shared_ptr<const WhatIfAnalysis> result);
    void onHitOverTime(quint64 generation, std::shared_ptr<const HitOverTime> result);
    void clearCurves();
    /** Draws (or removes) the curve of `kind`: ReuseAnalysis' or the exact LRU, else the
     *  policy's samples, level past its last one to the axis' end. */
    void showCurve(CachePolicy::Kind kind);
    /** The capacity axis of the unit, its range, the hit axis' zoom, the title, the message of
     *  an empty scope; redraws. */
    void setupAxes();
    void updateCapacity();
    void updateConfigured();
    void updateUnitSwitch();
    void updateRunButton();
    void scheduleHitOverTime();
    void startHitOverTime();
    void updateHistograms();
    /** The scope chosen: its keys, uses, prefetches, best ratio and empty reason. */
    WhatIfScope scopeFacts() const;
    /** Whether the scope is all models and tenants in chunks: ReuseAnalysis' LRU applies. */
    bool reuseApplies() const;
    /** The scope's distinct keys (chunk capacities up to it). */
    qint64 scopeKeys() const;
    /** Prefetch hits of `kind` at `c`: exact (`exact`) or read between samples; nullopt if
     *  unknown. */
    std::optional<double> ratioAt(CachePolicy::Kind kind, quint64 c, bool *exact) const;
    qint64 scopePrefetches() const;
    /** Counted prefetches over all prefetches: the hit ratio of a cache that holds every key. */
    double bestRatio() const;
    /** "1024 chunks (≈ 2 GiB)", "2 GiB (≈ 1024 chunks)". */
    QString capacityWords(quint64 c) const;

    std::shared_ptr<const TraceDocument> m_doc;
    std::optional<ConfiguredRun> m_configured;
    QThreadPool m_pool;

    // the curve run of (m_usesScope, m_unit)
    quint64 m_runGeneration = 0;
    std::shared_ptr<std::atomic_bool> m_runCancel;
    bool m_running = false;
    bool m_cancelled = false;
    bool m_runPending = false;  // a run asked for while the tab was hidden: starts when shown
    Unit m_unit = Unit::Chunks;
    UsesFacts m_facts;  // of m_usesScope
    std::shared_ptr<const UseSequence> m_uses;
    UseSequence::Scope m_usesScope;
    std::map<int, WhatIfAnalysis::Curve> m_curves;      // by policy, of m_usesScope and m_unit
    std::shared_ptr<const WhatIfAnalysis> m_lruResult;  // a finished run: exact LRU

    // the hit ratio over time at C
    quint64 m_hotGeneration = 0;
    std::shared_ptr<std::atomic_bool> m_hotCancel;
    std::shared_ptr<const HitOverTime> m_hot;
    QTimer *m_hotTimer = nullptr;

    WhatIfCurvePlot *m_plot = nullptr;
    std::array<QCPGraph *, CachePolicy::kKindCount> m_graphs{};
    WhatIfControls *m_controls = nullptr;
    ReuseHistograms *m_histograms = nullptr;
    QLabel *m_damageLabel = nullptr;
    QLabel *m_configuredLabel = nullptr;
    QSlider *m_capacity = nullptr;
    QLabel *m_capacityLabel = nullptr;
};

}  // namespace lmct
