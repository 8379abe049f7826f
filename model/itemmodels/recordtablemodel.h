#pragma once

#include "trace/tracedocument.h"

#include <QAbstractTableModel>
#include <memory>
#include <vector>

namespace lmct {

/**
 * The record table: one row per record of a TraceDocument (or of a subset of it), in file order
 * unless sorted.
 *
 * Columns: # (record index in file order), t_mono (s, µs precision), Δt (t_mono minus the
 * previous record's in file order), t_wall (local date-time, ms), call (short qualname; the full
 * qualname is the tooltip), summary (RecordSummary of the decoded args).
 *
 * Sorting is done by the model itself (a permutation of record indices sorted from the columns),
 * not by a proxy, so it stays cheap at millions of rows; the summary column sorts by record index.
 * Summaries decode args on demand through TraceDocument's cache.
 *
 * Roles: RecordRole (int record index of the row), QualnameIdRole (uint), TMonoRole (double).
 * Thread-safety: GUI thread only.
 */
class RecordTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        IndexColumn,
        TMonoColumn,
        DeltaColumn,
        TWallColumn,
        CallColumn,
        SummaryColumn,
        ColumnCount
    };
    enum Role { RecordRole = Qt::UserRole + 1, QualnameIdRole, TMonoRole };

    explicit RecordTableModel(QObject *parent = nullptr);

    void setDocument(std::shared_ptr<const TraceDocument> doc);
    std::shared_ptr<const TraceDocument> document() const { return m_doc; }
    /**
     * Shows the records the document gained since the last call (progressive loading, live
     * follow): rows are inserted at the end in file order, or the order is rebuilt when sorted.
     * Without a subset only; a subset is replaced by its owner.
     *
     * In file order at most maxRowsPerRefresh() rows are inserted per call; the rest follow in
     * calls queued on the event loop (isCatchingUp() meanwhile). A view's header spends 13-60 ns
     * per inserted row on the GUI thread: 5 M new rows at once blocked it 76 ms while a 10 M
     * record trace loaded; 1 M per pass still 45 ms, 262 144 (the default) 32 ms.
     */
    void refresh();
    /** Rows inserted per refresh() at most (file order); default kMaxRowsPerRefresh. */
    int maxRowsPerRefresh() const { return m_maxRowsPerRefresh; }
    void setMaxRowsPerRefresh(int rows) { m_maxRowsPerRefresh = qMax(1, rows); }
    static constexpr int kMaxRowsPerRefresh = 1 << 18;
    /** Whether rows of records already in the document wait for a queued refresh(). */
    bool isCatchingUp() const { return m_refreshQueued; }

    /**
     * Shows only these record indices (ascending file order), or every record when `rows` is
     * null. Keeps the current sort.
     */
    void setSubset(std::shared_ptr<const std::vector<int>> rows);
    bool hasSubset() const { return m_subset != nullptr; }

    /** Whether t_wall is shown in UTC instead of local time. */
    void setWallUtc(bool utc);

    /** Record index shown at `row`; -1 when out of range. */
    int recordAt(int row) const;
    /** Row showing record `record`; -1 when it is not shown. */
    int rowOf(int record) const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    void rebuildOrder();
    /** Rebuilds the order for `count` records as a layout change, moving persistent indexes. */
    void relayout(int count);

    std::shared_ptr<const TraceDocument> m_doc;
    std::shared_ptr<const std::vector<int>> m_subset;
    int m_count = 0;           // records shown without a subset (a snapshot of size())
    std::vector<int> m_order;  // row -> record; empty means identity over subset/all
    mutable std::vector<int> m_rowOfRecord;  // lazily built inverse of m_order
    int m_sortColumn = IndexColumn;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    bool m_wallUtc = false;
    int m_maxRowsPerRefresh = kMaxRowsPerRefresh;
    bool m_refreshQueued = false;  // a refresh() for the rest is queued
};

}  // namespace lmct
