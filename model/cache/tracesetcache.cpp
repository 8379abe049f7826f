#include "cache/tracesetcache.h"

#include <QHash>
#include <QObject>

namespace lmct {

namespace {

/** The bytes that tell two keys apart across traces. */
QByteArray identityOf(const ObjectKey &k) {
    QByteArray b = k.chunkHash;
    b += '\0';
    b += k.modelName.toUtf8();
    b += '\0';
    b += QByteArray::number(k.kvRank);
    b += k.objectGroupId ? '\1' + QByteArray::number(*k.objectGroupId) : QByteArray("\0", 1);
    b += k.cacheSalt ? '\1' + k.cacheSalt->toUtf8() : QByteArray("\0", 1);
    return b;
}

}  // namespace

QString TraceSetCache::howName(How how) {
    switch (how) {
        case How::Trace:
            return QObject::tr("this trace");
        case How::Union:
            return QObject::tr("union of the keys");
        case How::Sum:
            return QObject::tr("sum over the traces");
        case How::Ratio:
            return QObject::tr("ratio of the sums");
    }
    return QString();
}

TraceSetCache TraceSetCache::compute(const TraceSet &set) {
    return compute(set, Options());
}

TraceSetCache TraceSetCache::compute(const TraceSet &set, const Options &options) {
    TraceSetCache out;
    QHash<QByteArray, int> firstTrace;  // key identity -> the first trace, or -1 once shared
    for (int t = 0; t < set.size(); ++t) {
        if (options.cancel && options.cancel->load()) {
            out.cancelled = true;
            break;
        }
        auto a = CacheAnalysis::run(set.document(t), {}, options.cancel);
        if (!a) {
            out.cancelled = true;
            break;
        }
        const KeyAnalysis &keys = *a->keys;
        for (int id = 0; id < keys.keyCount(); ++id) {
            QByteArray identity = identityOf(keys.objectKey(id));
            const auto it = firstTrace.find(identity);
            if (it == firstTrace.end()) {
                firstTrace.insert(std::move(identity), t);
            } else if (*it != t && *it >= 0) {
                *it = -1;  // counted once, however many traces share it
                ++out.sharedKeys;
            }
        }
        out.perTrace.push_back(std::move(a));
        if (options.progress) {
            options.progress(t + 1, set.size());
        }
    }
    out.unionKeys = firstTrace.size();
    out.perTrace.resize(size_t(set.size()));
    return out;
}

QList<TraceSetCache::Figure> TraceSetCache::figures(int t) const {
    std::vector<const CacheAnalysis *> of;
    if (t >= 0) {
        if (size_t(t) >= perTrace.size() || !perTrace[size_t(t)]) {
            return {};
        }
        of.push_back(perTrace[size_t(t)].get());
    } else {
        for (const auto &a : perTrace) {
            if (!a) {
                return {};
            }
            of.push_back(a.get());
        }
    }
    const How sum = t >= 0 ? How::Trace : How::Sum;
    const auto total = [&](auto get) {
        double v = 0.0;
        for (const CacheAnalysis *a : of) {
            v += double(get(*a));
        }
        return v;
    };
    QList<Figure> out;
    const auto add = [&](const QString &name, double value, How how, bool ratio = false) {
        out.append(Figure{name, value, ratio, how});
    };
    add(QObject::tr("Records analysed"),
        total([](const CacheAnalysis &a) { return a.keys->recordCount(); }), sum);
    if (t >= 0) {
        add(QObject::tr("Distinct keys"), of.front()->keys->keyCount(), How::Trace);
    } else {
        add(QObject::tr("Distinct keys"), double(unionKeys), How::Union);
        add(QObject::tr("Keys in more than one trace"), double(sharedKeys), How::Union);
        add(QObject::tr("Distinct keys per trace, summed"),
            total([](const CacheAnalysis &a) { return a.keys->keyCount(); }), How::Sum);
    }
    add(QObject::tr("Prefetch requests"),
        total([](const CacheAnalysis &a) { return a.requests->count(); }), sum);
    add(QObject::tr("Reads matched to a request"),
        total([](const CacheAnalysis &a) { return a.requests->readsMatched(); }), sum);
    add(QObject::tr("Requests released"),
        total([](const CacheAnalysis &a) { return a.requests->releasedCount(); }), sum);
    add(QObject::tr("Requests cancelled"),
        total([](const CacheAnalysis &a) { return a.requests->cancelledCount(); }), sum);
    const double prefetched =
        total([](const CacheAnalysis &a) { return a.reuse->total().prefetches; });
    const double hits = total([](const CacheAnalysis &a) { return a.reuse->total().prefetchHits; });
    add(QObject::tr("Prefetched key occurrences"), prefetched, sum);
    add(QObject::tr("Prefetch hits (infinite cache)"), hits, sum);
    add(QObject::tr("Prefetch hit ratio (infinite cache)"),
        prefetched > 0 ? hits / prefetched : qQNaN(), t >= 0 ? How::Trace : How::Ratio, true);
    add(QObject::tr("Key reuses"),
        total([](const CacheAnalysis &a) { return a.reuse->total().reuses; }), sum);
    add(QObject::tr("Anomalies"),
        total([](const CacheAnalysis &a) { return a.anomalies->totalCount(); }), sum);
    for (int k = 0; k < AnomalyReport::kKindCount; ++k) {
        const auto kind = AnomalyReport::Kind(k);
        add(QObject::tr("  %1").arg(AnomalyReport::kindName(kind)),
            total([kind](const CacheAnalysis &a) { return a.anomalies->count(kind); }), sum);
    }
    return out;
}

}  // namespace lmct
