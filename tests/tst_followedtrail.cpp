// FollowedTrail: the followed key's records in time order, with the meanings of their gaps.

#include "followedtrail.h"
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
