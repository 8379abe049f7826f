#include "itemmodels/combinedrecordtablemodel.h"

#include "codec/qualname.h"
#include "codec/recordsummary.h"
#include "util/terminaltext.h"
#include "util/timeformat.h"

#include <QtGlobal>
#include <algorithm>
#include <climits>
#include <cmath>

namespace lmct {

namespace {

int clampRows(qint64 n) {
    return int(std::min<qint64>(n, INT_MAX));
}

}  // namespace

CombinedRecordTableModel::CombinedRecordTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void CombinedRecordTableModel::setTraces(const TraceSet &set,
                                         std::shared_ptr<const MergedOrder> order) {
    beginResetModel();
    m_set = set;
    m_order = std::move(order);
    m_rows.reset();
    m_count = m_order ? clampRows(m_order->size()) : 0;
    computeSpan();
    rebuildSort();
    endResetModel();
}

void CombinedRecordTableModel::setOrder(const TraceSet &set,
                                        std::shared_ptr<const MergedOrder> order) {
    const bool extends = m_order && order && !m_rows && order->size() >= m_count &&
                         order->rebuilds() == m_order->rebuilds() &&
                         order->traceCount() == m_order->traceCount() &&
                         set.revision() == m_set.revision();
    if (!extends) {
        const auto rows = m_rows;
        setTraces(set, std::move(order));
        if (rows) {
            setRows(rows);
        }
        return;
    }
    const qint64 lo = m_lo;
    const int before = m_shown;
    m_set = set;
    m_order = std::move(order);
    m_count = clampRows(m_order->size());
    computeSpan();
    if (m_shown < before || (before > 0 && m_lo != lo)) {
        beginResetModel();  // not a growth at the end: cannot happen with an extended order
        rebuildSort();
        endResetModel();
        return;
    }
    if (m_shown == before) {
        return;
    }
    const int now = m_shown;
    m_shown = before;
    beginInsertRows(QModelIndex(), before, now - 1);
    m_shown = now;
    if (!m_perm.empty()) {
        for (int p = before; p < now; ++p) {
            m_perm.push_back(p);
        }
    }
    m_inv.clear();
    endInsertRows();
    if (!inMergeOrder()) {
        relayout();  // the new rows into their sorted places
    }
}

void CombinedRecordTableModel::setRows(std::shared_ptr<const std::vector<qint64>> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    computeSpan();
    rebuildSort();
    endResetModel();
}

void CombinedRecordTableModel::setTimeRange(std::optional<WallRange> range) {
    if (range == m_range) {
        return;
    }
    beginResetModel();
    m_range = range;
    computeSpan();
    rebuildSort();
    endResetModel();
}

void CombinedRecordTableModel::computeSpan() {
    const qint64 n = m_order ? std::min<qint64>(m_order->size(), m_count) : 0;
    m_lo = 0;
    m_hi = n;
    if (m_range && n > 0) {
        m_lo = std::min(n, m_order->rowAtTime(m_set, m_range->from));
        // the first row after `to`: both ends are included
        m_hi = std::min(n, m_order->rowAtTime(m_set, std::nextafter(m_range->to, HUGE_VAL)));
        m_hi = std::max(m_lo, m_hi);
    }
    if (m_rows) {
        const auto a = std::lower_bound(m_rows->begin(), m_rows->end(), m_lo);
        const auto b = std::lower_bound(a, m_rows->end(), m_hi);
        m_a = qint64(a - m_rows->begin());
        m_shown = clampRows(qint64(b - a));
    } else {
        m_a = 0;
        m_shown = clampRows(m_hi - m_lo);
    }
}

void CombinedRecordTableModel::setWallUtc(bool utc) {
    if (m_wallUtc == utc) {
        return;
    }
    m_wallUtc = utc;
    if (rowCount() > 0) {
        emit dataChanged(index(0, TWallColumn), index(rowCount() - 1, TWallColumn),
                         {Qt::DisplayRole});
    }
    emit headerDataChanged(Qt::Horizontal, TWallColumn, TWallColumn);
}

qint64 CombinedRecordTableModel::mergedRowAt(int row) const {
    if (row < 0 || row >= rowCount()) {
        return -1;
    }
    const qint64 m = baseAt(m_perm.empty() ? row : m_perm[size_t(row)]);
    return m < m_order->size() ? m : -1;
}

int CombinedRecordTableModel::traceAt(int row) const {
    const qint64 m = mergedRowAt(row);
    return m < 0 ? -1 : m_order->traceAt(m);
}

int CombinedRecordTableModel::recordAt(int row) const {
    const qint64 m = mergedRowAt(row);
    return m < 0 ? -1 : m_order->recordAt(m);
}

int CombinedRecordTableModel::rowOf(int t, int record) const {
    if (!m_order) {
        return -1;
    }
    const qint64 m = m_order->rowOf(m_set, t, record);
    if (m < m_lo || m >= m_hi) {
        return -1;
    }
    qint64 p = m - m_lo;
    if (m_rows) {
        const auto first = m_rows->begin() + m_a;
        const auto last = first + m_shown;
        const auto it = std::lower_bound(first, last, m);
        if (it == last || *it != m) {
            return -1;
        }
        p = qint64(it - first);
    }
    if (p >= m_shown) {
        return -1;
    }
    if (m_perm.empty()) {
        return int(p);
    }
    if (m_inv.size() != m_perm.size()) {
        m_inv.assign(m_perm.size(), 0);
        for (size_t r = 0; r < m_perm.size(); ++r) {
            m_inv[size_t(m_perm[r])] = int(r);
        }
    }
    return m_inv[size_t(p)];
}

void CombinedRecordTableModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= ColumnCount) {
        return;
    }
    m_sortColumn = column;
    m_sortOrder = order;
    relayout();
}

void CombinedRecordTableModel::relayout() {
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    // Persistent indexes (a view's selection, its current index) follow their records.
    const QModelIndexList from = persistentIndexList();
    std::vector<qint64> merged;
    merged.reserve(size_t(from.size()));
    for (const QModelIndex &i : from) {
        merged.push_back(mergedRowAt(i.row()));
    }
    rebuildSort();
    QModelIndexList to;
    to.reserve(from.size());
    for (qsizetype k = 0; k < from.size(); ++k) {
        const qint64 m = merged[size_t(k)];
        const int row = m < 0 ? -1 : rowOf(m_order->traceAt(m), m_order->recordAt(m));
        to.append(row < 0 ? QModelIndex() : index(row, from[k].column()));
    }
    changePersistentIndexList(from, to);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void CombinedRecordTableModel::rebuildSort() {
    m_perm.clear();
    m_inv.clear();
    if (inMergeOrder() || m_shown == 0) {
        return;
    }
    const int n = m_shown;
    m_perm.resize(size_t(n));
    for (int p = 0; p < n; ++p) {
        m_perm[size_t(p)] = p;
    }
    if (m_sortColumn != RowColumn && m_sortColumn != SummaryColumn) {
        // One key per shown row, NaN first (a strict weak order for the sort).
        std::vector<double> key(static_cast<size_t>(n));
        std::vector<std::vector<int>> callRank;  // by trace, by qualname id
        std::vector<int> traceRank;              // by trace
        if (m_sortColumn == CallColumn) {
            QStringList names;
            for (int t = 0; t < m_set.size(); ++t) {
                for (const QString &q : m_set.document(t).records().qualnames()) {
                    names << Qualname::shortName(q);
                }
            }
            names.sort();
            names.removeDuplicates();
            for (int t = 0; t < m_set.size(); ++t) {
                const RecordStore &rs = m_set.document(t).records();
                std::vector<int> rank(size_t(rs.qualnameCount()));
                for (int id = 0; id < rs.qualnameCount(); ++id) {
                    const QString name = Qualname::shortName(rs.qualnameById(quint32(id)));
                    rank[size_t(id)] =
                        int(std::lower_bound(names.begin(), names.end(), name) - names.begin());
                }
                callRank.push_back(std::move(rank));
            }
        } else if (m_sortColumn == TraceColumn) {
            std::vector<int> byLabel(size_t(m_set.size()));
            for (int t = 0; t < m_set.size(); ++t) {
                byLabel[size_t(t)] = t;
            }
            std::stable_sort(byLabel.begin(), byLabel.end(), [&](int a, int b) {
                return m_set.displayLabel(a).localeAwareCompare(m_set.displayLabel(b)) < 0;
            });
            traceRank.resize(byLabel.size());
            for (size_t i = 0; i < byLabel.size(); ++i) {
                traceRank[size_t(byLabel[i])] = int(i);
            }
        }
        for (int p = 0; p < n; ++p) {
            const qint64 m = baseAt(p);
            const int t = m_order->traceAt(m);
            const int rec = m_order->recordAt(m);
            const RecordStore &rs = m_set.document(t).records();
            double k = 0.0;
            switch (m_sortColumn) {
                case TraceColumn:
                    k = traceRank[size_t(t)];
                    break;
                case IndexColumn:
                    k = rec;
                    break;
                case TWallColumn:
                    k = rs.tWall(rec) + m_set.offset(t);
                    break;
                case DeltaColumn:
                    k = m == 0
                            ? -HUGE_VAL
                            : rs.tWall(rec) + m_set.offset(t) - m_order->alignedWall(m_set, m - 1);
                    break;
                case TMonoColumn:
                    k = rs.tMono(rec);
                    break;
                case CallColumn:
                    k = callRank[size_t(t)][rs.qualnameId(rec)];
                    break;
            }
            key[size_t(p)] = std::isnan(k) ? -HUGE_VAL : k;
        }
        if (!std::is_sorted(key.begin(), key.end())) {
            std::stable_sort(m_perm.begin(), m_perm.end(),
                             [&](int a, int b) { return key[size_t(a)] < key[size_t(b)]; });
        }
    }
    if (m_sortOrder == Qt::DescendingOrder) {
        std::reverse(m_perm.begin(), m_perm.end());
    } else if (std::is_sorted(m_perm.begin(), m_perm.end())) {
        m_perm.clear();  // the merge order already
    }
}

int CombinedRecordTableModel::rowCount(const QModelIndex &parent) const {
    if (parent.isValid() || !m_order) {
        return 0;
    }
    return m_shown;
}

int CombinedRecordTableModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CombinedRecordTableModel::data(const QModelIndex &index, int role) const {
    const qint64 m = index.isValid() ? mergedRowAt(index.row()) : -1;
    if (m < 0) {
        return QVariant();
    }
    const int t = m_order->traceAt(m);
    const int rec = m_order->recordAt(m);
    const TraceDocument &doc = m_set.document(t);
    const RecordStore &rs = doc.records();
    const double wall = rs.tWall(rec) + m_set.offset(t);
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case RowColumn:
                    return m;
                case TraceColumn:
                    return TerminalText::escaped(m_set.displayLabel(t));
                case IndexColumn:
                    return rec;
                case TWallColumn:
                    return TimeFormat::wall(wall, m_wallUtc);
                case DeltaColumn:
                    return m == 0 ? QString()
                                  : TimeFormat::delta(wall - m_order->alignedWall(m_set, m - 1));
                case TMonoColumn:
                    return TimeFormat::mono(rs.tMono(rec));
                case CallColumn:
                    return Qualname::displayName(rs.qualname(rec));
                case SummaryColumn: {
                    const auto args = doc.args(rec);
                    QString s = TerminalText::escaped(
                        RecordSummary::summarize(rs.qualname(rec), args->value));
                    return args->error.isEmpty() ? s : QStringLiteral("⚠ ") + s;
                }
            }
            return QVariant();
        case Qt::ToolTipRole:
            switch (index.column()) {
                case TraceColumn:
                    return TerminalText::escaped(m_set.trace(t).path);
                case TWallColumn:
                    return tr("%1 on the common axis\nits own t_wall %2 (Unix seconds), offset %3")
                        .arg(TimeFormat::wall(wall, !m_wallUtc),
                             TimeFormat::fixed(rs.tWall(rec), 6),
                             TimeFormat::delta(m_set.offset(t)));
                case CallColumn:
                    return Qualname::displayFull(rs.qualname(rec));
            }
            return QVariant();
        case Qt::TextAlignmentRole:
            if (index.column() == TraceColumn || index.column() >= CallColumn) {
                return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
            }
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        case TraceRole:
            return t;
        case RecordRole:
            return rec;
        case MergedRowRole:
            return m;
        case AlignedWallRole:
            return wall;
    }
    return QVariant();
}

QVariant CombinedRecordTableModel::headerData(int section, Qt::Orientation orientation,
                                              int role) const {
    if (orientation != Qt::Horizontal) {
        return QVariant();
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
            case RowColumn:
                return tr("Row");
            case TraceColumn:
                return tr("Trace");
            case IndexColumn:
                return tr("#");
            case TWallColumn:
                return m_wallUtc ? tr("t_wall (UTC)") : tr("t_wall (local)");
            case DeltaColumn:
                return tr("Δt");
            case TMonoColumn:
                return tr("t_mono (s)");
            case CallColumn:
                return tr("Call");
            case SummaryColumn:
                return tr("Summary");
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
            case RowColumn:
                return tr("Row of the records of all traces interleaved by aligned t_wall");
            case TraceColumn:
                return tr("The trace of the record: its file name (and level_meta.instance_id)");
            case IndexColumn:
                return tr("Record index in its trace's file order");
            case TWallColumn:
                return tr("The record's t_wall plus its trace's offset: the common time axis");
            case DeltaColumn:
                return tr("t_wall minus the previous row's, on the common axis");
            case TMonoColumn:
                return tr("Seconds since its trace's t_mono_start");
            case CallColumn:
                return tr("StorageManager call (short qualname)");
            case SummaryColumn:
                return tr("Keys, model, rank, layout and request of the call's arguments");
        }
    }
    return QVariant();
}

}  // namespace lmct
