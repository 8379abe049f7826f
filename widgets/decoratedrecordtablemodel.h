#pragma once

#include "recordtablemodel.h"

#include <QIcon>
#include <vector>

namespace lmct {

/**
 * RecordTableModel with the record table's decorations for item views:
 * - the Call column gets a colour chip (CallColors, keyed by short call name);
 * - headers of the numeric and time columns are right-aligned like their cells;
 * - the # column of a record read right after a resynchronisation (RecordStore::AfterResync)
 *   or whose arguments are damaged (RecordStore::BadArgs) gets a warning icon and a tooltip
 *   saying which, so damage is visible where it happened.
 *
 * Everything else (columns, roles, sorting, subsets) is RecordTableModel's.
 * Thread-safety: GUI thread only.
 */
class DecoratedRecordTableModel : public RecordTableModel {
    Q_OBJECT
public:
    explicit DecoratedRecordTableModel(QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    /** Adds header alignment: numeric and time columns right-aligned, like their cells. */
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void rebuildChips();

    std::vector<QIcon> m_chips;  // per qualname id of the current document
    QIcon m_warning;
};

}  // namespace lmct
