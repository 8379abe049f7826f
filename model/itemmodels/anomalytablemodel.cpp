#include "itemmodels/anomalytablemodel.h"

#include "util/timeformat.h"

namespace lmct {

AnomalyTableModel::AnomalyTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void AnomalyTableModel::setReport(std::shared_ptr<const AnomalyReport> report) {
    beginResetModel();
    m_report = std::move(report);
    rebuild();
    endResetModel();
}

void AnomalyTableModel::setKindFilter(int kind) {
    if (kind == m_kind) {
        return;
    }
    beginResetModel();
    m_kind = kind;
    rebuild();
    endResetModel();
}

void AnomalyTableModel::rebuild() {
    m_rows.clear();
    if (!m_report) {
        return;
    }
    const auto &items = m_report->items();
    for (size_t i = 0; i < items.size(); ++i) {
        if (m_kind < 0 || int(items[i].kind) == m_kind) {
            m_rows.push_back(int(i));
        }
    }
}

const AnomalyReport::Item *AnomalyTableModel::itemAt(int row) const {
    if (row < 0 || size_t(row) >= m_rows.size()) {
        return nullptr;
    }
    return &m_report->items()[size_t(m_rows[size_t(row)])];
}

int AnomalyTableModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int AnomalyTableModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AnomalyTableModel::data(const QModelIndex &index, int role) const {
    const AnomalyReport::Item *it = index.isValid() ? itemAt(index.row()) : nullptr;
    if (!it || index.column() >= ColumnCount) {
        return QVariant();
    }
    switch (role) {
        case RecordRole:
            return it->record;
        case KindRole:
            return int(it->kind);
        case Qt::ToolTipRole:
            return AnomalyReport::kindDescription(it->kind) + QLatin1Char('\n') +
                   m_report->message(*it);
        case Qt::TextAlignmentRole:
            return index.column() == TimeColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                                                : QVariant();
        case Qt::DisplayRole:
            break;
        default:
            return QVariant();
    }
    switch (index.column()) {
        case KindColumn:
            return AnomalyReport::kindName(it->kind);
        case RecordsColumn:
            return it->record2 >= 0 ? QStringLiteral("#%1, #%2").arg(it->record).arg(it->record2)
                                    : QStringLiteral("#%1").arg(it->record);
        case TimeColumn:
            return TimeFormat::mono(it->t);
        case MessageColumn:
            return m_report->message(*it);
        default:
            return QVariant();
    }
}

QVariant AnomalyTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    static const char *const names[ColumnCount] = {"Kind", "Records", "t_mono", "Message"};
    return QString::fromLatin1(names[section]);
}

}  // namespace lmct
