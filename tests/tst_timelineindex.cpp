// TimelineIndex, SortedTimes and RateSeries against brute force on random data.

#include "syntheticrecords.h"
#include "timeline/rateseries.h"
#include "timeline/timelineindex.h"
#include "util/sortedtimes.h"

#include <QTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace lmct;

namespace {

int bruteCount(const std::vector<double> &v, double a, double b) {
    return int(std::count_if(v.begin(), v.end(), [=](double x) { return x >= a && x < b; }));
}

/** Reference count by std::lower_bound (for many wide queries where a scan is too slow). */
int refCount(const std::vector<double> &v, double a, double b) {
    if (!(b > a)) {
        return 0;
    }
    return int(std::lower_bound(v.begin(), v.end(), b) - std::lower_bound(v.begin(), v.end(), a));
}

/** Random sorted data of several shapes: uniform, bursts, duplicates, one huge gap. */
std::vector<double> randomTimes(std::mt19937_64 &rng, int shape, int n) {
    std::vector<double> v(static_cast<size_t>(n));
    std::uniform_real_distribution<double> u(0.0, 10.0);
    for (int i = 0; i < n; ++i) {
        switch (shape) {
            case 0:
                v[size_t(i)] = u(rng);
                break;
            case 1:  // 90% of the values inside 0.1% of the span
                v[size_t(i)] = (rng() % 10) ? 5.0 + u(rng) * 1e-3 : u(rng);
                break;
            case 2:  // heavy duplicates on a µs grid
                v[size_t(i)] = std::round(u(rng) * 1e3) * 1e-3;
                break;
            default:  // two clusters far apart
                v[size_t(i)] = (i % 2) ? u(rng) * 1e-6 : 1e4 + u(rng) * 1e-6;
                break;
        }
    }
    std::sort(v.begin(), v.end());
    return v;
}

}  // namespace

class TstTimelineIndex : public QObject {
    Q_OBJECT
private slots:
    void sortedTimesRanksMatchBruteForce() {
        std::mt19937_64 rng(7);
        for (int shape = 0; shape < 4; ++shape) {
            for (int n : {1, 2, 3, 17, 1000, 5000}) {
                const std::vector<double> v = randomTimes(rng, shape, n);
                for (int buckets : {0, 1, 3, n * 4}) {
                    const SortedTimes st(v, buckets);
                    QCOMPARE(st.size(), n);
                    for (int q = 0; q < 200; ++q) {
                        // probe at values, next to values and between them
                        double t = v[size_t(rng() % v.size())];
                        if (q % 3 == 1) {
                            t = std::nextafter(t, -1e300);
                        } else if (q % 3 == 2) {
                            t = v.front() + (v.back() - v.front() + 2.0) *
                                                std::uniform_real_distribution<>(-0.1, 1.0)(rng);
                        }
                        const int below = int(std::lower_bound(v.begin(), v.end(), t) - v.begin());
                        const int atOrBelow =
                            int(std::upper_bound(v.begin(), v.end(), t) - v.begin());
                        QCOMPARE(st.rankBelow(t), below);
                        QCOMPARE(st.rankAtOrBelow(t), atOrBelow);
                    }
                }
            }
        }
    }

    void sortedTimesColumnCountsMatchBruteForce() {
        std::mt19937_64 rng(11);
        for (int shape = 0; shape < 4; ++shape) {
            const std::vector<double> v = randomTimes(rng, shape, 4000);
            const SortedTimes st(v);
            for (int q = 0; q < 120; ++q) {
                // random visible ranges from the whole trace down to a few ns, any pixel width
                const double span = std::pow(10.0, std::uniform_real_distribution<>(-9, 4.5)(rng));
                const double origin = v[size_t(rng() % v.size())] -
                                      span * std::uniform_real_distribution<>(0, 1)(rng);
                const int w = 1 + int(rng() % 700);
                const double width = span / w;
                std::vector<int> out(size_t(w), -1);
                st.columnCounts(origin, width, w, out.data());
                qint64 sum = 0;
                for (int k = 0; k < w; ++k) {
                    const double a = origin + double(k) * width;
                    const double b = origin + double(k + 1) * width;
                    QCOMPARE(out[size_t(k)], bruteCount(v, a, b));
                    sum += out[size_t(k)];
                }
                QCOMPARE(sum, qint64(bruteCount(v, origin, origin + double(w) * width)));
                std::vector<int> edges(size_t(w) + 1);
                st.edgeRanks(origin, width, w, edges.data());
                for (int k = 0; k < w; ++k) {
                    QCOMPARE(edges[size_t(k) + 1] - edges[size_t(k)], out[size_t(k)]);
                }
            }
        }
    }

    void pyramidCountsMatchBruteForceAtSnappedEdges() {
        std::mt19937_64 rng(13);
        for (int shape = 0; shape < 4; ++shape) {
            const std::vector<double> v = randomTimes(rng, shape, 6000);
            const SortedTimes st(v);
            QVERIFY(st.levelCount() > 5);
            int snappedQueries = 0;
            for (int q = 0; q < 400; ++q) {
                const double span = std::pow(10.0, std::uniform_real_distribution<>(-6, 5)(rng));
                const double origin = v[size_t(rng() % v.size())] -
                                      span * std::uniform_real_distribution<>(0, 1)(rng);
                const int w = 1 + int(rng() % 3200);
                const double width = span / w;
                const double tol = 0.25;
                std::vector<int> out(size_t(w), -1);
                std::vector<double> edges;
                st.columnCounts(origin, width, w, out.data(), tol, &edges);
                QCOMPARE(int(edges.size()), w + 1);
                const bool snapped = st.bucketWidth() <= tol * width;
                snappedQueries += snapped;
                for (int k = 0; k <= w; ++k) {
                    const double ideal = origin + double(k) * width;
                    const double e = edges[size_t(k)];
                    // within tol/2 of a column of the ideal edge, or clamped outside the data
                    QVERIFY2(
                        std::abs(e - ideal) <= tol * width / 2 * (1 + 1e-9) ||
                            (e == v.front() && ideal < v.front()) ||
                            (std::isinf(e) && ideal > v.back() - tol * width),
                        qPrintable(QStringLiteral("edge %1: %2 vs %3").arg(k).arg(e).arg(ideal)));
                    if (!snapped) {
                        QCOMPARE(e, ideal);
                    }
                }
                for (int k = 0; k < w; ++k) {
                    QCOMPARE(out[size_t(k)], refCount(v, edges[size_t(k)], edges[size_t(k) + 1]));
                }
            }
            QVERIFY(snappedQueries > 20);  // both paths were exercised
            QVERIFY(snappedQueries < 380);
        }
    }

    void sortedTimesDegenerate() {
        const SortedTimes empty;
        QCOMPARE(empty.rankBelow(1.0), 0);
        int c = -1;
        empty.columnCounts(0.0, 1.0, 1, &c);
        QCOMPARE(c, 0);
        const SortedTimes same(std::vector<double>(100, 3.0));
        QCOMPARE(same.rankBelow(3.0), 0);
        QCOMPARE(same.rankAtOrBelow(3.0), 100);
        QCOMPARE(same.countIn(2.0, 3.5), 100);
        QCOMPARE(same.rankBelow(std::numeric_limits<double>::quiet_NaN()), 0);
        QCOMPARE(same.rankBelow(std::numeric_limits<double>::infinity()), 100);
        QCOMPARE(same.rankBelow(-std::numeric_limits<double>::infinity()), 0);
    }

    void indexLanesSortedAndComplete() {
        const auto store = test::syntheticRecords(60000, 3);
        const RecordStore &rs = *store;
        // the generator must actually produce t_mono steps back in file order
        int backs = 0;
        for (int i = 1; i < rs.size(); ++i) {
            backs += rs.tMono(i) < rs.tMono(i - 1);
        }
        QVERIFY(backs > 10);
        const auto idx = TimelineIndex::build(rs);
        QVERIFY(idx);
        QCOMPARE(idx->laneCount(), rs.qualnameCount());
        QCOMPARE(idx->recordCount(), qint64(rs.size()));
        std::vector<char> seen(size_t(rs.size()), 0);
        for (int q = 0; q < idx->laneCount(); ++q) {
            const TimelineIndex::Lane &l = idx->lane(q);
            QCOMPARE(qint64(l.times.size()), rs.qualnameCounts()[size_t(q)]);
            QCOMPARE(l.qualname, rs.qualnames()[q]);
            for (int p = 0; p < l.times.size(); ++p) {
                const int r = l.records()[size_t(p)];
                QCOMPARE(int(rs.qualnameId(r)), q);
                QCOMPARE(l.times.at(p), rs.tMono(r));
                if (p > 0) {
                    QVERIFY(l.times.at(p - 1) < l.times.at(p) ||
                            (l.times.at(p - 1) == l.times.at(p) && l.records()[size_t(p) - 1] < r));
                }
                QCOMPARE(idx->positionOf(rs, r), p);
                seen[size_t(r)] = 1;
            }
        }
        QVERIFY(std::all_of(seen.begin(), seen.end(), [](char c) { return c == 1; }));
        QCOMPARE(idx->minTime(), rs.minTMono());
        QCOMPARE(idx->maxTime(), rs.maxTMono());
        QVERIFY(std::abs(idx->wallOffset() - (1760000000.25 + 1e-4)) < 1e-3);
    }

    void subsetIndexHoldsExactlyTheSubset() {
        const auto store = test::syntheticRecords(30000, 4);
        const RecordStore &rs = *store;
        std::mt19937_64 rng(4);
        std::vector<int> subset{-3};  // out-of-range indices are ignored
        for (int i = 0; i < rs.size(); ++i) {
            if (rng() % 7 == 0) {
                subset.push_back(i);
            }
        }
        const int inRange = int(subset.size()) - 1;
        subset.push_back(rs.size());
        subset.push_back(rs.size() + 5);
        const auto idx = TimelineIndex::buildSubset(rs, subset);
        QVERIFY(idx);
        QCOMPARE(idx->laneCount(), rs.qualnameCount());
        QCOMPARE(idx->recordCount(), qint64(inRange));
        std::vector<char> in(size_t(rs.size()), 0);
        for (int r : subset) {
            if (r >= 0 && r < rs.size()) {
                in[size_t(r)] = 1;
            }
        }
        for (int q = 0; q < idx->laneCount(); ++q) {
            const TimelineIndex::Lane &l = idx->lane(q);
            qint64 expected = 0;
            for (int i = 0; i < rs.size(); ++i) {
                expected += in[size_t(i)] && int(rs.qualnameId(i)) == q;
            }
            QCOMPARE(qint64(l.times.size()), expected);
            for (int p = 0; p < l.times.size(); ++p) {
                const int r = l.records()[size_t(p)];
                QVERIFY(in[size_t(r)]);
                QCOMPARE(int(rs.qualnameId(r)), q);
                QCOMPARE(l.times.at(p), rs.tMono(r));
                if (p > 0) {
                    QVERIFY(l.times.at(p - 1) <= l.times.at(p));
                }
                QCOMPARE(idx->positionOf(rs, r), p);
            }
        }
        // the empty subset: lanes, no records
        const auto none = TimelineIndex::buildSubset(rs, {});
        QCOMPARE(none->laneCount(), rs.qualnameCount());
        QCOMPARE(none->recordCount(), qint64(0));
        std::atomic_bool cancel{true};
        QVERIFY(!TimelineIndex::buildSubset(rs, subset, &cancel));
    }

    void indexColumnCountsMatchBruteForce() {
        const auto store = test::syntheticRecords(20000, 5);
        const RecordStore &rs = *store;
        const auto idx = TimelineIndex::build(rs);
        std::mt19937_64 rng(5);
        const double t0 = rs.minTMono(), t1 = rs.maxTMono();
        for (int q = 0; q < 400; ++q) {
            const int lane = int(rng() % quint64(idx->laneCount()));
            const double span =
                (t1 - t0) * std::pow(10.0, -std::uniform_real_distribution<>(0, 7)(rng));
            const double from = t0 + (t1 - t0 - span) * std::uniform_real_distribution<>(0, 1)(rng);
            const int w = 1 + int(rng() % 2000);
            std::vector<int> out(static_cast<size_t>(w));
            idx->columnCounts(lane, from, span / w, w, out.data());
            std::vector<int> brute(size_t(w), 0);
            for (int i = 0; i < rs.size(); ++i) {
                if (int(rs.qualnameId(i)) != lane) {
                    continue;
                }
                // the column by division, confirmed with the index's edge arithmetic
                const double t = rs.tMono(i), cw = span / w;
                // clamped before the conversion: far outside the range the quotient leaves
                // int's range (UBSan in the asan build)
                const int guess =
                    int(std::clamp(std::floor((t - from) / cw), -2.0, double(w) + 1.0));
                for (int k = std::max(0, guess - 1); k <= std::min(w - 1, guess + 1); ++k) {
                    if (t >= from + double(k) * cw && t < from + double(k + 1) * cw) {
                        ++brute[size_t(k)];
                        break;
                    }
                }
            }
            QCOMPARE(out, brute);
        }
    }

    void nearestPosition() {
        const auto store = test::syntheticRecords(5000, 9);
        const RecordStore &rs = *store;
        const auto idx = TimelineIndex::build(rs);
        std::mt19937_64 rng(9);
        for (int q = 0; q < 500; ++q) {
            const int lane = int(rng() % quint64(idx->laneCount()));
            const double t =
                std::uniform_real_distribution<>(rs.minTMono() - 1, rs.maxTMono() + 1)(rng);
            const double tol = std::pow(10.0, std::uniform_real_distribution<>(-4, 1)(rng));
            const int p = idx->nearestPosition(lane, t, tol);
            double best = std::numeric_limits<double>::infinity();
            for (int i = 0; i < rs.size(); ++i) {
                if (int(rs.qualnameId(i)) == lane) {
                    best = std::min(best, std::abs(rs.tMono(i) - t));
                }
            }
            if (best > tol) {
                QCOMPARE(p, -1);
            } else {
                QVERIFY(p >= 0);
                QCOMPARE(std::abs(idx->lane(lane).times.at(p) - t), best);
            }
        }
    }

    void untimedRecordsAreLeftOut() {
        RecordStore rs;
        const quint32 a = rs.intern("a", 1);
        rs.append(1.0, 1.0, a, 0, 1, 0);
        rs.append(std::numeric_limits<double>::quiet_NaN(), 2.0, a, 8, 1, 0);
        rs.append(0.5, 3.0, a, 16, 1, 0);
        const auto idx = TimelineIndex::build(rs);
        QCOMPARE(idx->recordCount(), qint64(2));
        QCOMPARE(idx->untimedCount(), qint64(1));
        QCOMPARE(idx->lane(0).records(), (std::vector<qint32>{2, 0}));
        QCOMPARE(idx->positionOf(rs, 1), -1);
        QVERIFY(TimelineIndex::build(RecordStore())->laneCount() == 0);
    }

    void farFromSortedInputFallsBackToFullSort() {
        RecordStore rs;
        const quint32 a = rs.intern("a", 1);
        std::mt19937_64 rng(1);
        for (int i = 0; i < 50000; ++i) {  // random order: insertion sort would be quadratic
            rs.append(std::uniform_real_distribution<>(0, 100)(rng), 0.0, a, i, 1, 0);
        }
        const auto idx = TimelineIndex::build(rs);
        const auto &lt = idx->lane(0).times;
        QCOMPARE(lt.size(), 50000);
        for (int p = 1; p < lt.size(); ++p) {
            QVERIFY(lt.at(p - 1) <= lt.at(p));
        }
    }

    void indexKeepsNoCopyOfTheTimes() {
        // A lane reads t_mono from the store: 4 bytes of record index per record plus the
        // count pyramid (a sorted copy of the times made it 15 bytes per record).
        const auto store = test::syntheticRecords(200000, 5);
        const auto idx = TimelineIndex::build(*store);
        QVERIFY(idx->memoryBytes() <= 8 * qint64(store->size()));
        QVERIFY(idx->memoryBytes() >= 4 * qint64(store->size()));
    }

    void indexHoldsTheStoreItWasGiven() {
        // The widget hands the index its document: the index reads the store's t_mono, so the
        // store must live as long as the index, even when the document is closed meanwhile.
        std::shared_ptr<RecordStore> owner = test::syntheticRecords(5000, 6);
        const RecordStore &rs = *owner;
        const double first = rs.tMono(0);
        const auto idx = TimelineIndex::build(rs, nullptr, owner);
        const std::weak_ptr<RecordStore> watch = owner;
        owner.reset();
        QVERIFY(!watch.expired());
        QCOMPARE(idx->recordCount(), qint64(5000));
        const int lane = int(rs.qualnameId(0));
        QCOMPARE(idx->lane(lane).times.at(idx->positionOf(rs, 0)), first);
        const auto subset = TimelineIndex::buildSubset(rs, {0, 1, 2}, nullptr, idx);
        QCOMPARE(subset->recordCount(), qint64(3));
    }

    void cancelReturnsNull() {
        const auto store = test::syntheticRecords(1000, 2);
        const RecordStore &rs = *store;
        std::atomic_bool cancel{true};
        QVERIFY(!TimelineIndex::build(rs, &cancel));
    }

    void rateSeries() {
        QCOMPARE(RateSeries::niceWidth(0.0013), 0.002);
        QCOMPARE(RateSeries::niceWidth(0.002), 0.002);
        QCOMPARE(RateSeries::niceWidth(3.0), 5.0);
        QCOMPARE(RateSeries::niceWidth(6.0), 10.0);
        QCOMPARE(RateSeries::niceWidth(1e-7 * 1.5), 2e-7);
        const auto store = test::syntheticRecords(30000, 4);
        const RecordStore &rs = *store;
        const auto idx = TimelineIndex::build(rs);
        const double from = rs.minTMono() + 3.0, to = rs.maxTMono() - 3.0;
        for (int lane = 0; lane < idx->laneCount(); ++lane) {
            const RateSeries r = RateSeries::compute(*idx, lane, from, to, 0.5);
            QCOMPARE(r.width, 0.5);
            QVERIFY(r.origin <= from && r.origin > from - 0.5);
            QVERIFY(r.bucketStart(r.size()) >= to);
            // aligned buckets: the origin is a whole multiple of the width
            QCOMPARE(std::fmod(r.origin, 0.5), 0.0);
            qint64 sum = 0;
            for (int k = 0; k < r.size(); ++k) {
                sum += r.counts[size_t(k)];
                QCOMPARE(r.rates[size_t(k)], r.counts[size_t(k)] / 0.5);
            }
            QCOMPARE(sum, qint64(idx->countIn(lane, r.origin, r.bucketStart(r.size()))));
        }
        // the bucket cap widens to the next nice width
        const RateSeries capped = RateSeries::compute(*idx, 0, 0.0, 1000.0, 0.001, 100);
        QVERIFY(capped.size() <= 100);
        QCOMPARE(capped.width, 20.0);
        QVERIFY(RateSeries::compute(*idx, 99, 0, 1, 0.1).counts.empty());
    }

    void rateSeriesAtTheTraceEnds() {
        // Regression: the rate of the bucket holding the end of the trace was divided by the
        // whole bucket (a trace ending 24 s into a 50 s bucket showed half its rate), and a
        // view past the end showed the rate dropping to 0.
        const auto store = test::syntheticRecords(30000, 4);
        const RecordStore &rs = *store;
        const auto idx = TimelineIndex::build(rs);
        const double first = idx->minTime(), last = idx->maxTime();
        const double width = 10.0;
        for (int lane = 0; lane < idx->laneCount(); ++lane) {
            const RateSeries r = RateSeries::compute(*idx, lane, first - 35.0, last + 35.0, width,
                                                     1 << 16, first, last);
            const RateSeries plain =
                RateSeries::compute(*idx, lane, first - 35.0, last + 35.0, width);
            QCOMPARE(r.counts, plain.counts);  // counts are counts
            for (int k = 0; k < r.size(); ++k) {
                const double start = r.bucketStart(k), end = r.bucketStart(k + 1);
                const double covered = std::min(end, last) - std::max(start, first);
                if (start > last || end <= first) {
                    QVERIFY2(std::isnan(r.rates[size_t(k)]), qPrintable(QString::number(k)));
                } else if (covered < width - 1e-9 && covered >= width / 4) {
                    QCOMPARE(r.rates[size_t(k)], r.counts[size_t(k)] / covered);
                } else {
                    QCOMPARE(r.rates[size_t(k)], r.counts[size_t(k)] / width);
                }
                QVERIFY(!std::isnan(plain.rates[size_t(k)]));  // unbounded: every bucket whole
            }
            QVERIFY(std::isnan(r.rates.front()) && std::isnan(r.rates.back()));
        }
        // Regression: the call at the trace's last t_mono, at the start of its bucket (the
        // trace covers none of that bucket), had no rate drawn: it keeps count / width.
        for (int lane = 0; lane < idx->laneCount(); ++lane) {
            const auto &lt = idx->lane(lane).times;
            if (lt.isEmpty() || lt.last() != last) {
                continue;
            }
            const RateSeries r =
                RateSeries::compute(*idx, lane, last - 1.0, last + 1.0, 0.5, 1 << 16, first, last);
            int k = 0;
            while (!(r.bucketStart(k) <= last && last < r.bucketStart(k + 1))) {
                ++k;
            }
            QVERIFY(r.counts[size_t(k)] >= 1);
            QCOMPARE(r.rates[size_t(k)], r.counts[size_t(k)] / 0.5);
        }
        // A trace shorter than a bucket: its rate over the time it covers.
        const RateSeries shortTrace =
            RateSeries::compute(*idx, 0, first, first + 1.0, 100.0, 1 << 16, first, first + 1.0);
        QCOMPARE(shortTrace.size(), 1);
        QCOMPARE(shortTrace.rates[0],
                 double(idx->countIn(0, shortTrace.origin, shortTrace.origin + 100.0)) / 1.0);
    }
};

QTEST_GUILESS_MAIN(TstTimelineIndex)
#include "tst_timelineindex.moc"
