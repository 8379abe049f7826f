// FollowedTrail: the followed key's records in time order, with the meanings of their gaps.

#include "cache/followedtrail.h"
#include "cache/keylifecyclerules.h"
#include "late2026records.h"
#include "trace/traceloader.h"
#include "util/timeformat.h"

#include <QTemporaryDir>
#include <QTest>
#include <limits>

using namespace lmct;

namespace {

const char *const kPrefix = "lmcache.v1.storage_backend.storage_manager.StorageManager.";

quint32 intern(RecordStore &rs, const char *call) {
    const QByteArray q = QByteArray(kPrefix) + call;
    return rs.intern(q.constData(), quint32(q.size()));
}

}  // namespace

class TstFollowedTrail : public QObject {
    Q_OBJECT
private slots:
    void lifecycleRules() {
        using Call = KeyAnalysis::Call;
        KeyLifecycleRules rules;
        // A read before any finish_write reuses nothing.
        QVERIFY(!rules.next(Call::ReadEnter, 0, 0.5).firstFinish.isValid());
        // The first reservation since the last finish/abort is the one a finish closes.
        QVERIFY(!rules.next(Call::Reserve, 1, 1.0).reservation.isValid());
        rules.next(Call::ReserveWithStatus, 2, 1.1);
        KeyLifecycleRules::Step s = rules.next(Call::Finish, 3, 1.5);
        QCOMPARE(s.reservation.record, 1);
        QCOMPARE(s.reservation.t, 1.0);
        QVERIFY(s.isFirstFinish);
        // A finish without an open reservation closes none; it is not the first.
        s = rules.next(Call::Finish, 4, 2.0);
        QVERIFY(!s.reservation.isValid());
        QVERIFY(!s.isFirstFinish);
        // abort_write drops the reservation.
        rules.next(Call::Reserve, 5, 3.0);
        rules.next(Call::Abort, 6, 3.1);
        QVERIFY(!rules.next(Call::Finish, 7, 3.2).reservation.isValid());
        // A reservation needs a time.
        rules.next(Call::Reserve, 8, qQNaN());
        rules.next(Call::Reserve, 9, 3.5);
        QCOMPARE(rules.next(Call::Finish, 10, 3.6).reservation.record, 9);
        // The first read after the first finish reuses it; later reads do not.
        s = rules.next(Call::FinishRead, 11, 4.0);
        QCOMPARE(s.firstFinish.record, 3);
        QCOMPARE(s.firstFinish.t, 1.5);
        QVERIFY(!rules.next(Call::ReadEnter, 12, 5.0).firstFinish.isValid());
        // Other calls change nothing.
        QCOMPARE(rules.next(Call::Prefetch, 13, 6.0).reservation.record, -1);
    }

    void adjacentMeaningsLabelTheirGap() {
        RecordStore rs;
        const quint32 reserve = intern(rs, "reserve_write");
        const quint32 finish = intern(rs, "finish_write");
        const quint32 prefetch = intern(rs, "submit_prefetch_task");
        const quint32 enter = intern(rs, "read_prefetched_results.__enter__");
        rs.append(1.0, 0, reserve, 0, 1, 0);    // 0
        rs.append(1.5, 0, prefetch, 8, 1, 0);   // 1 (not followed)
        rs.append(1.002, 0, finish, 16, 1, 0);  // 2
        rs.append(3.002, 0, enter, 24, 1, 0);   // 3
        rs.append(4.0, 0, enter, 32, 1, 0);     // 4: a later read, no meaning
        const FollowedTrail ft = FollowedTrail::build(rs, {4, 0, 2, 3, 2, 99, -1});
        QCOMPARE(ft.size(), 4);
        QCOMPARE(ft.events()[0].record, 0);
        QCOMPARE(ft.events()[1].record, 2);
        QCOMPARE(ft.events()[1].meaning, FollowedTrail::Meaning::WriteLatency);
        QVERIFY(ft.events()[1].adjacent);
        QCOMPARE(ft.gapLabel(1), QStringLiteral("write latency ") + TimeFormat::duration(0.002));
        QCOMPARE(ft.events()[2].meaning, FollowedTrail::Meaning::FirstReuse);
        QCOMPARE(ft.gapLabel(2),
                 QStringLiteral("time to first reuse ") + TimeFormat::duration(2.0));
        QCOMPARE(ft.events()[3].meaning, FollowedTrail::Meaning::None);
        QCOMPARE(ft.gapLabel(3), TimeFormat::duration(4.0 - 3.002));
        QCOMPARE(ft.gapLabel(0), QString());
        QCOMPARE(ft.gapLabel(4), QString());
    }

    void nonAdjacentMeaningsGiveTheFigure() {
        RecordStore rs;
        const quint32 reserve = intern(rs, "reserve_write");
        const quint32 finish = intern(rs, "finish_write");
        const quint32 prefetch = intern(rs, "submit_prefetch_task");
        rs.append(1.0, 0, reserve, 0, 1, 0);
        rs.append(1.25, 0, prefetch, 8, 1, 0);
        rs.append(2.0, 0, finish, 16, 1, 0);
        const FollowedTrail ft = FollowedTrail::build(rs, {0, 1, 2});
        QCOMPARE(ft.events()[2].meaning, FollowedTrail::Meaning::WriteLatency);
        QVERIFY(!ft.events()[2].adjacent);
        QCOMPARE(ft.gapLabel(2), TimeFormat::duration(0.75) + QStringLiteral(" · write latency ") +
                                     TimeFormat::duration(1.0));
        QCOMPARE(ft.gapLabel(1), TimeFormat::duration(0.25));
    }

    void sameTimeStartCountsAsAdjacent() {
        // the same key on two ranks: two reservations at once, then the finishes
        RecordStore rs;
        const quint32 reserve = intern(rs, "reserve_write");
        const quint32 finish = intern(rs, "finish_write");
        rs.append(1.0, 0, reserve, 0, 1, 0);
        rs.append(1.0, 0, reserve, 8, 1, 0);
        rs.append(1.5, 0, finish, 16, 1, 0);
        const FollowedTrail ft = FollowedTrail::build(rs, {0, 1, 2});
        QVERIFY(ft.events()[2].adjacent);
        QCOMPARE(ft.gapLabel(2), QStringLiteral("write latency ") + TimeFormat::duration(0.5));
        QCOMPARE(ft.gapDuration(2), TimeFormat::duration(0.5));
        QCOMPARE(ft.gapLabel(1), TimeFormat::duration(0.0));
    }

    void timeOrderAndStepping() {
        RecordStore rs;
        const quint32 a = intern(rs, "submit_prefetch_task");
        rs.append(2.0, 0, a, 0, 1, 0);   // 0
        rs.append(1.0, 0, a, 8, 1, 0);   // 1: earlier in time, later in the file
        rs.append(1.5, 0, a, 16, 1, 0);  // 2: not followed
        rs.append(std::numeric_limits<double>::quiet_NaN(), 0, a, 24, 1, 0);  // 3: untimed
        rs.append(3.0, 0, a, 32, 1, 0);                                       // 4
        const FollowedTrail ft = FollowedTrail::build(rs, {0, 1, 3, 4});
        QCOMPARE(ft.size(), 3);
        QCOMPARE(ft.events()[0].record, 1);
        QCOMPARE(ft.events()[1].record, 0);
        QCOMPARE(ft.events()[2].record, 4);
        QCOMPARE(ft.indexOfRecord(rs, 0), 1);
        QCOMPARE(ft.indexOfRecord(rs, 2), -1);
        QCOMPARE(ft.step(rs, -1, 1), 0);
        QCOMPARE(ft.step(rs, -1, -1), 2);
        QCOMPARE(ft.step(rs, 1, 1), 1);
        QCOMPARE(ft.step(rs, 0, 1), 2);
        QCOMPARE(ft.step(rs, 4, 1), -1);
        QCOMPARE(ft.step(rs, 1, -1), -1);
        QCOMPARE(ft.step(rs, 2, 1), 1);  // a record between events 0 and 1
        QCOMPARE(ft.step(rs, 2, -1), 0);
        QCOMPARE(ft.lowerBound(2.5), 2);
        const FollowedTrail capped = FollowedTrail::build(rs, {0, 1, 4}, 2);
        QVERIFY(capped.truncated());
        QCOMPARE(capped.size(), 2);
    }

    // The finish_read_prefetched nested in a release (late-2026 builds) is no read: the first
    // reuse is the read pair after it, not the release's lease.
    void finishOfAReleaseIsNoReuse() {
        namespace l26 = lmct::test::late2026;
        using lmct::test::Mp;
        Mp keys;
        keys.map(1).str("keys").raw(l26::keyList(2));
        l26::Trace t;
        t.record(1.0, "reserve_write", keys.bytes)                         // 0
            .record(1.001, "finish_write", keys.bytes)                     // 1
            .record(2.0, "submit_prefetch_task", keys.bytes)               // 2
            .release(2.1, l26::Handle{}, 2)                                // 3, 4 (nested finish)
            .record(3.0, "read_prefetched_results.__enter__", keys.bytes)  // 5
            .record(3.01, "read_prefetched_results.__exit__", keys.bytes)  // 6
            .record(3.02, "finish_read_prefetched", l26::finishReadArgs(2));  // 7: of the read
        QTemporaryDir dir;
        const QString path = lmct::test::writeFile(dir, QStringLiteral("t.lct"), t.bytes());
        QString error;
        const auto doc = TraceLoader::load(path, &error);
        QVERIFY2(doc, qPrintable(error));
        const std::vector<int> all = {0, 1, 2, 3, 4, 5, 6, 7};
        QCOMPARE(FollowedTrail::notReads(*doc, all), (std::vector<int>{4, 7}));
        const FollowedTrail ft = FollowedTrail::build(
            doc->records(), all, FollowedTrail::kDefaultCap, FollowedTrail::notReads(*doc, all));
        QCOMPARE(ft.size(), 8);
        QCOMPARE(ft.events()[4].meaning, FollowedTrail::Meaning::None);
        QCOMPARE(ft.events()[5].meaning, FollowedTrail::Meaning::FirstReuse);
        QCOMPARE(ft.events()[5].figure, 3.0 - 1.001);
        QCOMPARE(ft.events()[7].meaning, FollowedTrail::Meaning::None);
        // without the placement the nested finish would be the first reuse
        const FollowedTrail naive = FollowedTrail::build(doc->records(), all);
        QCOMPARE(naive.events()[4].meaning, FollowedTrail::Meaning::FirstReuse);
    }
};

QTEST_GUILESS_MAIN(TstFollowedTrail)
#include "tst_followedtrail.moc"
