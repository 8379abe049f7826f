#include "cache/reuseanalysis.h"

#include "util/passprogress.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace lmct {

namespace {

/** Fenwick (binary indexed) tree of counts over positions [0, n). */
class Fenwick {
public:
    explicit Fenwick(size_t n) : m_t(n + 1, 0) {}
    void add(size_t i, qint32 d) {
        for (++i; i < m_t.size(); i += i & (~i + 1)) {
            m_t[i] += d;
        }
    }
    /** Sum over [0, i]. */
    qint64 prefix(size_t i) const {
        qint64 s = 0;
        for (++i; i > 0; i -= i & (~i + 1)) {
            s += m_t[i];
        }
        return s;
    }

private:
    std::vector<qint32> m_t;
};

bool isUse(KeyAnalysis::Call c) {
    return c == KeyAnalysis::Call::Finish || c == KeyAnalysis::Call::Prefetch ||
           c == KeyAnalysis::Call::ReadEnter;
}

}  // namespace

int ReuseAnalysis::bucketOf(quint64 v) {
    if (v == 0) {
        return 0;
    }
    return std::min(kBuckets - 1, 64 - __builtin_clzll(v));
}

int ReuseAnalysis::timeBucketOf(double seconds) {
    if (!(seconds >= 1e-6)) {
        return 0;  // below 1 µs, negative (t_mono stepped back) or NaN
    }
    const double us = seconds * 1e6;
    if (us >= 9.0e18) {
        return kBuckets - 1;
    }
    return bucketOf(quint64(us));
}

std::vector<qint64> ReuseAnalysis::distinctDistances(std::span<const quint32> sequence,
                                                     quint32 keyCount) {
    std::vector<qint64> out(sequence.size(), -1);
    Fenwick fw(sequence.size());
    std::vector<qint64> last(keyCount, -1);
    qint64 seen = 0;  // distinct keys so far = marks in the tree
    for (size_t i = 0; i < sequence.size(); ++i) {
        const quint32 k = sequence[i];
        const qint64 p = last[k];
        if (p >= 0) {
            // Every seen key has one mark at its last use; those after p were used since.
            out[i] = seen - fw.prefix(size_t(p));
            fw.add(size_t(p), -1);
        } else {
            ++seen;
        }
        fw.add(i, 1);
        last[k] = qint64(i);
    }
    return out;
}

std::shared_ptr<const ReuseAnalysis> ReuseAnalysis::build(const KeyAnalysis &ka,
                                                          const Progress &progress,
                                                          const std::atomic_bool *cancel) {
    auto ra = std::make_shared<ReuseAnalysis>();
    const int nk = ka.keyCount();
    ra->m_keyCount = nk;
    ra->m_models.resize(size_t(ka.models().size()));
    for (size_t m = 0; m < ra->m_models.size(); ++m) {
        ra->m_models[m].model = ka.models()[qsizetype(m)];
    }
    // The use sequence.
    qint64 uses = 0;
    for (int kr = 0; kr < ka.keyRecordCount(); ++kr) {
        if (isUse(ka.callAt(kr))) {
            uses += qint64(ka.keysAt(kr).size());
        }
    }
    Fenwick fw{size_t(uses)};
    std::vector<qint64> last(size_t(nk), -1);
    std::vector<double> lastT(size_t(nk), 0.0);
    std::vector<quint8> written(size_t(nk), 0);
    std::vector<qint64> hitsAt(size_t(nk) + 2, 0);  // by stack distance (1..keys)
    qint64 seen = 0, pos = 0;
    // Every distance, per model, for the exact Figures.
    std::vector<std::vector<quint32>> distKeys(ra->m_models.size());
    std::vector<std::vector<double>> distTime(ra->m_models.size());
    const int nkr = ka.keyRecordCount();
    PassProgress pass(nkr, cancel, progress);
    for (int kr = 0; kr < nkr; ++kr) {
        const KeyAnalysis::Call call = ka.callAt(kr);
        if (!pass.at(kr)) {
            return nullptr;
        }
        if (!isUse(call)) {
            continue;
        }
        const double t = ka.timeAt(kr);
        for (const quint32 k : ka.keysAt(kr)) {
            const quint32 model = ka.key(int(k)).model;
            Stats &ms = ra->m_models[model];
            ++ms.uses;
            const qint64 p = last[k];
            qint64 d = -1;
            if (p >= 0) {
                d = seen - fw.prefix(size_t(p));
                fw.add(size_t(p), -1);
                ++ms.reuses;
                ++ms.distanceKeys[size_t(bucketOf(quint64(d)))];
                ++ms.distanceTime[size_t(timeBucketOf(t - lastT[k]))];
                distKeys[model].push_back(quint32(std::min<qint64>(d, 0xffffffff)));
                distTime[model].push_back(t - lastT[k]);
            } else {
                ++seen;
            }
            fw.add(size_t(pos), 1);
            last[k] = pos++;
            lastT[k] = t;
            if (call == KeyAnalysis::Call::Prefetch) {
                ++ms.prefetches;
                if (written[k] && d >= 0) {
                    ++ms.prefetchHits;
                    ++hitsAt[size_t(d + 1)];
                }
            } else if (call == KeyAnalysis::Call::Finish) {
                written[k] = 1;
            }
        }
    }
    std::vector<std::vector<quint32>> counts(ra->m_models.size());
    for (int id = 0; id < nk; ++id) {
        const KeyAnalysis::Key &k = ka.key(id);
        const quint64 u = quint64(k.finishes) + k.prefetches + k.readEnters;
        Stats &ms = ra->m_models[k.model];
        ++ms.keys;
        if (u > 0) {
            ++ms.reuseCount[size_t(bucketOf(u - 1))];
            counts[k.model].push_back(quint32(std::min<quint64>(u - 1, 0xffffffff)));
        }
    }
    // Figures per model, then of all models (each model's values moved into one vector).
    auto figures = [](auto &perModel, auto member, std::vector<Stats> &models, Stats &tot) {
        size_t all = 0;
        for (size_t m = 0; m < perModel.size(); ++m) {
            models[m].*member = figuresOf(perModel[m]);
            all += perModel[m].size();
        }
        std::decay_t<decltype(perModel[0])> merged;
        merged.reserve(all);
        for (auto &v : perModel) {
            merged.insert(merged.end(), v.begin(), v.end());
            decltype(merged)().swap(v);
        }
        tot.*member = figuresOf(merged);
    };
    if (!ra->m_models.empty()) {
        figures(distKeys, &Stats::distanceKeysFigures, ra->m_models, ra->m_total);
        figures(distTime, &Stats::distanceTimeFigures, ra->m_models, ra->m_total);
        figures(counts, &Stats::reuseCountFigures, ra->m_models, ra->m_total);
    }
    Stats &tot = ra->m_total;
    for (const Stats &ms : ra->m_models) {
        tot.keys += ms.keys;
        tot.uses += ms.uses;
        tot.reuses += ms.reuses;
        tot.prefetches += ms.prefetches;
        tot.prefetchHits += ms.prefetchHits;
        for (int b = 0; b < kBuckets; ++b) {
            tot.distanceKeys[size_t(b)] += ms.distanceKeys[size_t(b)];
            tot.distanceTime[size_t(b)] += ms.distanceTime[size_t(b)];
            tot.reuseCount[size_t(b)] += ms.reuseCount[size_t(b)];
        }
    }
    // Cumulative hits by capacity; trim after saturation.
    for (size_t c = 1; c < hitsAt.size(); ++c) {
        hitsAt[c] += hitsAt[c - 1];
    }
    qint64 sat = 0;
    const qint64 best = hitsAt.back();
    while (sat < qint64(hitsAt.size()) && hitsAt[size_t(sat)] < best) {
        ++sat;
    }
    ra->m_saturation = best > 0 ? sat : 0;
    hitsAt.resize(size_t(sat) + 1);
    ra->m_cumHits = std::move(hitsAt);
    pass.finish();
    return ra;
}

qint64 ReuseAnalysis::hits(qint64 capacity) const {
    if (capacity <= 0 || m_cumHits.empty()) {
        return 0;
    }
    return m_cumHits[size_t(std::min<qint64>(capacity, qint64(m_cumHits.size()) - 1))];
}

double ReuseAnalysis::hitRatio(qint64 capacity) const {
    return m_total.prefetches > 0 ? double(hits(capacity)) / double(m_total.prefetches) : 0.0;
}

std::vector<std::pair<qint64, double>> ReuseAnalysis::curve(int points) const {
    std::vector<std::pair<qint64, double>> out;
    const qint64 top = std::max<qint64>(1, m_saturation > 0 ? m_saturation : m_keyCount);
    points = std::max(2, points);
    qint64 prev = 0;
    for (int i = 0; i < points; ++i) {
        const double f = double(i) / double(points - 1);
        const qint64 c = std::max<qint64>(1, qint64(std::llround(std::pow(double(top), f))));
        if (c == prev) {
            continue;
        }
        prev = c;
        out.emplace_back(c, hitRatio(c));
    }
    return out;
}

}  // namespace lmct
