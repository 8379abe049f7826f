#pragma once

#include "cache/tracesetcache.h"

#include <QAbstractTableModel>

namespace lmct {

/**
 * The cache figures of a deployment (TraceSetCache::figures() of all traces or one): one row
 * per figure with its value and how it is combined over the traces ("union of the keys", "sum
 * over the traces", "ratio of the sums", "this trace").
 *
 * Roles: Qt::DisplayRole text (counts grouped by the locale, ratios as percentages with two
 * decimals, "—" when unknown), SortRole the raw value (double), Qt::ToolTipRole on the
 * Combined column: what the combination means, Qt::TextAlignmentRole.
 *
 * Ownership: rows are copied in. Thread-safety: GUI thread only.
 */
class CacheSummaryTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { FigureColumn, ValueColumn, HowColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit CacheSummaryTableModel(QObject *parent = nullptr);

    /** Shows `figures` (resets the model). */
    void setFigures(const QList<TraceSetCache::Figure> &figures);
    const QList<TraceSetCache::Figure> &figures() const { return m_figures; }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<TraceSetCache::Figure> m_figures;
};

}  // namespace lmct
