#pragma once

#include "whatif/cachepolicy.h"
#include "whatif/usesequence.h"

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace lmct {

/**
 * The prefetch hit ratio over time of chosen policies at one capacity, and LMCache's own account
 * beside it: what the timeline's hit-ratio plot draws (docs/cache-behaviour.md, "Hit ratio over
 * time").
 *
 * Per policy it keeps, for every prefetch occurrence in file order, the running count of counted
 * hits (4 bytes per occurrence), so the ratio over any window [t0, t1) is two binary searches on
 * the occurrences' t_mono (windowed()). LMCache's own account: each release_prefetch_task's
 * PrefetchHandle `l1_prefix_hit_count` over `total_requested_keys`, summed per window
 * (lmcacheWindowed()); absent from older traces (hasLmcacheAccount()). Occupancy: the units
 * resident (bytes when the capacity is in bytes, else chunks × bytes per key when known) sampled
 * at kOccupancySamples evenly spaced uses.
 *
 * Times are t_mono seconds, on the document's axis; a trace whose t_mono steps back is windowed by
 * file order (times taken as non-decreasing). A window is [t0 + c·w, t0 + (c+1)·w), the last one
 * closed at t1. The simulators are those of CachePolicy, fed one use at a time, the policies in
 * parallel on ComputePool (ParallelChunks).
 *
 * LMCache's account counts the releases LmcacheAccount counts (the definition the Compare pane and
 * `lmct compare` share: releases whose handle has both counts, 0 ≤ hit ≤ total, total > 0; a
 * cancel, a damaged or saturated count is left out); for a scope other than the whole trace, only
 * the releases linked (KeyAnalysis::handleSubmit) to a submit whose first key is in the scope.
 * Occupancy of a capacity in chunks is chunks × the mean bytes per key (exact when all keys have
 * one size, as a single model's do), chunks when sizes are unknown.
 *
 * Ownership: build() returns a shared immutable object holding its sequence. Thread-safety:
 * build() is reentrant (off the GUI thread; progress 0..100 from the building or a pool thread, one
 * call at a time; nullptr once `cancel` became true); the result's const methods may be called from
 * any thread. Errors: none; empty series for a sequence without prefetches; capacity 0 hits
 * nothing; no series at all for a capacity in bytes on a sequence without sizes
 * (UseSequence::hasSizes()).
 */
class HitOverTime {
public:
    static constexpr int kOccupancySamples = 4096;
    using Progress = std::function<void(int percent)>;

    struct Series {
        CachePolicy::Kind policy = CachePolicy::Kind::Lru;
        std::vector<quint32> cumHits;  ///< cumHits[j] = counted hits among prefetch occurrences < j
        std::vector<double> occupancyT;      ///< t_mono of each occupancy sample
        std::vector<double> occupancyBytes;  ///< bytes (or chunks when sizes are unknown)
    };

    /** Replays `policies` at `capacity` (in `bytes` units when `inBytes`, else chunks). */
    static std::shared_ptr<const HitOverTime> build(std::shared_ptr<const UseSequence> uses,
                                                    const std::vector<CachePolicy::Kind> &policies,
                                                    quint64 capacity, bool inBytes,
                                                    const Progress &progress = {},
                                                    const std::atomic_bool *cancel = nullptr);

    quint64 capacity() const { return m_capacity; }
    bool inBytes() const { return m_inBytes; }
    const std::vector<Series> &series() const { return m_series; }
    /** t_mono of each prefetch occurrence, file order. */
    const std::vector<double> &prefetchTimes() const { return m_prefetchT; }
    /** Series s's hit ratio in `columns` equal windows over [t0, t1); NaN where a window has no
     *  prefetch occurrence. */
    std::vector<double> windowed(int s, double t0, double t1, int columns) const;
    bool hasLmcacheAccount() const { return !m_lmT.empty(); }
    /** LMCache's own L1 prefix hit ratio in the same windows; NaN where no release falls. */
    std::vector<double> lmcacheWindowed(double t0, double t1, int columns) const;

private:
    std::shared_ptr<const UseSequence> m_uses;
    quint64 m_capacity = 0;
    bool m_inBytes = false;
    std::vector<Series> m_series;
    std::vector<double> m_prefetchT;
    std::vector<double> m_lmT;                      // release times
    std::vector<quint64> m_lmCumHit, m_lmCumTotal;  // running sums, one past each release
};

}  // namespace lmct
