#include "itemmodels/figuretablemodel.h"

#include "util/timeformat.h"

#include <cmath>

namespace lmct {

namespace {

const QString kUnknown = QStringLiteral("\u2014");

QString sign(double v) {
    return v > 0 ? QStringLiteral("+") : v < 0 ? QStringLiteral("\u2212") : QString();
}

}  // namespace

FigureTableModel::FigureTableModel(const QString &groupTitle, QObject *parent)
    : QAbstractTableModel(parent), m_groupTitle(groupTitle) {}

void FigureTableModel::setRows(std::vector<Row> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

QString FigureTableModel::formatted(double v, Format format) {
    if (!std::isfinite(v)) {
        return kUnknown;
    }
    switch (format) {
        case Format::Count:
            return QString::number(qint64(std::llround(v)));
        case Format::Seconds:
            return TimeFormat::duration(v);
        case Format::Ratio:
            return QStringLiteral("%1 %").arg(TimeFormat::fixed(v * 100.0, 1));
        case Format::Number:
        case Format::Text:
            break;
    }
    return QString::number(v, 'g', 4);
}

QString FigureTableModel::percentText(double p) {
    if (!std::isfinite(p)) {
        return kUnknown;
    }
    return QStringLiteral("%1%2 %").arg(sign(p), TimeFormat::fixed(std::fabs(p), 1));
}

int FigureTableModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int FigureTableModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : kColumnCount;
}

QVariant FigureTableModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= int(m_rows.size()) || index.column() >= kColumnCount) {
        return {};
    }
    const Row &r = m_rows[size_t(index.row())];
    const int c = index.column();
    const bool text = r.format == Format::Text;
    switch (role) {
        case Qt::DisplayRole:
            switch (c) {
                case GroupColumn:
                    return index.row() > 0 && m_rows[size_t(index.row() - 1)].group == r.group
                               ? QString()
                               : r.group;
                case FigureColumn:
                    return r.figure;
                case AColumn:
                    return text ? (r.textA.isEmpty() ? kUnknown : r.textA)
                                : formatted(r.values.a, r.format);
                case BColumn:
                    return text ? (r.textB.isEmpty() ? kUnknown : r.textB)
                                : formatted(r.values.b, r.format);
                case DeltaColumn: {
                    if (text) {
                        return r.textA == r.textB ? QString() : QStringLiteral("differs");
                    }
                    const double d = r.values.delta();
                    if (!std::isfinite(d)) {
                        return kUnknown;
                    }
                    if (r.format == Format::Ratio) {
                        // a difference of percentages is in percentage points
                        return QStringLiteral("%1%2 pp").arg(
                            sign(d), TimeFormat::fixed(std::fabs(d) * 100.0, 1));
                    }
                    return sign(d) + formatted(std::fabs(d), r.format);
                }
                case PercentColumn:
                    return text ? QString() : percentText(r.values.percent());
            }
            break;
        case SortRole:
            switch (c) {
                case GroupColumn:
                    return r.group;
                case FigureColumn:
                    return r.figure;
                case AColumn:
                    return text ? QVariant(r.textA) : QVariant(r.values.a);
                case BColumn:
                    return text ? QVariant(r.textB) : QVariant(r.values.b);
                case DeltaColumn:
                    return text ? QVariant(r.textA != r.textB) : QVariant(r.values.delta());
                case PercentColumn:
                    return text ? QVariant() : QVariant(r.values.percent());
            }
            break;
        case ReasonRole:
            return r.reason;
        case Qt::ToolTipRole:
            return r.reason.isEmpty() ? QVariant() : QVariant(r.reason);
        case IsTotalRole:
            return r.isTotal;
        case GroupRole:
            return r.group;
        case Qt::TextAlignmentRole:
            return c >= AColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                                : QVariant(int(Qt::AlignLeft | Qt::AlignVCenter));
        default:
            break;
    }
    return {};
}

QVariant FigureTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case GroupColumn:
            return m_groupTitle;
        case FigureColumn:
            return QStringLiteral("figure");
        case AColumn:
            return QStringLiteral("A");
        case BColumn:
            return QStringLiteral("B");
        case DeltaColumn:
            return QStringLiteral("\u0394");
        case PercentColumn:
            return QStringLiteral("\u0394 %");
        default:
            break;
    }
    return {};
}

}  // namespace lmct
