#include "itemmodels/cachesummarytablemodel.h"

#include <QLocale>
#include <cmath>

namespace lmct {

CacheSummaryTableModel::CacheSummaryTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void CacheSummaryTableModel::setFigures(const QList<TraceSetCache::Figure> &figures) {
    beginResetModel();
    m_figures = figures;
    endResetModel();
}

int CacheSummaryTableModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_figures.size());
}

int CacheSummaryTableModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CacheSummaryTableModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= m_figures.size()) {
        return QVariant();
    }
    const TraceSetCache::Figure &f = m_figures[index.row()];
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case FigureColumn:
                    return f.name;
                case ValueColumn:
                    if (!std::isfinite(f.value)) {
                        return QStringLiteral("—");
                    }
                    return f.ratio ? QStringLiteral("%1 %").arg(f.value * 100.0, 0, 'f', 2)
                                   : QLocale().toString(qint64(std::llround(f.value)));
                case HowColumn:
                    return TraceSetCache::howName(f.how);
            }
            return QVariant();
        case SortRole:
            return index.column() == ValueColumn ? QVariant(f.value) : data(index);
        case Qt::ToolTipRole:
            if (index.column() != HowColumn) {
                return QVariant();
            }
            switch (f.how) {
                case TraceSetCache::How::Union:
                    return tr(
                        "Over the keys of every trace merged: a key several traces touch "
                        "counts once");
                case TraceSetCache::How::Sum:
                    return tr(
                        "The traces' own figures added up: each trace's calls act on its "
                        "own server's store");
                case TraceSetCache::How::Ratio:
                    return tr("Summed hits over summed prefetched key occurrences");
                case TraceSetCache::How::Trace:
                    return tr("This trace's own figure, as its Cache Behaviour shows it");
            }
            return QVariant();
        case Qt::TextAlignmentRole:
            return index.column() == ValueColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                 : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    }
    return QVariant();
}

QVariant CacheSummaryTableModel::headerData(int section, Qt::Orientation orientation,
                                            int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QVariant();
    }
    switch (section) {
        case FigureColumn:
            return tr("Figure");
        case ValueColumn:
            return tr("Value");
        case HowColumn:
            return tr("Combined as");
    }
    return QVariant();
}

}  // namespace lmct
