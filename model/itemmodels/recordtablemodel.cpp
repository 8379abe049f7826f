#include "itemmodels/recordtablemodel.h"

#include "codec/qualname.h"
#include "codec/recordsummary.h"
#include "util/terminaltext.h"
#include "util/timeformat.h"

#include <algorithm>
#include <numeric>

namespace lmct {

RecordTableModel::RecordTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void RecordTableModel::setDocument(std::shared_ptr<const TraceDocument> doc) {
    beginResetModel();
    m_doc = std::move(doc);
    m_count = m_doc ? m_doc->records().size() : 0;
    m_subset.reset();
    rebuildOrder();
    endResetModel();
}

void RecordTableModel::refresh() {
    if (!m_doc || m_subset) {
        return;
    }
    const bool sorted = !m_order.empty();
    int now = m_doc->records().size();
    if (now <= m_count) {
        return;
    }
    if (!sorted && now - m_count > m_maxRowsPerRefresh) {
        now = m_count + m_maxRowsPerRefresh;  // the rest in a later event loop pass
        if (!m_refreshQueued) {
            m_refreshQueued = true;
            QMetaObject::invokeMethod(
                this,
                [this] {
                    m_refreshQueued = false;
                    refresh();
                },
                Qt::QueuedConnection);
        }
    }
    // Insert the new rows at the end (Qt's rules: a row count changes only inside
    // begin/endInsertRows), then, when sorted, move them into place with a layout change.
    beginInsertRows(QModelIndex(), m_count, now - 1);
    for (int r = m_count; sorted && r < now; ++r) {
        m_order.push_back(r);
    }
    m_rowOfRecord.clear();
    m_count = now;
    endInsertRows();
    if (sorted) {
        relayout(now);
    }
}

void RecordTableModel::setSubset(std::shared_ptr<const std::vector<int>> rows) {
    beginResetModel();
    m_subset = std::move(rows);
    rebuildOrder();
    endResetModel();
}

void RecordTableModel::setWallUtc(bool utc) {
    if (m_wallUtc == utc) {
        return;
    }
    m_wallUtc = utc;
    if (rowCount() > 0) {
        emit dataChanged(index(0, TWallColumn), index(rowCount() - 1, TWallColumn),
                         {Qt::DisplayRole});
    }
}

int RecordTableModel::recordAt(int row) const {
    if (row < 0 || row >= rowCount()) {
        return -1;
    }
    if (!m_order.empty()) {
        return m_order[size_t(row)];
    }
    return m_subset ? (*m_subset)[size_t(row)] : row;
}

int RecordTableModel::rowOf(int record) const {
    if (!m_doc || record < 0 || record >= m_count) {
        return -1;
    }
    if (m_order.empty()) {
        if (!m_subset) {
            return record;
        }
        auto it = std::lower_bound(m_subset->begin(), m_subset->end(), record);
        return (it != m_subset->end() && *it == record) ? int(it - m_subset->begin()) : -1;
    }
    if (m_rowOfRecord.empty()) {
        m_rowOfRecord.assign(size_t(m_count), -1);
        for (size_t r = 0; r < m_order.size(); ++r) {
            m_rowOfRecord[size_t(m_order[r])] = int(r);
        }
    }
    return m_rowOfRecord[size_t(record)];
}

int RecordTableModel::rowCount(const QModelIndex &parent) const {
    if (parent.isValid() || !m_doc) {
        return 0;
    }
    return m_subset ? int(m_subset->size()) : m_count;
}

int RecordTableModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RecordTableModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || !m_doc) {
        return QVariant();
    }
    const int rec = recordAt(index.row());
    if (rec < 0) {
        return QVariant();
    }
    const RecordStore &rs = m_doc->records();
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case IndexColumn:
                    return rec;
                case TMonoColumn:
                    return TimeFormat::mono(rs.tMono(rec));
                case DeltaColumn:
                    return rec == 0 ? QString()
                                    : TimeFormat::delta(rs.tMono(rec) - rs.tMono(rec - 1));
                case TWallColumn:
                    return TimeFormat::wall(rs.tWall(rec), m_wallUtc);
                case CallColumn:
                    return Qualname::displayName(rs.qualname(rec));
                case SummaryColumn: {
                    const auto args = m_doc->args(rec);
                    // escaped: a model name with U+202E reversed the cell
                    QString s = TerminalText::escaped(
                        RecordSummary::summarize(rs.qualname(rec), args->value));
                    if (!args->error.isEmpty()) {
                        s = QStringLiteral("⚠ ") + s;
                    }
                    return s;
                }
            }
            return QVariant();
        case Qt::ToolTipRole:
            if (index.column() == CallColumn) {
                return Qualname::displayFull(rs.qualname(rec));
            }
            if (index.column() == SummaryColumn) {
                const auto args = m_doc->args(rec);
                QString s = TerminalText::escaped(
                    RecordSummary::summarize(rs.qualname(rec), args->value, 2000));
                if (!args->error.isEmpty()) {
                    s += QStringLiteral("\n⚠ args: ") + args->error;
                }
                return s;
            }
            if (index.column() == TWallColumn) {
                return QStringLiteral("%1\n%2 (Unix seconds)")
                    .arg(TimeFormat::wall(rs.tWall(rec), !m_wallUtc))
                    .arg(TimeFormat::fixed(rs.tWall(rec), 6));
            }
            if (rs.flags(rec) & RecordStore::AfterResync) {
                return tr("Read after skipping damaged bytes (resynchronised)");
            }
            return QVariant();
        case Qt::TextAlignmentRole:
            if (index.column() <= TWallColumn) {
                return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            }
            return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        case RecordRole:
            return rec;
        case QualnameIdRole:
            return rs.qualnameId(rec);
        case TMonoRole:
            return rs.tMono(rec);
    }
    return QVariant();
}

QVariant RecordTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return QVariant();
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
            case IndexColumn:
                return tr("#");
            case TMonoColumn:
                return tr("t_mono (s)");
            case DeltaColumn:
                return tr("Δt");
            case TWallColumn:
                return m_wallUtc ? tr("t_wall (UTC)") : tr("t_wall (local)");
            case CallColumn:
                return tr("Call");
            case SummaryColumn:
                return tr("Summary");
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
            case IndexColumn:
                return tr("Record index in file order");
            case TMonoColumn:
                return tr("Seconds since the recorder's t_mono_start");
            case DeltaColumn:
                return tr("t_mono minus the previous record's (file order)");
            case TWallColumn:
                return tr("Wall clock when the call was published");
            case CallColumn:
                return tr("StorageManager call (short qualname)");
            case SummaryColumn:
                return tr("Keys, model, rank, layout and request of the call's arguments");
        }
    }
    return QVariant();
}

void RecordTableModel::sort(int column, Qt::SortOrder order) {
    m_sortColumn = column;
    m_sortOrder = order;
    relayout(m_count);
}

void RecordTableModel::relayout(int count) {
    emit layoutAboutToBeChanged();
    // Persistent indexes (a view's selection, its current index) follow their records.
    const QModelIndexList from = persistentIndexList();
    std::vector<int> records;
    records.reserve(size_t(from.size()));
    for (const QModelIndex &i : from) {
        records.push_back(recordAt(i.row()));
    }
    m_count = count;
    rebuildOrder();
    QModelIndexList to;
    to.reserve(from.size());
    for (qsizetype k = 0; k < from.size(); ++k) {
        const int row = records[size_t(k)] < 0 ? -1 : rowOf(records[size_t(k)]);
        to.append(row < 0 ? QModelIndex() : index(row, from[k].column()));
    }
    changePersistentIndexList(from, to);
    emit layoutChanged();
}

void RecordTableModel::rebuildOrder() {
    m_order.clear();
    m_rowOfRecord.clear();
    if (!m_doc) {
        return;
    }
    const bool identity = (m_sortColumn == IndexColumn || m_sortColumn == SummaryColumn) &&
                          m_sortOrder == Qt::AscendingOrder;
    if (identity) {
        return;
    }
    if (m_subset) {
        m_order = *m_subset;
    } else {
        m_order.resize(size_t(m_count));
        std::iota(m_order.begin(), m_order.end(), 0);
    }
    const RecordStore &rs = m_doc->records();
    auto key = [&](int r) -> double {
        switch (m_sortColumn) {
            case TMonoColumn:
                return rs.tMono(r);
            case DeltaColumn:
                return r == 0 ? 0.0 : rs.tMono(r) - rs.tMono(r - 1);
            case TWallColumn:
                return rs.tWall(r);
            default:
                return double(r);
        }
    };
    if (m_sortColumn == CallColumn) {
        // Rank qualname ids by short name once.
        std::vector<int> rank(size_t(rs.qualnameCount()));
        std::vector<int> ids(size_t(rs.qualnameCount()));
        std::iota(ids.begin(), ids.end(), 0);
        std::sort(ids.begin(), ids.end(), [&](int a, int b) {
            return Qualname::shortName(rs.qualnameById(quint32(a))) <
                   Qualname::shortName(rs.qualnameById(quint32(b)));
        });
        for (size_t i = 0; i < ids.size(); ++i) {
            rank[size_t(ids[i])] = int(i);
        }
        std::stable_sort(m_order.begin(), m_order.end(), [&](int a, int b) {
            return rank[rs.qualnameId(a)] < rank[rs.qualnameId(b)];
        });
    } else {
        std::stable_sort(m_order.begin(), m_order.end(),
                         [&](int a, int b) { return key(a) < key(b); });
    }
    if (m_sortOrder == Qt::DescendingOrder) {
        std::reverse(m_order.begin(), m_order.end());
    }
}

}  // namespace lmct
