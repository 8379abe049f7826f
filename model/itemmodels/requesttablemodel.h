#pragma once

#include "cache/requestanalysis.h"

#include <QAbstractTableModel>
#include <memory>
#include <vector>

namespace lmct {

/**
 * The requests of a RequestAnalysis as a table: one row per submit_prefetch_task.
 *
 * Columns: request id, submit t_mono, keys requested, prefix hit (leading requested keys read),
 * LMCache's own L1 prefix hit ("N of T", from the PrefetchHandle of the request's release or
 * cancel; empty without one), whether the two agree (RequestAnalysis::hitCheck(); the tooltip
 * says what the calls show), read keys, match rule (prefix / overlap / none), how the request
 * ended (released / cancelled, by its release_prefetch_task / cancel_prefetch_task), time to
 * read, reserved and finished key occurrences credited to the request, time until its last
 * credited finish_write.
 *
 * Sorting is done by the model (a stable permutation). Roles: Qt::DisplayRole, SortRole (number
 * or text), RequestRole (int index into RequestAnalysis::requests()), RecordRole (int record to
 * show for the cell: the read for the read columns, the first reserve / last finish for the write
 * columns, the submit otherwise; -1 when there is none).
 *
 * Ownership: shares the analysis. Thread-safety: a QObject for the GUI thread.
 */
class RequestTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        RequestIdColumn,
        SubmitColumn,
        RequestedColumn,
        PrefixHitColumn,
        LmcacheHitColumn,
        HitCheckColumn,
        ReadKeysColumn,
        MatchColumn,
        EndedColumn,
        TimeToReadColumn,
        ReservedColumn,
        FinishedColumn,
        TimeToWrittenColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, RequestRole, RecordRole };

    explicit RequestTableModel(QObject *parent = nullptr);

    void setAnalysis(std::shared_ptr<const RequestAnalysis> analysis);
    std::shared_ptr<const RequestAnalysis> analysis() const { return m_analysis; }
    /** Request index of a row; -1 when out of range. */
    int requestAt(int row) const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    /** The number a request sorts by in a numeric column (times and durations in seconds,
     *  counts, match kind, LMCache's hit count (-1 without a handle), hit check, ended as
     *  cancelled·2 + released); an unknown duration is +inf; 0 for the request id column. Shared by
     *  the sort, SortRole and the displayed numbers. */
    double numericValue(const RequestAnalysis::Request &q, int column) const;
    QVariant sortValue(const RequestAnalysis::Request &q, int column) const;

    std::shared_ptr<const RequestAnalysis> m_analysis;
    std::vector<int> m_rows;
};

}  // namespace lmct
