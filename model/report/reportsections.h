#pragma once

#include "cache/anomalyreport.h"
#include "cache/reuseanalysis.h"
#include "report/reportcontent.h"
#include "whatif/configuredrun.h"
#include "whatif/hitovertime.h"
#include "whatif/whatifanalysis.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace lmct {

/**
 * The pieces TraceReport and ComparisonReport share: a trace's facts and configuration, its
 * diagnostics, the figures of the cache analyses (what-if curves with the configured capacity
 * marked, reuse histograms, hit ratio over time), the anomalies, and the words around them.
 * Texts say what they count and of what ("whole trace", the selection), as the viewer does.
 *
 * Thread-safety: pure functions of their arguments (reentrant).
 */
class ReportSections {
public:
    /** Parts joined by the caption separator "  —  ". */
    static QString caption(const QStringList &parts);
    /** "filter: EXPR · t_mono 1.000000 … 2.000000 s", "every record" for none. */
    static QString selectionText(const QString &filterText, const TMonoRange &range);
    /** "12,345" in the locale's digits. */
    static QString count(qint64 n);
    /** "1 key" / "12,345 keys". */
    static QString counted(qint64 n, const QString &one, const QString &many);
    /** "41.2%", "—" when not a number. */
    static QString percent(double ratio);

    /** File, size, records, duration, header fields, digest, arguments checked, damage. */
    static ReportContent::Table fileFacts(const TraceDocument &doc);
    /** The StorageManagerConfig in words, a one-column table of StorageManagerConfig::summaryParts.
     */
    static ReportContent::Table configTable(const TraceDocument &doc);
    /** A sentence on the diagnostics and their table (at most `max` rows, the rest counted). */
    static void addDiagnostics(ReportContent::Section *section, const TraceDocument &doc, int max);

    /** Keys per state (KeyAnalysis::State, people's words) and their share. */
    static ReportContent::Table keyStates(const KeyAnalysis &keys);

    /** Tick labels of power-of-two buckets: BucketLabel::count() ("1k") or BucketLabel::micros()
     *  ("2ms"), as the viewer's histograms label them. */
    static QString bucketLabel(quint64 floor, bool micros);
    /**
     * The bars of `buckets` (ReuseAnalysis's power-of-two buckets) as a series at x = bucket (+
     * `shift`), and the tick labels of the buckets from the first to the last non-empty one
     * (`ticks`, at most 8 labelled); returns the bucket span [first, last].
     */
    static std::pair<int, int> bucketBars(const std::vector<qint64> &buckets, double shift,
                                          bool micros, ReportContent::Series *bars,
                                          std::vector<std::pair<double, QString>> *ticks);
    /** The three reuse histograms of `stats` (distance in keys, in time, reuse count). */
    static std::vector<ReportContent::Figure> reuseFigures(const ReuseAnalysis::Stats &stats,
                                                           const QString &caption,
                                                           const QString &idPrefix);

    /** "configured L1 48 GiB · LRU". */
    static QString configuredText(const ConfiguredRun &run);
    /**
     * The what-if curves of one run or more on one figure (prefetched keys hit in % against the
     * capacity in chunks, log axis): each curve in its policy's colour, the first run's solid,
     * the others' dashed, one legend entry per policy. Id "whatif"; no markers, no alt text.
     */
    static ReportContent::Figure whatIfCurves(const std::vector<const WhatIfAnalysis *> &runs,
                                              const QString &caption);
    /**
     * The what-if curves (prefetched keys hit in % against the capacity in chunks, log axis),
     * one series per curve in its policy's colour, the configured capacity `configured` (0:
     * none) marked with `marker`.
     */
    static ReportContent::Figure whatIfFigure(const WhatIfAnalysis &whatIf, quint64 configured,
                                              const QString &marker, const QString &caption);
    /**
     * The hit ratio over time of `hot` in `windows` windows over [t0, t1], one series per policy,
     * LMCache's own account dashed where the trace has it.
     */
    static ReportContent::Figure hitOverTimeFigure(const HitOverTime &hot, double t0, double t1,
                                                   int windows, const QString &caption);

    /** Items per anomaly kind, with the kind's description; only kinds found, "none" else. */
    static ReportContent::Table anomalyCounts(const AnomalyReport &report);
    /**
     * The anomalies most worth a look, at most `max`: per kind found, its first items in file
     * order (gaps and steps back in time: the largest first), each with its record numbers
     * ("#12, #13"), t_mono and what it is.
     */
    static ReportContent::Table topAnomalies(const AnomalyReport &report, int max);
};

}  // namespace lmct
