#pragma once

#include <QtGlobal>
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

namespace lmct {

/**
 * An ascending sequence of times (seconds) with a cumulative count pyramid, for rank and
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
 * `Values` holds the times themselves: `std::vector<double>` (SortedTimes), or a view that reads
 * them from elsewhere, such as LaneTimes (a timeline lane's records, read from the RecordStore).
 * It needs `size()` and `double operator[](size_t) const`; its heap is counted by its
 * `memoryBytes()` when it has one, else by `capacity()` doubles. The values are only read.
 *
 * Memory: the values, plus 4 bytes per edge over all levels (< 2·B + L edges, B < size()/2): at
 * most 4 bytes per value beyond the values, ≈ 2 on average.
 *
 * Values must be finite and sorted ascending (duplicates allowed). Thread-safety: immutable after
 * construction; const methods may be called from any thread (as far as Values' reads may).
 */
template <typename Values>
class BasicSortedTimes {
public:
    BasicSortedTimes() = default;
    /**
     * Takes `sorted` (ascending, finite). `bucketCount` <= 0 picks the default; other values are
     * rounded up to a power of two.
     */
    explicit BasicSortedTimes(Values sorted, int bucketCount = 0);

    int size() const { return int(m_v.size()); }
    bool isEmpty() const { return m_v.size() == 0; }
    double at(int i) const { return m_v[size_t(i)]; }
    double first() const { return m_first; }
    double last() const { return m_last; }
    const Values &values() const { return m_v; }

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

    /** Bytes of heap held (capacity), the values' included. */
    qint64 memoryBytes() const;

    /** Level-0 bucket count and width (seconds); number of pyramid levels. */
    int bucketCount() const { return m_buckets; }
    double bucketWidth() const { return m_width; }
    int levelCount() const { return int(m_levels.size()); }

private:
    /** rank with a known lower bound `lo` on the answer (monotone queries). */
    int rank(double t, int lo, bool inclusive) const;
    double edge(int b) const { return m_min + double(b) * m_width; }

    Values m_v;
    // m_levels[l][j] = number of values < edge(j << l), j in [0, B >> l]; m_levels[0][B] = n.
    std::vector<std::vector<qint32>> m_levels;
    double m_first = 0.0;  // m_v[0] and m_v[n - 1], 0 when empty (read often: kept here)
    double m_last = 0.0;
    double m_min = 0.0;
    double m_width = 1.0;
    int m_buckets = 0;
};

/** Sorted times held in memory (ContextPairs' span and unmatched-call times, tests). */
using SortedTimes = BasicSortedTimes<std::vector<double>>;

template <typename Values>
BasicSortedTimes<Values>::BasicSortedTimes(Values sorted, int bucketCount)
    : m_v(std::move(sorted)) {
    const size_t n = size_t(m_v.size());
    if (n == 0) {
        return;
    }
    m_first = m_v[0];
    m_last = m_v[n - 1];
    m_min = m_first;
    const double span = m_last - m_first;
    quint32 b = bucketCount > 0 ? quint32(bucketCount) : quint32(std::max<size_t>(1, n / 4));
    b = std::min<quint32>(std::bit_ceil(b), 1u << 30);
    double w = span / double(b);
    if (!(w > 0.0) || !std::isfinite(w) || !(m_min + w > m_min)) {
        b = 1;
        w = span > 0.0 ? span : 1.0;
    }
    m_buckets = int(b);
    m_width = w;
    std::vector<qint32> level0(size_t(b) + 1);
    size_t i = 0;
    for (quint32 k = 0; k < b; ++k) {
        const double e = edge(int(k));
        while (i < n && m_v[i] < e) {
            ++i;
        }
        level0[k] = qint32(i);
    }
    level0[b] = qint32(n);
    m_levels.push_back(std::move(level0));
    while (m_levels.back().size() > 2) {
        const std::vector<qint32> &fine = m_levels.back();
        std::vector<qint32> coarse((fine.size() - 1) / 2 + 1);
        for (size_t j = 0; j < coarse.size(); ++j) {
            coarse[j] = fine[2 * j];
        }
        m_levels.push_back(std::move(coarse));
    }
}

template <typename Values>
int BasicSortedTimes<Values>::rank(double t, int lo, bool inclusive) const {
    const int n = size();
    if (n == 0 || std::isnan(t)) {
        return 0;
    }
    // pred(v): v < t (or v <= t); the answer is the number of values satisfying it.
    if (inclusive ? t < m_first : t <= m_first) {
        return 0;
    }
    if (inclusive ? t >= m_last : t > m_last) {
        return n;
    }
    const double x = std::floor((t - m_min) / m_width);
    int b = x <= 0.0 ? 0 : (x >= double(m_buckets - 1) ? m_buckets - 1 : int(x));
    // Make edge(b) <= t < edge(b + 1) hold exactly with the same arithmetic as the build, so
    // every value before start[b] satisfies pred and none from start[b + 1] on does.
    while (b > 0 && edge(b) > t) {
        --b;
    }
    while (b < m_buckets - 1 && edge(b + 1) <= t) {
        ++b;
    }
    const std::vector<qint32> &start = m_levels.front();
    int h = start[size_t(b) + 1];
    int l = std::min(std::max<int>(start[size_t(b)], lo), h);
    // first position in [l, h) whose value fails pred (values are read through Values)
    while (l < h) {
        const int mid = l + (h - l) / 2;
        const double v = m_v[size_t(mid)];
        if (inclusive ? v <= t : v < t) {
            l = mid + 1;
        } else {
            h = mid;
        }
    }
    return l;
}

template <typename Values>
void BasicSortedTimes<Values>::edgeRanks(double origin, double width, int n, int *out,
                                         double tolerance, std::vector<double> *edgesUsed) const {
    if (n < 0) {
        return;
    }
    if (edgesUsed) {
        edgesUsed->resize(size_t(n) + 1);
    }
    if (isEmpty() || !(width > 0.0)) {
        std::fill(out, out + n + 1, 0);
        if (edgesUsed) {
            for (int k = 0; k <= n; ++k) {
                (*edgesUsed)[size_t(k)] = origin + double(k) * width;
            }
        }
        return;
    }
    // Coarsest level whose bucket is at most tolerance·width wide.
    int level = -1;
    if (tolerance > 0.0) {
        const double ratio = tolerance * width / m_width;
        if (ratio >= 1.0) {
            level = std::min(int(std::floor(std::log2(ratio))), levelCount() - 1);
        }
    }
    if (level < 0) {
        int prev = rank(origin, 0, false);
        out[0] = prev;
        for (int k = 1; k <= n; ++k) {
            prev = rank(origin + double(k) * width, prev, false);
            out[k] = prev;
        }
        if (edgesUsed) {
            for (int k = 0; k <= n; ++k) {
                (*edgesUsed)[size_t(k)] = origin + double(k) * width;
            }
        }
        return;
    }
    const std::vector<qint32> &lv = m_levels[size_t(level)];
    const double wl = std::ldexp(m_width, level);
    const qint64 last = qint64(lv.size()) - 1;
    for (int k = 0; k <= n; ++k) {
        const double x = std::round((origin + double(k) * width - m_min) / wl);
        const qint64 j = x <= 0.0 ? 0 : (x >= double(last) ? last : qint64(x));
        out[k] = lv[size_t(j)];
        if (edgesUsed) {
            const qint64 b = j << level;
            (*edgesUsed)[size_t(k)] =
                b >= m_buckets ? std::numeric_limits<double>::infinity() : edge(int(b));
        }
    }
}

template <typename Values>
void BasicSortedTimes<Values>::columnCounts(double origin, double width, int n, int *out,
                                            double tolerance,
                                            std::vector<double> *edgesUsed) const {
    if (n <= 0) {
        return;
    }
    std::vector<int> ranks(size_t(n) + 1);
    edgeRanks(origin, width, n, ranks.data(), tolerance, edgesUsed);
    for (int k = 0; k < n; ++k) {
        out[k] = ranks[size_t(k) + 1] - ranks[size_t(k)];
    }
}

template <typename Values>
qint64 BasicSortedTimes<Values>::memoryBytes() const {
    qint64 b = 0;
    if constexpr (requires(const Values &v) { v.memoryBytes(); }) {
        b = m_v.memoryBytes();
    } else {
        b = qint64(m_v.capacity() * sizeof(double));
    }
    for (const auto &l : m_levels) {
        b += qint64(l.capacity() * sizeof(qint32));
    }
    return b;
}

}  // namespace lmct
