#pragma once

#include "cache/anomalyreport.h"
#include "cache/cacheanalysis.h"
#include "cache/reuseanalysis.h"
#include "compare/capacityhit.h"
#include "compare/figurepair.h"
#include "compare/keyoverlap.h"
#include "trace/storagemanagerconfig.h"
#include "whatif/usesequence.h"
#include "whatif/whatifanalysis.h"

#include <QString>
#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace lmct {

/**
 * The cache behaviour of two traces side by side (docs/compare.md, "Cache"):
 * - the prefetch hit ratio at each trace's configured capacity and policy (CapacityHit);
 * - LMCache's own account of its L1 prefix hits, where release_prefetch_task records carry a
 *   PrefetchHandle: Σ l1_prefix_hit_count / Σ total_requested_keys over the releases
 *   (LmcacheAccount, the definition the timeline's hit-ratio plot shares; cancels are not
 *   counted);
 * - the calls' account: Σ prefixHit / Σ requested over every request (RequestAnalysis);
 * - the what-if curves of both (WhatIfAnalysis, chunks, the same capacities for both: powers of
 *   two from 1 to the first at or above the larger key count), to overlay;
 * - the reuse-distance histograms (ReuseAnalysis::total(): distinct keys and µs buckets);
 * - the key overlap per model (KeyOverlap);
 * - the anomaly counts per kind (AnomalyReport).
 * Whatever cannot be compared says why (hitRatioReason(), whatIfReason(), KeyOverlap::reason()).
 *
 * Ownership: holds the analyses it was built from (shared, immutable).
 * Thread-safety: build() is reentrant (run it on a worker); the result is immutable.
 */
class CacheComparison {
public:
    /** One trace's analyses, as TraceComparison computes them. */
    struct Inputs {
        const StorageManagerConfig *config = nullptr;
        std::shared_ptr<const CacheAnalysis> cache;
        std::shared_ptr<const UseSequence> uses;
    };

    /** A hit count out of requested keys. */
    struct Account {
        qint64 requests = 0;  ///< requests counted (LMCache's: releases counted)
        qint64 hitKeys = 0;
        qint64 requestedKeys = 0;
        double hitRatio = qQNaN();  ///< hitKeys / requestedKeys; NaN when nothing was requested
    };

    struct Side {
        CapacityHit atCapacity;
        Account lmcache;                               ///< from the PrefetchHandles
        Account calls;                                 ///< from the matched reads
        std::shared_ptr<const WhatIfAnalysis> whatIf;  ///< null when not run
        std::shared_ptr<const ReuseAnalysis> reuse;
        std::array<qint64, AnomalyReport::kKindCount> anomalies{};
        /** Whether the what-if's hit ratios mean something: it ran and the trace has prefetch
         *  occurrences (without any, WhatIfAnalysis reports 0 where nothing could hit: shown as
         *  unknown, null in JSON, with whatIfReason()). */
        bool hasWhatIfRatios() const { return whatIf && atCapacity.prefetchOccurrences > 0; }
    };

    struct Options {
        bool whatIf = true;                       ///< run the what-if curves
        std::vector<CachePolicy::Kind> policies;  ///< what-if policies; empty: every policy
    };
    using Progress = std::function<void(int percent)>;

    /** Capacities both what-ifs use: powers of two from 1 to the first ≥ max(ka, kb), ≥ 1. */
    static std::vector<quint64> sharedCapacities(quint64 keysA, quint64 keysB);
    /** LMCache's account of `keys` (LmcacheAccount::total(); `requests` counts the releases). */
    static Account lmcacheAccount(const KeyAnalysis &keys);
    /** The calls' account of `requests`. */
    static Account callsAccount(const RequestAnalysis &requests);

    /** nullptr when `cancel` became true meanwhile. */
    static std::shared_ptr<const CacheComparison> build(const Inputs &a, const Inputs &b,
                                                        const Options &options,
                                                        const Progress &progress = {},
                                                        const std::atomic_bool *cancel = nullptr);

    const Side &a() const { return m_a; }
    const Side &b() const { return m_b; }
    /** The hit ratios at the configured capacities, A and B. */
    FigurePair hitRatio() const { return {m_a.atCapacity.hitRatio, m_b.atCapacity.hitRatio}; }
    FigurePair lmcacheHitRatio() const { return {m_a.lmcache.hitRatio, m_b.lmcache.hitRatio}; }
    FigurePair callsHitRatio() const { return {m_a.calls.hitRatio, m_b.calls.hitRatio}; }
    /** Why hitRatio() cannot be compared (both sides' reasons); empty when it can. */
    QString hitRatioReason() const { return m_hitRatioReason; }
    /** Why LMCache's accounts cannot be compared ("B has no release_prefetch_task with a
     *  PrefetchHandle"); empty when they can. */
    QString lmcacheReason() const { return m_lmcacheReason; }
    /** Why the what-if curves cannot be compared; empty when they can. */
    QString whatIfReason() const { return m_whatIfReason; }
    /** Capacities (chunks) of both what-ifs; empty when the what-if was not run. */
    const std::vector<quint64> &capacities() const { return m_capacities; }
    const KeyOverlap &overlap() const { return m_overlap; }

private:
    Side m_a, m_b;
    QString m_hitRatioReason, m_lmcacheReason, m_whatIfReason;
    std::vector<quint64> m_capacities;
    KeyOverlap m_overlap;
};

}  // namespace lmct
