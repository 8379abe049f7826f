#pragma once

#include "stats/tracestatistics.h"

#include <QAbstractTableModel>
#include <memory>

namespace lmct {

/**
 * One table of a TraceStatistics for a QTableView: the per-call table (one row per qualname and
 * a totals row last) or a group table (per model, per rank, per cache salt).
 *
 * Columns, Calls: call (tooltip: full qualname), count, share, first t_mono, last t_mono,
 * rate, Δt p50, Δt p95, Δt max, keys/call mean, keys/call max, bytes/call mean.
 * Columns, groups: model / rank / cache salt, calls, reserves (reserve_write*), finished writes
 * (finish_write), prefetches (submit_prefetch_task), reads (read_prefetched_results.__enter__),
 * finished reads (finish_read_prefetched), distinct keys.
 *
 * Roles: Qt::DisplayRole formatted text ("—" when a value is unknown); SortRole the raw value
 * (qint64, double, or QString; NaN sorts as a double) for a QSortFilterProxyModel's sortRole;
 * FilterRole a filter expression selecting the row's records (e.g. `model_name == "Qwen/..."`,
 * empty for the totals row) so a view can offer "show these calls"; IsTotalRole true on the
 * totals row (keep it last when sorting); Qt::ToolTipRole, Qt::TextAlignmentRole.
 *
 * Ownership: shares the statistics (std::shared_ptr<const TraceStatistics>).
 * Thread-safety: GUI thread only; compute the statistics on a worker and hand them over.
 */
class StatisticsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Table { Calls, Models, Ranks, Salts };
    enum Role { SortRole = Qt::UserRole + 1, FilterRole, IsTotalRole };

    explicit StatisticsTableModel(Table table, QObject *parent = nullptr);

    Table table() const { return m_table; }
    /** Shows `stats` (resets the model); null shows nothing. */
    void setStatistics(std::shared_ptr<const TraceStatistics> stats);
    std::shared_ptr<const TraceStatistics> statistics() const { return m_stats; }
    /**
     * What the Calls table's first and last times count on: "t_mono" (a trace, the default),
     * or "aligned t_wall" for traces combined on one wall-clock axis (seconds from its origin).
     */
    void setTimeAxis(const QString &name);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const QList<TraceStatistics::GroupRow> *groups() const;
    QVariant callData(int row, int column, int role) const;
    QVariant groupData(int row, int column, int role) const;

    Table m_table;
    std::shared_ptr<const TraceStatistics> m_stats;
    QString m_timeAxis = QStringLiteral("t_mono");
};

}  // namespace lmct
