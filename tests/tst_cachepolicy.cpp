// Every CachePolicy against a brute-force simulator written here from the policy's definition
// (std::list / std::deque / std::vector searched linearly, OPT scanning the future), hit by hit,
// on small random streams at every capacity; and known answers: a loop, one-hit wonders, OPT's
// optimality, CLOCK's second chance, ARC's adaptation.

#include "whatif/arcpolicy.h"
#include "whatif/cachepolicy.h"
#include "whatif/usesequence.h"

#include <QtTest>
#include <algorithm>
#include <deque>
#include <list>
#include <random>

using namespace lmct;
using Kind = CachePolicy::Kind;

namespace {

struct Stream {
    std::vector<quint32> keys;
    std::vector<quint8> kinds;
    std::vector<quint64> sizes;  // per key; empty: 1 each
    quint32 keyCount = 0;
    quint64 size(quint32 k) const { return sizes.empty() ? 1 : sizes[k]; }
};

Stream randomStream(quint32 seed, int uses, quint32 keys, bool sized) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    Stream s;
    s.keyCount = keys;
    for (int i = 0; i < uses; ++i) {
        const double x = u(rng);
        s.keys.push_back(std::min(keys - 1, quint32(double(keys) * x * x)));  // skewed
        s.kinds.push_back(quint8(rng() % 3));
    }
    if (sized) {
        for (quint32 k = 0; k < keys; ++k) {
            s.sizes.push_back(1 + rng() % 8);
        }
    }
    return s;
}

Stream plainStream(const std::vector<quint32> &keys) {
    Stream s;
    s.keys = keys;
    s.kinds.assign(keys.size(), UseSequence::Prefetch);
    for (const quint32 k : keys) {
        s.keyCount = std::max(s.keyCount, k + 1);
    }
    return s;
}

// ---- brute force, one per policy: hit flags per use ----

std::vector<bool> bruteLru(const Stream &s, quint64 cap) {
    std::list<quint32> l;  // front = most recent
    std::vector<bool> out;
    for (const quint32 k : s.keys) {
        auto it = std::find(l.begin(), l.end(), k);
        if (it != l.end()) {
            l.erase(it);
            l.push_front(k);
            out.push_back(true);
            continue;
        }
        out.push_back(false);
        if (s.size(k) > cap) {
            continue;
        }
        l.push_front(k);
        quint64 used = 0;
        for (const quint32 r : l) {
            used += s.size(r);
        }
        while (used > cap) {
            used -= s.size(l.back());
            l.pop_back();
        }
    }
    return out;
}

std::vector<bool> bruteFifo(const Stream &s, quint64 cap) {
    std::deque<quint32> q;  // front = admitted first
    std::vector<bool> out;
    for (const quint32 k : s.keys) {
        if (std::find(q.begin(), q.end(), k) != q.end()) {
            out.push_back(true);
            continue;
        }
        out.push_back(false);
        if (s.size(k) > cap) {
            continue;
        }
        q.push_back(k);
        quint64 used = 0;
        for (const quint32 r : q) {
            used += s.size(r);
        }
        while (used > cap) {
            used -= s.size(q.front());
            q.pop_front();
        }
    }
    return out;
}

/** The textbook CLOCK: `cap` slots in a circle and a hand (unit sizes). */
std::vector<bool> bruteClock(const Stream &s, quint64 cap) {
    std::vector<qint64> slot(cap, -1);
    std::vector<bool> ref(cap, false);
    size_t hand = 0;
    std::vector<bool> out;
    for (const quint32 k : s.keys) {
        auto it = std::find(slot.begin(), slot.end(), qint64(k));
        if (it != slot.end()) {
            ref[size_t(it - slot.begin())] = true;
            out.push_back(true);
            continue;
        }
        out.push_back(false);
        while (slot[hand] >= 0 && ref[hand]) {
            ref[hand] = false;
            hand = (hand + 1) % cap;
        }
        slot[hand] = k;
        ref[hand] = false;
        hand = (hand + 1) % cap;
    }
    return out;
}

/** S3-FIFO as the paper's Algorithm 1 reads, with the choices CachePolicy documents. */
std::vector<bool> bruteS3Fifo(const Stream &s, quint64 cap) {
    struct E {
        quint32 k;
        int freq;
    };
    std::deque<E> small, main;
    std::deque<quint32> ghost;
    const quint64 smallCap = std::max<quint64>(1, cap / 10), mainCap = cap - smallCap;
    auto units = [&](const auto &q) {
        quint64 u = 0;
        for (const auto &e : q) {
            if constexpr (std::is_same_v<std::decay_t<decltype(e)>, E>) {
                u += s.size(e.k);
            } else {
                u += s.size(e);
            }
        }
        return u;
    };
    auto find = [](std::deque<E> &q, quint32 k) {
        return std::find_if(q.begin(), q.end(), [k](const E &e) { return e.k == k; });
    };
    auto evictMain = [&] {
        while (!main.empty()) {
            E t = main.front();
            main.pop_front();
            if (t.freq > 0) {
                --t.freq;
                main.push_back(t);
            } else {
                return;
            }
        }
    };
    auto evictSmall = [&] {
        while (!small.empty()) {
            E t = small.front();
            small.pop_front();
            if (t.freq >= 1) {
                main.push_back(E{t.k, 0});
            } else {
                ghost.push_back(t.k);
                while (units(ghost) > mainCap) {
                    ghost.pop_front();
                }
                return;
            }
        }
        evictMain();
    };
    std::vector<bool> out;
    for (const quint32 k : s.keys) {
        auto a = find(small, k), b = find(main, k);
        if (a != small.end() || b != main.end()) {
            E &e = a != small.end() ? *a : *b;
            e.freq = std::min(3, e.freq + 1);
            out.push_back(true);
            continue;
        }
        out.push_back(false);
        if (s.size(k) > cap) {
            continue;
        }
        while (units(small) + units(main) + s.size(k) > cap) {
            if (!small.empty() && (units(small) >= smallCap || main.empty())) {
                evictSmall();
            } else {
                evictMain();
            }
        }
        auto g = std::find(ghost.begin(), ghost.end(), k);
        if (g != ghost.end()) {
            ghost.erase(g);
            main.push_back(E{k, 0});
        } else {
            small.push_back(E{k, 0});
        }
    }
    return out;
}

/** ARC as Megiddo & Modha's Figure 4 reads (unit sizes, integer p). */
std::vector<bool> bruteArc(const Stream &s, quint64 cap, quint64 *finalP = nullptr) {
    const qint64 c = qint64(cap);
    std::list<quint32> t1, t2, b1, b2;  // front = LRU
    qint64 p = 0;
    auto in = [](std::list<quint32> &l, quint32 k) {
        return std::find(l.begin(), l.end(), k) != l.end();
    };
    auto replace = [&](bool xInB2) {
        const qint64 n1 = qint64(t1.size());
        if (!t1.empty() && ((xInB2 && n1 == p) || n1 > p)) {
            b1.push_back(t1.front());
            t1.pop_front();
        } else {
            b2.push_back(t2.front());
            t2.pop_front();
        }
    };
    std::vector<bool> out;
    for (const quint32 x : s.keys) {
        if (in(t1, x) || in(t2, x)) {  // case I
            t1.remove(x);
            t2.remove(x);
            t2.push_back(x);
            out.push_back(true);
            continue;
        }
        out.push_back(false);
        if (in(b1, x)) {  // case II
            const qint64 d = b1.size() >= b2.size() ? 1 : qint64(b2.size() / b1.size());
            p = std::min(c, p + d);
            replace(false);
            b1.remove(x);
            t2.push_back(x);
        } else if (in(b2, x)) {  // case III
            const qint64 d = b2.size() >= b1.size() ? 1 : qint64(b1.size() / b2.size());
            p = std::max<qint64>(0, p - d);
            replace(true);
            b2.remove(x);
            t2.push_back(x);
        } else {  // case IV
            const qint64 l1 = qint64(t1.size() + b1.size());
            const qint64 all = qint64(t1.size() + t2.size() + b1.size() + b2.size());
            if (l1 == c) {
                if (qint64(t1.size()) < c) {
                    b1.pop_front();
                    replace(false);
                } else {
                    t1.pop_front();
                }
            } else if (l1 < c && all >= c) {
                if (all == 2 * c) {
                    b2.pop_front();
                }
                replace(false);
            }
            t1.push_back(x);
        }
    }
    if (finalP) {
        *finalP = quint64(p);
    }
    return out;
}

/** Belady's MIN with demand admission: evict the resident key used farthest ahead (never:
 *  first, the one with the latest last use among those). */
std::vector<bool> bruteOpt(const Stream &s, quint64 cap) {
    std::vector<quint32> res;
    std::vector<size_t> lastUse(s.keyCount, 0);
    std::vector<bool> out;
    const size_t n = s.keys.size();
    auto nextUse = [&](quint32 k, size_t from) {
        for (size_t j = from; j < n; ++j) {
            if (s.keys[j] == k) {
                return j;
            }
        }
        return size_t(-1);
    };
    for (size_t i = 0; i < n; ++i) {
        const quint32 k = s.keys[i];
        const bool hit = std::find(res.begin(), res.end(), k) != res.end();
        out.push_back(hit);
        if (!hit && s.size(k) <= cap) {
            auto used = [&] {
                quint64 u = 0;
                for (const quint32 r : res) {
                    u += s.size(r);
                }
                return u;
            };
            while (used() + s.size(k) > cap) {
                size_t best = 0;
                for (size_t j = 1; j < res.size(); ++j) {
                    const size_t nb = nextUse(res[best], i + 1), nj = nextUse(res[j], i + 1);
                    if (nj > nb ||
                        (nj == nb && nj == size_t(-1) && lastUse[res[j]] > lastUse[res[best]])) {
                        best = j;
                    }
                }
                res.erase(res.begin() + qsizetype(best));
            }
            res.push_back(k);
        }
        lastUse[k] = i;
    }
    return out;
}

std::vector<bool> brute(Kind kind, const Stream &s, quint64 cap) {
    switch (kind) {
        case Kind::Lru:
            return bruteLru(s, cap);
        case Kind::Fifo:
            return bruteFifo(s, cap);
        case Kind::Clock:
            return bruteClock(s, cap);
        case Kind::S3Fifo:
            return bruteS3Fifo(s, cap);
        case Kind::Arc:
            return bruteArc(s, cap);
        case Kind::Opt:
            return bruteOpt(s, cap);
    }
    return {};
}

std::shared_ptr<const UseSequence> sequenceOf(const Stream &s) {
    return UseSequence::fromKeys(s.keys, s.kinds, s.sizes);
}

/** The policy's hit flags, fed through access(). */
std::vector<bool> simulate(Kind kind, const Stream &s, quint64 cap) {
    const auto seq = sequenceOf(s);
    auto sim = CachePolicy::create(kind, cap, *seq);
    std::vector<bool> out;
    for (quint32 i = 0; i < seq->size(); ++i) {
        out.push_back(sim->access(seq->keyAt(i), s.size(seq->keyAt(i)), i));
        if (sim->occupied() > cap) {
            qWarning("over capacity");
            return {};
        }
    }
    return out;
}

qint64 missesOf(const std::vector<bool> &hits) {
    return qint64(std::count(hits.begin(), hits.end(), false));
}

qint64 hitsOf(const std::vector<bool> &hits) {
    return qint64(hits.size()) - missesOf(hits);
}

}  // namespace

class TestCachePolicy : public QObject {
    Q_OBJECT

private slots:
    void names() {
        QCOMPARE(CachePolicy::all().size(), size_t(CachePolicy::kKindCount));
        for (const Kind k : CachePolicy::all()) {
            QCOMPARE(CachePolicy::fromName(CachePolicy::name(k)), std::optional<Kind>(k));
            QCOMPARE(CachePolicy::fromName(CachePolicy::label(k).toLower()),
                     std::optional<Kind>(k));
        }
        QCOMPARE(CachePolicy::fromName(QStringLiteral("S3-fifo")), std::optional(Kind::S3Fifo));
        QCOMPARE(CachePolicy::label(Kind::S3Fifo), QStringLiteral("S3-FIFO"));
        QVERIFY(!CachePolicy::fromName(QStringLiteral("lfu")));
        const auto seq = UseSequence::fromKeys(std::vector<quint32>{0}, std::vector<quint8>{0});
        QVERIFY(!CachePolicy::create(Kind::Lru, 0, *seq));
    }

    void againstBruteForce_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("sized");
        for (const Kind k : CachePolicy::all()) {
            QTest::addRow("%s", qPrintable(CachePolicy::name(k))) << int(k) << false;
        }
        for (const Kind k : {Kind::Lru, Kind::Fifo, Kind::S3Fifo, Kind::Opt}) {
            QTest::addRow("%s-bytes", qPrintable(CachePolicy::name(k))) << int(k) << true;
        }
    }
    void againstBruteForce() {
        QFETCH(int, kind);
        QFETCH(bool, sized);
        const Kind k = Kind(kind);
        int compared = 0;
        for (quint32 seed = 1; seed <= 12; ++seed) {
            const quint32 keys = 5 + (seed * 7) % 36;  // 5..40
            const Stream s = randomStream(seed, 200 + int(seed) * 25, keys, sized);
            const quint64 top = sized ? quint64(keys) * 8 + 1 : quint64(keys) + 1;
            const quint64 step = sized ? 3 : 1;
            for (quint64 cap = 1; cap <= top; cap += step) {
                const auto want = brute(k, s, cap);
                const auto got = simulate(k, s, cap);
                if (want != got) {
                    QFAIL(qPrintable(QStringLiteral("seed %1, %2 keys, capacity %3: %4 hits, "
                                                    "brute force %5")
                                         .arg(seed)
                                         .arg(keys)
                                         .arg(cap)
                                         .arg(hitsOf(got))
                                         .arg(hitsOf(want))));
                }
                ++compared;
            }
        }
        QVERIFY(compared > 100);
    }

    /** replay() counts what access() decides: misses, and counted prefetches that hit. */
    void replayTally() {
        const Stream s = randomStream(99, 500, 30, true);
        const auto seq = sequenceOf(s);
        for (const Kind k : CachePolicy::all()) {
            for (const quint64 cap : {1, 5, 20, 80}) {
                auto a = CachePolicy::create(k, cap, *seq);
                auto b = CachePolicy::create(k, cap, *seq);
                CachePolicy::Tally want;
                for (quint32 i = 0; i < seq->size(); ++i) {
                    const bool hit = a->access(seq->keyAt(i), seq->sizeOf(seq->keyAt(i)), i);
                    want.misses += hit ? 0 : 1;
                    want.prefetchHits += hit && seq->isCounted(i) ? 1 : 0;
                }
                CachePolicy::Tally got;
                QVERIFY(b->replay(*seq, true, 0, 200, got));
                QVERIFY(b->replay(*seq, true, 200, seq->size(), got));
                QCOMPARE(got.misses, want.misses);
                QCOMPARE(got.prefetchHits, want.prefetchHits);
                QCOMPARE(b->occupied(), a->occupied());
            }
        }
        std::atomic_bool cancel{true};
        auto c = CachePolicy::create(Kind::Lru, 4, *seq);
        CachePolicy::Tally t;
        QVERIFY(!c->replay(*seq, false, 0, seq->size(), t, &cancel));
    }

    /** A key larger than the capacity is never admitted and evicts nothing. */
    void oversizedKey() {
        Stream s = plainStream({0, 1, 0, 1});
        s.sizes = {2, 9};
        for (const Kind k : CachePolicy::all()) {
            const auto got = simulate(k, s, 4);
            QCOMPARE(got, (std::vector<bool>{false, false, true, false}));
        }
    }

    /**
     * A cyclic scan over C + 1 keys from a cold cache: LRU and FIFO never hit; S3-FIFO (ghost
     * hits send keys to its main FIFO, which then keeps them) and OPT do. CLOCK and ARC do not:
     * CLOCK is FIFO until a first hit sets a reference bit, and ARC's T1 alone fills the cache,
     * so its LRU keys leave without a ghost (Figure 4, case IV A) and B1 never fills.
     */
    void loop() {
        for (const quint64 cap : {10, 20, 50}) {
            std::vector<quint32> keys;
            for (int r = 0; r < 30; ++r) {
                for (quint32 k = 0; k <= cap; ++k) {
                    keys.push_back(k);
                }
            }
            const Stream s = plainStream(keys);
            for (const Kind k : {Kind::Lru, Kind::Fifo, Kind::Clock, Kind::Arc}) {
                QCOMPARE(hitsOf(simulate(k, s, cap)), qint64(0));
            }
            QVERIFY(hitsOf(simulate(Kind::S3Fifo, s, cap)) > qint64(keys.size()) / 4);
            // OPT keeps C − 1 of the C + 1 keys each round.
            QVERIFY(hitsOf(simulate(Kind::Opt, s, cap)) > qint64(keys.size()) / 2);
        }
    }

    /** A hot set with a scan of one-hit wonders in between: S3-FIFO keeps the hot set (the
     *  wonders pass through its small FIFO), LRU lets the scan flush it. */
    void oneHitWonders() {
        const quint32 hot = 20;
        const quint64 cap = 30;
        std::mt19937 rng(7);
        std::vector<quint32> keys;
        quint32 next = hot;
        for (int i = 0; i < 3000; ++i) {
            keys.push_back(rng() % hot);
            keys.push_back(next++);
            keys.push_back(next++);
        }
        const Stream s = plainStream(keys);
        const qint64 lru = hitsOf(simulate(Kind::Lru, s, cap));
        const qint64 s3 = hitsOf(simulate(Kind::S3Fifo, s, cap));
        QVERIFY2(s3 > lru + lru / 2,
                 qPrintable(QStringLiteral("S3-FIFO %1, LRU %2").arg(s3).arg(lru)));
        QVERIFY(s3 > 3000 * 8 / 10);  // most hot uses hit
        // CLOCK's reference bits protect hot keys too, FIFO's order does not.
        QVERIFY(hitsOf(simulate(Kind::Clock, s, cap)) > hitsOf(simulate(Kind::Fifo, s, cap)));
    }

    /** OPT has no more misses than any policy, on random streams at every capacity. */
    void optIsOptimal() {
        for (quint32 seed = 100; seed < 130; ++seed) {
            const quint32 keys = 5 + seed % 36;
            const Stream s = randomStream(seed, 300, keys, false);
            for (quint64 cap = 1; cap <= keys + 1; ++cap) {
                const qint64 opt = missesOf(simulate(Kind::Opt, s, cap));
                for (const Kind k : CachePolicy::all()) {
                    QVERIFY2(opt <= missesOf(simulate(k, s, cap)),
                             qPrintable(QStringLiteral("%1 at %2 (seed %3)")
                                            .arg(CachePolicy::name(k))
                                            .arg(cap)
                                            .arg(seed)));
                }
            }
        }
    }

    /** a b c a d a at capacity 3: CLOCK gives `a` a second chance (evicts b), FIFO evicts it. */
    void clockSecondChance() {
        const Stream s = plainStream({0, 1, 2, 0, 3, 0, 1});
        QCOMPARE(simulate(Kind::Clock, s, 3),
                 (std::vector<bool>{false, false, false, true, false, true, false}));
        QCOMPARE(simulate(Kind::Fifo, s, 3),
                 (std::vector<bool>{false, false, false, true, false, false, false}));
    }

    /** ARC's target p: a recency phase (keys re-used soon after they left T1: B1 hits) raises
     *  it, a frequency phase (a hot set re-used after a scan pushed it out of T2: B2 hits)
     *  lowers it; and in that phase ARC beats LRU. */
    void arcAdapts() {
        const quint64 cap = 10;
        std::vector<quint32> recency, frequency;
        for (quint32 k = 100; k < 105; ++k) {  // into T2
            recency.push_back(k);
            recency.push_back(k);
        }
        for (int r = 0; r < 20; ++r) {
            for (quint32 k = 0; k < 7; ++k) {
                recency.push_back(k);
            }
        }
        quint32 next = 1000;
        for (int r = 0; r < 50; ++r) {
            for (quint32 h = 200; h < 206; ++h) {
                frequency.push_back(h);
                frequency.push_back(h);
            }
            for (int u = 0; u < 15; ++u) {
                frequency.push_back(next++);
            }
        }
        std::vector<quint32> both = recency;
        both.insert(both.end(), frequency.begin(), frequency.end());
        const auto seq1 = sequenceOf(plainStream(recency));
        const auto seq2 = sequenceOf(plainStream(both));
        ArcPolicy a(cap, *seq1), b(cap, *seq2);
        for (quint32 i = 0; i < seq1->size(); ++i) {
            a.access(seq1->keyAt(i), 1, i);
        }
        const quint64 afterRecency = a.target();
        for (quint32 i = 0; i < seq2->size(); ++i) {
            b.access(seq2->keyAt(i), 1, i);
        }
        QVERIFY2(afterRecency > 0, qPrintable(QString::number(afterRecency)));
        QVERIFY2(b.target() < afterRecency,
                 qPrintable(QStringLiteral("%1 then %2").arg(afterRecency).arg(b.target())));
        quint64 p = 0;
        bruteArc(plainStream(both), cap, &p);
        QCOMPARE(b.target(), p);
        const Stream f = plainStream(frequency);
        QVERIFY(hitsOf(simulate(Kind::Arc, f, cap)) > hitsOf(simulate(Kind::Lru, f, cap)));
    }
};

QTEST_GUILESS_MAIN(TestCachePolicy)
#include "tst_cachepolicy.moc"
