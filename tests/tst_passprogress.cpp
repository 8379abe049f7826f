// PassProgress: chunk ranges, cancel, and progress at most once a percent, in both forms.

#include "util/parallelchunks.h"
#include "util/passprogress.h"

#include <QThreadPool>
#include <QtTest>

using namespace lmct;

class TestPassProgress : public QObject {
    Q_OBJECT
private slots:
    void chunksCoverTheTotal();
    void countsInParallel();
    void percentInASerialLoop();
    void cancelStopsASerialLoop();
};

void TestPassProgress::chunksCoverTheTotal() {
    using Ranges = std::vector<std::pair<qint64, qint64>>;
    QCOMPARE(PassProgress::chunks(10, 4), (Ranges{{0, 4}, {4, 8}, {8, 10}}));
    QCOMPARE(PassProgress::chunks(8, 4), (Ranges{{0, 4}, {4, 8}}));
    QCOMPARE(PassProgress::chunks(3, 100), (Ranges{{0, 3}}));
    QVERIFY(PassProgress::chunks(0, 4).empty());
}

void TestPassProgress::countsInParallel() {
    const qint64 total = 100000;
    std::vector<std::pair<qint64, qint64>> reports;
    PassProgress p(total, nullptr, [&](qint64 done, qint64 t) { reports.emplace_back(done, t); });
    const auto chunks = PassProgress::chunks(total, 100);
    QThreadPool pool;
    pool.setMaxThreadCount(4);
    ParallelChunks::run(
        int(chunks.size()),
        [&](int i) { p.add(chunks[size_t(i)].second - chunks[size_t(i)].first); }, &pool);
    QVERIFY(!reports.empty());
    QVERIFY(reports.size() <= 100);  // at most once a percent
    for (size_t i = 0; i < reports.size(); ++i) {
        QCOMPARE(reports[i].second, total);
        QVERIFY(reports[i].first < total);  // the end is finish()'s to say
        if (i > 0) {
            QVERIFY(reports[i].first - reports[i - 1].first >= total / 100);
        }
    }
    p.finish();
    QCOMPARE(reports.back(), std::make_pair(total, total));
}

void TestPassProgress::percentInASerialLoop() {
    const int total = 0x1000 * 300;
    QList<int> percents;
    PassProgress p(total, nullptr, [&](int percent) { percents << percent; });
    for (int i = 0; i < total; ++i) {
        QVERIFY(p.at(i));
    }
    p.finish();
    QCOMPARE(percents.first(), 0);
    QCOMPARE(percents.last(), 100);
    for (int i = 1; i < percents.size(); ++i) {
        QVERIFY(percents[i] > percents[i - 1]);  // each percent once
    }
    QCOMPARE(percents.size(), 101);
}

void TestPassProgress::cancelStopsASerialLoop() {
    std::atomic_bool cancel{false};
    int reports = 0;
    PassProgress p(1 << 20, &cancel, [&](int) { ++reports; });
    QVERIFY(!p.cancelled());
    QVERIFY(p.at(0));
    cancel = true;
    QVERIFY(p.cancelled());
    QVERIFY(p.at(1));  // checked every 0x1000 items only
    QVERIFY(!p.at(0x1000));
    QCOMPARE(reports, 1);
    PassProgress none(10, nullptr, PassProgress::Percent());
    QVERIFY(!none.cancelled());
    QVERIFY(none.at(0));
    none.finish();  // no callback: nothing to call
}

QTEST_GUILESS_MAIN(TestPassProgress)
#include "tst_passprogress.moc"
