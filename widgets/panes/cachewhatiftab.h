#pragma once

#include "panes/cachetab.h"

class QCPAxis;
class QComboBox;
class QCPItemStraightLine;
class QCPItemTracer;
class QCPTextElement;
class QCustomPlot;
class QLabel;
class QSlider;

namespace lmct {

/**
 * The Reuse tab of the Cache Behaviour pane (ReuseAnalysis): the "would have hit" curve (the
 * hit ratio of an LRU cache against its capacity C in chunks, log scale, all models) with a
 * capacity slider that reads the curve instantly (a marker and a line at C, visible at both ends
 * of the slider), and, for all models or the model selected, the histograms (power-of-two
 * buckets) of the reuse distance in distinct keys and in time and of the reuse count per key (a
 * logarithmic count axis: counts span orders of magnitude), each titled with its median and 95th
 * percentile. The model chosen is kept across analyses while the new one still has it.
 *
 * Units: capacities in chunks (distinct keys); reuse distances in keys or in seconds (`t_mono`);
 * hit ratios shown in percent. Ownership: owns its plots and controls. Thread-safety: GUI thread
 * only. Errors: none; without an analysis the plots are empty and the label says so.
 */
class CacheReuseTab : public CacheTab {
    Q_OBJECT
public:
    /** The histograms (ReuseAnalysis::Stats). */
    enum Histogram { DistanceKeysHistogram, DistanceTimeHistogram, ReuseCountHistogram };
    static constexpr int kHistogramCount = 3;

    explicit CacheReuseTab(QWidget *parent = nullptr);

    QSlider *capacitySlider() const { return m_capacity; }
    QCustomPlot *hitPlot() const { return m_hitPlot; }
    /** The hit curve's point at the slider's capacity C (hit ratio in %), and its line. */
    QCPItemTracer *capacityMarker() const { return m_capacityMarker; }
    QCPItemStraightLine *capacityLine() const { return m_capacityLine; }
    /** The model selector: "All models" (data -1), then each model (its index). */
    QComboBox *reuseModelSelector() const { return m_reuseModel; }
    /** A histogram of the model selected (power-of-two buckets: bar b is bucket b). */
    QCustomPlot *histogramPlot(Histogram h) const { return m_histPlots[h]; }
    /** Its title, with the median and the 95th percentile ("… median 12 · p95 340 …"). */
    QString histogramTitle(Histogram h) const;
    /** The capacity (chunks) the slider stands for, and the text read from the curve there. */
    qint64 capacity() const;
    QString capacityText() const;

protected:
    void showAnalysis() override;

private:
    void updateCapacity();
    void updateHistograms();
    /** A log count axis from the bars' base to above `maxCount`, with decade ticks that fit. */
    static void setLogCountAxis(QCPAxis *axis, double maxCount);
    /** Decade ticks (1, 10, 100, 1k, ...) for the axis' range, as many as its height holds. */
    static void setLogCountTicks(QCPAxis *axis);

    QCustomPlot *m_hitPlot = nullptr;
    QCPItemStraightLine *m_capacityLine = nullptr;
    QCPItemTracer *m_capacityMarker = nullptr;
    QSlider *m_capacity = nullptr;
    QLabel *m_capacityLabel = nullptr;
    QComboBox *m_reuseModel = nullptr;
    QString m_reuseModelChoice;  // the model the user chose, kept across analyses
    QCustomPlot *m_histPlots[kHistogramCount] = {};
    QCPTextElement *m_histTitles[kHistogramCount] = {};
};

}  // namespace lmct
