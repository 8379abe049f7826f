// TraceSetFilter and CombinedRecordTableModel: one filter over a deployment's traces (the
// `trace` field by label, instance and number) and its rows of the merged order, checked
// against a reference worked out here; the combined table's rows, columns and look-ups under
// QAbstractItemModelTester, as the merge grows, when a filter keeps some rows, narrowed to a
// time range on the aligned t_wall axis and sorted by its columns.

#include "combinefixture.h"
#include "filter/tracesetfilter.h"
#include "itemmodels/combinedrecordtablemodel.h"
#include "trace/traceloader.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>
#include <algorithm>
#include <memory>

using namespace lmct;
using namespace lmct::test;

namespace {

struct Fleet {
    std::vector<double> starts{1000.0, 1000.002, 1000.004};
    std::vector<std::vector<double>> walls;
    TraceSet set;
    explicit Fleet(int n = 40) {
        walls.resize(3);
        for (int i = 0; i < n; ++i) {
            walls[0].push_back(1000.0 + 0.003 * (i + 1));
            walls[1].push_back(1000.002 + 0.0031 * (i + 1));
            walls[2].push_back(1000.004 + 0.0029 * (i + 1));
        }
        set.add(loadTrace(combineTrace(starts[0], walls[0], QStringLiteral("vllm-0")),
                          QStringLiteral("a.lct")));
        set.add(loadTrace(combineTrace(starts[1], walls[1], QStringLiteral("vllm-1"), 1000),
                          QStringLiteral("b.lct")));
        set.add(
            loadTrace(combineTrace(starts[2], walls[2], QString(), 2000), QStringLiteral("c.lct")));
    }
};

/** The rows of `order` whose (trace, record) satisfies `keep`, worked out row by row. */
template <typename Keep>
std::vector<qint64> expectedRows(const MergedOrder &order, Keep keep) {
    std::vector<qint64> rows;
    for (qint64 i = 0; i < order.size(); ++i) {
        if (keep(order.traceAt(i), order.recordAt(i))) {
            rows.push_back(i);
        }
    }
    return rows;
}

}  // namespace

class TestTraceSetFilter : public QObject {
    Q_OBJECT

private slots:
    void traceField() {
        Fleet f;
        const MergedOrder order = MergedOrder::build(f.set);
        QCOMPARE(order.size(), 120);
        const auto run = [&](const char *text) {
            const FilterExpression e = FilterExpression::parse(QString::fromUtf8(text));
            if (!e.isValid()) {
                qWarning() << e.errorString();
            }
            return TraceSetFilter::run(f.set, order, e);
        };
        const auto byLabel = run("trace == \"b.lct\"");
        QCOMPARE(byLabel.rows, expectedRows(order, [](int t, int) { return t == 1; }));
        QCOMPARE(byLabel.perTrace.size(), size_t(3));
        QCOMPARE(byLabel.perTrace[1]->size(), size_t(40));
        QVERIFY(byLabel.perTrace[0]->empty());
        const auto byInstance = run("trace == \"vllm-0\"");
        QCOMPARE(byInstance.rows, expectedRows(order, [](int t, int) { return t == 0; }));
        const auto byNumber = run("trace == 2 || index < 3");
        QCOMPARE(byNumber.rows, expectedRows(order, [](int t, int r) { return t == 2 || r < 3; }));
        // the fixture alternates reserve_write (even seeds) and finish_write
        const auto calls = run("call == finish_write && trace != \"c.lct\"");
        QCOMPARE(calls.rows, expectedRows(order, [&](int t, int r) {
                     return t != 2 && f.set.document(t).records().qualname(r).endsWith(
                                          QLatin1String("finish_write"));
                 }));
        QVERIFY(!calls.rows.empty());
    }

    void rowsOfAGrownOrder() {
        Fleet f;
        MergedOrder order = MergedOrder::build(f.set);
        const auto r = TraceSetFilter::run(f.set, order, FilterExpression::parse("index >= 38"));
        QCOMPARE(r.rows.size(), size_t(6));
        f.set.setOffset(2, -0.05);  // c first: its rows move, the matches stay
        order.update(f.set);
        const auto rows = TraceSetFilter::rowsOf(order, r.perTrace);
        QCOMPARE(rows, expectedRows(order, [](int, int rec) { return rec >= 38; }));
        QCOMPARE(order.traceAt(0), 2);
    }

    void cancelled() {
        Fleet f;
        const MergedOrder order = MergedOrder::build(f.set);
        std::atomic_bool cancel{true};
        TraceSetFilter::Options o;
        o.cancel = &cancel;
        const auto r = TraceSetFilter::run(f.set, order, FilterExpression::parse("index > 1"), o);
        QVERIFY(r.cancelled);
        QVERIFY(r.rows.empty());
    }

    void combinedTable() {
        Fleet f;
        f.set.setOffset(1, -0.002);
        auto order = std::make_shared<const MergedOrder>(MergedOrder::build(f.set));
        CombinedRecordTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTraces(f.set, order);
        QCOMPARE(model.rowCount(), 120);
        QCOMPARE(model.columnCount(), int(CombinedRecordTableModel::ColumnCount));
        const auto want = referenceOrder(f.starts, f.walls, {0.0, -0.002, 0.0});
        for (int row = 0; row < 120; ++row) {
            QCOMPARE(model.traceAt(row), want[size_t(row)].first);
            QCOMPARE(model.recordAt(row), want[size_t(row)].second);
            QCOMPARE(model.rowOf(want[size_t(row)].first, want[size_t(row)].second), row);
        }
        const QModelIndex trace = model.index(0, CombinedRecordTableModel::TraceColumn);
        QCOMPARE(trace.data().toString(), f.set.displayLabel(model.traceAt(0)));
        QCOMPARE(model.index(0, CombinedRecordTableModel::TraceColumn)
                     .data(CombinedRecordTableModel::TraceRole),
                 QVariant(model.traceAt(0)));
        // the aligned t_wall: its own plus the offset
        for (int row = 0; row < 120; ++row) {
            const int t = model.traceAt(row), r = model.recordAt(row);
            const double wall = model.index(row, CombinedRecordTableModel::TWallColumn)
                                    .data(CombinedRecordTableModel::AlignedWallRole)
                                    .toDouble();
            QCOMPARE(wall, f.set.document(t).records().tWall(r) + f.set.offset(t));
        }
        QVERIFY(model.index(1, CombinedRecordTableModel::DeltaColumn).data().toString().size() > 0);
        QVERIFY(model.index(0, CombinedRecordTableModel::SummaryColumn).data().toString().size() >
                0);
        QVERIFY(
            model.headerData(CombinedRecordTableModel::TraceColumn, Qt::Horizontal).toString() ==
            QStringLiteral("Trace"));

        // a filter's rows
        auto rows = std::make_shared<const std::vector<qint64>>(
            TraceSetFilter::run(f.set, *order, FilterExpression::parse("trace == 0")).rows);
        model.setRows(rows);
        QCOMPARE(model.rowCount(), 40);
        for (int row = 0; row < 40; ++row) {
            QCOMPARE(model.traceAt(row), 0);
            QCOMPARE(model.recordAt(row), row);
            QCOMPARE(model.rowOf(0, row), row);
        }
        QCOMPARE(model.rowOf(1, 0), -1);
        model.setRows(nullptr);
        QCOMPARE(model.rowCount(), 120);
        model.setWallUtc(true);
        QCOMPARE(model.headerData(CombinedRecordTableModel::TWallColumn, Qt::Horizontal).toString(),
                 QStringLiteral("t_wall (UTC)"));
    }

    void tableGrowsWithTheOrder() {
        Fleet f(3000);
        CombinedRecordTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        // an empty order first (what a tab shows until the first merge is in)
        model.setTraces(f.set, std::make_shared<const MergedOrder>());
        QCOMPARE(model.rowCount(), 0);
        // a merge cancelled part way (a valid prefix), then brought up to date: rows appended
        std::atomic_bool cancel{false};
        MergedOrder::Options o;
        o.cancel = &cancel;
        o.progress = [&](qint64 done, qint64) { cancel = done > 0; };
        MergedOrder order = MergedOrder::build(f.set, o);
        QVERIFY(order.wasCancelled());
        QVERIFY(order.size() > 0 && order.size() < 9000);
        const int prefix = int(order.size());
        model.setOrder(f.set, std::make_shared<const MergedOrder>(order));
        QCOMPARE(model.rowCount(), prefix);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        order.update(f.set);
        model.setOrder(f.set, std::make_shared<const MergedOrder>(order));
        QCOMPARE(model.rowCount(), 9000);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted.first().at(1).toInt(), prefix);
        QCOMPARE(reset.count(), 0);
        // other offsets: a reset, all rows again in the new order
        f.set.setOffset(0, 100.0);
        model.setOrder(f.set, std::make_shared<const MergedOrder>(MergedOrder::build(f.set)));
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 9000);
        QCOMPARE(model.traceAt(8999), 0);
    }

    void tableNarrowsToTimeRange() {
        Fleet f;
        f.set.setOffset(1, -0.002);
        auto order = std::make_shared<const MergedOrder>(MergedOrder::build(f.set));
        CombinedRecordTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTraces(f.set, order);
        // the fixture's t_walls rise in each trace: a record's merge key is its aligned t_wall
        const auto aligned = [&](int t, int r) {
            return f.walls[size_t(t)][size_t(r)] + f.set.offset(t);
        };
        const double from = aligned(1, 10), to = aligned(0, 31);  // both ends on a record
        const auto inRange = [&](int t, int r) {
            return aligned(t, r) >= from && aligned(t, r) <= to;
        };
        model.setTimeRange(CombinedRecordTableModel::WallRange{from, to});
        const auto want = expectedRows(*order, inRange);
        QVERIFY(want.size() > 20 && want.size() < 100);
        QCOMPARE(model.rowCount(), int(want.size()));
        for (int row = 0; row < model.rowCount(); ++row) {
            QCOMPARE(model.mergedRowAt(row), want[size_t(row)]);
            QCOMPARE(model.rowOf(model.traceAt(row), model.recordAt(row)), row);
            QCOMPARE(model.index(row, CombinedRecordTableModel::RowColumn).data().toLongLong(),
                     want[size_t(row)]);
        }
        QCOMPARE(model.traceAt(0), 1);
        QCOMPARE(model.recordAt(0), 10);
        QCOMPARE(model.traceAt(model.rowCount() - 1), 0);
        QCOMPARE(model.recordAt(model.rowCount() - 1), 31);
        QCOMPARE(model.rowOf(0, 0), -1);   // before the range
        QCOMPARE(model.rowOf(2, 39), -1);  // after it
        // with a filter: the rows of both
        auto rows = std::make_shared<const std::vector<qint64>>(
            TraceSetFilter::run(f.set, *order, FilterExpression::parse("trace != 1")).rows);
        model.setRows(rows);
        const auto both =
            expectedRows(*order, [&](int t, int r) { return t != 1 && inRange(t, r); });
        QCOMPARE(model.rowCount(), int(both.size()));
        for (int row = 0; row < model.rowCount(); ++row) {
            QCOMPARE(model.mergedRowAt(row), both[size_t(row)]);
            QCOMPARE(model.rowOf(model.traceAt(row), model.recordAt(row)), row);
        }
        QCOMPARE(model.rowOf(1, 20), -1);
        // a range without records, then none
        model.setTimeRange(CombinedRecordTableModel::WallRange{2000.0, 2001.0});
        QCOMPARE(model.rowCount(), 0);
        model.setRows(nullptr);
        QCOMPARE(model.rowCount(), 0);
        model.setTimeRange(std::nullopt);
        QCOMPARE(model.rowCount(), 120);
    }

    void tableInRangeGrowsWithTheOrder() {
        Fleet f(3000);
        CombinedRecordTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const double from = f.walls[1][100], to = f.walls[2][2500];
        model.setTimeRange(CombinedRecordTableModel::WallRange{from, to});
        model.setTraces(f.set, std::make_shared<const MergedOrder>());
        QCOMPARE(model.rowCount(), 0);
        std::atomic_bool cancel{false};
        MergedOrder::Options o;
        o.cancel = &cancel;
        o.progress = [&](qint64 done, qint64) { cancel = done > 0; };
        MergedOrder order = MergedOrder::build(f.set, o);
        QVERIFY(order.wasCancelled());
        model.setOrder(f.set, std::make_shared<const MergedOrder>(order));
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        order.update(f.set);
        model.setOrder(f.set, std::make_shared<const MergedOrder>(order));
        QCOMPARE(reset.count(), 0);  // grown at the end: rows inserted
        const auto want = expectedRows(order, [&](int t, int r) {
            const double w = f.walls[size_t(t)][size_t(r)];
            return w >= from && w <= to;
        });
        QCOMPARE(model.rowCount(), int(want.size()));
        QCOMPARE(model.mergedRowAt(0), want.front());
        QCOMPARE(model.mergedRowAt(model.rowCount() - 1), want.back());
    }

    void tableSorts() {
        Fleet f;
        f.set.setOffset(2, -0.001);
        auto order = std::make_shared<const MergedOrder>(MergedOrder::build(f.set));
        CombinedRecordTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTraces(f.set, order);
        using Key = std::pair<int, int>;
        const auto rowsNow = [&] {
            std::vector<Key> out;
            for (int row = 0; row < model.rowCount(); ++row) {
                out.emplace_back(model.traceAt(row), model.recordAt(row));
                if (model.rowOf(out.back().first, out.back().second) != row) {
                    qWarning() << "rowOf disagrees at" << row;
                    return std::vector<Key>();
                }
            }
            return out;
        };
        const std::vector<Key> merged = rowsNow();
        QCOMPARE(merged.size(), size_t(120));
        // a selection follows its record through the sort
        const int pick = model.rowOf(1, 7);
        QPersistentModelIndex held(model.index(pick, CombinedRecordTableModel::CallColumn));

        // by trace: the traces by label, each in its file order (stable: ties keep the merge)
        model.sort(CombinedRecordTableModel::TraceColumn, Qt::AscendingOrder);
        std::vector<Key> want;
        for (int t = 0; t < 3; ++t) {
            for (int r = 0; r < 40; ++r) {
                want.emplace_back(t, r);
            }
        }
        QCOMPARE(rowsNow(), want);
        QCOMPARE(model.traceAt(held.row()), 1);
        QCOMPARE(model.recordAt(held.row()), 7);
        QCOMPARE(held.column(), int(CombinedRecordTableModel::CallColumn));
        model.sort(CombinedRecordTableModel::TraceColumn, Qt::DescendingOrder);
        std::reverse(want.begin(), want.end());
        QCOMPARE(rowsNow(), want);
        QCOMPARE(model.traceAt(held.row()), 1);
        QCOMPARE(model.recordAt(held.row()), 7);

        // by aligned t_wall: the merge order here (the t_walls rise), and its reverse
        model.sort(CombinedRecordTableModel::TWallColumn, Qt::AscendingOrder);
        QCOMPARE(rowsNow(), merged);
        model.sort(CombinedRecordTableModel::TWallColumn, Qt::DescendingOrder);
        QCOMPARE(rowsNow(), std::vector<Key>(merged.rbegin(), merged.rend()));
        for (int row = 1; row < model.rowCount(); ++row) {
            QVERIFY(model.index(row - 1, 0)
                        .data(CombinedRecordTableModel::AlignedWallRole)
                        .toDouble() >=
                    model.index(row, 0).data(CombinedRecordTableModel::AlignedWallRole).toDouble());
        }

        // by call: reserve_write after finish_write, each in merge order
        model.sort(CombinedRecordTableModel::CallColumn, Qt::AscendingOrder);
        want.clear();
        for (const char *call : {"finish_write", "reserve_write"}) {
            for (const Key &k : merged) {
                if (f.set.document(k.first).records().qualname(k.second).endsWith(
                        QLatin1String(call))) {
                    want.push_back(k);
                }
            }
        }
        QCOMPARE(rowsNow(), want);

        // by record index: ties in merge order
        model.sort(CombinedRecordTableModel::IndexColumn, Qt::AscendingOrder);
        want = merged;
        std::stable_sort(want.begin(), want.end(),
                         [](const Key &a, const Key &b) { return a.second < b.second; });
        QCOMPARE(rowsNow(), want);

        // the sort is kept through a filter and a range
        auto rows = std::make_shared<const std::vector<qint64>>(
            TraceSetFilter::run(f.set, *order, FilterExpression::parse("index < 5")).rows);
        model.setRows(rows);
        QCOMPARE(model.rowCount(), 15);
        for (int row = 0; row < 15; ++row) {
            QCOMPARE(model.recordAt(row), row / 3);
        }
        model.setTimeRange(CombinedRecordTableModel::WallRange{f.walls[0][2], 2000.0});
        std::vector<Key> kept = rowsNow();
        QVERIFY(!kept.empty());
        QVERIFY(std::is_sorted(kept.begin(), kept.end(),
                               [](const Key &a, const Key &b) { return a.second < b.second; }));
        for (const Key &k : kept) {
            QVERIFY(f.walls[size_t(k.first)][size_t(k.second)] + f.set.offset(k.first) >=
                    f.walls[0][2]);
        }
        // Row: the merge order again, no permutation
        model.setRows(nullptr);
        model.setTimeRange(std::nullopt);
        model.sort(CombinedRecordTableModel::RowColumn, Qt::AscendingOrder);
        QCOMPARE(rowsNow(), merged);
        for (int c = 0; c < CombinedRecordTableModel::ColumnCount; ++c) {
            model.sort(c, Qt::DescendingOrder);
            QCOMPARE(int(rowsNow().size()), 120);
        }
    }
};

QTEST_GUILESS_MAIN(TestTraceSetFilter)
#include "tst_tracesetfilter.moc"
