#include "itemmodels/keytablemodel.h"

#include "util/timeformat.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace lmct {

KeyTableModel::KeyTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void KeyTableModel::setAnalysis(std::shared_ptr<const KeyAnalysis> analysis) {
    beginResetModel();
    m_analysis = std::move(analysis);
    rebuild();
    endResetModel();
}

void KeyTableModel::setHashPrefix(const QString &hexPrefix) {
    const QString p = hexPrefix.trimmed().toLower();
    if (p == m_prefix) {
        return;
    }
    beginResetModel();
    m_prefix = p;
    rebuild();
    endResetModel();
}

void KeyTableModel::rebuild() {
    m_rows.clear();
    if (!m_analysis) {
        return;
    }
    if (m_prefix.isEmpty()) {
        m_rows.resize(size_t(m_analysis->keyCount()));
        for (int i = 0; i < m_analysis->keyCount(); ++i) {
            m_rows[size_t(i)] = i;
        }
    } else {
        m_rows = m_analysis->findByHashPrefix(m_prefix);
    }
    sortRows();
}

void KeyTableModel::sortRows() {
    if (!m_analysis || m_sortColumn < 0) {
        return;
    }
    const KeyAnalysis &ka = *m_analysis;
    const int column = m_sortColumn;
    // Names sort by their rank among the distinct names (no string compare per row pair).
    auto ranks = [](const QStringList &names) {
        std::vector<int> order(size_t(names.size()));
        for (size_t i = 0; i < order.size(); ++i) {
            order[i] = int(i);
        }
        std::sort(order.begin(), order.end(), [&](int a, int b) { return names[a] < names[b]; });
        std::vector<int> rank(order.size());
        for (size_t i = 0; i < order.size(); ++i) {
            rank[size_t(order[i])] = int(i);
        }
        return rank;
    };
    std::vector<int> nameRank;
    if (column == ModelColumn) {
        nameRank = ranks(ka.models());
    } else if (column == SaltColumn) {
        nameRank = ranks(ka.salts());
    }
    auto number = [&](int id) -> double {
        const KeyAnalysis::Key &k = ka.key(id);
        switch (column) {
            case ModelColumn:
                return nameRank[k.model];
            case SaltColumn:
                return k.salt >= 0 ? nameRank[size_t(k.salt)] : -1;
            default:
                return numericValue(id, column);
        }
    };
    std::function<bool(int, int)> less;
    if (column == HashColumn) {
        less = [&](int a, int b) { return ka.hashView(a) < ka.hashView(b); };
    } else {
        less = [&](int a, int b) { return number(a) < number(b); };
    }
    if (m_sortOrder == Qt::AscendingOrder) {
        std::stable_sort(m_rows.begin(), m_rows.end(), less);
    } else {
        std::stable_sort(m_rows.begin(), m_rows.end(), [&](int a, int b) { return less(b, a); });
    }
}

int KeyTableModel::keyAt(int row) const {
    return row >= 0 && size_t(row) < m_rows.size() ? m_rows[size_t(row)] : -1;
}

int KeyTableModel::rowOfKey(int key) const {
    auto it = std::find(m_rows.begin(), m_rows.end(), key);
    return it == m_rows.end() ? -1 : int(it - m_rows.begin());
}

int KeyTableModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int KeyTableModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

double KeyTableModel::numericValue(int id, int column) const {
    const KeyAnalysis::Key &k = m_analysis->key(id);
    auto orInf = [](double v) { return std::isnan(v) ? qInf() : v; };
    switch (column) {
        case RankColumn: {
            const KvRank r = KvRank::unpack(k.kvRank);
            return double(r.worldSize) * 65536.0 + r.rank;
        }
        case GroupColumn:
            return k.hasGroup ? double(k.group) : -qInf();
        case FirstColumn:
            return k.firstT;
        case LastColumn:
            return k.lastT;
        case ReserveColumn:
            return k.reserves;
        case FinishColumn:
            return k.finishes;
        case AbortColumn:
            return k.aborts;
        case PrefetchColumn:
            return k.prefetches;
        case ReadColumn:
            return k.reads();
        case StateColumn:
            return int(k.state);
        case WriteLatencyColumn:
            return orInf(k.writeLatency);
        case FirstReuseColumn:
            return orInf(k.firstReuse);
        default:
            return 0.0;
    }
}

QVariant KeyTableModel::sortValue(int id, int column) const {
    switch (column) {
        case HashColumn:
            return m_analysis->chunkHash(id);
        case ModelColumn:
            return m_analysis->modelName(id);
        case SaltColumn: {
            const KeyAnalysis::Key &k = m_analysis->key(id);
            return k.salt >= 0 ? m_analysis->salts()[k.salt] : QString();
        }
        default:
            return numericValue(id, column);
    }
}

QVariant KeyTableModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || !m_analysis || index.row() >= int(m_rows.size()) ||
        index.column() >= ColumnCount) {
        return QVariant();
    }
    const int id = m_rows[size_t(index.row())];
    const KeyAnalysis::Key &k = m_analysis->key(id);
    switch (role) {
        case KeyRole:
            return id;
        case RecordRole:
            return k.firstRecord;
        case SortRole:
            return sortValue(id, index.column());
        case Qt::TextAlignmentRole:
            if (index.column() >= FirstColumn && index.column() != StateColumn) {
                return int(Qt::AlignRight | Qt::AlignVCenter);
            }
            return QVariant();
        case Qt::ToolTipRole: {
            const ObjectKey o = m_analysis->objectKey(id);
            return QStringLiteral("%1\n%2, %3, group %4, salt %5\n%6")
                .arg(o.hashHex(), o.modelName, o.rank().toString(),
                     k.hasGroup ? QString::number(k.group) : QStringLiteral("-"),
                     k.salt >= 0 ? QStringLiteral("\"%1\"").arg(*o.cacheSalt) : QStringLiteral("-"),
                     KeyAnalysis::stateLabel(k.state));
        }
        case Qt::DisplayRole:
            break;
        default:
            return QVariant();
    }
    // Unknown durations are +inf in numericValue(): shown empty.
    auto dur = [](double v) { return std::isfinite(v) ? TimeFormat::duration(v) : QString(); };
    const int column = index.column();
    switch (column) {
        case HashColumn:
            return m_analysis->hashHex(id);
        case ModelColumn:
            return m_analysis->modelName(id);
        case RankColumn: {
            const KvRank r = KvRank::unpack(k.kvRank);
            return QStringLiteral("%1/%2").arg(r.rank).arg(r.worldSize);
        }
        case GroupColumn:
            return k.hasGroup ? QString::number(k.group) : QString();
        case SaltColumn:
            return k.salt >= 0 ? m_analysis->salts()[k.salt] : QString();
        case FirstColumn:
        case LastColumn:
            return TimeFormat::mono(numericValue(id, column));
        case ReserveColumn:
        case FinishColumn:
        case AbortColumn:
        case PrefetchColumn:
        case ReadColumn:
            return quint32(numericValue(id, column));
        case StateColumn:
            return KeyAnalysis::stateLabel(k.state);
        case WriteLatencyColumn:
        case FirstReuseColumn:
            return dur(numericValue(id, column));
        default:
            return QVariant();
    }
}

QVariant KeyTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    static const char *const names[ColumnCount] = {
        "Chunk hash", "Model",  "Rank",    "Group",         "Salt",
        "First t",    "Last t", "Reserve", "Finish",        "Abort",
        "Prefetch",   "Read",   "State",   "Write latency", "First reuse"};
    return QString::fromLatin1(names[section]);
}

void KeyTableModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= ColumnCount) {
        return;
    }
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList persistent = persistentIndexList();
    std::vector<int> keysOfPersistent;
    keysOfPersistent.reserve(size_t(persistent.size()));
    for (const QModelIndex &i : persistent) {
        keysOfPersistent.push_back(keyAt(i.row()));
    }
    m_sortColumn = column;
    m_sortOrder = order;
    sortRows();
    QModelIndexList to;
    to.reserve(persistent.size());
    std::vector<int> rowOf(m_analysis ? size_t(m_analysis->keyCount()) : 0, -1);
    for (size_t r = 0; r < m_rows.size(); ++r) {
        rowOf[size_t(m_rows[r])] = int(r);
    }
    for (qsizetype i = 0; i < persistent.size(); ++i) {
        const int key = keysOfPersistent[size_t(i)];
        to.append(key >= 0 ? index(rowOf[size_t(key)], persistent[i].column()) : QModelIndex());
    }
    changePersistentIndexList(persistent, to);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

}  // namespace lmct
