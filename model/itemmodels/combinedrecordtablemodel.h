#pragma once

#include "trace/mergedorder.h"
#include "trace/traceset.h"

#include <QAbstractTableModel>
#include <memory>
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
 * The order is the merge's: the table does not sort.
 *
 * Growing documents: setOrder() with an order that extends the shown one (same traces and
 * offsets, no rebuild) appends rows; any other order resets the model.
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

private:
    TraceSet m_set;
    std::shared_ptr<const MergedOrder> m_order;
    std::shared_ptr<const std::vector<qint64>> m_rows;
    int m_count = 0;  // rows shown without a filter (the order's size when set)
    bool m_wallUtc = false;
};

}  // namespace lmct
