#pragma once

#include "trace/mergedorder.h"
#include "trace/traceset.h"

#include <QAbstractTableModel>
#include <memory>
#include <optional>
#include <vector>

namespace lmct {

/**
 * The combined record table of one deployment: the records of every trace of a TraceSet
 * interleaved by aligned `t_wall` (a MergedOrder), or only the rows a filter kept.
 *
 * Columns: Row (the row of the merged order), Trace (TraceSet::displayLabel: file name and
 * instance), # (record index in its trace, file order), t_wall (the record's t_wall plus its
 * trace's offset: the common axis, local date-time or UTC, ms), Δt (aligned t_wall minus the
 * previous merged row's), t_mono (the trace's own, seconds since its start), Call (short
 * qualname) and Summary (RecordSummary of the decoded arguments, through the document's cache).
 *
 * Shown rows: the merged order's, or only those a filter kept (setRows()), and of those only
 * the ones inside a time range on the aligned t_wall axis (setTimeRange()). The range takes the
 * rows whose merge key (MergedOrder: the aligned t_wall, or for a t_wall that stepped back the
 * latest before it) lies in it: one span of the merge, found by two binary searches, so a range
 * costs nothing per row.
 *
 * Sorting (sort(), a header click): by the model itself, a permutation of the shown rows (4
 * bytes a row; none in merge order), stable, so ties keep the merge order. Row and Summary sort
 * by merged row; t_wall by the aligned t_wall (NaN first); Trace by label; #, Δt and t_mono by
 * their values; Call by short qualname. Persistent indexes (a view's selection) follow their
 * records through a sort. setRows(), setTimeRange() and a new order keep the sort.
 *
 * Growing documents: setOrder() with an order that extends the shown one (same traces and
 * offsets, no rebuild, no filter) appends the new rows in range (moved into place with a
 * layout change when sorted); any other order resets the model.
 *
 * Roles: TraceRole (int), RecordRole (int record index in its trace), MergedRowRole (qint64),
 * AlignedWallRole (double, Unix seconds).
 *
 * Ownership: shares the order and the rows; copies the set (sharing its documents).
 * Thread-safety: GUI thread only.
 */
class CombinedRecordTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        RowColumn,
        TraceColumn,
        IndexColumn,
        TWallColumn,
        DeltaColumn,
        TMonoColumn,
        CallColumn,
        SummaryColumn,
        ColumnCount
    };
    enum Role { TraceRole = Qt::UserRole + 1, RecordRole, MergedRowRole, AlignedWallRole };

    explicit CombinedRecordTableModel(QObject *parent = nullptr);

    /** Shows every row of `order`, built for `set` (resets; drops the rows of a filter). */
    void setTraces(const TraceSet &set, std::shared_ptr<const MergedOrder> order);
    /**
     * A newer order of the same set: appends when it extends the shown one (no filter), else
     * resets. With a filter, the caller hands the filter's rows over again (setRows()).
     */
    void setOrder(const TraceSet &set, std::shared_ptr<const MergedOrder> order);
    /** Shows only these rows of the order (ascending), or every row when null. */
    void setRows(std::shared_ptr<const std::vector<qint64>> rows);
    bool hasRows() const { return m_rows != nullptr; }
    void setWallUtc(bool utc);

    /** A span of the common axis: aligned t_wall, Unix seconds, both ends included. */
    struct WallRange {
        double from = 0.0;
        double to = 0.0;
        bool operator==(const WallRange &o) const { return from == o.from && to == o.to; }
    };
    /** Shows only the rows whose merge key lies in `range` (none: no narrowing); resets. */
    void setTimeRange(std::optional<WallRange> range);
    std::optional<WallRange> timeRange() const { return m_range; }

    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

    const TraceSet &set() const { return m_set; }
    std::shared_ptr<const MergedOrder> order() const { return m_order; }
    /** The merged order's row shown at `row`; -1 when out of range. */
    qint64 mergedRowAt(int row) const;
    int traceAt(int row) const;
    int recordAt(int row) const;
    /** The table row of record `record` of trace `t`, or -1 when not shown. */
    int rowOf(int t, int record) const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    /** The span of the shown rows for the order, filter and range (m_lo … m_shown). */
    void computeSpan();
    /** The merged row at position `p` of the shown rows in merge order. */
    qint64 baseAt(int p) const { return m_rows ? (*m_rows)[size_t(m_a + p)] : m_lo + p; }
    /** Whether the sort is the merge order itself (Row or Summary, ascending). */
    bool inMergeOrder() const {
        return (m_sortColumn == RowColumn || m_sortColumn == SummaryColumn) &&
               m_sortOrder == Qt::AscendingOrder;
    }
    /** The permutation for the current sort (empty: merge order). */
    void rebuildSort();
    /** Rebuilds the sort as a layout change, moving persistent indexes with their rows. */
    void relayout();

    TraceSet m_set;
    std::shared_ptr<const MergedOrder> m_order;
    std::shared_ptr<const std::vector<qint64>> m_rows;
    std::optional<WallRange> m_range;
    int m_count = 0;                 // rows of the order (its size when set, capped)
    qint64 m_lo = 0;                 // first merged row in the range
    qint64 m_hi = 0;                 // one past the last merged row in the range
    qint64 m_a = 0;                  // with a filter: its first row in [m_lo, m_hi)
    int m_shown = 0;                 // rows shown
    std::vector<int> m_perm;         // table row -> shown position; empty: identity
    mutable std::vector<int> m_inv;  // lazily built inverse of m_perm
    int m_sortColumn = RowColumn;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    bool m_wallUtc = false;
};

}  // namespace lmct
