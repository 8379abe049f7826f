#include "compare/cachecomparison.h"

#include "cache/lmcacheaccount.h"

namespace lmct {

namespace {

QString joined(const QString &x, const QString &y) {
    QStringList l;
    if (!x.isEmpty()) {
        l.append(x);
    }
    if (!y.isEmpty()) {
        l.append(y);
    }
    return l.join(QStringLiteral("; "));
}

}  // namespace

std::vector<quint64> CacheComparison::sharedCapacities(quint64 keysA, quint64 keysB) {
    const quint64 top = std::max<quint64>({keysA, keysB, 1});
    std::vector<quint64> caps;
    for (quint64 c = 1;; c *= 2) {
        caps.push_back(c);
        if (c >= top) {
            break;
        }
    }
    return caps;
}

CacheComparison::Account CacheComparison::lmcacheAccount(const KeyAnalysis &keys) {
    const LmcacheAccount::Totals t = LmcacheAccount::total(keys);
    Account acc;
    acc.requests = t.releases;
    acc.hitKeys = t.hitKeys;
    acc.requestedKeys = t.requestedKeys;
    acc.hitRatio = t.hitRatio();
    return acc;
}

CacheComparison::Account CacheComparison::callsAccount(const RequestAnalysis &requests) {
    Account acc;
    for (const RequestAnalysis::Request &q : requests.requests()) {
        ++acc.requests;
        acc.hitKeys += q.prefixHit;
        acc.requestedKeys += q.requested;
    }
    if (acc.requestedKeys > 0) {
        acc.hitRatio = double(acc.hitKeys) / double(acc.requestedKeys);
    }
    return acc;
}

std::shared_ptr<const CacheComparison> CacheComparison::build(const Inputs &a, const Inputs &b,
                                                              const Options &options,
                                                              const Progress &progress,
                                                              const std::atomic_bool *cancel) {
    auto out = std::make_shared<CacheComparison>();
    auto report = [&progress](int p) {
        if (progress) {
            progress(p);
        }
    };
    const Inputs *in[2] = {&a, &b};
    Side *side[2] = {&out->m_a, &out->m_b};
    const QString names[2] = {QStringLiteral("A"), QStringLiteral("B")};
    for (int i = 0; i < 2; ++i) {
        const Inputs &x = *in[i];
        Side &s = *side[i];
        static const StorageManagerConfig kNone;
        auto hit = CapacityHit::compute(x.config ? *x.config : kNone, *x.uses, names[i], cancel);
        if (!hit) {
            return nullptr;
        }
        s.atCapacity = *hit;
        s.lmcache = lmcacheAccount(*x.cache->keys);
        s.calls = callsAccount(*x.cache->requests);
        s.reuse = x.cache->reuse;
        for (int k = 0; k < AnomalyReport::kKindCount; ++k) {
            s.anomalies[size_t(k)] = x.cache->anomalies->count(AnomalyReport::Kind(k));
        }
    }
    report(5);
    out->m_hitRatioReason = joined(out->m_a.atCapacity.reason, out->m_b.atCapacity.reason);
    auto noAccount = [](const Side &s, const QString &name) {
        return s.lmcache.requests == 0
                   ? QStringLiteral("%1 has no release_prefetch_task with a PrefetchHandle")
                         .arg(name)
                   : QString();
    };
    out->m_lmcacheReason = joined(noAccount(out->m_a, names[0]), noAccount(out->m_b, names[1]));

    auto overlap = KeyOverlap::build(*a.cache->keys, *b.cache->keys, cancel);
    if (!overlap) {
        return nullptr;
    }
    out->m_overlap = *overlap;
    report(10);

    if (options.whatIf) {
        out->m_capacities = sharedCapacities(a.uses->keyCount(), b.uses->keyCount());
        WhatIfAnalysis::Options wo;
        wo.policies = options.policies;
        wo.capacities = out->m_capacities;
        for (int i = 0; i < 2; ++i) {
            const int from = 10 + 45 * i;
            side[i]->whatIf = WhatIfAnalysis::run(
                in[i]->uses, wo, [&report, from](int p) { report(from + 45 * p / 100); }, {},
                cancel);
            if (!side[i]->whatIf) {
                return nullptr;
            }
        }
        auto noUses = [](const Inputs &x, const QString &name) {
            return x.uses->prefetchOccurrences() == 0
                       ? QStringLiteral("%1 has no submit_prefetch_task").arg(name)
                       : QString();
        };
        out->m_whatIfReason = joined(noUses(a, names[0]), noUses(b, names[1]));
    } else {
        out->m_whatIfReason = QStringLiteral("the what-if was not run");
    }
    report(100);
    return out;
}

}  // namespace lmct
