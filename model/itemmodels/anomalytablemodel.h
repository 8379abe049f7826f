#pragma once

#include "cache/anomalyreport.h"

#include <QAbstractTableModel>
#include <memory>
#include <vector>

namespace lmct {

/**
 * The items of an AnomalyReport as a table, in file order: kind, record(s), t_mono, message.
 * setKindFilter() keeps one kind (or all).
 *
 * Roles: Qt::DisplayRole, RecordRole (int: the record to show), KindRole (int
 * AnomalyReport::Kind), Qt::ToolTipRole (the kind's description and the message).
 *
 * Ownership: shares the report. Thread-safety: a QObject for the GUI thread.
 */
class AnomalyTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { KindColumn, RecordsColumn, TimeColumn, MessageColumn, ColumnCount };
    enum Role { RecordRole = Qt::UserRole + 1, KindRole };

    explicit AnomalyTableModel(QObject *parent = nullptr);

    void setReport(std::shared_ptr<const AnomalyReport> report);
    std::shared_ptr<const AnomalyReport> report() const { return m_report; }
    /** Shows only items of `kind` (an AnomalyReport::Kind as int), or all with -1. */
    void setKindFilter(int kind);
    int kindFilter() const { return m_kind; }
    /** The item shown at `row`, or nullptr. */
    const AnomalyReport::Item *itemAt(int row) const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void rebuild();

    std::shared_ptr<const AnomalyReport> m_report;
    int m_kind = -1;
    std::vector<int> m_rows;  // indices into items()
};

}  // namespace lmct
