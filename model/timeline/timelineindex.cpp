#include "timeline/timelineindex.h"
#include "util/parallelchunks.h"

#include <QThreadPool>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace lmct {

namespace {

bool cancelled(const std::atomic_bool *cancel) {
    return cancel && cancel->load(std::memory_order_relaxed);
}

/**
 * Sorts record indices `r` by (t_mono, index), reading t_mono from `store`. Adaptive: an
 * insertion sort costs O(n + inversions), which is what nearly-sorted traces need; when the
 * shifting exceeds a budget the data is far from sorted and a std::sort over packed (t, r) pairs
 * takes over (16 bytes per record of this lane, for the time of the sort).
 */
void sortByTime(const RecordStore &store, std::vector<qint32> &r) {
    const size_t n = r.size();
    const auto t = [&store](qint32 record) { return store.tMono(record); };
    size_t i = 1;
    for (double prev = n ? t(r[0]) : 0.0; i < n; ++i) {
        const double ti = t(r[i]);
        if (ti < prev) {
            break;
        }
        prev = ti;
    }
    if (i >= n) {
        return;  // sorted; equal times keep file order: r is ascending within them already
    }
    const size_t budget = 8 * n + 4096;
    size_t moves = 0;
    for (; i < n && moves <= budget; ++i) {
        const qint32 ri = r[i];
        const double ti = t(ri);
        size_t j = i;
        while (j > 0 && ti < t(r[j - 1])) {
            r[j] = r[j - 1];
            --j;
        }
        moves += i - j;
        r[j] = ri;
    }
    if (i >= n && moves <= budget) {
        return;
    }
    struct Pair {
        double t;
        qint32 r;
    };
    std::vector<Pair> p(n);
    for (size_t k = 0; k < n; ++k) {
        p[k] = {t(r[k]), r[k]};
    }
    std::sort(p.begin(), p.end(),
              [](const Pair &a, const Pair &b) { return a.t < b.t || (a.t == b.t && a.r < b.r); });
    for (size_t k = 0; k < n; ++k) {
        r[k] = p[k].r;
    }
}

}  // namespace

std::shared_ptr<const TimelineIndex> TimelineIndex::build(const RecordStore &store,
                                                          const std::atomic_bool *cancel,
                                                          std::shared_ptr<const void> keepAlive) {
    // The store may be growing (loading, live follow): index the records published so far.
    // Every qualname id they use was published before them.
    const int n = store.size();
    return buildOf(
        store, n, [](int i) { return i; }, cancel, std::move(keepAlive));
}

std::shared_ptr<const TimelineIndex> TimelineIndex::buildSubset(
    const RecordStore &store, const std::vector<int> &records, const std::atomic_bool *cancel,
    std::shared_ptr<const void> keepAlive) {
    // only the records the store has published (a subset evaluated on a later snapshot than
    // this store is not possible: stores only grow), in ascending order
    const int size = store.size();
    const auto end = std::lower_bound(records.begin(), records.end(), size);
    const auto begin = std::lower_bound(records.begin(), end, 0);
    const int *base = records.data() + (begin - records.begin());
    return buildOf(
        store, int(end - begin), [base](int i) { return base[i]; }, cancel, std::move(keepAlive));
}

template <typename RecordAt>
std::shared_ptr<const TimelineIndex> TimelineIndex::buildOf(const RecordStore &store, int n,
                                                            RecordAt recordAt,
                                                            const std::atomic_bool *cancel,
                                                            std::shared_ptr<const void> keepAlive) {
    auto idx = std::make_shared<TimelineIndex>();
    idx->m_keepAlive = std::move(keepAlive);
    const int lanes = store.qualnameCount();
    idx->m_lanes.resize(size_t(lanes));
    for (int q = 0; q < lanes; ++q) {
        idx->m_lanes[size_t(q)].qualnameId = quint32(q);
        idx->m_lanes[size_t(q)].qualname = store.qualnameById(quint32(q));
    }
    if (n == 0) {
        return idx;
    }

    // 1. Count per chunk and lane (parallel), then scatter (parallel) into per-lane arrays in
    //    file order.
    const int threads = std::max(1, QThreadPool::globalInstance()->maxThreadCount());
    const int chunks = std::clamp(n / 65536, 1, 4 * threads);
    struct Chunk {
        int begin = 0, end = 0;
        std::vector<qint64> counts;  // per lane; then reused as write offsets
        qint64 untimed = 0;
    };
    std::vector<Chunk> cs(static_cast<size_t>(chunks));
    for (int c = 0; c < chunks; ++c) {
        cs[size_t(c)].begin = int(qint64(n) * c / chunks);
        cs[size_t(c)].end = int(qint64(n) * (c + 1) / chunks);
        cs[size_t(c)].counts.assign(size_t(lanes), 0);
    }
    ParallelChunks::run(int(cs.size()), [&store, &cs, &recordAt](int k) {
        Chunk &c = cs[size_t(k)];
        for (int j = c.begin; j < c.end; ++j) {
            const int i = recordAt(j);
            if (std::isfinite(store.tMono(i))) {
                ++c.counts[store.qualnameId(i)];
            } else {
                ++c.untimed;
            }
        }
    });
    if (cancelled(cancel)) {
        return nullptr;
    }
    std::vector<qint64> total(size_t(lanes), 0);
    for (Chunk &c : cs) {
        idx->m_untimed += c.untimed;
        for (int q = 0; q < lanes; ++q) {
            const qint64 k = c.counts[size_t(q)];
            c.counts[size_t(q)] = total[size_t(q)];  // this chunk's first slot in lane q
            total[size_t(q)] += k;
        }
    }
    std::vector<std::vector<qint32>> records(static_cast<size_t>(lanes));
    for (int q = 0; q < lanes; ++q) {
        records[size_t(q)].resize(size_t(total[size_t(q)]));
    }
    ParallelChunks::run(int(cs.size()), [&store, &records, &cs, &recordAt](int k) {
        Chunk &c = cs[size_t(k)];
        for (int j = c.begin; j < c.end; ++j) {
            const int i = recordAt(j);
            if (!std::isfinite(store.tMono(i))) {
                continue;
            }
            const quint32 q = store.qualnameId(i);
            records[q][size_t(c.counts[q]++)] = qint32(i);
        }
    });
    if (cancelled(cancel)) {
        return nullptr;
    }

    // 2. Per lane (largest first, in parallel): sort by (t_mono, record), build the rank table.
    std::vector<int> order(static_cast<size_t>(lanes));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&total](int a, int b) { return total[size_t(a)] > total[size_t(b)]; });
    ParallelChunks::run(int(order.size()), [&store, &records, &idx, &order, cancel](int k) {
        const int q = order[size_t(k)];
        if (cancelled(cancel)) {
            return;
        }
        sortByTime(store, records[size_t(q)]);
        idx->m_lanes[size_t(q)].times =
            BasicSortedTimes<LaneTimes>(LaneTimes(&store, std::move(records[size_t(q)])));
    });
    if (cancelled(cancel)) {
        return nullptr;
    }

    bool any = false;
    for (const Lane &l : idx->m_lanes) {
        idx->m_recordCount += l.times.size();
        if (l.times.isEmpty()) {
            continue;
        }
        idx->m_min = any ? std::min(idx->m_min, l.times.first()) : l.times.first();
        idx->m_max = any ? std::max(idx->m_max, l.times.last()) : l.times.last();
        any = true;
    }

    // 3. Wall-clock offset: median over an even sample.
    std::vector<double> offs;
    const int samples = std::min(n, 4097);
    offs.reserve(size_t(samples));
    for (int s = 0; s < samples; ++s) {
        const int i = recordAt(samples == 1 ? 0 : int(qint64(n - 1) * s / (samples - 1)));
        const double d = store.tWall(i) - store.tMono(i);
        if (std::isfinite(d)) {
            offs.push_back(d);
        }
    }
    if (!offs.empty()) {
        auto mid = offs.begin() + ptrdiff_t(offs.size() / 2);
        std::nth_element(offs.begin(), mid, offs.end());
        idx->m_wallOffset = *mid;
    }
    return idx;
}

int TimelineIndex::nearestPosition(int lane, double t, double maxDistance) const {
    if (lane < 0 || lane >= laneCount()) {
        return -1;
    }
    const auto &ts = m_lanes[size_t(lane)].times;
    const int p = ts.rankBelow(t);
    int best = -1;
    double bestD = maxDistance;
    if (p > 0 && t - ts.at(p - 1) <= bestD) {
        best = p - 1;
        bestD = t - ts.at(p - 1);
    }
    if (p < ts.size() && ts.at(p) - t < bestD) {
        best = p;
    } else if (p < ts.size() && best < 0 && ts.at(p) - t <= bestD) {
        best = p;
    }
    return best;
}

int TimelineIndex::positionOf(const RecordStore &store, int record) const {
    if (record < 0 || record >= store.size()) {
        return -1;
    }
    const quint32 q = store.qualnameId(record);
    if (q >= quint32(laneCount())) {
        return -1;
    }
    const Lane &l = m_lanes[q];
    const double t = store.tMono(record);
    if (!std::isfinite(t)) {
        return -1;
    }
    // Equal times are ordered by record index: binary search inside the run of t.
    const int lo = l.times.rankBelow(t);
    const int hi = l.times.rankAtOrBelow(t);
    auto b = l.records().begin();
    auto it = std::lower_bound(b + lo, b + hi, qint32(record));
    return (it != b + hi && *it == record) ? int(it - b) : -1;
}

qint64 TimelineIndex::memoryBytes() const {
    qint64 b = 0;
    for (const Lane &l : m_lanes) {
        b += l.times.memoryBytes();
    }
    return b;
}

}  // namespace lmct
