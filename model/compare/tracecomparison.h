#pragma once

#include "cache/cacheanalysis.h"
#include "compare/cachecomparison.h"
#include "compare/callcomparison.h"
#include "compare/headercomparison.h"
#include "compare/latencycomparison.h"
#include "stats/tracestatistics.h"
#include "timeline/contextpairs.h"
#include "trace/damagesummary.h"
#include "whatif/usesequence.h"

#include <QJsonObject>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

namespace lmct {

class TraceDocument;

/**
 * Two traces side by side (A/B), what the Compare pane and `lmct compare` show
 * (docs/compare.md): how damaged each is (DamageSummary, damageWarnings()), header and config
 * (HeaderComparison, via ConfigDiff), per-call figures (CallComparison, from TraceStatistics),
 * latencies (LatencyComparison, from KeyAnalysis, RequestAnalysis and the read_prefetched_results
 * ContextPairs) and the cache (CacheComparison: CapacityHit, WhatIfAnalysis, ReuseAnalysis,
 * KeyOverlap, AnomalyReport). Every figure is B against A: Δ = B − A, Δ % = Δ / |A| (FigurePair).
 *
 * Per trace it computes, in this order: TraceStatistics (whole trace, arguments decoded),
 * CacheAnalysis, the read_prefetched_results pairs and the UseSequence of every key; then the
 * comparisons. Progress (0..100): A 0–40, B 40–80, the comparisons (what-if replays) 80–100;
 * called from the calling thread or pool workers, one call at a time.
 *
 * Ownership: run() returns a shared immutable object holding the analyses (they read t_mono
 * from the documents' record stores: the caller keeps both documents alive as long as the
 * comparison, or the documents are owned by shared_ptrs, as TraceLoader's are).
 * Thread-safety: run() is reentrant (call it on a worker thread, off the GUI thread); cancel
 * through `cancel` (nullptr returned). The result is immutable; const methods from any thread.
 */
class TraceComparison {
public:
    struct Options {
        bool whatIf = true;                       ///< run the what-if curves
        std::vector<CachePolicy::Kind> policies;  ///< what-if policies; empty: every policy
    };

    /** One trace and its analyses. */
    struct Side {
        QString fileName;
        QString filePath;
        qint64 records = 0;
        double duration = 0.0;  ///< largest t_mono (seconds)
        StorageManagerConfig config;
        DamageSummary damage;  ///< what reading the file skipped or found damaged
        std::shared_ptr<const TraceStatistics> stats;
        std::shared_ptr<const CacheAnalysis> cache;
        std::shared_ptr<const ContextPairs> reads;  ///< null without read_prefetched_results
        std::shared_ptr<const UseSequence> uses;
    };

    using Progress = std::function<void(int percent)>;

    static std::shared_ptr<const TraceComparison> run(const TraceDocument &a,
                                                      const TraceDocument &b,
                                                      const Options &options,
                                                      const Progress &progress = {},
                                                      const std::atomic_bool *cancel = nullptr);
    /** With the default Options (an overload: GCC cannot use Options' member initialisers in a
     *  default argument inside the class). */
    static std::shared_ptr<const TraceComparison> run(const TraceDocument &a,
                                                      const TraceDocument &b);

    const Side &a() const { return m_a; }
    const Side &b() const { return m_b; }
    const HeaderComparison &header() const { return m_header; }
    const CallComparison &calls() const { return m_calls; }
    const LatencyComparison &latencies() const { return m_latencies; }
    const CacheComparison &cache() const { return *m_cache; }
    /**
     * A damaged trace's warning, for A and B in that order, each "A (a.lct) is damaged: N
     * records with damaged arguments, ...; its figures cover the M records read"
     * (DamageSummary::sentence); empty when neither is damaged.
     */
    QStringList damageWarnings() const;

    /**
     * JSON (docs/cli.md, "lmct compare"): `{"a": TRACE, "b": TRACE, "header": [...],
     * "config_diff": [...], "calls": [...], "latencies": {...}, "cache": {...}}`; unknown
     * numbers are null.
     */
    QJsonObject toJson() const;

private:
    Side m_a, m_b;
    HeaderComparison m_header;
    CallComparison m_calls;
    LatencyComparison m_latencies;
    std::shared_ptr<const CacheComparison> m_cache;
};

}  // namespace lmct
