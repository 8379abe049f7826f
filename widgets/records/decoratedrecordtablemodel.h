#pragma once

#include "itemmodels/recordtablemodel.h"

#include <QIcon>
#include <memory>
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
 * - rows of records touching the followed key (setFollowed) get a tinted background, rows of
 *   search matches (setMatches) another, the current search match a stronger one.
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

    /** Records touching the followed key (ascending), or null. Repaints. */
    void setFollowed(std::shared_ptr<const std::vector<int>> records);
    /** Search matches (ascending) and the current one (-1: none), or null. Repaints. */
    void setMatches(std::shared_ptr<const std::vector<int>> records, int current);
    /** Whether record `record` is in the followed set. */
    bool isFollowed(int record) const;
    /** Whether record `record` is a search match. */
    bool isMatch(int record) const;

private:
    void rebuildChips();
    void repaintAll();

    std::vector<QIcon> m_chips;  // per qualname id of the current document
    QIcon m_warning;
    std::shared_ptr<const std::vector<int>> m_followed;
    std::shared_ptr<const std::vector<int>> m_matches;
    int m_currentMatch = -1;
};

}  // namespace lmct
