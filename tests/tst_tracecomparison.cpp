// TraceComparison on generated pairs with known differences: half the L1, another policy, a
// renamed model, no prefetches in B, fewer rounds; every figure checked against values the
// fixture computes itself (comparefixture.h).

#include "cache/lmcacheaccount.h"
#include "compare/tracecomparison.h"
#include "comparefixture.h"
#include "whatif/chunksize.h"
#include "whatif/hitovertime.h"

#include <QJsonArray>

#include <QtTest>

using namespace lmct;
using namespace lmct::test;

namespace {

struct Pair {
    Workload wa, wb;
    std::shared_ptr<TraceDocument> a, b;
    std::shared_ptr<const TraceComparison> c;
};

Pair comparePair(const WorkloadSpec &sa, const WorkloadSpec &sb,
                 const TraceComparison::Options &options = {}) {
    Pair p;
    p.wa = makeWorkload(sa);
    p.wb = makeWorkload(sb);
    p.a = loadWorkload(p.wa, QStringLiteral("a.lct"));
    p.b = loadWorkload(p.wb, QStringLiteral("b.lct"));
    if (p.a && p.b) {
        p.c = TraceComparison::run(*p.a, *p.b, options);
    }
    return p;
}

const HeaderComparison::Row *headerRow(const TraceComparison &c, const QString &field) {
    for (const auto &r : c.header().rows()) {
        if (r.field == field) {
            return &r;
        }
    }
    return nullptr;
}

}  // namespace

class TestTraceComparison : public QObject {
    Q_OBJECT

private slots:
    void halfTheL1() {
        WorkloadSpec sa, sb;
        sb.l1Bytes = sa.l1Bytes / 2;
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        const CacheComparison &cache = p.c->cache();
        const CapacityHit &ha = cache.a().atCapacity, &hb = cache.b().atCapacity;
        QVERIFY2(ha.reason.isEmpty(), qPrintable(ha.reason));
        QCOMPARE(ha.bytesPerObject, quint64(128));
        QCOMPARE(ha.chunks, quint64(8));
        QCOMPARE(hb.chunks, quint64(4));
        QCOMPARE(ha.policy, CachePolicy::Kind::Lru);
        QVERIFY(ha.note.isEmpty());
        const qint64 prefetches = prefetchUses(p.wa.uses);
        QCOMPARE(ha.prefetchOccurrences, prefetches);
        QCOMPARE(ha.prefetchHits, tinyReplay(p.wa.uses, 8, false));
        QCOMPARE(hb.prefetchHits, tinyReplay(p.wb.uses, 4, false));
        QCOMPARE(ha.hitRatio, double(tinyReplay(p.wa.uses, 8, false)) / double(prefetches));
        QVERIFY(hb.hitRatio < ha.hitRatio);
        QVERIFY(cache.hitRatioReason().isEmpty());
        QCOMPARE(cache.hitRatio().delta(), hb.hitRatio - ha.hitRatio);
        QCOMPARE(cache.hitRatio().percent(), (hb.hitRatio - ha.hitRatio) / ha.hitRatio * 100.0);

        // The config differs in the L1 size only.
        const auto real = p.c->header().configDiff().realChanges();
        QCOMPARE(real.size(), 1);
        QCOMPARE(real[0].path, QStringLiteral("l1_manager_config.memory_config.size_in_bytes"));
        const auto *row = headerRow(*p.c, real[0].path);
        QVERIFY(row);
        QVERIFY(row->differs && row->config);
        QCOMPARE(row->a, QStringLiteral("1024"));
        QCOMPARE(row->b, QStringLiteral("512"));
        const auto *policy = headerRow(*p.c, QStringLiteral("eviction_config.eviction_policy"));
        QVERIFY(policy);
        QVERIFY(!policy->differs);

        // The same workload: every key in both, the same calls.
        QCOMPARE(cache.overlap().total().both, qint64(sa.keys));
        QCOMPARE(cache.overlap().total().onlyA, 0);
        QCOMPARE(cache.overlap().total().onlyB, 0);
        QVERIFY(cache.overlap().reason().isEmpty());
        for (const auto &r : p.c->calls().rows()) {
            QCOMPARE(r.figure(CallComparison::Figure::Count).delta(), 0.0);
            QVERIFY(r.reason.isEmpty());
        }
    }

    void regression_l1BelowOneObjectIsOneChunk() {
        // An L1 smaller than one object holds one chunk by ChunkSize's rule, as `lmct whatif`
        // and the What-if tab count it; the replay at the configured capacity agrees.
        WorkloadSpec sa, sb;
        sb.l1Bytes = 100;  // objects of 128 bytes
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        const CapacityHit &hb = p.c->cache().b().atCapacity;
        QVERIFY2(hb.reason.isEmpty(), qPrintable(hb.reason));
        QVERIFY(!hb.inBytes);
        QCOMPARE(hb.chunks, quint64(1));
        QCOMPARE(hb.chunks,
                 *ChunkSize(quint64(sb.keys), quint64(sb.keys) * 128, 128, 128).chunksFor(100));
        QCOMPARE(hb.prefetchHits, tinyReplay(p.wb.uses, 1, false));
        QVERIFY(hb.prefetchHits > 0);
    }

    void whatIfCurvesOverlay() {
        WorkloadSpec sa, sb;
        sb.l1Bytes = sa.l1Bytes / 2;
        sb.rounds = 25;
        TraceComparison::Options o;
        o.policies = {CachePolicy::Kind::Lru, CachePolicy::Kind::Fifo};
        const Pair p = comparePair(sa, sb, o);
        QVERIFY(p.c);
        const CacheComparison &cache = p.c->cache();
        const std::vector<quint64> caps{1, 2, 4, 8, 16};
        QCOMPARE(cache.capacities(), caps);
        for (const auto *side : {&cache.a(), &cache.b()}) {
            const Workload &w = side == &cache.a() ? p.wa : p.wb;
            QVERIFY(side->whatIf);
            QCOMPARE(side->whatIf->curves().size(), size_t(2));
            for (const bool fifo : {false, true}) {
                const auto *curve =
                    side->whatIf->curve(fifo ? CachePolicy::Kind::Fifo : CachePolicy::Kind::Lru);
                QVERIFY(curve);
                QCOMPARE(curve->capacities, caps);
                for (size_t i = 0; i < caps.size(); ++i) {
                    QCOMPARE(curve->prefetchHits[i], tinyReplay(w.uses, caps[i], fifo));
                }
            }
        }
        QVERIFY(cache.whatIfReason().isEmpty());

        TraceComparison::Options none;
        none.whatIf = false;
        const Pair q = comparePair(sa, sb, none);
        QVERIFY(q.c);
        QVERIFY(!q.c->cache().a().whatIf);
        QVERIFY(!q.c->cache().whatIfReason().isEmpty());
    }

    void changedPolicy() {
        WorkloadSpec sa, sb;
        sb.policy = QStringLiteral("FIFO");
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        const CapacityHit &hb = p.c->cache().b().atCapacity;
        QCOMPARE(hb.configuredPolicy, QStringLiteral("FIFO"));
        QCOMPARE(hb.policy, CachePolicy::Kind::Fifo);
        QCOMPARE(hb.prefetchHits, tinyReplay(p.wb.uses, 8, true));
        // The workload tells the two policies apart.
        QVERIFY(tinyReplay(p.wb.uses, 8, true) != tinyReplay(p.wb.uses, 8, false));
        QCOMPARE(p.c->cache().a().atCapacity.prefetchHits, tinyReplay(p.wa.uses, 8, false));
        const auto *row = headerRow(*p.c, QStringLiteral("eviction_config.eviction_policy"));
        QVERIFY(row);
        QVERIFY(row->differs);
        QCOMPARE(row->a, QStringLiteral("\"LRU\""));
        QCOMPARE(row->b, QStringLiteral("\"FIFO\""));
    }

    void unknownPolicyIsLru() {
        WorkloadSpec sa, sb;
        sb.policy = QStringLiteral("W-TinyLFU");
        sa.policy.clear();
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        const CapacityHit &ha = p.c->cache().a().atCapacity, &hb = p.c->cache().b().atCapacity;
        QCOMPARE(hb.policy, CachePolicy::Kind::Lru);
        QVERIFY2(hb.note.contains(QStringLiteral("\"W-TinyLFU\" of B is not simulated: replayed "
                                                 "as LRU")),
                 qPrintable(hb.note));
        QCOMPARE(hb.prefetchHits, tinyReplay(p.wb.uses, 8, false));
        QVERIFY2(ha.note.contains(QStringLiteral("no eviction policy in A's config")),
                 qPrintable(ha.note));
        QVERIFY(std::isfinite(ha.hitRatio));
    }

    void renamedModel() {
        WorkloadSpec sa, sb;
        sb.model = QStringLiteral("meta-llama/Llama-3.1-8B");
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        const KeyOverlap &o = p.c->cache().overlap();
        QCOMPARE(o.models().size(), size_t(2));
        const KeyOverlap::Row &qwen = o.models()[0], &llama = o.models()[1];  // by name
        QCOMPARE(llama.model, sb.model);
        QCOMPARE(llama.onlyB, qint64(sb.keys));
        QCOMPARE(llama.onlyA + llama.both, 0);
        QCOMPARE(qwen.model, sa.model);
        QCOMPARE(qwen.onlyA, qint64(sa.keys));
        QCOMPARE(qwen.onlyB + qwen.both, 0);
        QCOMPARE(o.total().both, 0);
        QCOMPARE(o.reason(),
                 QStringLiteral("different models: A Qwen/Qwen3-8B, B meta-llama/Llama-3.1-8B"));
        // The workload is the same: its hit ratio is too.
        QCOMPARE(p.c->cache().hitRatio().delta(), 0.0);
    }

    void overlapByIdentity() {
        // Same hashes, another kv_rank in B for the odd keys: those are different keys.
        Workload wa = makeWorkload({});
        CacheTraceWriter w;
        for (int i = 0; i < 4; ++i) {
            w.call(1.0 + i, QStringLiteral("finish_write"), {i % 2 ? key(i, 33554945) : key(i)});
        }
        QString error;
        auto a = loadWorkload(wa, QStringLiteral("a.lct"));
        auto b = TraceLoader::loadBytes(w.bytes(), QStringLiteral("b.lct"), &error);
        QVERIFY2(a && b, qPrintable(error));
        const auto c = TraceComparison::run(*a, *b);
        QVERIFY(c);
        const KeyOverlap::Row &t = c->cache().overlap().total();
        QCOMPARE(t.both, 2);   // keys 0 and 2
        QCOMPARE(t.onlyB, 2);  // keys 1 and 3 of rank 1
        QCOMPARE(t.onlyA, 14);
        // B's header has no config at all.
        QCOMPARE(c->cache().b().atCapacity.reason,
                 QStringLiteral("B has no StorageManager config: L1 size unknown"));
        QVERIFY(c->cache().b().atCapacity.note.isEmpty());
        const auto *config = headerRow(*c, QStringLiteral("sm_config_json"));
        QVERIFY(config);
        QVERIFY(config->differs);
        QCOMPARE(config->b, QStringLiteral("no StorageManager config attached"));
    }

    void noLayout() {
        // Keys written and prefetched without any MemoryLayoutDesc: bytes per object unknown.
        CacheTraceWriter w;
        w.call(1.0, QStringLiteral("finish_write"), {key(1)});
        w.call(2.0, QStringLiteral("submit_prefetch_task"), {key(1)}, KeysAt::Spec,
               QStringLiteral("r"));
        HeaderSpec h;
        h.configJson = workloadConfig({});
        const QByteArray bytes = frame(headerBody(h)) + w.bytes().mid(frameEnds(w.bytes()).first());
        QString error;
        auto b = TraceLoader::loadBytes(bytes, QStringLiteral("b.lct"), &error);
        auto a = loadWorkload(makeWorkload({}), QStringLiteral("a.lct"));
        QVERIFY2(a && b, qPrintable(error));
        const auto c = TraceComparison::run(*a, *b);
        QVERIFY(c);
        QCOMPARE(c->cache().b().atCapacity.reason,
                 QStringLiteral("B has no MemoryLayoutDesc for every key: bytes per object "
                                "unknown"));
        QCOMPARE(c->cache().b().atCapacity.l1Bytes, std::optional<qint64>(1024));
        QCOMPARE(c->cache().b().atCapacity.prefetchOccurrences, 1);
    }

    void noPrefetchesInB() {
        WorkloadSpec sa, sb;
        sb.prefetch = false;
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        const CacheComparison &cache = p.c->cache();
        QCOMPARE(cache.b().atCapacity.reason, QStringLiteral("B has no submit_prefetch_task"));
        QVERIFY(std::isnan(cache.b().atCapacity.hitRatio));
        QCOMPARE(cache.hitRatioReason(), QStringLiteral("B has no submit_prefetch_task"));
        QVERIFY(std::isnan(cache.hitRatio().delta()));
        QCOMPARE(cache.whatIfReason(), QStringLiteral("B has no submit_prefetch_task"));
        const auto &lat = p.c->latencies();
        QCOMPARE(lat.row(LatencyComparison::Kind::TimeToRead).reason,
                 QStringLiteral("B has no submit_prefetch_task"));
        QCOMPARE(lat.row(LatencyComparison::Kind::ReadDuration).reason,
                 QStringLiteral("B has no read_prefetched_results"));
        QCOMPARE(lat.row(LatencyComparison::Kind::FirstReuse).reason,
                 QStringLiteral("B has no key read after its finish_write"));
        QVERIFY(lat.row(LatencyComparison::Kind::WriteLatency).reason.isEmpty());
        const CallComparison::Row *submit =
            p.c->calls().row(QStringLiteral("submit_prefetch_task"));
        QVERIFY(submit);
        QCOMPARE(submit->reason, QStringLiteral("B has no submit_prefetch_task"));
        const FigurePair &n = submit->figure(CallComparison::Figure::Count);
        QCOMPARE(n.a, double(sa.rounds));
        QCOMPARE(n.b, 0.0);
        QCOMPARE(n.delta(), -double(sa.rounds));
        QCOMPARE(n.percent(), -100.0);
        QCOMPARE(submit->figure(CallComparison::Figure::Share).b, 0.0);
        QVERIFY(std::isnan(submit->figure(CallComparison::Figure::Rate).b));
        QVERIFY(submit->qualnameB.isEmpty());
        QVERIFY(!submit->qualnameA.isEmpty());
    }

    void noL1Size() {
        WorkloadSpec sa, sb;
        sa.withL1Size = false;
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        QCOMPARE(p.c->cache().a().atCapacity.reason, QStringLiteral("no L1 size in A's config"));
        QVERIFY(p.c->cache().b().atCapacity.reason.isEmpty());
        QCOMPARE(p.c->cache().hitRatioReason(), QStringLiteral("no L1 size in A's config"));
        const auto *row =
            headerRow(*p.c, QStringLiteral("l1_manager_config.memory_config.size_in_bytes"));
        QVERIFY(row);
        QVERIFY(row->differs);
        QVERIFY(row->a.isEmpty());
        QCOMPARE(p.c->header().configDiff().realChanges().first().kind,
                 ConfigDiff::Change::Kind::Added);
    }

    void callFigures() {
        WorkloadSpec sa, sb;
        sb.rounds = 10;
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        const auto &rows = p.c->calls().rows();
        QCOMPARE(rows.size(), size_t(p.wa.counts.size() + 1));
        QVERIFY(rows.back().isTotal);
        QCOMPARE(rows.front().call, QStringLiteral("submit_prefetch_task"));  // flow order
        for (auto it = p.wa.counts.begin(); it != p.wa.counts.end(); ++it) {
            const CallComparison::Row *r = p.c->calls().row(it.key());
            QVERIFY2(r, qPrintable(it.key()));
            const double na = double(it.value()), nb = double(p.wb.counts.value(it.key()));
            const FigurePair &n = r->figure(CallComparison::Figure::Count);
            QCOMPARE(n.a, na);
            QCOMPARE(n.b, nb);
            QCOMPARE(n.delta(), nb - na);
            QCOMPARE(n.percent(), (nb - na) / na * 100.0);
            const FigurePair &share = r->figure(CallComparison::Figure::Share);
            QCOMPARE(share.a, na / double(p.wa.records));
            QCOMPARE(share.b, nb / double(p.wb.records));
            const FigurePair &keys = r->figure(CallComparison::Figure::KeysPerCall);
            QCOMPARE(keys.a, double(p.wa.callKeys.value(it.key())) / na);
            QCOMPARE(keys.b, double(p.wb.callKeys.value(it.key())) / nb);
        }
        const FigurePair &total = rows.back().figure(CallComparison::Figure::Count);
        QCOMPARE(total.a, double(p.wa.records));
        QCOMPARE(total.b, double(p.wb.records));
        // submit: 40 → 10 is −75 %.
        QCOMPARE(p.c->calls()
                     .row(QStringLiteral("submit_prefetch_task"))
                     ->figure(CallComparison::Figure::Count)
                     .percent(),
                 -75.0);
    }

    void latencies() {
        WorkloadSpec sa, sb;
        sb.rounds = 13;
        sb.keys = 11;
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        const std::pair<LatencyComparison::Kind, std::vector<double> Workload::*> kinds[] = {
            {LatencyComparison::Kind::WriteLatency, &Workload::writeLatencies},
            {LatencyComparison::Kind::FirstReuse, &Workload::firstReuses},
            {LatencyComparison::Kind::ReadDuration, &Workload::readDurations},
            {LatencyComparison::Kind::TimeToRead, &Workload::timesToRead},
        };
        for (const auto &[kind, member] : kinds) {
            const LatencyComparison::Row &row = p.c->latencies().row(kind);
            QVERIFY2(row.reason.isEmpty(), qPrintable(row.reason));
            for (const bool isB : {false, true}) {
                const std::vector<double> &v = (isB ? p.wb : p.wa).*member;
                const LatencyComparison::Distribution &d = isB ? row.b : row.a;
                const QByteArray what =
                    LatencyComparison::kindName(kind).toLatin1() + (isB ? " B" : " A");
                QVERIFY2(!v.empty(), what.constData());
                QCOMPARE(d.n, qint64(v.size()));
                QCOMPARE(d.p50, percentileOf(v, 0.50));
                QCOMPARE(d.p95, percentileOf(v, 0.95));
                QCOMPARE(d.max, *std::max_element(v.begin(), v.end()));
                std::vector<qint64> buckets(ReuseAnalysis::kBuckets);
                for (const double x : v) {
                    ++buckets[size_t(microsecondBucket(x))];
                }
                QCOMPARE(d.buckets, buckets);
            }
            QCOMPARE(row.p95().delta(), row.b.p95 - row.a.p95);
        }
        // enter → exit agrees with the statistics' pairing.
        QCOMPARE(p.c->latencies().row(LatencyComparison::Kind::ReadDuration).a.p95,
                 p.c->a().stats->pairs.durationP95);
    }

    void volatileShmName() {
        WorkloadSpec sa, sb;
        sb.shmName = QStringLiteral("lmcache_l1_pool_4242");
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        QVERIFY(p.c->header().configDiff().isEqualIgnoringVolatile());
        const auto *row =
            headerRow(*p.c, QStringLiteral("l1_manager_config.memory_config.shm_name"));
        QVERIFY(row);
        QVERIFY(row->isVolatile);
        QVERIFY(!row->differs);
        for (const auto &r : p.c->header().rows()) {
            QVERIFY2(!r.differs || r.field == QLatin1String("file"), qPrintable(r.field));
        }
        QCOMPARE(p.c->header().differingCount(), 1);  // the file name
        // the duration in seconds with 6 decimals (it came as 0.3100000000000001)
        const auto *duration = headerRow(*p.c, QStringLiteral("duration_s"));
        QVERIFY(duration);
        const QRegularExpression micro(QStringLiteral("^\\d+\\.\\d{6}$"));
        QVERIFY2(micro.match(duration->a).hasMatch(), qPrintable(duration->a));
        QVERIFY2(micro.match(duration->b).hasMatch(), qPrintable(duration->b));
    }

    void lmcacheAccount() {
        WorkloadSpec sa, sb;
        sa.handles = true;
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        const CacheComparison::Account &acc = p.c->cache().a().lmcache;
        QCOMPARE(acc.requests, qint64(sa.rounds));
        QCOMPARE(acc.hitKeys, p.wa.handleHits);
        QCOMPARE(acc.requestedKeys, p.wa.handleTotal);
        QCOMPARE(acc.hitRatio, double(p.wa.handleHits) / double(p.wa.handleTotal));
        QCOMPARE(p.c->cache().b().lmcache.requests, 0);
        QVERIFY(std::isnan(p.c->cache().lmcacheHitRatio().b));
        QVERIFY2(p.c->cache().lmcacheReason().startsWith(
                     QStringLiteral("B has no release_prefetch_task")),
                 qPrintable(p.c->cache().lmcacheReason()));
        // The calls' account: every request read whole.
        QCOMPARE(p.c->cache().b().calls.hitRatio, 1.0);
    }

    // Regression: the compare's LMCache account counted the cancels' handles too, unlike the
    // timeline's hit-ratio plot; both now count the releases only (LmcacheAccount).
    void regression_lmcacheAccountIsTheHitPlots() {
        WorkloadSpec sa, sb;
        sa.handles = true;
        sa.cancelEvery = 4;
        sb.handles = true;
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        QVERIFY(p.wa.cancelTotal > 0);
        QVERIFY(p.wa.counts.value(QStringLiteral("cancel_prefetch_task")) > 0);
        const CacheComparison::Account &acc = p.c->cache().a().lmcache;
        QCOMPARE(acc.requests, p.wa.releases);
        QCOMPARE(acc.hitKeys, p.wa.handleHits);
        QCOMPARE(acc.requestedKeys, p.wa.handleTotal);
        QCOMPARE(acc.hitRatio, double(p.wa.handleHits) / double(p.wa.handleTotal));
        // The timeline's hit plot over the whole trace, in one window: the same ratio.
        const auto ho = HitOverTime::build(p.c->a().uses, {CachePolicy::Kind::Lru}, 8, false);
        QVERIFY(ho && ho->hasLmcacheAccount());
        const std::vector<double> whole = ho->lmcacheWindowed(0.0, p.a->duration() + 1.0, 1);
        QCOMPARE(whole.size(), size_t(1));
        QCOMPARE(whole[0], acc.hitRatio);
        const LmcacheAccount::Totals t = LmcacheAccount::total(*p.c->a().cache->keys);
        QCOMPARE(t.releases, acc.requests);
        QCOMPARE(t.hitRatio(), acc.hitRatio);
        // B has releases only: its account is every request's.
        QCOMPARE(p.c->cache().b().lmcache.requests, qint64(sb.rounds));
        QVERIFY(p.c->cache().lmcacheReason().isEmpty());
    }

    void damagedTraceIsNamed() {
        WorkloadSpec sa, sb;
        const Workload wa = makeWorkload(sa), wb = makeWorkload(sb);
        QByteArray bad = damagedWorkload(wb.bytes, 2);
        QString error;
        auto a = TraceLoader::loadBytes(wa.bytes, QStringLiteral("a.lct"), &error);
        auto b = TraceLoader::loadBytes(bad, QStringLiteral("b.lct"), &error);
        QVERIFY2(a && b, qPrintable(error));
        const auto c = TraceComparison::run(*a, *b);
        QVERIFY(c);
        QVERIFY(!c->a().damage.isDamaged());
        const DamageSummary &d = c->b().damage;
        QVERIFY(d.isDamaged());
        QCOMPARE(d.badArgsRecords, 2);
        QCOMPARE(d.skippedFrames, 1);
        QCOMPARE(d.skippedBytes, b->skippedBytes());
        QCOMPARE(d.records, qint64(wb.records));
        QVERIFY(d.argsChecked);
        const QStringList w = c->damageWarnings();
        QCOMPARE(w.size(), 1);
        QVERIFY2(w[0].startsWith(QStringLiteral("B (b.lct) is damaged: 2 records with damaged "
                                                "arguments, 1 frame skipped (%1 bytes)")
                                     .arg(b->skippedBytes())),
                 qPrintable(w[0]));
        QVERIFY2(
            w[0].endsWith(QStringLiteral("its figures cover the %1 records read").arg(wb.records)),
            qPrintable(w[0]));
        // The JSON has it per trace.
        const QJsonObject o = c->toJson();
        QCOMPARE(
            o[QStringLiteral("b")][QStringLiteral("damage")][QStringLiteral("warning")].toString(),
            w[0]);
        QVERIFY(
            o[QStringLiteral("a")][QStringLiteral("damage")][QStringLiteral("warning")].isNull());
        // A tail cut short: the last record is lost.
        auto cut = TraceLoader::loadBytes(wb.bytes.chopped(10), QStringLiteral("cut.lct"), &error);
        QVERIFY2(cut, qPrintable(error));
        const auto cc = TraceComparison::run(*cut, *a);
        QVERIFY(cc);
        QVERIFY(cc->a().damage.tailCut);
        const qint64 lastFrame =
            wb.bytes.size() - frameEnds(wb.bytes).at(frameEnds(wb.bytes).size() - 2);
        QCOMPARE(cc->damageWarnings(),
                 QStringList{QStringLiteral("A (cut.lct) is damaged: its last record cut short (%1 "
                                            "bytes skipped); its figures cover the %2 records read")
                                 .arg(lastFrame - 10)
                                 .arg(wb.records - 1)});
        // Clean on both sides: no warning.
        QVERIFY(TraceComparison::run(*a, *a)->damageWarnings().isEmpty());
    }

    void whatIfUnknownWithoutPrefetches() {
        WorkloadSpec sa, sb;
        sb.prefetch = false;
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        QVERIFY(p.c->cache().a().hasWhatIfRatios());
        QVERIFY(!p.c->cache().b().hasWhatIfRatios());
        const QJsonObject o = p.c->toJson();
        const QJsonObject cache = o[QStringLiteral("cache")].toObject();
        for (const char *side : {"a", "b"}) {
            const QJsonArray curves =
                cache[QLatin1String(side)][QStringLiteral("whatif")].toArray();
            QVERIFY(!curves.isEmpty());
            for (const QJsonValue &cv : curves) {
                for (const QJsonValue &r : cv[QStringLiteral("prefetch_hit_ratio")].toArray()) {
                    QCOMPARE(r.isNull(), side[0] == 'b');
                }
            }
        }
        QCOMPARE(cache[QStringLiteral("whatif_reason")].toString(),
                 QStringLiteral("B has no submit_prefetch_task"));
    }

    void noWhatIfLeavesTheCapacitiesEmpty() {
        TraceComparison::Options none;
        none.whatIf = false;
        const Pair p = comparePair({}, {}, none);
        QVERIFY(p.c);
        QVERIFY(p.c->cache().capacities().empty());
        const QJsonObject cache = p.c->toJson()[QStringLiteral("cache")].toObject();
        QVERIFY(cache[QStringLiteral("whatif_capacities")].toArray().isEmpty());
        QVERIFY(cache[QStringLiteral("a")][QStringLiteral("whatif")].toArray().isEmpty());
        QCOMPARE(cache[QStringLiteral("whatif_reason")].toString(),
                 QStringLiteral("the what-if was not run"));
    }

    void reuseAndAnomalies() {
        WorkloadSpec sa, sb;
        sb.rounds = 5;
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        for (const bool isB : {false, true}) {
            const Workload &w = isB ? p.wb : p.wa;
            const auto &side = isB ? p.c->cache().b() : p.c->cache().a();
            // Reuses: uses after the first of their key.
            std::set<int> seen;
            qint64 reuses = 0;
            for (const TUse &u : w.uses) {
                reuses += seen.insert(u.key).second ? 0 : 1;
            }
            const auto &h = side.reuse->total().distanceKeys;
            QCOMPARE(std::accumulate(h.begin(), h.end(), qint64(0)), reuses);
            const auto &ht = side.reuse->total().distanceTime;
            QCOMPARE(std::accumulate(ht.begin(), ht.end(), qint64(0)), reuses);
            for (int k = 0; k < AnomalyReport::kKindCount; ++k) {
                QCOMPARE(side.anomalies[size_t(k)], 0);  // a clean workload
            }
        }
    }

    void progressAndCancel() {
        const Workload w = makeWorkload({});
        auto a = loadWorkload(w, QStringLiteral("a.lct"));
        QVERIFY(a);
        std::vector<int> seen;
        std::mutex m;
        const auto c = TraceComparison::run(*a, *a, TraceComparison::Options{}, [&](int p) {
            std::lock_guard<std::mutex> lock(m);
            seen.push_back(p);
        });
        QVERIFY(c);
        QVERIFY(!seen.empty());
        QCOMPARE(seen.back(), 100);
        for (const int p : seen) {
            QVERIFY(p >= 0 && p <= 100);
        }
        std::atomic_bool cancel{true};
        QVERIFY(!TraceComparison::run(*a, *a, TraceComparison::Options{}, {}, &cancel));
        // Cancelled while running: once B's analyses begin.
        std::atomic_bool late{false};
        std::atomic_int after{0};
        const auto none = TraceComparison::run(
            *a, *a, TraceComparison::Options{},
            [&](int p) {
                if (late) {
                    ++after;
                }
                if (p >= 40) {
                    late = true;
                }
            },
            &late);
        QVERIFY(!none);
        QVERIFY(after.load() < 20);  // it stopped soon
    }
};

QTEST_GUILESS_MAIN(TestTraceComparison)
#include "tst_tracecomparison.moc"
