#pragma once

#include "compare/headercomparison.h"

#include <QAbstractTableModel>
#include <memory>

namespace lmct {

/**
 * The header and StorageManagerConfig of two traces side by side (HeaderComparison, via
 * ConfigDiff): field, A, B, differs. Header fields first, then config fields by dotted path.
 *
 * Roles: Qt::DisplayRole text (the differs column "differs", "volatile" or empty); DiffersRole
 * (bool) for highlighting; VolatileRole (bool: a volatile field such as `shm_name` changed, not
 * counted as a difference); IsConfigRole (bool: a config field); Qt::ToolTipRole on volatile rows
 * says why they are ignored.
 *
 * Ownership: copies the rows. Thread-safety: GUI thread only.
 */
class ConfigComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { FieldColumn, AColumn, BColumn, DiffersColumn };
    static constexpr int kColumnCount = 4;
    enum Role { DiffersRole = Qt::UserRole + 1, VolatileRole, IsConfigRole };

    explicit ConfigComparisonModel(QObject *parent = nullptr);
    /** Shows `header` (resets the model). */
    void setComparison(const HeaderComparison &header);
    void clear();

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<HeaderComparison::Row> m_rows;
};

}  // namespace lmct
