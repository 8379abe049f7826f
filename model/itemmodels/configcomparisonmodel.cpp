#include "itemmodels/configcomparisonmodel.h"

namespace lmct {

ConfigComparisonModel::ConfigComparisonModel(QObject *parent) : QAbstractTableModel(parent) {}

void ConfigComparisonModel::setComparison(const HeaderComparison &header) {
    beginResetModel();
    m_rows = header.rows();
    endResetModel();
}

void ConfigComparisonModel::clear() {
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int ConfigComparisonModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ConfigComparisonModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : kColumnCount;
}

QVariant ConfigComparisonModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= m_rows.size() || index.column() >= kColumnCount) {
        return {};
    }
    const HeaderComparison::Row &r = m_rows[index.row()];
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case FieldColumn:
                    return r.field;
                case AColumn:
                    return r.a;
                case BColumn:
                    return r.b;
                case DiffersColumn:
                    return r.differs      ? QStringLiteral("differs")
                           : r.isVolatile ? QStringLiteral("volatile")
                                          : QString();
            }
            break;
        case DiffersRole:
            return r.differs;
        case VolatileRole:
            return r.isVolatile;
        case IsConfigRole:
            return r.config;
        case Qt::ToolTipRole:
            if (r.isVolatile) {
                return QStringLiteral(
                    "Differs from run to run (shm_name embeds the server's PID): not counted as "
                    "a difference");
            }
            break;
        default:
            break;
    }
    return {};
}

QVariant ConfigComparisonModel::headerData(int section, Qt::Orientation orientation,
                                           int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case FieldColumn:
            return QStringLiteral("field");
        case AColumn:
            return QStringLiteral("A");
        case BColumn:
            return QStringLiteral("B");
        case DiffersColumn:
            return QStringLiteral("differs");
        default:
            break;
    }
    return {};
}

}  // namespace lmct
