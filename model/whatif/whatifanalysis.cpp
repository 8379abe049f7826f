#include "whatif/whatifanalysis.h"

#include "util/parallelchunks.h"
#include "util/passprogress.h"

#include <QMutex>
#include <algorithm>
#include <chrono>
#include <cmath>

namespace lmct {

namespace {

/** Fenwick (binary indexed) tree over positions [0, n). */
template <typename T>
class Fenwick {
public:
    explicit Fenwick(size_t n) : m_t(n + 1, 0) {}
    void add(size_t i, T d) {
        for (++i; i < m_t.size(); i += i & (~i + 1)) {
            m_t[i] += d;
        }
    }
    /** Sum over [0, i]. */
    T prefix(size_t i) const {
        T s = 0;
        for (++i; i > 0; i -= i & (~i + 1)) {
            s += m_t[i];
        }
        return s;
    }

private:
    std::vector<T> m_t;
};

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

constexpr quint32 kSlice = 1u << 20;  // uses per progress report

}  // namespace

std::vector<quint64> WhatIfAnalysis::defaultCapacities(const UseSequence &uses, Unit unit) {
    quint64 largest = 1;
    if (unit == Unit::Bytes) {
        largest = 0;
        for (quint32 k = 0; k < uses.keyCount(); ++k) {
            largest = std::max(largest, uses.sizeOf(k));
        }
        largest = std::max<quint64>(largest, 1);
    }
    std::vector<quint64> out;
    for (quint64 c = 1;; c *= 2) {
        out.push_back(c * largest);
        if (c >= uses.keyCount() || c >= (quint64(1) << 40)) {
            break;
        }
    }
    return out;
}

const WhatIfAnalysis::Curve *WhatIfAnalysis::curve(CachePolicy::Kind policy) const {
    for (const Curve &c : m_curves) {
        if (c.policy == policy) {
            return &c;
        }
    }
    return nullptr;
}

qint64 WhatIfAnalysis::lruPrefetchHits(quint64 capacity) const {
    const auto it = std::upper_bound(m_lruDistances.begin(), m_lruDistances.end(), capacity);
    if (it == m_lruDistances.begin()) {
        return 0;
    }
    const qint64 h = m_lruCumHits[size_t(it - m_lruDistances.begin()) - 1];
    return m_hitScale == 1.0 ? h : qint64(std::llround(double(h) * m_hitScale));
}

qint64 WhatIfAnalysis::lruMisses(quint64 capacity) const {
    const auto it = std::upper_bound(m_lruDistances.begin(), m_lruDistances.end(), capacity);
    const qint64 reuses =
        it == m_lruDistances.begin() ? 0 : m_lruCumReuses[size_t(it - m_lruDistances.begin()) - 1];
    const qint64 m = m_sampledUses - reuses;
    return m_useScale == 1.0 ? m : qint64(std::llround(double(m) * m_useScale));
}

quint64 WhatIfAnalysis::lruCapacityFor(qint64 prefetchHits) const {
    if (prefetchHits <= 0) {
        return 1;
    }
    // In the sample's counts: the smallest that scales back to at least `prefetchHits`.
    for (size_t j = 0; j < m_lruCumHits.size(); ++j) {
        const qint64 h = m_hitScale == 1.0
                             ? m_lruCumHits[j]
                             : qint64(std::llround(double(m_lruCumHits[j]) * m_hitScale));
        if (h >= prefetchHits) {
            return m_lruDistances[j];
        }
    }
    return 0;
}

std::shared_ptr<const WhatIfAnalysis> WhatIfAnalysis::run(std::shared_ptr<const UseSequence> uses,
                                                          const Options &options,
                                                          const Progress &progress,
                                                          const CurveReady &onCurve,
                                                          const std::atomic_bool *cancel) {
    auto wa = std::make_shared<WhatIfAnalysis>();
    wa->m_options = options;
    wa->m_uses = uses;
    if (!uses) {
        return wa;
    }
    Options &opt = wa->m_options;
    if (opt.policies.empty()) {
        const auto all = CachePolicy::all();
        opt.policies.assign(all.begin(), all.end());
    }
    if (opt.capacities.empty()) {
        opt.capacities = defaultCapacities(*uses, opt.unit);
    }
    std::sort(opt.capacities.begin(), opt.capacities.end());
    opt.capacities.erase(std::unique(opt.capacities.begin(), opt.capacities.end()),
                         opt.capacities.end());
    opt.capacities.erase(std::remove(opt.capacities.begin(), opt.capacities.end(), 0),
                         opt.capacities.end());
    if (!(opt.sampleRate > 0.0) || opt.sampleRate > 1.0) {
        opt.sampleRate = 1.0;
    }
    const bool inBytes = opt.unit == Unit::Bytes;
    if (inBytes && !uses->hasSizes()) {
        wa->m_error = QStringLiteral(
            "the trace has no layout for every key: capacities in bytes need the bytes per object "
            "of a MemoryLayoutDesc (reserve_write or submit_prefetch_task)");
        for (const CachePolicy::Kind k : opt.policies) {
            Curve c;
            c.policy = k;
            wa->m_curves.push_back(c);
        }
        return wa;
    }

    const double rate = opt.sampleRate;
    std::shared_ptr<const UseSequence> seq = rate < 1.0 ? uses->sampled(rate) : uses;
    const quint32 n = seq->size();
    wa->m_sampledUses = n;
    if (rate < 1.0) {
        wa->m_hitScale = seq->prefetchOccurrences() > 0 ? double(uses->prefetchOccurrences()) /
                                                              double(seq->prefetchOccurrences())
                                                        : 0.0;
        wa->m_useScale = n > 0 ? double(uses->size()) / double(n) : 0.0;
    }

    const bool lruAsked = std::find(opt.policies.begin(), opt.policies.end(),
                                    CachePolicy::Kind::Lru) != opt.policies.end();
    std::vector<CachePolicy::Kind> simulated;
    for (const CachePolicy::Kind k : opt.policies) {
        if (k != CachePolicy::Kind::Lru &&
            std::find(simulated.begin(), simulated.end(), k) == simulated.end()) {
            simulated.push_back(k);
        }
    }
    const size_t ncap = opt.capacities.size();
    const qint64 total = qint64(n) * qint64(1 + simulated.size() * ncap);
    PassProgress pass(total, cancel, PassProgress::Counts([&progress](qint64 done, qint64 all) {
                          if (progress) {
                              progress(int(done * 100 / std::max<qint64>(1, all)));
                          }
                      }));
    QMutex readyMutex;  // onCurve calls one at a time
    auto ready = [&](const Curve &c) {
        if (onCurve) {
            QMutexLocker lock(&readyMutex);
            onCurve(c);
        }
    };
    const qint64 prefetches = uses->prefetchOccurrences();
    const qint64 allUses = uses->size();
    auto finishCurve = [&](Curve &c) {
        c.prefetchHitRatio.resize(c.capacities.size());
        c.missRatio.resize(c.capacities.size());
        for (size_t j = 0; j < c.capacities.size(); ++j) {
            c.prefetchHitRatio[j] =
                prefetches > 0 ? double(c.prefetchHits[j]) / double(prefetches) : 0.0;
            c.missRatio[j] = allUses > 0 ? double(c.misses[j]) / double(allUses) : 0.0;
        }
    };

    // LRU, exact: stack distances in one pass (always: lru*() answer any capacity).
    {
        const auto t0 = std::chrono::steady_clock::now();
        const auto keys = seq->keys();
        std::vector<quint64> dist;  // sorted distinct distances
        std::vector<qint64> cumHits, cumReuses;
        quint64 uniform = 0;  // every key's size, when all are equal
        if (inBytes && seq->keyCount() > 0) {
            uniform = seq->sizeOf(0);
            for (quint32 k = 1; k < seq->keyCount() && uniform; ++k) {
                if (seq->sizeOf(k) != uniform) {
                    uniform = 0;
                }
            }
        }
        std::vector<quint32> last(seq->keyCount(), UseSequence::kNever);
        if (!inBytes || uniform) {
            // Chunk stack distance d = distinct keys since the previous use + 1, in 1..keys.
            Fenwick<qint32> fw(n);
            std::vector<qint64> reusesAt(size_t(seq->keyCount()) + 2, 0);
            std::vector<qint64> hitsAt(size_t(seq->keyCount()) + 2, 0);
            qint64 seen = 0;
            for (quint32 i = 0; i < n; ++i) {
                if ((i & (kSlice - 1)) == kSlice - 1) {
                    pass.add(kSlice);
                    if (pass.cancelled()) {
                        return nullptr;
                    }
                }
                const quint32 k = keys[i];
                const quint32 p = last[k];
                if (p != UseSequence::kNever) {
                    const qint64 d = seen - fw.prefix(p) + 1;
                    fw.add(p, -1);
                    ++reusesAt[size_t(d)];
                    if (seq->isCounted(i)) {
                        ++hitsAt[size_t(d)];
                    }
                } else {
                    ++seen;
                }
                fw.add(i, 1);
                last[k] = i;
            }
            const quint64 unit = inBytes ? uniform : 1;
            qint64 h = 0, r = 0;
            for (size_t d = 1; d < reusesAt.size(); ++d) {
                if (reusesAt[d] == 0) {
                    continue;
                }
                h += hitsAt[d];
                r += reusesAt[d];
                dist.push_back(quint64(d) * unit);
                cumHits.push_back(h);
                cumReuses.push_back(r);
            }
        } else {
            // Byte stack distance: bytes of the distinct keys since the previous use + its own.
            Fenwick<quint64> fw(n);
            quint64 seenBytes = 0;
            std::vector<quint64> reuses;  // distance << 1 | counted prefetch (bytes < 2^63)
            for (quint32 i = 0; i < n; ++i) {
                if ((i & (kSlice - 1)) == kSlice - 1) {
                    pass.add(kSlice);
                    if (pass.cancelled()) {
                        return nullptr;
                    }
                }
                const quint32 k = keys[i];
                const quint64 s = seq->sizeOf(k);
                const quint32 p = last[k];
                if (p != UseSequence::kNever) {
                    const quint64 d = seenBytes - fw.prefix(p) + s;
                    fw.add(p, quint64(0) - s);
                    reuses.push_back(d << 1 | (seq->isCounted(i) ? 1 : 0));
                } else {
                    seenBytes += s;
                }
                fw.add(i, s);
                last[k] = i;
            }
            std::sort(reuses.begin(), reuses.end());
            qint64 h = 0, r = 0;
            for (size_t j = 0; j < reuses.size(); ++j) {
                h += qint64(reuses[j] & 1);
                ++r;
                if (j + 1 == reuses.size() || (reuses[j + 1] >> 1) != (reuses[j] >> 1)) {
                    dist.push_back(reuses[j] >> 1);
                    cumHits.push_back(h);
                    cumReuses.push_back(r);
                }
            }
        }
        if (rate < 1.0) {
            // SHARDS: a sampled distance d stands for d / rate in the full sequence.
            for (quint64 &d : dist) {
                d = quint64(std::ceil(double(d) / rate));
            }
            // Rounding may make neighbours equal: keep the last (cumulative) of each.
            size_t w = 0;
            for (size_t j = 0; j < dist.size(); ++j) {
                if (w > 0 && dist[w - 1] == dist[j]) {
                    --w;
                }
                dist[w] = dist[j];
                cumHits[w] = cumHits[j];
                cumReuses[w] = cumReuses[j];
                ++w;
            }
            dist.resize(w);
            cumHits.resize(w);
            cumReuses.resize(w);
        }
        wa->m_lruDistances = std::move(dist);
        wa->m_lruCumHits = std::move(cumHits);
        wa->m_lruCumReuses = std::move(cumReuses);
        pass.add(n & (kSlice - 1));
        if (lruAsked) {
            Curve c;
            c.policy = CachePolicy::Kind::Lru;
            c.capacities = opt.capacities;
            for (const quint64 cap : opt.capacities) {
                c.prefetchHits.push_back(wa->lruPrefetchHits(cap));
                c.misses.push_back(wa->lruMisses(cap));
            }
            finishCurve(c);
            c.seconds = secondsSince(t0);
            c.usesPerSecond = c.seconds > 0 ? double(n) / c.seconds : 0.0;
            wa->m_curves.push_back(c);  // placed in order below
            ready(c);
        }
    }

    // Every other policy: one replay per capacity, in parallel, policy by policy.
    struct Task {
        CachePolicy::Tally tally;
        double seconds = 0.0;
        qint64 replayed = 0;  // uses replayed (none when every key fits)
    };
    // A capacity that holds every key: only first uses miss, every counted prefetch hits.
    const quint64 everything = inBytes ? seq->totalBytes() : quint64(seq->keyCount());
    CachePolicy::Tally unbounded;
    {
        std::vector<quint8> seen(seq->keyCount(), 0);
        for (quint32 i = 0; i < n; ++i) {
            const quint32 k = seq->keyAt(i);
            unbounded.misses += seen[k] ? 0 : 1;
            seen[k] = 1;
            unbounded.prefetchHits += seq->isCounted(i) ? 1 : 0;
        }
    }
    std::vector<Task> tasks(simulated.size() * ncap);
    std::vector<Curve> curves(simulated.size());
    std::vector<std::atomic<int>> remaining(simulated.size());
    for (size_t p = 0; p < simulated.size(); ++p) {
        remaining[p] = int(ncap);
    }
    std::atomic_bool stopped{false};
    auto work = [&](int t) {
        const size_t p = size_t(t) / ncap, j = size_t(t) % ncap;
        if (stopped.load(std::memory_order_relaxed) || pass.cancelled()) {
            stopped = true;
            return;
        }
        const auto t0 = std::chrono::steady_clock::now();
        const quint64 cap = opt.capacities[j];
        const quint64 scaled =
            rate < 1.0 ? std::max<quint64>(1, quint64(std::llround(double(cap) * rate))) : cap;
        Task &task = tasks[size_t(t)];
        if (scaled >= everything) {
            // Every key fits: nothing is ever evicted, whatever the policy.
            task.tally = unbounded;
            pass.add(n);
            task.seconds = secondsSince(t0);
        } else {
            task.replayed = n;
        }
        auto sim = task.replayed ? CachePolicy::create(simulated[p], scaled, *seq) : nullptr;
        for (quint32 b = 0; sim && b < n; b += kSlice) {
            const quint32 e = std::min<quint32>(n, b + kSlice);
            if (!sim->replay(*seq, inBytes, b, e, task.tally, cancel)) {
                stopped = true;
                return;
            }
            pass.add(e - b);
        }
        if (sim) {
            task.seconds = secondsSince(t0);
        }
        if (--remaining[p] == 0) {
            Curve &c = curves[p];
            qint64 replayed = 0;
            c.policy = simulated[p];
            c.capacities = opt.capacities;
            for (size_t q = 0; q < ncap; ++q) {
                const Task &done = tasks[p * ncap + q];
                const qint64 h = done.tally.prefetchHits, m = done.tally.misses;
                c.prefetchHits.push_back(
                    rate < 1.0 ? qint64(std::llround(double(h) * wa->m_hitScale)) : h);
                c.misses.push_back(rate < 1.0 ? qint64(std::llround(double(m) * wa->m_useScale))
                                              : m);
                c.seconds += done.seconds;
                replayed += done.replayed;
            }
            if (rate < 1.0) {
                // Ratios from the sample's own counts (the scaling above rounds).
                finishCurve(c);
                for (size_t q = 0; q < ncap; ++q) {
                    const Task &done = tasks[p * ncap + q];
                    c.prefetchHitRatio[q] =
                        seq->prefetchOccurrences() > 0
                            ? double(done.tally.prefetchHits) / double(seq->prefetchOccurrences())
                            : 0.0;
                    c.missRatio[q] = n > 0 ? double(done.tally.misses) / double(n) : 0.0;
                }
            } else {
                finishCurve(c);
            }
            c.usesPerSecond = c.seconds > 0 ? double(replayed) / c.seconds : 0.0;
            ready(c);
        }
    };
    if (!tasks.empty() && n > 0) {
        ParallelChunks::run(int(tasks.size()), work);
    } else {
        for (size_t p = 0; p < simulated.size(); ++p) {
            curves[p].policy = simulated[p];
            curves[p].capacities = opt.capacities;
            curves[p].prefetchHits.assign(ncap, 0);
            curves[p].misses.assign(ncap, 0);
            finishCurve(curves[p]);
            ready(curves[p]);
        }
    }
    if (stopped || pass.cancelled()) {
        return nullptr;
    }

    // Curves in the order asked for.
    std::vector<Curve> ordered;
    for (const CachePolicy::Kind k : opt.policies) {
        if (k == CachePolicy::Kind::Lru) {
            ordered.push_back(wa->m_curves.front());
        } else {
            for (size_t p = 0; p < simulated.size(); ++p) {
                if (simulated[p] == k) {
                    ordered.push_back(curves[p]);
                }
            }
        }
    }
    wa->m_curves = std::move(ordered);
    pass.finish();
    return wa;
}

std::optional<double> WhatIfAnalysis::ratioAt(const Curve &curve, quint64 c, bool *exact) {
    *exact = false;
    const std::vector<quint64> &caps = curve.capacities;
    const std::vector<double> &ratios = curve.prefetchHitRatio;
    if (caps.empty() || ratios.size() != caps.size()) {
        return std::nullopt;
    }
    if (c <= caps.front()) {
        *exact = c == caps.front();
        return ratios.front();
    }
    if (c >= caps.back()) {
        *exact = c == caps.back();
        return ratios.back();
    }
    const size_t i = size_t(std::upper_bound(caps.begin(), caps.end(), c) - caps.begin()) - 1;
    if (caps[i] == c) {
        *exact = true;
        return ratios[i];
    }
    // between two samples: linear in log C
    const double f = (std::log(double(c)) - std::log(double(caps[i]))) /
                     (std::log(double(caps[i + 1])) - std::log(double(caps[i])));
    return ratios[i] + f * (ratios[i + 1] - ratios[i]);
}

}  // namespace lmct
