#pragma once

#include "cache/reuseanalysis.h"

#include <QFontMetrics>
#include <QString>
#include <QWidget>

class QCPAxis;
class QCPTextElement;
class QCustomPlot;

namespace lmct {

/**
 * The What-if tab's reuse histograms of one model (or all), side by side: the reuse distance in
 * distinct keys and in time, and the reuse count per key (ReuseAnalysis::Stats), in power-of-two
 * buckets labelled by BucketLabel (bar b is bucket b), each titled with its median and 95th
 * percentile. The reuse count's axis is logarithmic (most keys are used once, a few many times):
 * its bars stand on 0.5 and its decades are labelled as many as the plot's height holds.
 *
 * Each title fits its plot's width: a line too wide for it wraps at its " · " separators, and a
 * part still too wide is elided at its end, the plot's tool tip then holding the whole title.
 *
 * Units: distances in keys or seconds (`t_mono`, bucketed in µs), counts of reuses or keys.
 * Ownership: owns its plots; keeps no pointer to the stats shown. Thread-safety: GUI thread.
 * Errors: none; without stats the plots are empty and titled by their names only.
 */
class ReuseHistograms : public QWidget {
    Q_OBJECT
public:
    enum Histogram { DistanceKeysHistogram, DistanceTimeHistogram, ReuseCountHistogram };
    static constexpr int kHistogramCount = 3;

    explicit ReuseHistograms(QWidget *parent = nullptr);

    /** Shows `stats` (null: nothing). */
    void setStats(const ReuseAnalysis::Stats *stats);

    QCustomPlot *plot(Histogram h) const { return m_plots[h]; }
    /** Its title, with the median and the 95th percentile ("… median 12 · p95 340 …"). */
    QString title(Histogram h) const { return m_fullTitles[h]; }
    /** The title as drawn, fitted to the plot's width (fitTitle()). */
    QString shownTitle(Histogram h) const;

    /**
     * `title` fitted to `width` pixels of `fm`: each line too wide wraps at its " · "
     * separators (as many parts on a line as fit), and a part still too wide is elided at its
     * end (`elided` then true). A width of 0 or less leaves the title as it is.
     */
    static QString fitTitle(const QString &title, const QFontMetrics &fm, int width,
                            bool *elided = nullptr);

    /** A log count axis from the bars' base to above `maxCount`, with decade ticks that fit. */
    static void setLogCountAxis(QCPAxis *axis, double maxCount);
    /** Decade ticks (1, 10, 100, 1k, ...) for the axis' range, as many as its height holds. */
    static void setLogCountTicks(QCPAxis *axis);

private:
    /** Fits histogram h's title to its plot's present width (once per width). */
    void fitTitleToPlot(int h, bool force);

    QCustomPlot *m_plots[kHistogramCount] = {};
    QString m_fullTitles[kHistogramCount];
    QCPTextElement *m_titles[kHistogramCount] = {};
};

}  // namespace lmct
