#include "whatif/hitovertime.h"

#include "cache/keyanalysis.h"
#include "cache/lmcacheaccount.h"
#include "util/parallelchunks.h"
#include "util/passprogress.h"

#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

/** Column c's window [t0 + c·w, t0 + (c+1)·w) (the last one closed at t1) as index bounds into
 *  sorted `times`. */
std::pair<size_t, size_t> window(const std::vector<double> &times, double t0, double t1,
                                 int columns, int c) {
    const double w = (t1 - t0) / double(columns);
    const double a = t0 + w * double(c);
    const double b = c + 1 == columns ? t1 : t0 + w * double(c + 1);
    const auto lo = std::lower_bound(times.begin(), times.end(), a);
    const auto hi = c + 1 == columns ? std::upper_bound(lo, times.end(), b)
                                     : std::lower_bound(lo, times.end(), b);
    return {size_t(lo - times.begin()), size_t(hi - times.begin())};
}

}  // namespace

std::shared_ptr<const HitOverTime> HitOverTime::build(
    std::shared_ptr<const UseSequence> uses, const std::vector<CachePolicy::Kind> &policies,
    quint64 capacity, bool inBytes, const Progress &progress, const std::atomic_bool *cancel) {
    auto ho = std::make_shared<HitOverTime>();
    ho->m_uses = uses;
    ho->m_capacity = capacity;
    ho->m_inBytes = inBytes;
    if (!uses) {
        return ho;
    }
    const UseSequence &seq = *uses;
    const quint32 n = seq.size();

    // Prefetch times, kept non-decreasing (a t_mono stepping back is windowed by file order).
    double prev = -qInf();
    for (quint32 i = 0; i < n; ++i) {
        if (seq.isPrefetch(i)) {
            const double t = seq.timeAt(i);
            prev = std::isnan(t) ? prev : std::max(prev, t);
            ho->m_prefetchT.push_back(prev);
        }
    }

    // Bytes per chunk for the occupancy of a capacity in chunks: every key's, or their mean.
    double bytesPerChunk = 1.0;
    if (!inBytes && seq.hasSizes() && seq.keyCount() > 0) {
        bytesPerChunk = double(seq.totalBytes()) / double(seq.keyCount());
    }
    const int samples = n > 0 ? int(std::min<quint32>(n, kOccupancySamples)) : 0;

    PassProgress pass(qint64(n) * qint64(std::max<size_t>(1, policies.size())), cancel,
                      PassProgress::Counts([&progress](qint64 done, qint64 all) {
                          if (progress) {
                              progress(int(done * 100 / std::max<qint64>(1, all)));
                          }
                      }));
    // Bytes without sizes would make every key fit: no replay. Policies in parallel.
    const bool replay = !inBytes || seq.hasSizes();
    std::vector<Series> series(replay ? policies.size() : 0);
    std::atomic_bool stopped{false};
    auto replayOne = [&](int p) {
        if (stopped.load(std::memory_order_relaxed) || pass.cancelled()) {
            stopped = true;
            return;
        }
        Series &s = series[size_t(p)];
        s.policy = policies[size_t(p)];
        s.cumHits.reserve(ho->m_prefetchT.size() + 1);
        s.cumHits.push_back(0);
        s.occupancyT.reserve(size_t(samples));
        s.occupancyBytes.reserve(size_t(samples));
        auto sim = CachePolicy::create(s.policy, capacity, seq);
        quint32 hits = 0;
        int nextSample = 0;
        quint64 sampleAt = samples > 0 ? quint64(n) / quint64(samples) - 1 : 0;
        double lastT = -qInf();
        for (quint32 i = 0; i < n; ++i) {
            if ((i & 0xffff) == 0xffff) {
                pass.add(0x10000);
                if (pass.cancelled()) {
                    stopped = true;
                    return;
                }
            }
            const quint32 k = seq.keyAt(i);
            const bool hit = sim && sim->access(k, inBytes ? seq.sizeOf(k) : 1, i);
            if (seq.isPrefetch(i)) {
                hits += (hit && seq.isCounted(i)) ? 1 : 0;
                s.cumHits.push_back(hits);
            }
            const double t = seq.timeAt(i);
            lastT = std::isnan(t) ? lastT : std::max(lastT, t);
            if (nextSample < samples && i == sampleAt) {
                const double units = sim ? double(sim->occupied()) : 0.0;
                s.occupancyT.push_back(lastT);
                s.occupancyBytes.push_back(inBytes ? units : units * bytesPerChunk);
                ++nextSample;
                // Sample j at use floor((j + 1) n / samples) - 1: the last one at the last use.
                sampleAt = (quint64(nextSample) + 1) * quint64(n) / quint64(samples) - 1;
            }
        }
        pass.add(n & 0xffff);
    };
    if (!series.empty()) {
        ParallelChunks::run(int(series.size()), replayOne);
    }
    if (stopped || pass.cancelled()) {
        return nullptr;
    }
    ho->m_series = std::move(series);

    // LMCache's own account: each release's handle, in the scope of its linked submit's keys.
    if (const KeyAnalysis *ka = seq.keyAnalysis()) {
        const UseSequence::Scope scope = seq.scope();
        const bool whole = scope.model == UseSequence::kAll && scope.salt == UseSequence::kAll;
        quint64 cumHit = 0, cumTotal = 0;
        double lastT = -qInf();
        for (const qint32 kr : ka->handleRecords()) {
            if (!LmcacheAccount::counts(*ka, kr)) {
                continue;
            }
            const PrefetchHandle *h = ka->handleAt(kr);
            if (!whole) {
                const int submit = ka->handleSubmit(kr);
                if (submit < 0 || ka->keysAt(submit).empty()) {
                    continue;
                }
                const KeyAnalysis::Key &key = ka->key(int(ka->keysAt(submit)[0]));
                if (scope.model != UseSequence::kAll && int(key.model) != scope.model) {
                    continue;
                }
                if (scope.salt != UseSequence::kAll &&
                    (scope.salt == UseSequence::kNoSalt ? key.salt >= 0 : key.salt != scope.salt)) {
                    continue;
                }
            }
            if (ho->m_lmT.empty()) {
                ho->m_lmCumHit.push_back(0);
                ho->m_lmCumTotal.push_back(0);
            }
            lastT = std::max(lastT, ka->timeAt(kr));
            cumHit += quint64(h->l1PrefixHitCount);
            cumTotal += quint64(h->totalRequestedKeys);
            ho->m_lmT.push_back(lastT);
            ho->m_lmCumHit.push_back(cumHit);
            ho->m_lmCumTotal.push_back(cumTotal);
        }
    }
    if (pass.cancelled()) {
        return nullptr;
    }
    pass.finish();
    return ho;
}

std::vector<double> HitOverTime::windowed(int s, double t0, double t1, int columns) const {
    std::vector<double> out(size_t(std::max(0, columns)), qQNaN());
    if (s < 0 || s >= int(m_series.size()) || columns <= 0 || !(t1 > t0)) {
        return out;
    }
    const Series &series = m_series[size_t(s)];
    for (int c = 0; c < columns; ++c) {
        const auto [lo, hi] = window(m_prefetchT, t0, t1, columns, c);
        if (hi > lo) {
            out[size_t(c)] = double(series.cumHits[hi] - series.cumHits[lo]) / double(hi - lo);
        }
    }
    return out;
}

std::vector<double> HitOverTime::lmcacheWindowed(double t0, double t1, int columns) const {
    std::vector<double> out(size_t(std::max(0, columns)), qQNaN());
    if (columns <= 0 || !(t1 > t0) || m_lmT.empty()) {
        return out;
    }
    for (int c = 0; c < columns; ++c) {
        const auto [lo, hi] = window(m_lmT, t0, t1, columns, c);
        const quint64 total = m_lmCumTotal[hi] - m_lmCumTotal[lo];
        if (hi > lo && total > 0) {
            out[size_t(c)] = double(m_lmCumHit[hi] - m_lmCumHit[lo]) / double(total);
        }
    }
    return out;
}

}  // namespace lmct
