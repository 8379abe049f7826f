#include "itemmodels/keyoverlapmodel.h"

namespace lmct {

KeyOverlapModel::KeyOverlapModel(QObject *parent) : QAbstractTableModel(parent) {}

void KeyOverlapModel::setComparison(std::shared_ptr<const TraceComparison> c) {
    beginResetModel();
    m_comparison = std::move(c);
    endResetModel();
}

QString KeyOverlapModel::reason() const {
    return m_comparison ? m_comparison->cache().overlap().reason() : QString();
}

const KeyOverlap::Row *KeyOverlapModel::rowAt(int row) const {
    if (!m_comparison || row < 0) {
        return nullptr;
    }
    const KeyOverlap &o = m_comparison->cache().overlap();
    if (row < int(o.models().size())) {
        return &o.models()[size_t(row)];
    }
    return row == int(o.models().size()) ? &o.total() : nullptr;
}

int KeyOverlapModel::rowCount(const QModelIndex &parent) const {
    if (parent.isValid() || !m_comparison) {
        return 0;
    }
    return int(m_comparison->cache().overlap().models().size()) + 1;
}

int KeyOverlapModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : kColumnCount;
}

QVariant KeyOverlapModel::data(const QModelIndex &index, int role) const {
    const KeyOverlap::Row *r = index.isValid() ? rowAt(index.row()) : nullptr;
    if (!r || index.column() >= kColumnCount) {
        return {};
    }
    const bool total = index.row() == rowCount() - 1;
    const qint64 counts[] = {0, r->onlyA, r->onlyB, r->both};
    switch (role) {
        case Qt::DisplayRole:
            if (index.column() == ModelColumn) {
                return total ? QStringLiteral("all models") : r->model;
            }
            return QString::number(counts[index.column()]);
        case SortRole:
            if (index.column() == ModelColumn) {
                return total ? QString() : r->model;
            }
            return counts[index.column()];
        case IsTotalRole:
            return total;
        case Qt::ToolTipRole: {
            const QString why = reason();
            return why.isEmpty() ? QVariant() : QVariant(why);
        }
        case Qt::TextAlignmentRole:
            return index.column() == ModelColumn ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                                 : int(Qt::AlignRight | Qt::AlignVCenter);
        default:
            break;
    }
    return {};
}

QVariant KeyOverlapModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case ModelColumn:
            return QStringLiteral("model");
        case OnlyAColumn:
            return QStringLiteral("A only");
        case OnlyBColumn:
            return QStringLiteral("B only");
        case BothColumn:
            return QStringLiteral("both");
        default:
            break;
    }
    return {};
}

}  // namespace lmct
