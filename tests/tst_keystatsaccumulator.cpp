// KeyStatsAccumulator on its own: counts, write latency from the first open reservation, first
// reuse after the first finish_write, reservedAgain, attached finishes that are no reads, and the
// state decided from the stats.

#include "cache/keyanalysis.h"
#include "cache/keystatsaccumulator.h"

#include <QtTest>
#include <cmath>

using namespace lmct;

namespace {

using Key = KeyAnalysis::Key;
using Call = KeyAnalysis::Call;
using State = KeyAnalysis::State;
using Role = KeyAnalysis::FinishRole;

}  // namespace

class TestKeyStatsAccumulator : public QObject {
    Q_OBJECT
private slots:
    void statsWriteLatencyReuseAndState();
    void statsReservedAgainAndAbort();
    void statsAttachedFinishIsNoRead();
};

void TestKeyStatsAccumulator::statsWriteLatencyReuseAndState() {
    KeyStatsAccumulator s;
    Key k;
    QCOMPARE(KeyStatsAccumulator::stateOf(k), State::PrefetchedOnly);
    s.add(k, 0, Call::Prefetch, Role::Read, 1, 0.5);
    s.add(k, 0, Call::ReadEnter, Role::Read, 2, 0.75);  // before any write: no reuse
    s.add(k, 0, Call::Reserve, Role::Read, 3, 1.0);
    s.add(k, 0, Call::ReserveWithStatus, Role::Read, 4, 1.5);  // keeps the first reservation
    QCOMPARE(KeyStatsAccumulator::stateOf(k), State::ReservedOnly);
    s.add(k, 0, Call::Finish, Role::Read, 5, 3.0);
    QCOMPARE(k.writeLatency, 2.0);
    QCOMPARE(k.firstFinishT, 3.0);
    QVERIFY(std::isnan(k.firstReuse));
    QCOMPARE(KeyStatsAccumulator::stateOf(k), State::Written);
    s.add(k, 0, Call::FinishRead, Role::Read, 6, 4.25);
    s.add(k, 0, Call::ReadEnter, Role::Read, 7, 9.0);
    QCOMPARE(k.firstReuse, 1.25);
    QCOMPARE(KeyStatsAccumulator::stateOf(k), State::WrittenRead);
    QCOMPARE(k.reserves, 2u);
    QCOMPARE(k.finishes, 1u);
    QCOMPARE(k.prefetches, 1u);
    QCOMPARE(k.readEnters, 2u);
    QCOMPARE(k.finishReads, 1u);
    QCOMPARE(k.reads(), 3u);
    QCOMPARE(k.firstRecord, 1);
    QCOMPARE(k.firstT, 0.5);
    KeyStatsAccumulator::touch(k, 9, 10.0);
    QCOMPARE(k.lastRecord, 9);
    QCOMPARE(k.lastT, 10.0);
    QCOMPARE(k.reads(), 3u);
    // A finish_write never reserved here has no write latency.
    Key w;
    s.add(w, 5, Call::Finish, Role::Read, 1, 1.0);
    QVERIFY(std::isnan(w.writeLatency));
}

void TestKeyStatsAccumulator::statsReservedAgainAndAbort() {
    KeyStatsAccumulator s;
    Key k;
    s.add(k, 3, Call::Reserve, Role::Read, 1, 1.0);
    s.add(k, 3, Call::Abort, Role::Read, 2, 2.0);
    QCOMPARE(KeyStatsAccumulator::stateOf(k), State::Aborted);
    s.add(k, 3, Call::Reserve, Role::Read, 3, 4.0);  // a new reservation after the abort
    s.add(k, 3, Call::Finish, Role::Read, 4, 4.5);
    QCOMPARE(k.writeLatency, 0.5);
    QVERIFY(!k.reservedAgain);
    s.add(k, 3, Call::Reserve, Role::Read, 5, 6.0);
    QVERIFY(k.reservedAgain);
    s.add(k, 3, Call::Abort, Role::Read, 6, 7.0);
    QVERIFY(!k.reservedAgain);
    QCOMPARE(k.writeLatency, 0.5);
    QCOMPARE(KeyStatsAccumulator::stateOf(k), State::Written);
}

void TestKeyStatsAccumulator::statsAttachedFinishIsNoRead() {
    KeyStatsAccumulator s;
    Key k;
    s.add(k, 0, Call::Finish, Role::Read, 1, 1.0);
    s.add(k, 0, Call::FinishRead, Role::OfRelease, 2, 2.0);
    s.add(k, 0, Call::FinishRead, Role::OfRead, 3, 3.0);
    QCOMPARE(k.finishReads, 0u);
    QVERIFY(std::isnan(k.firstReuse));
    QCOMPARE(k.lastRecord, 3);
    QCOMPARE(KeyStatsAccumulator::stateOf(k), State::Written);
}

QTEST_GUILESS_MAIN(TestKeyStatsAccumulator)
#include "tst_keystatsaccumulator.moc"
