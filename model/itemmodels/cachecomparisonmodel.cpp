#include "itemmodels/cachecomparisonmodel.h"

namespace lmct {

CacheComparisonModel::CacheComparisonModel(QObject *parent)
    : FigureTableModel(QStringLiteral("cache"), parent) {}

void CacheComparisonModel::setComparison(std::shared_ptr<const TraceComparison> c) {
    m_comparison = std::move(c);
    std::vector<Row> rows;
    if (m_comparison) {
        const CacheComparison &k = m_comparison->cache();
        auto add = [&rows](const QString &group, const char *figure, Format format,
                           FigurePair values, const QString &reason = QString()) {
            Row row;
            row.group = group;
            row.figure = QLatin1String(figure);
            row.format = format;
            row.values = values;
            row.reason = reason;
            rows.push_back(std::move(row));
        };
        const CapacityHit &ha = k.a().atCapacity, &hb = k.b().atCapacity;
        const QString cap = QStringLiteral("at the configured capacity");
        const QString why = k.hitRatioReason();
        add(cap, "prefetch hit ratio", Format::Ratio, k.hitRatio(), why);
        auto chunks = [](const CapacityHit &h) {
            return h.reason.isEmpty() && !h.inBytes ? double(h.chunks) : qQNaN();
        };
        add(cap, "capacity (chunks)", Format::Count, {chunks(ha), chunks(hb)}, why);
        auto bpo = [](const CapacityHit &h) {
            return h.bytesPerObject ? double(h.bytesPerObject) : qQNaN();
        };
        add(cap, "bytes per object", Format::Count, {bpo(ha), bpo(hb)}, why);
        Row policy;
        policy.group = cap;
        policy.figure = QStringLiteral("policy");
        policy.format = Format::Text;
        policy.textA = CachePolicy::label(ha.policy);
        policy.textB = CachePolicy::label(hb.policy);
        QStringList notes;
        for (const QString &n : {ha.note, hb.note}) {
            if (!n.isEmpty()) {
                notes.append(n);
            }
        }
        policy.reason = notes.join(QStringLiteral("; "));
        rows.push_back(std::move(policy));
        add(cap, "prefetched keys", Format::Count,
            {double(ha.prefetchOccurrences), double(hb.prefetchOccurrences)});
        add(cap, "prefetch hits", Format::Count, {double(ha.prefetchHits), double(hb.prefetchHits)},
            why);

        const QString lm = QStringLiteral("LMCache's L1 prefix hits");
        add(lm, "hit ratio", Format::Ratio, k.lmcacheHitRatio(), k.lmcacheReason());
        add(lm, "releases with a handle", Format::Count,
            {double(k.a().lmcache.requests), double(k.b().lmcache.requests)}, k.lmcacheReason());
        add(QStringLiteral("matched reads"), "prefix hit ratio", Format::Ratio, k.callsHitRatio());

        // The what-if's ceiling: at its largest capacity every key stays resident (any policy);
        // unknown for a trace without prefetches, where WhatIfAnalysis says 0.
        if (k.a().whatIf && k.b().whatIf && !k.capacities().empty()) {
            auto ceiling = [](const CacheComparison::Side &side) {
                if (!side.hasWhatIfRatios() || side.whatIf->curves().empty()) {
                    return qQNaN();
                }
                const std::vector<double> &r = side.whatIf->curves().front().prefetchHitRatio;
                return r.empty() ? qQNaN() : r.back();
            };
            const QString figure = QStringLiteral("hit ratio, every key resident (%1 chunks)")
                                       .arg(k.capacities().back());
            Row row;
            row.group = QStringLiteral("what-if");
            row.figure = figure;
            row.format = Format::Ratio;
            row.values = {ceiling(k.a()), ceiling(k.b())};
            row.reason = k.whatIfReason();
            rows.push_back(std::move(row));
        }

        const QString reuse = QStringLiteral("reuse distance");
        const ReuseAnalysis::Stats &ra = k.a().reuse->total(), &rb = k.b().reuse->total();
        add(reuse, "p50 (distinct keys)", Format::Number,
            {ra.distanceKeysFigures.median, rb.distanceKeysFigures.median});
        add(reuse, "p95 (distinct keys)", Format::Number,
            {ra.distanceKeysFigures.p95, rb.distanceKeysFigures.p95});
        add(reuse, "p50 (time)", Format::Seconds,
            {ra.distanceTimeFigures.median, rb.distanceTimeFigures.median});
        add(reuse, "p95 (time)", Format::Seconds,
            {ra.distanceTimeFigures.p95, rb.distanceTimeFigures.p95});

        const QString anomalies = QStringLiteral("anomalies");
        for (int i = 0; i < AnomalyReport::kKindCount; ++i) {
            Row row;
            row.group = anomalies;
            row.figure = AnomalyReport::kindName(AnomalyReport::Kind(i));
            row.format = Format::Count;
            row.values = {double(k.a().anomalies[size_t(i)]), double(k.b().anomalies[size_t(i)])};
            rows.push_back(std::move(row));
        }
    }
    setRows(std::move(rows));
}

}  // namespace lmct
