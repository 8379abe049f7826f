#include "compare/tracecomparison.h"

#include "trace/tracedocument.h"

#include <QJsonArray>
#include <cmath>

namespace lmct {

namespace {

QJsonValue num(double v) {
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}
QJsonValue text(const QString &s) {
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}
QJsonObject pairJson(const FigurePair &f) {
    return {{QStringLiteral("a"), num(f.a)},
            {QStringLiteral("b"), num(f.b)},
            {QStringLiteral("delta"), num(f.delta())},
            {QStringLiteral("delta_percent"), num(f.percent())}};
}
QJsonArray countsJson(const std::vector<qint64> &v) {
    QJsonArray a;
    for (const qint64 x : v) {
        a.append(double(x));
    }
    return a;
}

/** Analyses one trace: progress `from`..`to`. False when cancelled. */
bool analyse(const TraceDocument &doc, TraceComparison::Side *s,
             const TraceComparison::Progress &progress, int from, int to,
             const std::atomic_bool *cancel) {
    auto at = [&](int lo, int hi) {
        return [&progress, from, to, lo, hi](int p) {
            if (progress) {
                progress(from + (to - from) * (lo + (hi - lo) * p / 100) / 100);
            }
        };
    };
    s->fileName = doc.fileName();
    s->filePath = doc.filePath();
    s->records = doc.records().size();
    s->duration = doc.records().maxTMono();
    s->config = doc.header().smConfig();
    TraceStatistics::Options so;
    so.cancel = cancel;
    auto statsProgress = at(0, 30);
    so.progress = [&statsProgress](qint64 done, qint64 total) {
        statsProgress(total > 0 ? int(done * 100 / total) : 100);
    };
    auto stats = std::make_shared<TraceStatistics>(TraceStatistics::compute(doc, so));
    if (stats->cancelled || (cancel && cancel->load())) {
        return false;
    }
    s->stats = stats;
    s->cache = CacheAnalysis::run(doc, at(30, 85), cancel);
    if (!s->cache) {
        return false;
    }
    // After the key scan, which checks whether the file was cut while it read it: the cache
    // figures cover its readable records.
    s->damage = DamageSummary::of(doc, s->cache->keys->readableRecordCount());
    for (const QString &family : ContextPairs::families(doc.records())) {
        if (family.endsWith(QLatin1String("read_prefetched_results"))) {
            s->reads = ContextPairs::build(doc, family, cancel);
            if (!s->reads) {
                return false;
            }
            break;
        }
    }
    at(85, 90)(100);
    s->uses = UseSequence::build(doc, s->cache->keys, UseSequence::Scope{}, at(90, 100), cancel);
    return s->uses != nullptr;
}

/** "A (a.lct)": how a warning names a side. */
QString who(const TraceComparison::Side &s, const char *letter) {
    return QStringLiteral("%1 (%2)").arg(QLatin1String(letter), s.fileName);
}

QJsonObject damageJson(const TraceComparison::Side &s, const char *letter) {
    const DamageSummary &d = s.damage;
    return {{QStringLiteral("damaged"), d.isDamaged()},
            {QStringLiteral("damaged_args_records"), double(d.badArgsRecords)},
            {QStringLiteral("skipped_frames"), double(d.skippedFrames)},
            {QStringLiteral("skipped_bytes"), double(d.skippedBytes)},
            {QStringLiteral("tail_cut"), d.tailCut},
            {QStringLiteral("recovered_frames"), double(d.recoveredFrames)},
            {QStringLiteral("shrunk_to"),
             d.shrunkTo >= 0 ? QJsonValue(double(d.shrunkTo)) : QJsonValue(QJsonValue::Null)},
            {QStringLiteral("args_checked"), d.argsChecked},
            {QStringLiteral("warning"), text(d.sentence(who(s, letter)))}};
}

QJsonObject sideJson(const TraceComparison::Side &s, const char *letter) {
    QJsonObject o;
    o[QStringLiteral("file")] = s.fileName;
    o[QStringLiteral("path")] = s.filePath;
    o[QStringLiteral("records")] = double(s.records);
    o[QStringLiteral("duration_s")] = num(s.duration);
    o[QStringLiteral("config")] = s.config.summary();
    o[QStringLiteral("l1_bytes")] =
        s.config.l1Bytes() ? QJsonValue(double(*s.config.l1Bytes())) : QJsonValue();
    o[QStringLiteral("eviction_policy")] =
        s.config.evictionPolicy() ? QJsonValue(*s.config.evictionPolicy()) : QJsonValue();
    o[QStringLiteral("distinct_keys")] = double(s.cache->keys->keyCount());
    o[QStringLiteral("models")] = QJsonArray::fromStringList(s.cache->keys->models());
    o[QStringLiteral("requests")] = double(s.cache->requests->count());
    o[QStringLiteral("uses")] = double(s.uses->size());
    o[QStringLiteral("prefetch_occurrences")] = double(s.uses->prefetchOccurrences());
    o[QStringLiteral("damage")] = damageJson(s, letter);
    return o;
}

QJsonObject distributionJson(const LatencyComparison::Distribution &d) {
    return {{QStringLiteral("n"), double(d.n)},
            {QStringLiteral("p50_s"), num(d.p50)},
            {QStringLiteral("p95_s"), num(d.p95)},
            {QStringLiteral("max_s"), num(d.max)},
            {QStringLiteral("buckets_us"), countsJson(d.buckets)}};
}

QJsonObject accountJson(const CacheComparison::Account &acc) {
    return {{QStringLiteral("requests"), double(acc.requests)},
            {QStringLiteral("hit_keys"), double(acc.hitKeys)},
            {QStringLiteral("requested_keys"), double(acc.requestedKeys)},
            {QStringLiteral("hit_ratio"), num(acc.hitRatio)}};
}

QJsonObject cacheSideJson(const CacheComparison::Side &s) {
    const CapacityHit &h = s.atCapacity;
    QJsonObject cap{
        {QStringLiteral("l1_bytes"), h.l1Bytes ? QJsonValue(double(*h.l1Bytes)) : QJsonValue()},
        {QStringLiteral("bytes_per_object"),
         h.bytesPerObject ? QJsonValue(double(h.bytesPerObject)) : QJsonValue()},
        {QStringLiteral("chunks"),
         h.reason.isEmpty() && !h.inBytes ? QJsonValue(double(h.chunks)) : QJsonValue()},
        {QStringLiteral("in_bytes"), h.inBytes},
        {QStringLiteral("configured_policy"), text(h.configuredPolicy)},
        {QStringLiteral("policy"), CachePolicy::name(h.policy)},
        {QStringLiteral("prefetch_occurrences"), double(h.prefetchOccurrences)},
        {QStringLiteral("prefetch_hits"), double(h.prefetchHits)},
        {QStringLiteral("hit_ratio"), num(h.hitRatio)},
        {QStringLiteral("note"), text(h.note)},
        {QStringLiteral("reason"), text(h.reason)}};
    QJsonArray curves;
    if (s.whatIf) {
        for (const WhatIfAnalysis::Curve &c : s.whatIf->curves()) {
            QJsonArray caps, ratios;
            for (size_t i = 0; i < c.capacities.size(); ++i) {
                caps.append(double(c.capacities[i]));
                // null without prefetches: nothing could hit (whatif_reason says so)
                ratios.append(s.hasWhatIfRatios() ? num(c.prefetchHitRatio[i])
                                                  : QJsonValue(QJsonValue::Null));
            }
            curves.append(QJsonObject{{QStringLiteral("policy"), CachePolicy::name(c.policy)},
                                      {QStringLiteral("capacities"), caps},
                                      {QStringLiteral("prefetch_hit_ratio"), ratios}});
        }
    }
    QJsonObject anomalies;
    for (int k = 0; k < AnomalyReport::kKindCount; ++k) {
        anomalies[AnomalyReport::kindName(AnomalyReport::Kind(k))] = double(s.anomalies[size_t(k)]);
    }
    const ReuseAnalysis::Stats &t = s.reuse->total();
    return {{QStringLiteral("at_capacity"), cap},
            {QStringLiteral("lmcache_account"), accountJson(s.lmcache)},
            {QStringLiteral("calls_account"), accountJson(s.calls)},
            {QStringLiteral("whatif"), curves},
            {QStringLiteral("reuse_distance_keys"), countsJson(t.distanceKeys)},
            {QStringLiteral("reuse_distance_time_us"), countsJson(t.distanceTime)},
            {QStringLiteral("anomalies"), anomalies}};
}

QJsonValue changeValue(const QJsonValue &v) {
    return v.isUndefined() ? QJsonValue(QJsonValue::Null) : v;
}

}  // namespace

std::shared_ptr<const TraceComparison> TraceComparison::run(const TraceDocument &a,
                                                            const TraceDocument &b,
                                                            const Options &options,
                                                            const Progress &progress,
                                                            const std::atomic_bool *cancel) {
    auto out = std::make_shared<TraceComparison>();
    if (!analyse(a, &out->m_a, progress, 0, 40, cancel) ||
        !analyse(b, &out->m_b, progress, 40, 80, cancel)) {
        return nullptr;
    }
    out->m_header = HeaderComparison::build(a, b);
    out->m_calls = CallComparison::build(*out->m_a.stats, *out->m_b.stats);
    auto inputs = [](const Side &s) {
        return LatencyComparison::Inputs{s.cache->keys.get(), s.cache->requests.get(),
                                         s.reads.get()};
    };
    out->m_latencies = LatencyComparison::build(inputs(out->m_a), inputs(out->m_b));
    CacheComparison::Options co;
    co.whatIf = options.whatIf;
    co.policies = options.policies;
    out->m_cache = CacheComparison::build(
        {&out->m_a.config, out->m_a.cache, out->m_a.uses},
        {&out->m_b.config, out->m_b.cache, out->m_b.uses}, co,
        [&progress](int p) {
            if (progress) {
                progress(80 + p / 5);
            }
        },
        cancel);
    if (!out->m_cache) {
        return nullptr;
    }
    return out;
}

std::shared_ptr<const TraceComparison> TraceComparison::run(const TraceDocument &a,
                                                            const TraceDocument &b) {
    return run(a, b, Options{});
}

QStringList TraceComparison::damageWarnings() const {
    QStringList out;
    for (const auto &[side, letter] : {std::pair{&m_a, "A"}, std::pair{&m_b, "B"}}) {
        const QString w = side->damage.sentence(who(*side, letter));
        if (!w.isEmpty()) {
            out.append(w);
        }
    }
    return out;
}

QJsonObject TraceComparison::toJson() const {
    QJsonObject o;
    o[QStringLiteral("a")] = sideJson(m_a, "A");
    o[QStringLiteral("b")] = sideJson(m_b, "B");

    QJsonArray header;
    for (const HeaderComparison::Row &r : m_header.rows()) {
        header.append(QJsonObject{{QStringLiteral("field"), r.field},
                                  {QStringLiteral("config"), r.config},
                                  {QStringLiteral("a"), r.a},
                                  {QStringLiteral("b"), r.b},
                                  {QStringLiteral("differs"), r.differs},
                                  {QStringLiteral("volatile"), r.isVolatile}});
    }
    o[QStringLiteral("header")] = header;

    QJsonArray diff;
    for (const ConfigDiff::Change &c : m_header.configDiff().changes()) {
        const char *kind = c.kind == ConfigDiff::Change::Kind::Added     ? "added"
                           : c.kind == ConfigDiff::Change::Kind::Removed ? "removed"
                                                                         : "changed";
        diff.append(QJsonObject{{QStringLiteral("path"), c.path},
                                {QStringLiteral("kind"), QLatin1String(kind)},
                                {QStringLiteral("a"), changeValue(c.a)},
                                {QStringLiteral("b"), changeValue(c.b)},
                                {QStringLiteral("volatile"), c.isVolatile}});
    }
    o[QStringLiteral("config_diff")] = diff;

    QJsonArray calls;
    for (const CallComparison::Row &r : m_calls.rows()) {
        QJsonObject row{{QStringLiteral("call"), r.call},
                        {QStringLiteral("qualname_a"), text(r.qualnameA)},
                        {QStringLiteral("qualname_b"), text(r.qualnameB)},
                        {QStringLiteral("total"), r.isTotal},
                        {QStringLiteral("reason"), text(r.reason)}};
        for (int f = 0; f < CallComparison::kFigureCount; ++f) {
            row[CallComparison::figureName(CallComparison::Figure(f))] =
                pairJson(r.figures[size_t(f)]);
        }
        calls.append(row);
    }
    o[QStringLiteral("calls")] = calls;

    QJsonObject lat;
    for (const LatencyComparison::Row &r : m_latencies.rows()) {
        lat[LatencyComparison::kindName(r.kind)] =
            QJsonObject{{QStringLiteral("label"), LatencyComparison::kindLabel(r.kind)},
                        {QStringLiteral("a"), distributionJson(r.a)},
                        {QStringLiteral("b"), distributionJson(r.b)},
                        {QStringLiteral("p50_s"), pairJson(r.p50())},
                        {QStringLiteral("p95_s"), pairJson(r.p95())},
                        {QStringLiteral("max_s"), pairJson(r.max())},
                        {QStringLiteral("reason"), text(r.reason)}};
    }
    o[QStringLiteral("latencies")] = lat;

    const CacheComparison &c = *m_cache;
    QJsonArray models;
    for (const KeyOverlap::Row &r : c.overlap().models()) {
        models.append(QJsonObject{{QStringLiteral("model"), r.model},
                                  {QStringLiteral("a_only"), double(r.onlyA)},
                                  {QStringLiteral("b_only"), double(r.onlyB)},
                                  {QStringLiteral("both"), double(r.both)}});
    }
    const KeyOverlap::Row &t = c.overlap().total();
    QJsonArray caps;
    for (const quint64 cap : c.capacities()) {
        caps.append(double(cap));
    }
    QJsonObject anomalies;
    for (int k = 0; k < AnomalyReport::kKindCount; ++k) {
        anomalies[AnomalyReport::kindName(AnomalyReport::Kind(k))] =
            pairJson({double(c.a().anomalies[size_t(k)]), double(c.b().anomalies[size_t(k)])});
    }
    o[QStringLiteral("cache")] =
        QJsonObject{{QStringLiteral("a"), cacheSideJson(c.a())},
                    {QStringLiteral("b"), cacheSideJson(c.b())},
                    {QStringLiteral("hit_ratio"), pairJson(c.hitRatio())},
                    {QStringLiteral("hit_ratio_reason"), text(c.hitRatioReason())},
                    {QStringLiteral("lmcache_hit_ratio"), pairJson(c.lmcacheHitRatio())},
                    {QStringLiteral("lmcache_reason"), text(c.lmcacheReason())},
                    {QStringLiteral("calls_hit_ratio"), pairJson(c.callsHitRatio())},
                    {QStringLiteral("whatif_capacities"), caps},
                    {QStringLiteral("whatif_reason"), text(c.whatIfReason())},
                    {QStringLiteral("key_overlap"),
                     QJsonObject{{QStringLiteral("models"), models},
                                 {QStringLiteral("a_only"), double(t.onlyA)},
                                 {QStringLiteral("b_only"), double(t.onlyB)},
                                 {QStringLiteral("both"), double(t.both)},
                                 {QStringLiteral("reason"), text(c.overlap().reason())}}},
                    {QStringLiteral("anomalies"), anomalies}};
    return o;
}

}  // namespace lmct
