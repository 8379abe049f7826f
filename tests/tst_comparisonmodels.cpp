// The Compare pane's item models over a TraceComparison of generated pairs: what each cell
// shows and sorts by, the reasons and highlights, under QAbstractItemModelTester.

#include "compare/tracecomparison.h"
#include "comparefixture.h"
#include "itemmodels/cachecomparisonmodel.h"
#include "itemmodels/callcomparisonmodel.h"
#include "itemmodels/configcomparisonmodel.h"
#include "itemmodels/keyoverlapmodel.h"
#include "itemmodels/latencycomparisonmodel.h"
#include "util/timeformat.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace lmct;
using namespace lmct::test;

namespace {

struct Pair {
    std::shared_ptr<TraceDocument> a, b;
    std::shared_ptr<const TraceComparison> c;
};

Pair comparePair(const WorkloadSpec &sa, const WorkloadSpec &sb) {
    Pair p;
    p.a = loadWorkload(makeWorkload(sa), QStringLiteral("a.lct"));
    p.b = loadWorkload(makeWorkload(sb), QStringLiteral("b.lct"));
    if (p.a && p.b) {
        TraceComparison::Options o;
        o.policies = {CachePolicy::Kind::Lru};
        p.c = TraceComparison::run(*p.a, *p.b, o);
    }
    return p;
}

/** The first row whose `column` shows `text` (or whose GroupRole is it, for the group). */
int findRow(const QAbstractItemModel &m, int column, const QString &text, int from = 0) {
    for (int r = from; r < m.rowCount(); ++r) {
        if (m.index(r, column).data().toString() == text ||
            (column == 0 && m.index(r, 0).data(FigureTableModel::GroupRole).toString() == text)) {
            return r;
        }
    }
    return -1;
}

QString cell(const QAbstractItemModel &m, int row, int column) {
    return m.index(row, column).data().toString();
}

}  // namespace

class TestComparisonModels : public QObject {
    Q_OBJECT

    Pair m_fewer;  // B: a quarter of the rounds, half the L1, FIFO

private slots:
    void initTestCase() {
        WorkloadSpec sa, sb;
        sb.rounds = 10;
        sb.l1Bytes /= 2;
        sb.policy = QStringLiteral("FIFO");
        m_fewer = comparePair(sa, sb);
        QVERIFY(m_fewer.c);
    }

    void callModel() {
        CallComparisonModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m.rowCount(), 0);
        m.setComparison(m_fewer.c);
        const auto &calls = m_fewer.c->calls().rows();
        QCOMPARE(m.rowCount(), int(calls.size()) * CallComparison::kFigureCount);
        QCOMPARE(m.columnCount(), FigureTableModel::kColumnCount);
        QCOMPARE(m.headerData(0, Qt::Horizontal).toString(), QStringLiteral("call"));
        const int submit =
            findRow(m, FigureTableModel::GroupColumn, QStringLiteral("submit_prefetch_task"));
        QVERIFY(submit >= 0);
        QCOMPARE(cell(m, submit, FigureTableModel::FigureColumn), QStringLiteral("count"));
        QCOMPARE(cell(m, submit, FigureTableModel::AColumn), QStringLiteral("40"));
        QCOMPARE(cell(m, submit, FigureTableModel::BColumn), QStringLiteral("10"));
        QCOMPARE(cell(m, submit, FigureTableModel::DeltaColumn), QStringLiteral("\u221230"));
        QCOMPARE(cell(m, submit, FigureTableModel::PercentColumn), QStringLiteral("\u221275.0 %"));
        QCOMPARE(m.index(submit, FigureTableModel::PercentColumn)
                     .data(FigureTableModel::SortRole)
                     .toDouble(),
                 -75.0);
        // Shares in percent, their difference in percentage points (they read 0.2500 where
        // the trace report and the Statistics pane say 25.0 %).
        int share = submit;
        while (cell(m, share, FigureTableModel::FigureColumn) != QStringLiteral("share")) {
            QVERIFY(++share < m.rowCount());
        }
        const double shareA =
            m.index(share, FigureTableModel::AColumn).data(FigureTableModel::SortRole).toDouble();
        QVERIFY(shareA > 0 && shareA < 1);
        QCOMPARE(cell(m, share, FigureTableModel::AColumn),
                 TimeFormat::fixed(shareA * 100, 1) + QStringLiteral(" %"));
        QVERIFY2(cell(m, share, FigureTableModel::DeltaColumn).endsWith(QStringLiteral(" pp")),
                 qPrintable(cell(m, share, FigureTableModel::DeltaColumn)));
        // The group is shown on its first row only.
        QCOMPARE(cell(m, submit + 1, FigureTableModel::GroupColumn), QString());
        QCOMPARE(m.index(submit + 1, 0).data(FigureTableModel::GroupRole).toString(),
                 QStringLiteral("submit_prefetch_task"));
        // The totals row is last.
        QVERIFY(m.index(m.rowCount() - 1, 0).data(FigureTableModel::IsTotalRole).toBool());
        QVERIFY(!m.index(0, 0).data(FigureTableModel::IsTotalRole).toBool());
        m.setComparison(nullptr);
        QCOMPARE(m.rowCount(), 0);
    }

    void callModelReason() {
        WorkloadSpec sa, sb;
        sb.prefetch = false;
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        CallComparisonModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setComparison(p.c);
        const int submit =
            findRow(m, FigureTableModel::GroupColumn, QStringLiteral("submit_prefetch_task"));
        QVERIFY(submit >= 0);
        QCOMPARE(m.index(submit + 1, FigureTableModel::BColumn).data().toString(),
                 QStringLiteral("\u2014"));  // rate unknown in B
        QCOMPARE(m.index(submit, 3).data(FigureTableModel::ReasonRole).toString(),
                 QStringLiteral("B has no submit_prefetch_task"));
        QCOMPARE(m.index(submit, 3).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("B has no submit_prefetch_task"));
    }

    void latencyModel() {
        LatencyComparisonModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setComparison(m_fewer.c);
        QCOMPARE(m.rowCount(), LatencyComparison::kKindCount * 4);
        const LatencyComparison::Row &ttr =
            m_fewer.c->latencies().row(LatencyComparison::Kind::TimeToRead);
        const int row = findRow(m, FigureTableModel::GroupColumn,
                                LatencyComparison::kindLabel(LatencyComparison::Kind::TimeToRead));
        QVERIFY(row >= 0);
        QCOMPARE(cell(m, row, FigureTableModel::FigureColumn), QStringLiteral("n"));
        QCOMPARE(cell(m, row, FigureTableModel::AColumn), QString::number(ttr.a.n));
        QCOMPARE(cell(m, row + 2, FigureTableModel::FigureColumn), QStringLiteral("p95"));
        QCOMPARE(
            m.index(row + 2, FigureTableModel::BColumn).data(FigureTableModel::SortRole).toDouble(),
            ttr.b.p95);
        QCOMPARE(cell(m, row + 3, FigureTableModel::AColumn), TimeFormat::duration(ttr.a.max));
    }

    void cacheModel() {
        CacheComparisonModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setComparison(m_fewer.c);
        const CacheComparison &k = m_fewer.c->cache();
        const int hit =
            findRow(m, FigureTableModel::FigureColumn, QStringLiteral("prefetch hit ratio"));
        QVERIFY(hit >= 0);
        QCOMPARE(
            m.index(hit, FigureTableModel::AColumn).data(FigureTableModel::SortRole).toDouble(),
            k.a().atCapacity.hitRatio);
        QCOMPARE(cell(m, hit, FigureTableModel::AColumn),
                 TimeFormat::fixed(k.a().atCapacity.hitRatio * 100, 1) + QStringLiteral(" %"));
        const int chunks =
            findRow(m, FigureTableModel::FigureColumn, QStringLiteral("capacity (chunks)"));
        QCOMPARE(cell(m, chunks, FigureTableModel::AColumn), QStringLiteral("8"));
        QCOMPARE(cell(m, chunks, FigureTableModel::BColumn), QStringLiteral("4"));
        QCOMPARE(cell(m, chunks, FigureTableModel::PercentColumn), QStringLiteral("\u221250.0 %"));
        const int policy = findRow(m, FigureTableModel::FigureColumn, QStringLiteral("policy"));
        QCOMPARE(cell(m, policy, FigureTableModel::AColumn), QStringLiteral("LRU"));
        QCOMPARE(cell(m, policy, FigureTableModel::BColumn), QStringLiteral("FIFO"));
        QCOMPARE(cell(m, policy, FigureTableModel::DeltaColumn), QStringLiteral("differs"));
        const int lm =
            findRow(m, FigureTableModel::GroupColumn, QStringLiteral("LMCache's L1 prefix hits"));
        QVERIFY(lm >= 0);
        QVERIFY(m.index(lm, 2)
                    .data(FigureTableModel::ReasonRole)
                    .toString()
                    .contains(QStringLiteral("A has no release_prefetch_task")));
        const int gap = findRow(m, FigureTableModel::FigureColumn, QStringLiteral("gap"));
        QVERIFY(gap >= 0);
        QCOMPARE(cell(m, gap, FigureTableModel::AColumn), QStringLiteral("0"));
    }

    void cacheModelWhatIfRow() {
        CacheComparisonModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Both with prefetches: the hit ratio with every key resident, A and B.
        m.setComparison(m_fewer.c);
        const CacheComparison &k = m_fewer.c->cache();
        int row = findRow(m, FigureTableModel::GroupColumn, QStringLiteral("what-if"));
        QVERIFY(row >= 0);
        QCOMPARE(
            cell(m, row, FigureTableModel::FigureColumn),
            QStringLiteral("hit ratio, every key resident (%1 chunks)").arg(k.capacities().back()));
        const double a = k.a().whatIf->curves().front().prefetchHitRatio.back();
        QCOMPARE(
            m.index(row, FigureTableModel::AColumn).data(FigureTableModel::SortRole).toDouble(), a);
        QVERIFY(a > 0.0);
        QVERIFY(m.index(row, FigureTableModel::AColumn)
                    .data(FigureTableModel::ReasonRole)
                    .toString()
                    .isEmpty());

        // B without prefetches: "—" with the reason, not 0.
        WorkloadSpec sa, sb;
        sb.prefetch = false;
        const Pair none = comparePair(sa, sb);
        QVERIFY(none.c);
        m.setComparison(none.c);
        row = findRow(m, FigureTableModel::GroupColumn, QStringLiteral("what-if"));
        QVERIFY(row >= 0);
        QCOMPARE(cell(m, row, FigureTableModel::BColumn), QStringLiteral("—"));
        QCOMPARE(cell(m, row, FigureTableModel::DeltaColumn), QStringLiteral("—"));
        QVERIFY(std::isnan(
            m.index(row, FigureTableModel::BColumn).data(FigureTableModel::SortRole).toDouble()));
        QCOMPARE(
            m.index(row, FigureTableModel::BColumn).data(FigureTableModel::ReasonRole).toString(),
            QStringLiteral("B has no submit_prefetch_task"));
        QVERIFY(cell(m, row, FigureTableModel::AColumn) != QStringLiteral("—"));
    }

    void keyOverlapModel() {
        WorkloadSpec sa, sb;
        sb.model = QStringLiteral("meta-llama/Llama-3.1-8B");
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        KeyOverlapModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setComparison(p.c);
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(cell(m, 0, KeyOverlapModel::ModelColumn), QStringLiteral("Qwen/Qwen3-8B"));
        QCOMPARE(cell(m, 0, KeyOverlapModel::OnlyAColumn), QStringLiteral("16"));
        QCOMPARE(cell(m, 1, KeyOverlapModel::OnlyBColumn), QStringLiteral("16"));
        QCOMPARE(cell(m, 2, KeyOverlapModel::ModelColumn), QStringLiteral("all models"));
        QVERIFY(m.index(2, 0).data(KeyOverlapModel::IsTotalRole).toBool());
        QCOMPARE(
            m.index(2, KeyOverlapModel::BothColumn).data(KeyOverlapModel::SortRole).toLongLong(),
            0);
        QCOMPARE(m.index(0, 0).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("different models: A Qwen/Qwen3-8B, B meta-llama/Llama-3.1-8B"));
        QCOMPARE(m.reason(), m.index(0, 0).data(Qt::ToolTipRole).toString());
        m.setComparison(m_fewer.c);
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(cell(m, 0, KeyOverlapModel::BothColumn), QStringLiteral("16"));
        QVERIFY(!m.index(0, 0).data(Qt::ToolTipRole).isValid());
    }

    void configModel() {
        WorkloadSpec sa, sb;
        sb.l1Bytes /= 2;
        sb.shmName = QStringLiteral("lmcache_l1_pool_4242");
        const Pair p = comparePair(sa, sb);
        QVERIFY(p.c);
        ConfigComparisonModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setComparison(p.c->header());
        QCOMPARE(m.rowCount(), int(p.c->header().rows().size()));
        const int size = findRow(m, ConfigComparisonModel::FieldColumn,
                                 QStringLiteral("l1_manager_config.memory_config.size_in_bytes"));
        QVERIFY(size >= 0);
        QVERIFY(m.index(size, 0).data(ConfigComparisonModel::DiffersRole).toBool());
        QVERIFY(m.index(size, 0).data(ConfigComparisonModel::IsConfigRole).toBool());
        QCOMPARE(cell(m, size, ConfigComparisonModel::AColumn), QStringLiteral("1024"));
        QCOMPARE(cell(m, size, ConfigComparisonModel::BColumn), QStringLiteral("512"));
        QCOMPARE(cell(m, size, ConfigComparisonModel::DiffersColumn), QStringLiteral("differs"));
        const int shm = findRow(m, ConfigComparisonModel::FieldColumn,
                                QStringLiteral("l1_manager_config.memory_config.shm_name"));
        QVERIFY(shm >= 0);
        QVERIFY(!m.index(shm, 0).data(ConfigComparisonModel::DiffersRole).toBool());
        QVERIFY(m.index(shm, 0).data(ConfigComparisonModel::VolatileRole).toBool());
        QCOMPARE(cell(m, shm, ConfigComparisonModel::DiffersColumn), QStringLiteral("volatile"));
        QVERIFY(m.index(shm, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("PID")));
        const int level = findRow(m, ConfigComparisonModel::FieldColumn, QStringLiteral("level"));
        QVERIFY(level >= 0);
        QVERIFY(!m.index(level, 0).data(ConfigComparisonModel::IsConfigRole).toBool());
        QCOMPARE(cell(m, level, ConfigComparisonModel::AColumn), QStringLiteral("storage"));
        m.clear();
        QCOMPARE(m.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestComparisonModels)
#include "tst_comparisonmodels.moc"
