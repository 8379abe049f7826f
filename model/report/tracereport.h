#pragma once

#include "filter/tmonorange.h"
#include "report/reportcontent.h"

#include <QString>
#include <atomic>
#include <functional>
#include <memory>

namespace lmct {

class TraceDocument;

/**
 * The report of one trace (File > Export Report…, `lmct-viewer --report OUT FILE`): a
 * ReportContent with these sections, from the analyses the viewer runs:
 *
 * - "file": the file's facts (TraceInfo's: size, records, duration, header fields, digest,
 *   damage, records per call) and the StorageManagerConfig in words;
 * - "diagnostics": the document's diagnostics (at most Options::maxDiagnostics rows);
 * - "calls": TraceStatistics of the selection (the filter's records within the range, as
 *   `lmct stats --filter --range`): per call count, share, first and last t_mono, rate,
 *   inter-arrival p50/p95, keys and bytes per call; then per model;
 * - "timeline": the timeline picture of the selection (TimelineSource 0: the range shown, the
 *   records the filter leaves out hidden);
 * - "cache": CacheAnalysis of the whole trace (the cache's behaviour does not follow a filter):
 *   keys per state, requests and the two accounts of their hits (the calls', LMCache's
 *   PrefetchHandles'), the prefetch hit at the configured capacity and policy (CapacityHit) and
 *   the configured run read against the curves (ConfiguredRun::sentence), each policy at ½, 1
 *   and 2 × the configured capacity, the what-if curves in chunks with the configured capacity
 *   marked (WhatIfAnalysis over every key, the configured capacities among the samples: exact
 *   there), the three reuse histograms (ReuseAnalysis::total()) and the hit ratio over time at
 *   the configured capacity of the configured policy (or LRU) and OPT (HitOverTime);
 * - "anomalies": the counts per kind and the anomalies most worth a look with their record
 *   numbers (ReportSections::topAnomalies).
 *
 * Without a configured L1 size (or keys without sizes to turn it into chunks) the hit ratio
 * over time is read at a quarter of the distinct keys, and the report says so.
 *
 * Progress (0..100): statistics 0–10, cache analysis 10–55, what-if 55–90, hit over time
 * 90–100; from the calling thread or pool workers, one call at a time.
 *
 * Thread-safety: build() is reentrant (run it off the GUI thread). Errors: an invalid filter
 * gives nullptr with `error` set ("invalid filter: …"); cancel gives nullptr, `error` empty.
 */
class TraceReport {
public:
    struct Options {
        QString filterText;  ///< the filter of the selection; empty: every record
        TMonoRange range;    ///< the t_mono range of the selection
        int maxDiagnostics = 40;
        int maxAnomalies = 30;
        int hitWindows = 120;  ///< windows of the hit ratio over time
    };
    using Progress = std::function<void(int percent)>;

    static std::shared_ptr<const ReportContent> build(std::shared_ptr<const TraceDocument> doc,
                                                      const Options &options,
                                                      const Progress &progress = {},
                                                      const std::atomic_bool *cancel = nullptr,
                                                      QString *error = nullptr);

    /** The filter's records (nullptr for an empty filter); nullopt with `error` when invalid. */
    static std::optional<std::shared_ptr<const std::vector<int>>> filterRecords(
        std::shared_ptr<const TraceDocument> doc, const QString &filterText, QString *error);
};

}  // namespace lmct
