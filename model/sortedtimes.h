#pragma once

#include <QtGlobal>
#include <vector>

namespace lmct {

/**
 * An ascending array of times (seconds) with a cumulative count pyramid, for rank and
 * per-column count queries whose cost does not depend on how many values lie in range.
 *
 * Level 0 splits [first(), last()] into B equal buckets (B a power of two, size()/4 <= B <
 * size()/2) and stores for each bucket edge e_b = first() + b·w the number of values below it.
 * Level l+1 keeps every second edge of level l (buckets merged in pairs), up to one bucket.
 * A count over any range is the difference of two ranks.
 *
 * - Exact queries: rank(t) looks up t's level-0 bucket and binary-searches only inside it:
 *   O(1 + log k), k = values in that bucket.
 * - Level-of-detail queries (tolerance > 0): column edges are snapped to the nearest edge of the
 *   coarsest level whose bucket is at most `tolerance` columns wide, and the counts are read
 *   from that level alone: O(1) per column with near-sequential memory access, however many
 *   values are in view. Counts are exact for the snapped edges (each value lands in exactly one
 *   column, at most tolerance/2 of a column away from its true one).
 *
 * Memory: 8 bytes per value plus 4 bytes per edge over all levels (< 2·B + L edges, B < size()/2):
 * at most 12 bytes per value, ≈ 10 on average.
 *
 * Values must be finite and sorted ascending (duplicates allowed). Thread-safety: immutable after
 * construction; const methods may be called from any thread.
 */
class SortedTimes {
public:
    SortedTimes() = default;
    /**
     * Takes `sorted` (ascending, finite). `bucketCount` <= 0 picks the default; other values are
     * rounded up to a power of two.
     */
    explicit SortedTimes(std::vector<double> sorted, int bucketCount = 0);

    int size() const { return int(m_v.size()); }
    bool isEmpty() const { return m_v.empty(); }
    double at(int i) const { return m_v[size_t(i)]; }
    double first() const { return m_v.empty() ? 0.0 : m_v.front(); }
    double last() const { return m_v.empty() ? 0.0 : m_v.back(); }
    const std::vector<double> &values() const { return m_v; }

    /** Number of values < t (the lower-bound position of t). */
    int rankBelow(double t) const { return rank(t, 0, false); }
    /** Number of values <= t (the upper-bound position of t). */
    int rankAtOrBelow(double t) const { return rank(t, 0, true); }
    /** Number of values in [from, to). */
    int countIn(double from, double to) const {
        return to <= from ? 0 : rankBelow(to) - rankBelow(from);
    }

    /**
     * For k in [0, n]: out[k] = number of values below edge k, where edge k is
     * `origin + k * width` (computed exactly like that) when `tolerance` is 0, or that edge
     * snapped to a pyramid edge at most tolerance·width/2 away (see the class comment). When
     * `edgesUsed` is given it receives the n+1 edges actually used (+inf past the last value).
     * `width` must be > 0.
     */
    void edgeRanks(double origin, double width, int n, int *out, double tolerance = 0.0,
                   std::vector<double> *edgesUsed = nullptr) const;

    /**
     * For k in [0, n): out[k] = number of values in column k = [edge k, edge k+1), edges as in
     * edgeRanks(). Exact (tolerance 0): O(n · log k); with a tolerance: O(n).
     */
    void columnCounts(double origin, double width, int n, int *out, double tolerance = 0.0,
                      std::vector<double> *edgesUsed = nullptr) const;

    /** Bytes of heap held (capacity). */
    qint64 memoryBytes() const;

    /** Level-0 bucket count and width (seconds); number of pyramid levels. */
    int bucketCount() const { return m_buckets; }
    double bucketWidth() const { return m_width; }
    int levelCount() const { return int(m_levels.size()); }

private:
    /** rank with a known lower bound `lo` on the answer (monotone queries). */
    int rank(double t, int lo, bool inclusive) const;
    double edge(int b) const { return m_min + double(b) * m_width; }

    std::vector<double> m_v;
    // m_levels[l][j] = number of values < edge(j << l), j in [0, B >> l]; m_levels[0][B] = n.
    std::vector<std::vector<qint32>> m_levels;
    double m_min = 0.0;
    double m_width = 1.0;
    int m_buckets = 0;
};

}  // namespace lmct
