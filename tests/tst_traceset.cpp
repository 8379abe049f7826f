// TraceSet and MergedOrder: several traces of one deployment merged on one t_wall axis, with
// known start times and clock offsets, ties, a t_wall that steps back, an offset edited, a
// damaged trace among good ones and a trace that grows while followed.

#include "combinefixture.h"
#include "followtrace.h"
#include "stats/tracesetstatistics.h"
#include "trace/mergedorder.h"
#include "trace/traceloader.h"
#include "trace/traceset.h"

#include <QTemporaryDir>
#include <QtTest>
#include <random>

using namespace lmct;
using namespace lmct::test;

namespace {

std::vector<std::pair<int, int>> rowsOf(const MergedOrder &m) {
    std::vector<std::pair<int, int>> out;
    for (qint64 i = 0; i < m.size(); ++i) {
        out.emplace_back(m.traceAt(i), m.recordAt(i));
    }
    return out;
}

QString show(const std::vector<std::pair<int, int>> &rows) {
    QStringList l;
    for (const auto &[t, r] : rows) {
        l.append(QStringLiteral("%1:%2").arg(t).arg(r));
    }
    return l.join(QLatin1Char(' '));
}

}  // namespace

class TestTraceSet : public QObject {
    Q_OBJECT

private slots:
    void labelsAndInstances() {
        TraceSet set;
        QCOMPARE(set.add(loadTrace(combineTrace(100.0, {100.1}, QStringLiteral("vllm-0")),
                                   QStringLiteral("/a/trace.lct"))),
                 0);
        QCOMPARE(set.add(loadTrace(combineTrace(100.0, {100.2}), QStringLiteral("/b/trace.lct"))),
                 1);
        QCOMPARE(set.add(nullptr), -1);
        QCOMPARE(set.size(), 2);
        QCOMPARE(set.label(0), QStringLiteral("trace.lct"));
        QCOMPARE(set.label(1), QStringLiteral("/b/trace.lct"));  // the name is taken
        QCOMPARE(set.instanceId(0), QStringLiteral("vllm-0"));
        QVERIFY(set.instanceId(1).isEmpty());
        QCOMPARE(set.displayLabel(0), QStringLiteral("trace.lct (vllm-0)"));
        QCOMPARE(set.displayLabel(1), QStringLiteral("/b/trace.lct"));
        QCOMPARE(set.indexOf(QStringLiteral("vllm-0")), 0);
        QCOMPARE(set.indexOf(QStringLiteral("/b/trace.lct")), 1);
        QCOMPARE(set.indexOf(QStringLiteral("nope")), -1);
    }

    void startsAndSpan() {
        TraceSet set;
        set.add(loadTrace(combineTrace(1000.0, {1000.5, 1001.0}), QStringLiteral("a.lct")));
        set.add(loadTrace(combineTrace(1010.0, {1010.5, 1012.0}), QStringLiteral("b.lct")));
        QCOMPARE(set.startWall(0), 1000.0);
        QCOMPARE(set.startWall(1), 1010.0);
        QVERIFY(set.setOffset(1, -0.5));
        QVERIFY(!set.setOffset(1, qQNaN()));
        QCOMPARE(set.offset(1), -0.5);
        QCOMPARE(set.alignedStart(1), 1009.5);
        QCOMPARE(set.combinedStart(), 1000.0);
        QCOMPARE(set.combinedEnd(), 1011.5);
        QCOMPARE(set.recordCount(), qint64(4));
    }

    /** Known starts and offsets: B's clock is 3 ms ahead, C starts later. */
    void knownOffsets() {
        const std::vector<double> starts = {1000.0, 1000.003, 1000.5};
        const std::vector<std::vector<double>> walls = {
            {1000.010, 1000.020, 1000.030, 1000.600},
            {1000.014, 1000.022, 1000.031, 1000.604},  // 3 ms ahead: aligned 11, 19, 28, 601
            {1000.505, 1000.598, 1000.700},
        };
        TraceSet set;
        for (size_t t = 0; t < walls.size(); ++t) {
            set.add(loadTrace(combineTrace(starts[t], walls[t]), QStringLiteral("t%1.lct").arg(t)));
        }
        set.setOffset(1, -0.003);
        const MergedOrder m = MergedOrder::build(set);
        QVERIFY(m.isComplete());
        const std::vector<std::pair<int, int>> want = {
            {0, 0}, {1, 0}, {1, 1}, {0, 1}, {1, 2}, {0, 2}, {2, 0}, {2, 1}, {0, 3}, {1, 3}, {2, 2}};
        QCOMPARE(show(rowsOf(m)), show(want));
        QCOMPARE(show(rowsOf(m)), show(referenceOrder(starts, walls, {0.0, -0.003, 0.0})));
        QCOMPARE(m.alignedWall(set, 1), 1000.014 - 0.003);
        QCOMPARE(m.mergedCount(0), qint64(4));
        QCOMPARE(m.pendingCount(set), qint64(0));
        // Without the offset B's records go after A's of the same moment.
        TraceSet raw;
        for (int t = 0; t < set.size(); ++t) {
            raw.add(set.documentPtr(t));
        }
        QCOMPARE(show(rowsOf(MergedOrder::build(raw))),
                 show(referenceOrder(starts, walls, {0.0, 0.0, 0.0})));
        QVERIFY(rowsOf(MergedOrder::build(raw)) != want);
    }

    /** Equal aligned t_walls: by trace index, then record index. */
    void ties() {
        TraceSet set;
        set.add(loadTrace(combineTrace(10.0, {10.5, 10.5, 11.0}), QStringLiteral("a.lct")));
        set.add(loadTrace(combineTrace(10.0, {10.5, 11.0}), QStringLiteral("b.lct")));
        set.add(loadTrace(combineTrace(9.0, {9.5, 10.5}), QStringLiteral("c.lct")));
        set.setOffset(2, 1.0);  // c's 9.5 is 10.5 on the common axis, its 10.5 is 11.5
        const std::vector<std::pair<int, int>> want = {{0, 0}, {0, 1}, {1, 0}, {2, 0},
                                                       {0, 2}, {1, 1}, {2, 1}};
        QCOMPARE(show(rowsOf(MergedOrder::build(set))), show(want));
    }

    /** A t_wall that steps back stays after its predecessor (file order within the trace). */
    void stepBack() {
        const std::vector<double> starts = {100.0, 100.0};
        const std::vector<std::vector<double>> walls = {
            {100.10, 100.30, 100.15, 100.40},  // 100.15 steps back behind 100.30
            {100.20, 100.25, 100.35},
        };
        TraceSet set;
        set.add(loadTrace(combineTrace(starts[0], walls[0]), QStringLiteral("a.lct")));
        set.add(loadTrace(combineTrace(starts[1], walls[1]), QStringLiteral("b.lct")));
        const MergedOrder m = MergedOrder::build(set);
        const std::vector<std::pair<int, int>> want = {{0, 0}, {1, 0}, {1, 1}, {0, 1},
                                                       {0, 2}, {1, 2}, {0, 3}};
        QCOMPARE(show(rowsOf(m)), show(want));
        QCOMPARE(m.steppedBack(0), qint64(1));
        QCOMPARE(m.steppedBack(1), qint64(0));
        // The table still shows the record's own t_wall.
        QCOMPARE(m.alignedWall(set, 4), 100.15);
    }

    /** A record without a finite t_wall takes its trace's latest one. */
    void untimedRecord() {
        TraceSet set;
        set.add(loadTrace(combineTrace(50.0, {50.1, qQNaN(), 50.4}), QStringLiteral("a.lct")));
        set.add(loadTrace(combineTrace(50.0, {50.2, 50.3}), QStringLiteral("b.lct")));
        const MergedOrder m = MergedOrder::build(set);
        const std::vector<std::pair<int, int>> want = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 2}};
        QCOMPARE(show(rowsOf(m)), show(want));
        QCOMPARE(m.untimed(0), qint64(1));
    }

    /** Editing an offset makes update() rebuild the order for the new alignment. */
    void offsetEditRemerges() {
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> gap(0.0, 0.002);
        std::vector<double> starts = {2000.0, 2000.0, 2000.1};
        std::vector<std::vector<double>> walls(3);
        TraceSet set;
        for (int t = 0; t < 3; ++t) {
            double w = starts[size_t(t)];
            for (int i = 0; i < 400; ++i) {
                w += gap(rng);
                walls[size_t(t)].push_back(w);
            }
            set.add(loadTrace(combineTrace(starts[size_t(t)], walls[size_t(t)]),
                              QStringLiteral("r%1.lct").arg(t)));
        }
        MergedOrder m = MergedOrder::build(set);
        QCOMPARE(rowsOf(m), referenceOrder(starts, walls, {0, 0, 0}));
        const quint64 rev = set.revision();
        set.setOffset(0, 0.0045);
        set.setOffset(2, -0.0071);
        QVERIFY(set.revision() > rev);
        QCOMPARE(m.update(set), qint64(1200));
        QCOMPARE(m.rebuilds(), 1);
        QCOMPARE(rowsOf(m), referenceOrder(starts, walls, {0.0045, 0, -0.0071}));
        // Every row is found from its trace's record, and by its time.
        for (qint64 i = 0; i < m.size(); ++i) {
            QCOMPARE(m.rowOf(set, m.traceAt(i), m.recordAt(i)), i);
            const double key = m.keyOf(set, m.traceAt(i), m.recordAt(i));
            QVERIFY(m.rowAtTime(set, key) <= i);
            QVERIFY(i == 0 || m.keyOf(set, m.traceAt(i - 1), m.recordAt(i - 1)) <= key);
        }
        QCOMPARE(m.rowOf(set, 0, 400), qint64(-1));
        QCOMPARE(m.rowAtTime(set, 1e12), m.size());
        QCOMPARE(m.rowAtTime(set, 0.0), qint64(0));
        QCOMPARE(m.update(set), qint64(0));  // nothing changed: nothing to do
        QCOMPARE(m.rebuilds(), 1);
        QVERIFY(m.memoryBytes() >= 1200 * 5);
        QVERIFY(m.memoryBytes() < 1200 * 5 + 4096);
    }

    /** A damaged trace among good ones: its diagnostics stay its own, all good records merge. */
    void damagedAmongGood() {
        QByteArray bad = combineTrace(300.0, {300.1, 300.2, 300.3});
        const int cut =
            int(frame(combineHeader(300.0)).size()) + int(combineRecord(300.1, 300.0, 0).size());
        bad.insert(cut, QByteArray("\xff\xfe garbage between frames", 26));
        bad.chop(5);  // and a truncated last record
        TraceSet set;
        set.add(loadTrace(combineTrace(300.0, {300.05, 300.25}), QStringLiteral("good1.lct")));
        set.add(loadTrace(bad, QStringLiteral("bad.lct")));
        set.add(loadTrace(combineTrace(300.0, {300.15}), QStringLiteral("good2.lct")));
        QCOMPARE(set.document(1).records().size(), 2);
        QVERIFY(set.document(1).diagnosticCount() >= 2);
        QCOMPARE(set.document(0).diagnosticCount(), qint64(0));
        QCOMPARE(set.document(2).diagnosticCount(), qint64(0));
        const MergedOrder m = MergedOrder::build(set);
        QVERIFY(m.isComplete());
        const std::vector<std::pair<int, int>> want = {{0, 0}, {1, 0}, {2, 0}, {1, 1}, {0, 1}};
        QCOMPARE(show(rowsOf(m)), show(want));
    }

    /** Cancelled, the rows so far are a prefix; update() goes on to the whole order. */
    void cancelAndResume() {
        std::vector<double> starts = {10.0, 10.0};
        std::vector<std::vector<double>> walls(2);
        for (int i = 0; i < 20000; ++i) {
            walls[0].push_back(10.0 + 1e-4 * i);
            walls[1].push_back(10.00005 + 1e-4 * i);
        }
        TraceSet set;
        set.add(loadTrace(combineTrace(starts[0], walls[0]), QStringLiteral("a.lct")));
        set.add(loadTrace(combineTrace(starts[1], walls[1]), QStringLiteral("b.lct")));
        std::atomic_bool cancel{false};
        MergedOrder::Options o;
        o.cancel = &cancel;
        qint64 calls = 0;
        o.progress = [&](qint64 done, qint64 total) {
            ++calls;
            QCOMPARE(total, qint64(40000));
            if (done >= 8000) {
                cancel = true;
            }
        };
        MergedOrder m = MergedOrder::build(set, o);
        QVERIFY(m.wasCancelled());
        QVERIFY(!m.isComplete());
        QVERIFY(m.size() > 0 && m.size() < 40000);
        QVERIFY(calls > 0);
        const auto want = referenceOrder(starts, walls, {0, 0});
        const auto part = rowsOf(m);
        QVERIFY(std::equal(part.begin(), part.end(), want.begin()));
        QCOMPARE(m.pendingCount(set), 40000 - m.size());
        QCOMPARE(m.update(set), 40000 - qint64(part.size()));
        QVERIFY(m.isComplete());
        QCOMPARE(m.rebuilds(), 0);
        QCOMPARE(rowsOf(m), want);
        // Look-ups across checkpoints (every 512 records of a trace).
        for (qint64 i = 0; i < m.size(); i += 997) {
            QCOMPARE(m.rowOf(set, m.traceAt(i), m.recordAt(i)), i);
        }
        QCOMPARE(m.rowAtTime(set, 10.0 + 1e-4 * 10000 - 1e-9), qint64(20000));
    }

    /** A followed trace holds back what its next records could precede; growth appends. */
    void growth() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::vector<double> starts = {700.0, 700.0};
        const std::vector<std::vector<double>> walls = {
            {700.1, 700.2, 700.3, 700.4, 700.5, 700.6},
            {700.15, 700.25, 700.45, 700.55},
        };
        TraceSet set;
        set.add(loadTrace(combineTrace(starts[0], walls[0]), QStringLiteral("done.lct")));
        // The followed trace: its first two records now, the rest later.
        QByteArray live = combineTrace(starts[1], {walls[1][0], walls[1][1]}, QString(), 100);
        const QString path = writeFile(dir, QStringLiteral("live.lct"), live);
        QVERIFY(!path.isEmpty());
        TraceLoadOptions opt;
        auto doc = openFollowed(path, &opt);
        QVERIFY(doc);
        QString error;
        QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 2);
        QVERIFY(doc->isLoading());
        set.add(doc);

        MergedOrder m = MergedOrder::build(set);
        // live's next record has t_wall >= 700.25: done's 700.3 on must wait for it.
        const std::vector<std::pair<int, int>> first = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
        QCOMPARE(show(rowsOf(m)), show(first));
        QVERIFY(!m.isComplete());
        QCOMPARE(m.pendingCount(set), qint64(4));

        QFile f(path);
        QVERIFY(f.open(QIODevice::Append));
        f.write(combineRecord(walls[1][2], starts[1], 102));
        f.write(combineRecord(walls[1][3], starts[1], 103));
        f.close();
        QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 2);
        // 700.3, 700.4, 700.45, 700.5, 700.55; done's 700.6 waits behind live's bound 700.55.
        QCOMPARE(m.update(set), qint64(5));
        QCOMPARE(m.rebuilds(), 0);
        QCOMPARE(m.pendingCount(set), qint64(1));
        TraceLoader::stopFollowing(doc.get());
        QCOMPARE(m.update(set), qint64(1));
        QVERIFY(m.isComplete());
        QCOMPARE(m.rebuilds(), 0);
        QCOMPARE(show(rowsOf(m)), show(referenceOrder(starts, walls, {0, 0})));
    }

    /** Statistics over the set: per trace as alone, all together exact where documented. */
    void statistics() {
        // Trace A: pairs of 10, 20, 30 ms; trace B: 40, 50 ms (2 keys each), B 1 s later.
        auto pairs = [](double start, const std::vector<double> &durations, int keys) {
            QByteArray b = frame(combineHeader(start));
            double t = 0.1;
            int seed = 0;
            for (double d : durations) {
                const QByteArray args = keysArgs(keys, seed++ * 10);
                b += frame(recordBody(t, start + t,
                                      storageQualname("read_prefetched_results.__enter__"), args));
                b += frame(recordBody(t + d, start + t + d,
                                      storageQualname("read_prefetched_results.__exit__"), args));
                t += 0.5;
            }
            return b;
        };
        TraceSet set;
        set.add(loadTrace(pairs(100.0, {0.010, 0.020, 0.030}, 1), QStringLiteral("a.lct")));
        set.add(loadTrace(pairs(101.0, {0.040, 0.050}, 2), QStringLiteral("b.lct")));
        const MergedOrder order = MergedOrder::build(set);
        const TraceSetStatistics st = TraceSetStatistics::compute(set, order);
        QCOMPARE(st.perTrace.size(), 2);
        const TraceStatistics alone = TraceStatistics::compute(set.document(1));
        QCOMPARE(st.perTrace[1].pairs.durationP50, alone.pairs.durationP50);
        QCOMPARE(st.perTrace[1].records, alone.records);
        QCOMPARE(st.all.records, qint64(10));
        QCOMPARE(st.all.pairs.matched, qint64(5));
        // Over the five durations, not a mean of the per-trace medians (20 and 45 ms).
        QCOMPARE(st.all.pairs.durationP50, 0.030);
        QCOMPARE(st.all.pairs.durationP95, 0.048);
        QCOMPARE(st.all.pairs.durationMax, 0.050);
        // Keys per call weighted by calls: (6 × 1 + 4 × 2) / 10.
        QCOMPARE(st.all.totals.keysMean, 1.4);
        QCOMPARE(st.all.totals.keysMax, qint64(2));
        QCOMPARE(st.all.calls.size(), 2);
        QCOMPARE(st.all.calls[0].count, qint64(5));
        QCOMPARE(st.all.calls[0].share, 0.5);
        // Times on the aligned t_wall axis from the combined start (100.0): enters at 0.1,
        // 0.6, 1.1 (A) and 1.1, 1.6 (B).
        QCOMPARE(st.origin, 100.0);
        const TraceStatistics::CallRow &enter = st.all.calls[0];
        QVERIFY(enter.call.endsWith(QLatin1String("__enter__")));
        QCOMPARE(enter.firstTMono, 0.1);
        QCOMPARE(enter.lastTMono, 1.6);
        QCOMPARE(enter.interArrivalMax, 0.5);
        QCOMPARE(enter.interArrivalP50, 0.5);
        QVERIFY(qAbs(enter.rate - 5 / 1.5) < 1e-9);
        // Moving B by −0.05 s moves its rows on the axis.
        set.setOffset(1, -0.05);
        MergedOrder moved = order;
        moved.update(set);
        const TraceSetStatistics st2 = TraceSetStatistics::compute(set, moved);
        QCOMPARE(st2.all.calls[0].lastTMono, 1.55);
        // Distinct keys: the sum over traces.
        QCOMPARE(st.all.distinctKeys, st.perTrace[0].distinctKeys + st.perTrace[1].distinctKeys);
        // A selection per trace.
        const std::vector<int> firstTwo = {0, 1};
        TraceSetStatistics::Options o;
        o.subsets = {&firstTwo, nullptr};
        QCOMPARE(TraceSetStatistics::compute(set, moved, o).all.records, qint64(6));
    }

    /** An empty followed trace without a start holds nothing back; a late record rebuilds. */
    void lateFirstRecordRebuilds() {
        TraceSet set;
        set.add(loadTrace(combineTrace(900.0, {900.1, 900.2, 900.3}), QStringLiteral("a.lct")));
        set.add(loadTrace(combineTrace(qQNaN(), {900.05}), QStringLiteral("b.lct")));
        MergedOrder m = MergedOrder::build(set);
        const std::vector<std::pair<int, int>> want = {{1, 0}, {0, 0}, {0, 1}, {0, 2}};
        QCOMPARE(show(rowsOf(m)), show(want));
        QCOMPARE(m.rebuilds(), 0);
        // Growth of a document already merged past: shown with a third trace whose record was
        // published after an order was built for a set that did not yet hold it.
        TraceSet two;
        two.add(set.documentPtr(0));
        MergedOrder m2 = MergedOrder::build(two);
        QCOMPARE(m2.size(), qint64(3));
        QCOMPARE(m2.update(set), qint64(4));  // another set of traces: rebuilt
        QCOMPARE(m2.rebuilds(), 1);
        QCOMPARE(show(rowsOf(m2)), show(want));
    }
};

QTEST_GUILESS_MAIN(TestTraceSet)
#include "tst_traceset.moc"
