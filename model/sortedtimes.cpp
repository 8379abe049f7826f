#include "sortedtimes.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace lmct {

SortedTimes::SortedTimes(std::vector<double> sorted, int bucketCount) : m_v(std::move(sorted)) {
    const size_t n = m_v.size();
    if (n == 0) {
        return;
    }
    m_min = m_v.front();
    const double span = m_v.back() - m_v.front();
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

int SortedTimes::rank(double t, int lo, bool inclusive) const {
    const int n = size();
    if (n == 0 || std::isnan(t)) {
        return 0;
    }
    // pred(v): v < t (or v <= t); the answer is the number of values satisfying it.
    if (inclusive ? t < m_v.front() : t <= m_v.front()) {
        return 0;
    }
    if (inclusive ? t >= m_v.back() : t > m_v.back()) {
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
    const double *base = m_v.data();
    const double *l = base + std::max<int>(start[size_t(b)], lo);
    const double *h = base + start[size_t(b) + 1];
    if (l > h) {
        l = h;
    }
    const double *p = inclusive ? std::upper_bound(l, h, t) : std::lower_bound(l, h, t);
    return int(p - base);
}

void SortedTimes::edgeRanks(double origin, double width, int n, int *out, double tolerance,
                            std::vector<double> *edgesUsed) const {
    if (n < 0) {
        return;
    }
    if (edgesUsed) {
        edgesUsed->resize(size_t(n) + 1);
    }
    if (m_v.empty() || !(width > 0.0)) {
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

void SortedTimes::columnCounts(double origin, double width, int n, int *out, double tolerance,
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

qint64 SortedTimes::memoryBytes() const {
    qint64 b = qint64(m_v.capacity() * sizeof(double));
    for (const auto &l : m_levels) {
        b += qint64(l.capacity() * sizeof(qint32));
    }
    return b;
}

}  // namespace lmct
