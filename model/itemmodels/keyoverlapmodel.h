#pragma once

#include "compare/tracecomparison.h"

#include <QAbstractTableModel>
#include <memory>

namespace lmct {

/**
 * The key overlap of a TraceComparison (KeyOverlap) per model: model, keys in A only, in B
 * only, in both; a totals row last ("all models"). The reason the keys do not compare (the
 * model sets differ) is the tool tip of every row and reason().
 *
 * Roles: Qt::DisplayRole text, SortRole the raw count (qint64) or the model name,
 * IsTotalRole true on the totals row, Qt::TextAlignmentRole.
 *
 * Ownership: shares the comparison. Thread-safety: GUI thread only.
 */
class KeyOverlapModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ModelColumn, OnlyAColumn, OnlyBColumn, BothColumn };
    static constexpr int kColumnCount = 4;
    enum Role { SortRole = Qt::UserRole + 1, IsTotalRole };

    explicit KeyOverlapModel(QObject *parent = nullptr);
    /** Shows `c` (resets the model); null shows nothing. */
    void setComparison(std::shared_ptr<const TraceComparison> c);
    QString reason() const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const KeyOverlap::Row *rowAt(int row) const;
    std::shared_ptr<const TraceComparison> m_comparison;
};

}  // namespace lmct
