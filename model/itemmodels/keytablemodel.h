#pragma once

#include "cache/keyanalysis.h"

#include <QAbstractTableModel>
#include <memory>
#include <vector>

namespace lmct {

/**
 * The keys of a KeyAnalysis as a table: one row per distinct key.
 *
 * Columns: chunk hash (hex), model, rank (rank/world size), object group, cache salt, first and
 * last t_mono, reserve, finish, abort, prefetch and read counts, state, write latency, first
 * reuse (seconds; empty when unknown).
 *
 * Sorting is done by the model (a permutation of key ids, stable, from the columns' values), so
 * it stays cheap at millions of rows; setHashPrefix() keeps only keys whose hex chunk hash starts
 * with a prefix (case ignored), in the current sort order.
 *
 * Roles: Qt::DisplayRole (text), SortRole (the column's number or text), KeyRole (int key id),
 * RecordRole (int first record of the key), Qt::ToolTipRole (the full key).
 *
 * Ownership: shares the analysis. Thread-safety: a QObject for the GUI thread.
 */
class KeyTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        HashColumn,
        ModelColumn,
        RankColumn,
        GroupColumn,
        SaltColumn,
        FirstColumn,
        LastColumn,
        ReserveColumn,
        FinishColumn,
        AbortColumn,
        PrefetchColumn,
        ReadColumn,
        StateColumn,
        WriteLatencyColumn,
        FirstReuseColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, KeyRole, RecordRole };

    explicit KeyTableModel(QObject *parent = nullptr);

    void setAnalysis(std::shared_ptr<const KeyAnalysis> analysis);
    std::shared_ptr<const KeyAnalysis> analysis() const { return m_analysis; }

    /** Keeps only keys whose hex chunk hash starts with `hexPrefix` (empty: all keys). */
    void setHashPrefix(const QString &hexPrefix);
    QString hashPrefix() const { return m_prefix; }

    /** Key id of a row; -1 when out of range. */
    int keyAt(int row) const;
    /** Row of a key id; -1 when filtered out or unknown. */
    int rowOfKey(int key) const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    void rebuild();
    void sortRows();
    /** The number a key sorts by in a numeric column (rank, group, times, counts, state,
     *  durations in seconds); an absent group is -inf, an unknown duration +inf; 0 for the text
     *  columns (hash, model, salt). Shared by the sort, SortRole and the displayed numbers. */
    double numericValue(int key, int column) const;
    QVariant sortValue(int key, int column) const;

    std::shared_ptr<const KeyAnalysis> m_analysis;
    QString m_prefix;
    std::vector<int> m_rows;  // key ids in display order
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

}  // namespace lmct
