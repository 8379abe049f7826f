#pragma once

#include "cache/keyanalysis.h"

#include <QString>
#include <algorithm>
#include <atomic>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace lmct {

/**
 * How keys are used again: reuse distances, reuse counts and the hit ratio an LRU cache of any
 * size would have had, replayed from a KeyAnalysis.
 *
 * Uses: in file order, every key occurrence of finish_write (the key is stored),
 * submit_prefetch_task (the key is looked up) and read_prefetched_results.__enter__ (the key is
 * read). finish_read_prefetched closes the read its __enter__ started and reservations are not
 * stored data, so neither is a use.
 *
 * Reuse distance, between two successive uses of a key: the time (t_mono difference, seconds)
 * and the number of distinct other keys used in between. The latter is computed for every use at
 * once with a Fenwick tree over the positions of each key's last use (O(U log U) for U uses):
 * the keys whose last use lies after this key's previous use.
 *
 * Hit curve ("would have hit"): an LRU cache of C chunks that every use touches, replayed in
 * trace order. A miss brings the key in (demand caching: the write that follows a miss, or a load
 * from a lower tier); that keeps the inclusion property, so the LRU stack distance of a use
 * (distinct keys since its previous use + 1, Mattson et al.) decides hit or miss for every C at
 * once. A prefetched key occurrence is a hit for C when the key was written (finish_write) earlier
 * in the trace and its stack distance is at most C. hitRatio(C) = hits(C) / all prefetched key
 * occurrences; it grows with C up to the fraction of prefetched keys written earlier.
 *
 * Histograms use power-of-two buckets (see bucketOf()): distances in keys, times in microseconds,
 * reuse counts in uses. Their median and 95th percentile are exact (Figures, nearest rank over
 * the values themselves, not the buckets); computing them keeps every distance of the trace in
 * memory during build() (12 bytes per reuse), freed before it returns.
 *
 * Ownership: build() returns a shared immutable object. Thread-safety: build() is reentrant (run
 * it on a worker); the result's const methods may be called from any thread.
 */
class ReuseAnalysis {
public:
    static constexpr int kBuckets = 48;

    /** Bucket of a non-negative count: 0 for 0, b >= 1 for [2^(b-1), 2^b); last bucket open. */
    static int bucketOf(quint64 v);
    /** Bucket of a duration (seconds), in microseconds: 0 below 1 µs. */
    static int timeBucketOf(double seconds);
    /** Lower bound of bucket b (0, 1, 2, 4, ...). */
    static quint64 bucketFloor(int b) { return b == 0 ? 0 : quint64(1) << (b - 1); }

    /**
     * Order statistics of a distribution: nearest rank, i.e. the smallest value with at least
     * p·n values at or below it (the median of 4 values is the 2nd smallest). NaN when n == 0.
     */
    struct Figures {
        qint64 n = 0;             ///< values
        double median = qQNaN();  ///< 50th percentile
        double p95 = qQNaN();     ///< 95th percentile
    };
    /** Figures of `values` (reordered: nth_element). */
    template <typename T>
    static Figures figuresOf(std::vector<T> &values);

    struct Stats {
        QString model;            ///< model name; empty for the total
        qint64 keys = 0;          ///< distinct keys
        qint64 uses = 0;          ///< uses (see the class comment)
        qint64 reuses = 0;        ///< uses after the first of their key
        qint64 prefetches = 0;    ///< prefetched key occurrences
        qint64 prefetchHits = 0;  ///< prefetched, written earlier (hits of an infinite cache)
        std::vector<qint64> distanceKeys = std::vector<qint64>(kBuckets);  ///< distinct keys
        std::vector<qint64> distanceTime = std::vector<qint64>(kBuckets);  ///< µs buckets
        std::vector<qint64> reuseCount = std::vector<qint64>(kBuckets);    ///< per key: uses − 1
        Figures distanceKeysFigures;  ///< distinct keys between successive uses, per reuse
        Figures distanceTimeFigures;  ///< seconds between successive uses, per reuse
        Figures reuseCountFigures;    ///< uses − 1, per key used at least once
    };

    using Progress = KeyAnalysis::Progress;

    /** Returns nullptr when `cancel` became true meanwhile. */
    static std::shared_ptr<const ReuseAnalysis> build(const KeyAnalysis &keys,
                                                      const Progress &progress = {},
                                                      const std::atomic_bool *cancel = nullptr);

    /**
     * The core: for each position i of `sequence` (key ids below `keyCount`), the number of
     * distinct other keys used since the previous use of sequence[i], or -1 for a first use.
     * O(n log n) time, O(n + keyCount) memory.
     */
    static std::vector<qint64> distinctDistances(std::span<const quint32> sequence,
                                                 quint32 keyCount);

    /** Per model, by KeyAnalysis::Key::model. */
    const std::vector<Stats> &models() const { return m_models; }
    /** All models together. */
    const Stats &total() const { return m_total; }

    /** Prefetched key occurrences that hit an LRU cache of `capacity` chunks. */
    qint64 hits(qint64 capacity) const;
    /** hits(capacity) / prefetched key occurrences; 0 without prefetches. */
    double hitRatio(qint64 capacity) const;
    /** Smallest capacity reaching the largest hit count (0 when nothing ever hits). */
    qint64 saturationCapacity() const { return m_saturation; }
    /** (capacity, hit ratio) at up to `points` log-spaced capacities from 1 to
     *  saturationCapacity() (or the key count), for plotting. */
    std::vector<std::pair<qint64, double>> curve(int points = 200) const;

private:
    std::vector<Stats> m_models;
    Stats m_total;
    std::vector<qint64> m_cumHits;  // m_cumHits[c] = hits with stack distance <= c
    qint64 m_saturation = 0;
    qint64 m_keyCount = 0;
};

template <typename T>
ReuseAnalysis::Figures ReuseAnalysis::figuresOf(std::vector<T> &values) {
    Figures f;
    f.n = qint64(values.size());
    if (values.empty()) {
        return f;
    }
    auto rank = [&](quint64 percent) {  // ceil(percent·n / 100), in integers
        const quint64 n = values.size();
        const size_t i = size_t(std::max<quint64>(1, (percent * n + 99) / 100)) - 1;
        std::nth_element(values.begin(), values.begin() + qint64(i), values.end());
        return double(values[i]);
    };
    f.median = rank(50);
    f.p95 = rank(95);
    return f;
}

}  // namespace lmct
