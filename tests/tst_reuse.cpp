// ReuseAnalysis against brute force: distinct-key reuse distances (a set scanned backwards), the
// hit curve (an LRU list simulated directly for several capacities) and the histograms, on random
// crafted traces and a reference trace. The brute force reads keys through Value decoding, not
// through KeyAnalysis.

#include "cache/reuseanalysis.h"
#include "cachetracewriter.h"
#include "codec/objectkey.h"
#include "trace/traceloader.h"

#include <QDir>
#include <QHash>
#include <QtTest>
#include <list>
#include <map>
#include <random>
#include <set>
#include <unordered_map>

using namespace lmct;
using namespace lmct::test;

namespace {

/** One use, decoded independently: key identity text, model, call, time. */
struct Use {
    QString key;
    QString model;
    QString call;
    double t;
};

QString identity(const ObjectKey &k) {
    return QStringLiteral("%1|%2|%3|%4|%5")
        .arg(k.hashHex(), k.modelName, QString::number(k.kvRank),
             k.objectGroupId ? QString::number(*k.objectGroupId) : QStringLiteral("-"),
             k.cacheSalt ? *k.cacheSalt : QStringLiteral("<none>"));
}

/** Uses in file order: keys of finish_write, submit_prefetch_task, r_p_r.__enter__. */
std::vector<Use> usesOf(const TraceDocument &doc) {
    std::vector<Use> out;
    for (int i = 0; i < doc.records().size(); ++i) {
        const QString call = Qualname::shortName(doc.records().qualname(i));
        if (call != QLatin1String("finish_write") &&
            call != QLatin1String("submit_prefetch_task") &&
            call != QLatin1String("read_prefetched_results.__enter__")) {
            continue;
        }
        for (const ObjectKey &k : ObjectKey::collect(doc.args(i)->value)) {
            out.push_back(Use{identity(k), k.modelName, call, doc.records().tMono(i)});
        }
    }
    return out;
}

/** Prefetched key occurrences that hit an LRU list of `capacity` keys touched by every use. */
qint64 lruHits(const std::vector<Use> &uses, qint64 capacity) {
    std::list<QString> lru;  // front = most recent
    std::unordered_map<QString, std::list<QString>::iterator> where;
    std::set<QString> written;
    qint64 hits = 0;
    for (const Use &u : uses) {
        auto it = where.find(u.key);
        const bool resident = it != where.end();
        if (u.call == QLatin1String("submit_prefetch_task") && resident && written.count(u.key)) {
            ++hits;
        }
        if (u.call == QLatin1String("finish_write")) {
            written.insert(u.key);
        }
        if (resident) {
            lru.erase(it->second);
        }
        lru.push_front(u.key);
        where[u.key] = lru.begin();
        if (qint64(lru.size()) > capacity) {
            where.erase(lru.back());
            lru.pop_back();
        }
    }
    return hits;
}

std::shared_ptr<const TraceDocument> load(const QByteArray &bytes) {
    QString error;
    return TraceLoader::loadBytes(bytes, QStringLiteral("reuse.lct"), &error);
}

/** A random trace over `nkeys` keys of two models: reserve+finish, prefetch, enter, mixed. */
QByteArray randomTrace(quint32 seed, int records, int nkeys) {
    std::mt19937 rng(seed);
    CacheTraceWriter w;
    double t = 0.0;
    auto someKeys = [&] {
        std::vector<TKey> ks;
        const int n = 1 + int(rng() % 4);
        const int start = int(rng() % quint32(nkeys));
        for (int j = 0; j < n; ++j) {
            TKey k = key((start + j) % nkeys);
            if ((start + j) % 3 == 0) {
                k.model = QStringLiteral("meta-llama/Llama-3.1-8B-Instruct");
            }
            ks.push_back(k);
        }
        return ks;
    };
    for (int i = 0; i < records; ++i) {
        t += 0.0001 * double(1 + rng() % 50);
        const quint32 r = rng() % 10;
        const auto ks = someKeys();
        if (r < 3) {
            w.call(t, QStringLiteral("reserve_write"), ks);
            w.call(t + 0.00001, QStringLiteral("finish_write"), ks);
        } else if (r < 7) {
            w.call(t, QStringLiteral("submit_prefetch_task"), ks, KeysAt::Spec,
                   QStringLiteral("req"));
        } else {
            w.call(t, QStringLiteral("read_prefetched_results.__enter__"), ks);
        }
    }
    return w.bytes();
}

/** Nearest-rank percentile by sorting (the definition ReuseAnalysis::Figures documents). */
template <typename T>
double nearestRank(std::vector<T> v, int percent) {
    std::sort(v.begin(), v.end());
    const size_t rank =
        std::max<size_t>(1, size_t(std::ceil(double(percent) * double(v.size()) / 100.0 - 1e-9)));
    return double(v[rank - 1]);
}

template <typename T>
void checkFigures(const ReuseAnalysis::Figures &f, const std::vector<T> &values) {
    QCOMPARE(f.n, qint64(values.size()));
    if (values.empty()) {
        QVERIFY(std::isnan(f.median) && std::isnan(f.p95));
        return;
    }
    QCOMPARE(f.median, nearestRank(values, 50));
    QCOMPARE(f.p95, nearestRank(values, 95));
}

/**
 * Per model (empty `model`: all), the three distributions by brute force: histograms and exact
 * figures of the reuse distance in distinct keys (a set scanned backwards), in time, and of the
 * reuse count per key.
 */
void checkDistributions(const ReuseAnalysis::Stats &s, const std::vector<Use> &uses,
                        const QString &model) {
    std::vector<qint64> hk(ReuseAnalysis::kBuckets, 0), ht(ReuseAnalysis::kBuckets, 0),
        hc(ReuseAnalysis::kBuckets, 0);
    std::vector<qint64> dk;
    std::vector<double> dt;
    QHash<QString, int> lastUse;
    std::map<QString, qint64> usesPerKey;
    for (int i = 0; i < int(uses.size()); ++i) {
        const Use &u = uses[size_t(i)];
        auto it = lastUse.find(u.key);
        if (it != lastUse.end() && (model.isEmpty() || u.model == model)) {
            std::set<QString> between;
            for (int j = it.value() + 1; j < i; ++j) {
                between.insert(uses[size_t(j)].key);
            }
            dk.push_back(qint64(between.size()));
            dt.push_back(u.t - uses[size_t(it.value())].t);
            ++hk[size_t(ReuseAnalysis::bucketOf(between.size()))];
            ++ht[size_t(ReuseAnalysis::timeBucketOf(dt.back()))];
        }
        if (model.isEmpty() || u.model == model) {
            ++usesPerKey[u.key];
        }
        lastUse[u.key] = i;
    }
    std::vector<qint64> counts;
    for (const auto &[k, n] : usesPerKey) {
        counts.push_back(n - 1);
        ++hc[size_t(ReuseAnalysis::bucketOf(quint64(n - 1)))];
    }
    QCOMPARE(s.distanceKeys, hk);
    QCOMPARE(s.distanceTime, ht);
    QCOMPARE(s.reuseCount, hc);
    checkFigures(s.distanceKeysFigures, dk);
    checkFigures(s.distanceTimeFigures, dt);
    checkFigures(s.reuseCountFigures, counts);
}

void checkAgainstBruteForce(const TraceDocument &doc) {
    const auto ka = KeyAnalysis::build(doc);
    const auto ra = ReuseAnalysis::build(*ka);
    QVERIFY(ra);
    const std::vector<Use> uses = usesOf(doc);
    QVERIFY(!uses.empty());

    // Reuse distances by brute force: distinct keys since the previous use of the same key.
    std::vector<qint64> distanceKeys(ReuseAnalysis::kBuckets, 0);
    std::vector<qint64> distanceTime(ReuseAnalysis::kBuckets, 0);
    QHash<QString, int> lastUse;
    qint64 reuses = 0, prefetches = 0;
    for (int i = 0; i < int(uses.size()); ++i) {
        const Use &u = uses[size_t(i)];
        prefetches += u.call == QLatin1String("submit_prefetch_task") ? 1 : 0;
        auto it = lastUse.find(u.key);
        if (it != lastUse.end()) {
            std::set<QString> between;
            for (int j = it.value() + 1; j < i; ++j) {
                between.insert(uses[size_t(j)].key);
            }
            ++reuses;
            ++distanceKeys[size_t(ReuseAnalysis::bucketOf(between.size()))];
            ++distanceTime[size_t(ReuseAnalysis::timeBucketOf(u.t - uses[size_t(it.value())].t))];
        }
        lastUse[u.key] = i;
    }
    QCOMPARE(ra->total().uses, qint64(uses.size()));
    QCOMPARE(ra->total().reuses, reuses);
    QCOMPARE(ra->total().prefetches, prefetches);
    QCOMPARE(ra->total().distanceKeys, distanceKeys);
    QCOMPARE(ra->total().distanceTime, distanceTime);
    qint64 perModelUses = 0;
    for (const ReuseAnalysis::Stats &m : ra->models()) {
        qint64 n = 0;
        for (const Use &u : uses) {
            n += u.model == m.model ? 1 : 0;
        }
        QCOMPARE(m.uses, n);
        perModelUses += m.uses;
        checkDistributions(m, uses, m.model);
        if (QTest::currentTestFailed()) {
            qWarning() << "model" << m.model;
            return;
        }
    }
    checkDistributions(ra->total(), uses, QString());
    QCOMPARE(perModelUses, qint64(uses.size()));

    // The hit curve against an LRU list, capacity by capacity.
    qint64 previous = 0;
    for (qint64 c : {1, 2, 3, 5, 8, 13, 21, 50, 100, 400, 1000, 5000, 100000}) {
        const qint64 brute = lruHits(uses, c);
        QCOMPARE(ra->hits(c), brute);
        QVERIFY(ra->hits(c) >= previous);
        previous = ra->hits(c);
        QCOMPARE(ra->hitRatio(c), prefetches ? double(brute) / double(prefetches) : 0.0);
    }
    // Saturation: the smallest capacity with every possible hit.
    const qint64 sat = ra->saturationCapacity();
    QCOMPARE(ra->hits(sat), ra->total().prefetchHits);
    if (sat > 1) {
        QVERIFY(ra->hits(sat - 1) < ra->hits(sat));
        QCOMPARE(lruHits(uses, sat), ra->hits(sat));
        QCOMPARE(lruHits(uses, sat - 1), ra->hits(sat - 1));
    }
    QCOMPARE(ra->hits(0), 0);
    const auto curve = ra->curve(50);
    QVERIFY(!curve.empty());
    for (size_t i = 1; i < curve.size(); ++i) {
        QVERIFY(curve[i].first > curve[i - 1].first);
        QVERIFY(curve[i].second >= curve[i - 1].second);
    }
}

}  // namespace

class TestReuse : public QObject {
    Q_OBJECT

private slots:
    void buckets() {
        QCOMPARE(ReuseAnalysis::bucketOf(0), 0);
        QCOMPARE(ReuseAnalysis::bucketOf(1), 1);
        QCOMPARE(ReuseAnalysis::bucketOf(2), 2);
        QCOMPARE(ReuseAnalysis::bucketOf(3), 2);
        QCOMPARE(ReuseAnalysis::bucketOf(4), 3);
        QCOMPARE(ReuseAnalysis::bucketFloor(3), quint64(4));
        QCOMPARE(ReuseAnalysis::bucketOf(~quint64(0)), ReuseAnalysis::kBuckets - 1);
        QCOMPARE(ReuseAnalysis::timeBucketOf(0.0), 0);
        QCOMPARE(ReuseAnalysis::timeBucketOf(-1.0), 0);
        QCOMPARE(ReuseAnalysis::timeBucketOf(1e-6), 1);
        QCOMPARE(ReuseAnalysis::timeBucketOf(1e-3), ReuseAnalysis::bucketOf(1000));
    }

    void figures() {
        // Nearest rank: the smallest value with at least p·n values at or below it.
        std::vector<int> none;
        QVERIFY(std::isnan(ReuseAnalysis::figuresOf(none).median));
        std::vector<int> one{7};
        QCOMPARE(ReuseAnalysis::figuresOf(one).median, 7.0);
        QCOMPARE(ReuseAnalysis::figuresOf(one).p95, 7.0);
        std::vector<int> four{40, 10, 30, 20};
        const auto f4 = ReuseAnalysis::figuresOf(four);
        QCOMPARE(f4.n, 4);
        QCOMPARE(f4.median, 20.0);
        QCOMPARE(f4.p95, 40.0);
        std::vector<double> twenty;
        for (int i = 20; i >= 1; --i) {
            twenty.push_back(double(i));
        }
        const auto f20 = ReuseAnalysis::figuresOf(twenty);
        QCOMPARE(f20.median, 10.0);
        QCOMPARE(f20.p95, 19.0);  // ceil(0.95 · 20) = 19th smallest
    }

    void distinctDistancesMatchBruteForce() {
        for (quint32 seed = 1; seed <= 20; ++seed) {
            std::mt19937 rng(seed);
            const quint32 alphabet = 1 + rng() % 60;
            std::vector<quint32> seq(size_t(200 + rng() % 800));
            for (quint32 &k : seq) {
                k = rng() % alphabet;
            }
            const std::vector<qint64> d = ReuseAnalysis::distinctDistances(seq, alphabet);
            QCOMPARE(d.size(), seq.size());
            for (size_t i = 0; i < seq.size(); ++i) {
                qint64 expect = -1;
                std::set<quint32> between;
                for (size_t j = i; j-- > 0;) {
                    if (seq[j] == seq[i]) {
                        expect = qint64(between.size());
                        break;
                    }
                    between.insert(seq[j]);
                }
                QCOMPARE(d[i], expect);
            }
        }
        QVERIFY(ReuseAnalysis::distinctDistances({}, 0).empty());
    }

    void randomTraces_data() {
        QTest::addColumn<quint32>("seed");
        QTest::addColumn<int>("keys");
        QTest::newRow("few keys") << 1u << 12;
        QTest::newRow("some keys") << 2u << 60;
        QTest::newRow("many keys") << 3u << 400;
    }

    void randomTraces() {
        QFETCH(quint32, seed);
        QFETCH(int, keys);
        const auto doc = load(randomTrace(seed, 700, keys));
        QVERIFY(doc);
        checkAgainstBruteForce(*doc);
    }

    void referenceTrace() {
        QString error;
        const auto doc =
            TraceLoader::load(QDir(QStringLiteral(LMCT_TRACES))
                                  .filePath(QStringLiteral("lmcache-first-recorder-storage.lct")),
                              &error);
        QVERIFY2(doc, qPrintable(error));
        checkAgainstBruteForce(*doc);
    }

    void reuseCounts() {
        // key(1): finish, prefetch, enter = 3 uses (2 reuses); key(2): prefetch only (0 reuses).
        CacheTraceWriter w;
        w.call(0.1, QStringLiteral("reserve_write"), {key(1)});
        w.call(0.2, QStringLiteral("finish_write"), {key(1)});
        w.call(0.3, QStringLiteral("submit_prefetch_task"), {key(1), key(2)});
        w.call(0.4, QStringLiteral("read_prefetched_results.__enter__"), {key(1)});
        w.call(0.5, QStringLiteral("finish_read_prefetched"), {key(1)});
        const auto doc = load(w.bytes());
        const auto ra = ReuseAnalysis::build(*KeyAnalysis::build(*doc));
        const ReuseAnalysis::Stats &s = ra->total();
        QCOMPARE(s.keys, 2);
        QCOMPARE(s.uses, 4);
        QCOMPARE(s.reuses, 2);
        QCOMPARE(s.reuseCount[0], 1);                                   // key(2)
        QCOMPARE(s.reuseCount[size_t(ReuseAnalysis::bucketOf(2))], 1);  // key(1)
        QCOMPARE(s.prefetches, 2);
        QCOMPARE(s.prefetchHits, 1);  // key(1) was written before its prefetch
        QCOMPARE(ra->hits(1), 1);     // nothing in between: stack distance 1
        QCOMPARE(ra->hitRatio(1), 0.5);
        QCOMPARE(ra->saturationCapacity(), 1);
        // Distances: prefetch after finish (0 keys between, 0.1 s), enter after prefetch (key(2)
        // in between: 1 key, 0.1 s).
        QCOMPARE(s.distanceKeys[0], 1);
        QCOMPARE(s.distanceKeys[1], 1);
        QCOMPARE(s.distanceTime[size_t(ReuseAnalysis::timeBucketOf(0.1))], 2);
        // Figures: reuse counts {2, 0}, distances {0, 1} keys and {0.1, 0.1} s.
        QCOMPARE(s.reuseCountFigures.n, 2);
        QCOMPARE(s.reuseCountFigures.median, 0.0);
        QCOMPARE(s.reuseCountFigures.p95, 2.0);
        QCOMPARE(s.distanceKeysFigures.median, 0.0);
        QCOMPARE(s.distanceKeysFigures.p95, 1.0);
        QVERIFY(qAbs(s.distanceTimeFigures.median - 0.1) < 1e-9);
        QCOMPARE(ra->models().size(), size_t(1));
        QCOMPARE(ra->models()[0].reuseCountFigures.p95, 2.0);
        std::atomic_bool cancel{true};
        QVERIFY(!ReuseAnalysis::build(*KeyAnalysis::build(*doc), {}, &cancel));
    }
};

QTEST_GUILESS_MAIN(TestReuse)
#include "tst_reuse.moc"
