// HitOverTime: windowed prefetch hit ratios against a count done here (an LRU list and a FIFO
// queue simulated directly over the uses written), occupancy, and LMCache's own account from the
// release_prefetch_task handles.

#include "cache/keyanalysis.h"
#include "cachetracewriter.h"
#include "late2026records.h"
#include "trace/traceloader.h"
#include "whatif/hitovertime.h"
#include "whatif/usesequence.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <deque>
#include <list>
#include <random>

using namespace lmct;
using namespace lmct::test;
using Kind = CachePolicy::Kind;

namespace {

std::shared_ptr<const TraceDocument> load(const QByteArray &bytes) {
    QString error;
    auto doc = TraceLoader::loadBytes(bytes, QStringLiteral("hits.lct"), &error);
    if (!doc) {
        qWarning("%s", qPrintable(error));
    }
    return doc;
}

struct Written {
    int key;
    int kind;  // 0 finish_write, 1 submit_prefetch_task, 2 read_prefetched_results.__enter__
    double t;
};

/** One prefetch as counted here: its time (non-decreasing) and whether it is a counted hit. */
struct Prefetch {
    double t;
    bool hit;
};

std::vector<Prefetch> countLru(const std::vector<Written> &uses, size_t cap, size_t *finalSize) {
    std::list<int> l;
    std::vector<bool> written(1000, false);
    std::vector<Prefetch> out;
    double t = -1e300;
    for (const Written &u : uses) {
        t = std::max(t, u.t);
        auto it = std::find(l.begin(), l.end(), u.key);
        const bool hit = it != l.end();
        if (u.kind == 1) {
            out.push_back({t, hit && written[size_t(u.key)]});
        }
        if (u.kind == 0) {
            written[size_t(u.key)] = true;
        }
        if (hit) {
            l.erase(it);
        }
        l.push_front(u.key);
        if (l.size() > cap) {
            l.pop_back();
        }
    }
    *finalSize = l.size();
    return out;
}

std::vector<Prefetch> countFifo(const std::vector<Written> &uses, size_t cap) {
    std::deque<int> q;
    std::vector<bool> written(1000, false);
    std::vector<Prefetch> out;
    double t = -1e300;
    for (const Written &u : uses) {
        t = std::max(t, u.t);
        const bool hit = std::find(q.begin(), q.end(), u.key) != q.end();
        if (u.kind == 1) {
            out.push_back({t, hit && written[size_t(u.key)]});
        }
        if (u.kind == 0) {
            written[size_t(u.key)] = true;
        }
        if (!hit) {
            q.push_back(u.key);
            if (q.size() > cap) {
                q.pop_front();
            }
        }
    }
    return out;
}

/** The ratio over [a, b) (closed at b when `last`), counted; NaN without a prefetch. */
double ratioIn(const std::vector<Prefetch> &p, double a, double b, bool last) {
    int n = 0, h = 0;
    for (const Prefetch &x : p) {
        if (x.t >= a && (x.t < b || (last && x.t == b))) {
            ++n;
            h += x.hit ? 1 : 0;
        }
    }
    return n > 0 ? double(h) / double(n) : qQNaN();
}

bool same(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || std::abs(a - b) < 1e-12;
}

}  // namespace

class TestHitOverTime : public QObject {
    Q_OBJECT

private slots:
    void windowedAgainstCount() {
        std::mt19937 rng(17);
        std::vector<Written> uses;
        CacheTraceWriter w;
        double t = 0.0;
        for (int i = 0; i < 3000; ++i) {
            t += 0.01 * double(rng() % 10);
            const int k = int(rng() % 30);
            const int kind = int(rng() % 3);
            // One record steps back in t_mono: windows follow file order.
            const double at = i == 1500 ? t - 3.0 : t;
            uses.push_back({k, kind, at});
            const char *call = kind == 0   ? "finish_write"
                               : kind == 1 ? "submit_prefetch_task"
                                           : "read_prefetched_results.__enter__";
            w.call(at, QString::fromLatin1(call), {key(k)},
                   kind == 1 ? KeysAt::Spec : KeysAt::Flat);
            if (i % 7 == 0) {
                w.call(at, QStringLiteral("reserve_write"), {key(k)});  // not a use
            }
        }
        const auto doc = load(w.bytes());
        QVERIFY(doc);
        const auto ka = KeyAnalysis::build(*doc);
        const auto seq = UseSequence::build(*doc, ka);
        QCOMPARE(seq->size(), quint32(uses.size()));
        const size_t cap = 8;
        int last = -1;
        const auto ho =
            HitOverTime::build(seq, {Kind::Lru, Kind::Fifo}, cap, false, [&](int p) { last = p; });
        QVERIFY(ho);
        QCOMPARE(last, 100);
        QCOMPARE(ho->capacity(), quint64(cap));
        QVERIFY(!ho->inBytes());
        QCOMPARE(ho->series().size(), size_t(2));
        size_t finalSize = 0;
        const auto lru = countLru(uses, cap, &finalSize);
        const auto fifo = countFifo(uses, cap);
        QCOMPARE(ho->prefetchTimes().size(), lru.size());
        QVERIFY(std::is_sorted(ho->prefetchTimes().begin(), ho->prefetchTimes().end()));
        QCOMPARE(ho->series()[0].cumHits.size(), lru.size() + 1);
        QCOMPARE(qint64(ho->series()[0].cumHits.back()),
                 qint64(std::count_if(lru.begin(), lru.end(), [](auto &p) { return p.hit; })));
        for (const int columns : {1, 7, 50}) {
            const double t0 = 0.0, t1 = t;
            const auto a = ho->windowed(0, t0, t1, columns);
            const auto b = ho->windowed(1, t0, t1, columns);
            QCOMPARE(a.size(), size_t(columns));
            const double wdt = (t1 - t0) / columns;
            for (int c = 0; c < columns; ++c) {
                const double lo = t0 + wdt * c, hi = c + 1 == columns ? t1 : t0 + wdt * (c + 1);
                QVERIFY2(same(a[size_t(c)], ratioIn(lru, lo, hi, c + 1 == columns)),
                         qPrintable(QStringLiteral("LRU column %1 of %2").arg(c).arg(columns)));
                QVERIFY(same(b[size_t(c)], ratioIn(fifo, lo, hi, c + 1 == columns)));
            }
        }
        // The policies differ somewhere, or the comparison above proves little.
        QVERIFY(ho->windowed(0, 0, t, 50) != ho->windowed(1, 0, t, 50));
        // No prefetch in the window: NaN.
        for (const double v : ho->windowed(0, t + 10, t + 20, 3)) {
            QVERIFY(std::isnan(v));
        }
        QCOMPARE(ho->windowed(5, 0, t, 3).size(), size_t(3));  // no such series: NaN
        // Occupancy: min(uses, kOccupancySamples) samples, the last at the last use.
        const auto &s = ho->series()[0];
        QCOMPARE(s.occupancyT.size(), size_t(HitOverTime::kOccupancySamples) < uses.size()
                                          ? size_t(HitOverTime::kOccupancySamples)
                                          : uses.size());
        QCOMPARE(s.occupancyBytes.back(), double(finalSize));  // chunks: no layout
        QVERIFY(std::is_sorted(s.occupancyT.begin(), s.occupancyT.end()));
        for (const double o : s.occupancyBytes) {
            QVERIFY(o <= double(cap));
        }
        QVERIFY(!ho->hasLmcacheAccount());
        QVERIFY(std::isnan(ho->lmcacheWindowed(0, t, 1)[0]));
        // Bytes need sizes: this trace has no layout.
        QVERIFY(!seq->hasSizes());
        const auto bytes = HitOverTime::build(seq, {Kind::Lru}, 1 << 20, true);
        QVERIFY(bytes->series().empty());
        QCOMPARE(bytes->prefetchTimes().size(), lru.size());
    }

    void occupancyInBytes() {
        CacheTraceWriter w;
        w.reserveWithLayout(0.5, {key(1)}, {2, 4});  // 16 bytes per object
        for (int i = 0; i < 10; ++i) {
            w.call(1.0 + i, QStringLiteral("finish_write"), {key(i)});
        }
        const auto doc = load(w.bytes());
        const auto seq = UseSequence::build(*doc, KeyAnalysis::build(*doc));
        QVERIFY(seq->hasSizes());
        const auto bytes = HitOverTime::build(seq, {Kind::Lru}, 48, true);
        QCOMPARE(bytes->series()[0].occupancyBytes.back(), 48.0);  // 3 keys of 16 bytes
        QCOMPARE(bytes->series()[0].occupancyT.back(), 10.0);
        const auto chunks = HitOverTime::build(seq, {Kind::Lru}, 4, false);
        QCOMPARE(chunks->series()[0].occupancyBytes.back(), 64.0);  // 4 chunks × 16 bytes
        QCOMPARE(chunks->series()[0].occupancyBytes.front(), 16.0);
    }

    /** LMCache's own account: l1_prefix_hit_count over total_requested_keys of the releases,
     *  summed per window; per model through the submit each handle is linked to. */
    void lmcacheAccount() {
        const double base = CacheTraceWriter::kTMonoStart;
        CacheTraceWriter w;
        std::vector<TKey> a, b;
        for (int i = 0; i < 4; ++i) {
            a.push_back(key(i));
            TKey k = key(100 + i);
            k.model = QStringLiteral("meta/Llama-70B");
            b.push_back(k);
        }
        w.call(0.5, QStringLiteral("finish_write"), a);
        w.call(1.0, QStringLiteral("submit_prefetch_task"), a, KeysAt::Spec, QStringLiteral("r1"));
        THandle h1{7, QStringLiteral("r1"), 3, 4, base + 1.0, 0};
        w.release(1.5, h1, std::vector<TKey>(a.begin(), a.begin() + 3));
        w.call(5.0, QStringLiteral("submit_prefetch_task"), {a[0], a[1]}, KeysAt::Spec,
               QStringLiteral("r2"));
        THandle h2{8, QStringLiteral("r2"), 0, 2, base + 5.0, 0};
        w.release(5.5, h2, std::nullopt);
        w.call(6.0, QStringLiteral("submit_prefetch_task"), {b[0], b[1]}, KeysAt::Spec,
               QStringLiteral("r3"));
        THandle h3{9, QStringLiteral("r3"), 2, 2, base + 6.0, 0};
        w.release(6.5, h3, std::vector<TKey>{b[0], b[1]});
        THandle h4{10, QStringLiteral("r3"), 1, 2, base + 6.0, 0};
        w.cancel(7.0, h4);  // a cancel is no account of hits
        const auto doc = load(w.bytes());
        const auto ka = KeyAnalysis::build(*doc);
        QCOMPARE(ka->releaseCount(), qint64(3));
        const auto all = HitOverTime::build(UseSequence::build(*doc, ka), {Kind::Lru}, 16, false);
        QVERIFY(all->hasLmcacheAccount());
        const auto v = all->lmcacheWindowed(0.0, 12.0, 3);  // [0,4) [4,8) [8,12]
        QCOMPARE(v[0], 0.75);
        QCOMPARE(v[1], 0.5);  // (0 + 2) / (2 + 2)
        QVERIFY(std::isnan(v[2]));
        const int ma = int(ka->models().indexOf(QStringLiteral("Qwen/Qwen3-8B")));
        const auto onlyA = HitOverTime::build(UseSequence::build(*doc, ka, {ma, UseSequence::kAll}),
                                              {Kind::Lru}, 16, false);
        const auto va = onlyA->lmcacheWindowed(0.0, 12.0, 3);
        QCOMPARE(va[0], 0.75);
        QCOMPARE(va[1], 0.0);
        // The simulated LRU at 16 chunks hits a's first three keys too (written at 0.5).
        const auto sim = all->windowed(0, 0.0, 12.0, 3);
        QCOMPARE(sim[0], 1.0);
    }

    /** The same account on records as LMCache's late-2026 recorder writes them: a handle with
     *  a saturated (uint64) hit count is left out. */
    void lmcacheAccountLate2026() {
        namespace l26 = lmct::test::late2026;
        auto submit = [](int n, int seed, const QString &rid) {
            Mp m;
            m.map(2).str("keys").raw(l26::keyList(n, seed)).str("external_request_id").str(rid);
            return m.bytes;
        };
        Mp written;
        written.map(1).str("keys").raw(l26::keyList(7));
        l26::Handle a;  // 4 of 7, submitted at t_mono 21.229481
        l26::Handle b;
        b.externalRequestId = QStringLiteral("req-b");
        b.l1PrefixHitCountU = ~quint64(0);
        b.submitTime = l26::kTMonoStart + 22.0;
        l26::Handle c;
        c.externalRequestId = QStringLiteral("req-c");
        c.l1FoundIndices = {0};
        c.totalRequestedKeys = 2;
        c.submitTime = l26::kTMonoStart + 23.0;
        l26::Trace t;
        t.record(20.0, "finish_write", written.bytes)
            .record(21.229481, "submit_prefetch_task", submit(7, 0, a.externalRequestId))
            .release(21.5, a, std::nullopt)
            .record(22.0, "submit_prefetch_task", submit(3, 0, b.externalRequestId))
            .release(22.5, b, 3)
            .record(23.0, "submit_prefetch_task", submit(2, 0, c.externalRequestId))
            .release(23.5, c, 1)
            .cancel(23.8, c);
        const auto doc = load(t.bytes());
        QVERIFY(doc);
        const auto ka = KeyAnalysis::build(*doc);
        QCOMPARE(ka->releaseCount(), qint64(3));
        const auto ho = HitOverTime::build(UseSequence::build(*doc, ka), {Kind::Lru}, 64, false);
        QVERIFY(ho->hasLmcacheAccount());
        const auto v = ho->lmcacheWindowed(20.0, 24.0, 2);
        QCOMPARE(v[0], 4.0 / 7.0);
        QCOMPARE(v[1], 0.5);  // b left out, c: 1 of 2
        // The simulated LRU: every prefetched key was written at 20.0 and still resident.
        QCOMPARE(ho->windowed(0, 20.0, 24.0, 1)[0], 1.0);
        QCOMPARE(ho->prefetchTimes().size(), size_t(7 + 3 + 2));
    }

    void cancelled() {
        CacheTraceWriter w;
        for (int i = 0; i < 10; ++i) {
            w.call(1.0 + i, QStringLiteral("finish_write"), {key(i)});
        }
        const auto doc = load(w.bytes());
        const auto seq = UseSequence::build(*doc, KeyAnalysis::build(*doc));
        std::atomic_bool cancel{true};
        QVERIFY(!HitOverTime::build(seq, {Kind::Lru}, 4, false, {}, &cancel));
        QVERIFY(HitOverTime::build(seq, {Kind::Lru}, 4, false));
    }
};

QTEST_GUILESS_MAIN(TestHitOverTime)
#include "tst_hitovertime.moc"
