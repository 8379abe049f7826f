#pragma once

#include "whatif/cachepolicy.h"
#include "whatif/usesequence.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace lmct {

/**
 * What another capacity or policy would have done: the prefetch hit ratio and miss ratio of each
 * policy at each capacity, replayed over a UseSequence (docs/cache-behaviour.md, "What-if").
 *
 * - prefetch hit ratio(C) = counted prefetch occurrences (UseSequence::isCounted) that hit, over
 *   all prefetch occurrences; miss ratio(C) = misses over all uses.
 * - LRU is exact for every capacity at once, from stack distances (in chunks: distinct keys since
 *   the key's previous use + 1; in bytes: their bytes + the key's own); its curve is sampled at
 *   the capacities asked for, and lruExact() answers any other.
 * - Every other policy is simulated once per capacity, capacities in parallel on ComputePool;
 *   results are handed to `onCurve` policy by policy (from a worker thread) as they complete,
 *   one call at a time; LRU's first, from the calling thread. `progress` (0..100) likewise comes
 *   from any of these threads, one call at a time.
 * - Sampling (Options::sampleRate < 1): SHARDS (Waldspurger et al., FAST'15): only keys whose
 *   identity hash falls below rate·2^64 are replayed (UseSequence::sampled()), at capacities
 *   scaled by the rate (rounded, at least 1; LRU's stack distances are divided by it instead);
 *   ratios are the sample's, counts the sample's scaled back by the full sequence's uses
 *   (prefetch occurrences) over the sample's, ≈ 1/rate.
 * - A capacity that holds every key (its total units) is answered without a replay: no policy
 *   ever evicts there, so only first uses miss and every counted prefetch hits.
 * - Timing: Curve::seconds sums the wall time of the policy's replays (each on one core), so
 *   usesPerSecond (uses replayed over that time) is per core; LRU's is its one exact pass.
 *
 * Units: capacities in chunks (Unit::Chunks: each key 1) or bytes (Unit::Bytes: each key its
 * UseSequence::sizeOf()). Ownership: run() returns a shared immutable result holding its sequence.
 * Thread-safety: run() is reentrant; the result is immutable.
 * Errors: Unit::Bytes on a sequence without sizes gives curves with no points (error() says why).
 */
class WhatIfAnalysis {
public:
    enum class Unit { Chunks, Bytes };

    struct Options {
        std::vector<CachePolicy::Kind> policies;  ///< empty: every policy
        std::vector<quint64> capacities;          ///< empty: defaultCapacities()
        Unit unit = Unit::Chunks;
        double sampleRate = 1.0;  ///< SHARDS rate in (0, 1]; 1 replays every key
    };

    struct Curve {
        CachePolicy::Kind policy = CachePolicy::Kind::Lru;
        std::vector<quint64> capacities;       ///< in the Options' unit, ascending
        std::vector<qint64> prefetchHits;      ///< counted prefetch occurrences that hit
        std::vector<qint64> misses;            ///< misses over all uses
        std::vector<double> prefetchHitRatio;  ///< prefetchHits / prefetch occurrences (0 if none)
        std::vector<double> missRatio;         ///< misses / uses (0 if none)
        double seconds = 0.0;                  ///< wall time spent on this policy
        double usesPerSecond = 0.0;            ///< replayed uses per second (all capacities)
    };

    using Progress = std::function<void(int percent)>;
    using CurveReady = std::function<void(const Curve &curve)>;

    /** Powers of two from 1 to the first at or above the number of distinct keys (chunks), or
     *  the same chunk counts × the largest key size (bytes). */
    static std::vector<quint64> defaultCapacities(const UseSequence &uses, Unit unit);

    /** The prefetch hit ratio of `curve` at `capacity`: a sample's (`*exact` true), else read
     *  between the two samples around it, linear in log C; the first (last) sample's below (past)
     *  them. nullopt for a curve without samples. */
    static std::optional<double> ratioAt(const Curve &curve, quint64 capacity, bool *exact);

    /** Replays `uses`; nullptr when `cancel` became true meanwhile. */
    static std::shared_ptr<const WhatIfAnalysis> run(std::shared_ptr<const UseSequence> uses,
                                                     const Options &options,
                                                     const Progress &progress = {},
                                                     const CurveReady &onCurve = {},
                                                     const std::atomic_bool *cancel = nullptr);

    const UseSequence &uses() const { return *m_uses; }
    const Options &options() const { return m_options; }
    /** One curve per policy, in the order of Options::policies (or CachePolicy::all()). */
    const std::vector<Curve> &curves() const { return m_curves; }
    /** The curve of `policy`; nullptr when not asked for. */
    const Curve *curve(CachePolicy::Kind policy) const;
    /** LRU's counted prefetch hits at any capacity (exact, from the stack distances). */
    qint64 lruPrefetchHits(quint64 capacity) const;
    /** LRU's misses at any capacity. */
    qint64 lruMisses(quint64 capacity) const;
    /** The smallest capacity at which LRU reaches `prefetchHits`; 0 if it never does. */
    quint64 lruCapacityFor(qint64 prefetchHits) const;
    /** Why there are no points (e.g. "the trace has no layout: capacities in bytes need one"). */
    QString error() const { return m_error; }

private:
    std::shared_ptr<const UseSequence> m_uses;
    Options m_options;
    std::vector<Curve> m_curves;
    // LRU by stack distance: cumulative counts over sorted distinct distances.
    std::vector<quint64> m_lruDistances;
    std::vector<qint64> m_lruCumHits;
    std::vector<qint64> m_lruCumReuses;
    double m_hitScale = 1.0;  // full prefetch occurrences / sampled ones
    double m_useScale = 1.0;  // full uses / sampled ones
    qint64 m_sampledUses = 0;
    QString m_error;
};

}  // namespace lmct
