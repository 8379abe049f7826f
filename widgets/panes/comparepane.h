#pragma once

#include "compare/tracecomparison.h"

#include <QWidget>
#include <memory>

class QComboBox;
class QCustomPlot;
class QLabel;
class QTabWidget;
class QTableView;

namespace lmct {

class CacheComparisonModel;
class CallComparisonModel;
class ComparisonRowDelegate;
class ConfigComparisonModel;
class KeyOverlapModel;
class LatencyComparisonModel;
class WhatIfCurvePlot;

/**
 * The Compare pane: two traces side by side (a TraceComparison, B against A: Δ = B − A,
 * Δ % = Δ / |A|; docs/compare.md), under a warning naming a damaged trace and counting its
 * damage (damageLabel(), hidden when neither is), in four tabs:
 * - "Header & config": ConfigComparisonModel, differing fields highlighted, volatile ones
 *   (`shm_name`) greyed with a tool tip saying why they are ignored; a summary line above;
 * - "Calls": CallComparisonModel (count, rate, share, inter-arrival p50/p95, keys per call);
 * - "Latencies": LatencyComparisonModel and the two µs-bucket distributions of the chosen
 *   latency overlaid (A blue, B orange, bars side by side);
 * - "Cache": CacheComparisonModel, KeyOverlapModel, the what-if curves of A (solid) and B
 *   (dashed) in one colour per policy (policyColor(); a trace without prefetches has none:
 *   "—" with the reason under the title), and the reuse-distance histograms of A
 *   and B overlaid (distinct keys or time, chooser).
 * What cannot be compared says why in place: an italic line under each table lists the reasons
 * (reasonText()), and the rows concerned are greyed with the reason as their tool tip
 * (ComparisonRowDelegate).
 *
 * The comparison is computed elsewhere (off the GUI thread, CompareTab) and handed over with
 * setComparison(). Ownership: owns its models, views and plots; shares the comparison.
 * Thread-safety: GUI thread only.
 */
class ComparePane : public QWidget {
    Q_OBJECT
public:
    enum Tab { HeaderTab, CallsTab, LatenciesTab, CacheTab };

    explicit ComparePane(QWidget *parent = nullptr);
    ~ComparePane() override;

    /** Shows `c`; null shows nothing. */
    void setComparison(std::shared_ptr<const TraceComparison> c);
    std::shared_ptr<const TraceComparison> comparison() const { return m_comparison; }

    /** The stable colour of a what-if policy (its curves in A and B). */
    static QColor policyColor(CachePolicy::Kind kind);
    /** The colours of A's and B's bars. */
    static QColor sideColor(bool b);

    QTabWidget *tabs() const { return m_tabs; }
    ConfigComparisonModel *configModel() const { return m_configModel; }
    CallComparisonModel *callModel() const { return m_callModel; }
    LatencyComparisonModel *latencyModel() const { return m_latencyModel; }
    CacheComparisonModel *cacheModel() const { return m_cacheModel; }
    KeyOverlapModel *overlapModel() const { return m_overlapModel; }
    QTableView *configView() const { return m_configView; }
    QTableView *callView() const { return m_callView; }
    QTableView *latencyView() const { return m_latencyView; }
    QTableView *cacheView() const { return m_cacheView; }
    QTableView *overlapView() const { return m_overlapView; }
    QComboBox *latencyChooser() const { return m_latencyChooser; }
    QComboBox *reuseChooser() const { return m_reuseChooser; }
    QCustomPlot *latencyPlot() const { return m_latencyPlot; }
    /** The what-if curves (the plot the What-if tab draws its curves in too). */
    QCustomPlot *whatIfPlot() const;
    QCustomPlot *reusePlot() const { return m_reusePlot; }
    QLabel *configSummary() const { return m_configSummary; }
    /** The warning above the tabs when A or B is damaged (TraceComparison::damageWarnings()). */
    QLabel *damageLabel() const { return m_damage; }
    /** The reasons shown under the tables of `tab` (empty when everything compares). */
    QString reasonText(Tab tab) const;

private:
    QWidget *buildHeaderTab();
    QWidget *buildCallsTab();
    QWidget *buildLatenciesTab();
    QWidget *buildCacheTab();
    QTableView *makeTable(QAbstractItemModel *model, ComparisonRowDelegate *delegate);
    void updateReasons();
    void updateLatencyPlot();
    void updateWhatIfPlot();
    void updateReusePlot();

    std::shared_ptr<const TraceComparison> m_comparison;
    QTabWidget *m_tabs = nullptr;
    ConfigComparisonModel *m_configModel = nullptr;
    CallComparisonModel *m_callModel = nullptr;
    LatencyComparisonModel *m_latencyModel = nullptr;
    CacheComparisonModel *m_cacheModel = nullptr;
    KeyOverlapModel *m_overlapModel = nullptr;
    QTableView *m_configView = nullptr;
    QTableView *m_callView = nullptr;
    QTableView *m_latencyView = nullptr;
    QTableView *m_cacheView = nullptr;
    QTableView *m_overlapView = nullptr;
    QLabel *m_configSummary = nullptr;
    QLabel *m_damage = nullptr;
    QString m_whatIfTitle;
    QLabel *m_reasons[4] = {};
    QComboBox *m_latencyChooser = nullptr;
    QComboBox *m_reuseChooser = nullptr;
    QCustomPlot *m_latencyPlot = nullptr;
    WhatIfCurvePlot *m_whatIfPlot = nullptr;
    QCustomPlot *m_reusePlot = nullptr;
};

}  // namespace lmct
