// ViewState::revealRecord: selects a record, clearing only a time range that hides it. The
// what-if's choice and hit ratio over time: set, signalled once per change, cleared with the
// document.

#include "testutil.h"
#include "trace/traceloader.h"
#include "viewstate.h"
#include "whatif/hitovertime.h"
#include "whatif/usesequence.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace lmct;
using namespace lmct::test;

class TestViewState : public QObject {
    Q_OBJECT
private slots:
    void revealRecord();
    void revealRecordWithoutDocument();
    void whatIfChoiceAndHitOverTime();
};

void TestViewState::revealRecord() {
    QTemporaryDir dir;
    const SmallTrace t = smallTrace(10);  // t_mono 0.001 .. 0.010 (+ a little), ascending
    QString error;
    const auto doc =
        TraceLoader::load(writeFile(dir, QStringLiteral("small.lct"), t.bytes), &error);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(doc->records().size(), 10);
    ViewState s;
    s.setDocument(doc);
    QSignalSpy range(&s, &ViewState::timeRangeChanged);
    QSignalSpy sel(&s, &ViewState::selectedRecordChanged);
    QStringList order;
    connect(&s, &ViewState::timeRangeChanged, this, [&] { order << QStringLiteral("range"); });
    connect(&s, &ViewState::selectedRecordChanged, this,
            [&] { order << QStringLiteral("selected"); });

    // Inside the range (bounds inclusive): the range stays.
    const ViewState::TimeRange r{t.tMono[2], t.tMono[5]};
    s.setTimeRange(r);
    range.clear();
    order.clear();
    QVERIFY(s.revealRecord(2));
    QVERIFY(s.revealRecord(5));
    QCOMPARE(s.selectedRecord(), 5);
    QCOMPARE(range.count(), 0);
    QCOMPARE(s.timeRange(), std::optional<ViewState::TimeRange>(r));

    // Outside: the range is cleared, then the record selected.
    order.clear();
    QVERIFY(s.revealRecord(8));
    QCOMPARE(s.selectedRecord(), 8);
    QVERIFY(!s.timeRange());
    QCOMPARE(order, (QStringList{QStringLiteral("range"), QStringLiteral("selected")}));

    // No range: only the selection changes.
    range.clear();
    QVERIFY(s.revealRecord(0));
    QCOMPARE(range.count(), 0);
    QCOMPARE(s.selectedRecord(), 0);

    // The filter is left alone.
    s.setFilterText(QStringLiteral("qualname ~ finish_write"));
    s.setFilterResult(QStringLiteral("qualname ~ finish_write"),
                      std::make_shared<const std::vector<int>>(std::vector<int>{1, 3}));
    QVERIFY(s.revealRecord(4));
    QVERIFY(s.filterRecords());
    QCOMPARE(s.filterText(), QStringLiteral("qualname ~ finish_write"));

    // Not a record: nothing changes.
    s.setTimeRange(r);
    sel.clear();
    range.clear();
    QVERIFY(!s.revealRecord(10));
    QVERIFY(!s.revealRecord(-1));
    QCOMPARE(sel.count(), 0);
    QCOMPARE(range.count(), 0);
    QCOMPARE(s.selectedRecord(), 4);
    QVERIFY(s.timeRange());
}

void TestViewState::revealRecordWithoutDocument() {
    ViewState s;
    QSignalSpy sel(&s, &ViewState::selectedRecordChanged);
    QVERIFY(!s.revealRecord(0));
    QCOMPARE(sel.count(), 0);
    QCOMPARE(s.selectedRecord(), -1);
}

void TestViewState::whatIfChoiceAndHitOverTime() {
    ViewState s;
    QSignalSpy chosen(&s, &ViewState::whatIfChoiceChanged);
    QSignalSpy hot(&s, &ViewState::hitOverTimeChanged);
    QCOMPARE(s.whatIfChoice(), ViewState::WhatIfChoice());
    QVERIFY(!s.hitOverTime());

    // The choice: signalled when it differs only.
    ViewState::WhatIfChoice c;
    c.capacity = 1024;
    c.policies = {CachePolicy::Kind::Lru, CachePolicy::Kind::Opt};
    s.setWhatIfChoice(c);
    QCOMPARE(s.whatIfChoice(), c);
    QCOMPARE(chosen.count(), 1);
    s.setWhatIfChoice(c);
    QCOMPARE(chosen.count(), 1);
    c.inBytes = true;
    s.setWhatIfChoice(c);
    QCOMPARE(chosen.count(), 2);
    QVERIFY(s.whatIfChoice().inBytes);

    // The hit ratio over time, handed over once built.
    const std::vector<quint32> keys{0, 1, 0, 1};
    const std::vector<quint8> kinds{UseSequence::Write, UseSequence::Write, UseSequence::Prefetch,
                                    UseSequence::Prefetch};
    const auto built =
        HitOverTime::build(UseSequence::fromKeys(keys, kinds), {CachePolicy::Kind::Lru}, 1, false);
    QVERIFY(built);
    s.setHitOverTime(built);
    QCOMPARE(s.hitOverTime(), built);
    QCOMPARE(hot.count(), 1);
    s.setHitOverTime(built);
    QCOMPARE(hot.count(), 1);

    // A new document clears both (and says so).
    QTemporaryDir dir;
    QString error;
    const auto doc =
        TraceLoader::load(writeFile(dir, QStringLiteral("small.lct"), smallTrace(3).bytes), &error);
    QVERIFY2(doc, qPrintable(error));
    s.setDocument(doc);
    QVERIFY(!s.hitOverTime());
    QCOMPARE(s.whatIfChoice(), ViewState::WhatIfChoice());
    QCOMPARE(hot.count(), 2);
    QCOMPARE(chosen.count(), 3);
    // (nothing to clear: no signal)
    s.setDocument(doc);
    QCOMPARE(hot.count(), 2);
    QCOMPARE(chosen.count(), 3);
}

QTEST_GUILESS_MAIN(TestViewState)
#include "tst_viewstate.moc"
