// FollowedTrail: the followed key's records in time order, with the meanings of their gaps.

#include "followedtrail.h"
#include "keylifecyclerules.h"
#include "timeformat.h"

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
};

QTEST_GUILESS_MAIN(TstFollowedTrail)
#include "tst_followedtrail.moc"
