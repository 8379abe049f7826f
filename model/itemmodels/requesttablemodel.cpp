#include "itemmodels/requesttablemodel.h"

#include "util/timeformat.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string_view>

namespace lmct {

RequestTableModel::RequestTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void RequestTableModel::setAnalysis(std::shared_ptr<const RequestAnalysis> analysis) {
    beginResetModel();
    m_analysis = std::move(analysis);
    m_rows.clear();
    if (m_analysis) {
        m_rows.resize(size_t(m_analysis->count()));
        for (int i = 0; i < m_analysis->count(); ++i) {
            m_rows[size_t(i)] = i;
        }
    }
    endResetModel();
}

int RequestTableModel::requestAt(int row) const {
    return row >= 0 && size_t(row) < m_rows.size() ? m_rows[size_t(row)] : -1;
}

int RequestTableModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RequestTableModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

double RequestTableModel::numericValue(const RequestAnalysis::Request &q, int column) const {
    auto orInf = [](double v) { return std::isnan(v) ? qInf() : v; };
    switch (column) {
        case SubmitColumn:
            return m_analysis->submitT(q);
        case RequestedColumn:
            return q.requested;
        case PrefixHitColumn:
            return q.prefixHit;
        case LmcacheHitColumn: {
            const PrefetchHandle *h = m_analysis->handle(q);
            return h && h->hasHitCount ? double(h->l1PrefixHitCount) : -1.0;
        }
        case HitCheckColumn:
            return int(m_analysis->hitCheck(q));
        case ReadKeysColumn:
            return q.readKeys;
        case MatchColumn:
            return int(q.match);
        case EndedColumn:
            return (q.cancelled ? 2 : 0) + (q.released ? 1 : 0);
        case TimeToReadColumn:
            return orInf(m_analysis->timeToRead(q));
        case ReservedColumn:
            return q.reserved;
        case FinishedColumn:
            return q.finished;
        case TimeToWrittenColumn:
            return orInf(m_analysis->timeToWritten(q));
        default:
            return 0.0;
    }
}

QVariant RequestTableModel::sortValue(const RequestAnalysis::Request &q, int column) const {
    if (column == RequestIdColumn) {
        return m_analysis->requestId(q);
    }
    return column >= 0 && column < ColumnCount ? QVariant(numericValue(q, column)) : QVariant();
}

QVariant RequestTableModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || !m_analysis || index.row() >= int(m_rows.size()) ||
        index.column() >= ColumnCount) {
        return QVariant();
    }
    const int r = m_rows[size_t(index.row())];
    const RequestAnalysis::Request &q = m_analysis->at(r);
    const int c = index.column();
    switch (role) {
        case RequestRole:
            return r;
        case RecordRole:
            if (c == PrefixHitColumn || c == ReadKeysColumn || c == MatchColumn ||
                c == TimeToReadColumn) {
                return q.readRecord;
            }
            if (c == LmcacheHitColumn || c == HitCheckColumn || c == EndedColumn) {
                const int kr = m_analysis->handleKr(q);
                return kr >= 0 ? m_analysis->keys().recordOf(kr) : -1;
            }
            if (c == ReservedColumn) {
                return q.firstReserveRecord;
            }
            if (c == FinishedColumn || c == TimeToWrittenColumn) {
                return q.lastFinishRecord;
            }
            return q.submitRecord;
        case SortRole:
            return sortValue(q, c);
        case Qt::TextAlignmentRole:
            return c == RequestIdColumn || c == MatchColumn || c == HitCheckColumn ||
                           c == EndedColumn
                       ? QVariant()
                       : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
        case Qt::ToolTipRole:
            if (c == HitCheckColumn &&
                m_analysis->hitCheck(q) != RequestAnalysis::HitCheck::NoAccount) {
                return tr("LMCache: %1 in L1; the calls: %2")
                    .arg(m_analysis->handleHitText(q), m_analysis->inferredHitText(q));
            }
            return QVariant();
        case Qt::DisplayRole:
            break;
        default:
            return QVariant();
    }
    // Unknown durations are +inf in numericValue(): shown empty.
    auto dur = [](double v) { return std::isfinite(v) ? TimeFormat::duration(v) : QString(); };
    switch (c) {
        case RequestIdColumn:
            return m_analysis->requestId(q);
        case SubmitColumn:
            return TimeFormat::mono(numericValue(q, c));
        case RequestedColumn:
        case PrefixHitColumn:
        case ReadKeysColumn:
        case ReservedColumn:
        case FinishedColumn:
            return qint32(numericValue(q, c));
        case MatchColumn:
            return RequestAnalysis::matchName(q.match);
        case LmcacheHitColumn:
            return m_analysis->handleHitText(q);
        case HitCheckColumn:
            return RequestAnalysis::hitCheckName(m_analysis->hitCheck(q));
        case EndedColumn:
            return q.released && q.cancelled ? tr("released, cancelled")
                   : q.cancelled             ? tr("cancelled")
                   : q.released              ? tr("released")
                                             : QString();
        case TimeToReadColumn:
        case TimeToWrittenColumn:
            return dur(numericValue(q, c));
        default:
            return QVariant();
    }
}

QVariant RequestTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    static const char *const names[ColumnCount] = {
        "Request id", "Submit t",  "Requested", "Prefix hit", "LMCache hit",
        "Hit check",  "Read keys", "Match",     "Ended",      "To read",
        "Reserved",   "Finished",  "To written"};
    return QString::fromLatin1(names[section]);
}

void RequestTableModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= ColumnCount || !m_analysis) {
        return;
    }
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList persistent = persistentIndexList();
    std::vector<int> reqOf;
    for (const QModelIndex &i : persistent) {
        reqOf.push_back(requestAt(i.row()));
    }
    // Each request's sort key once (1.76 M requests: a key per comparison cost seconds on the
    // GUI thread): the request id's bytes (UTF-8 byte order is code point order), or the
    // number, NaN last.
    const int n = m_analysis->count();
    std::function<bool(int, int)> less;
    std::vector<std::string_view> ids;
    std::vector<double> values;
    if (column == RequestIdColumn) {
        ids.resize(size_t(n));
        for (int i = 0; i < n; ++i) {
            const QByteArrayView v = m_analysis->requestIdBytes(m_analysis->at(i));
            ids[size_t(i)] = std::string_view(v.data(), size_t(v.size()));
        }
        less = [&ids](int a, int b) { return ids[size_t(a)] < ids[size_t(b)]; };
    } else {
        values.resize(size_t(n));
        for (int i = 0; i < n; ++i) {
            values[size_t(i)] = numericValue(m_analysis->at(i), column);
        }
        less = [&values](int a, int b) {
            const double x = values[size_t(a)], y = values[size_t(b)];
            return x < y || (!std::isnan(x) && std::isnan(y));
        };
    }
    if (order == Qt::AscendingOrder) {
        std::stable_sort(m_rows.begin(), m_rows.end(), less);
    } else {
        std::stable_sort(m_rows.begin(), m_rows.end(), [&](int a, int b) { return less(b, a); });
    }
    std::vector<int> rowOf(m_rows.size(), -1);
    for (size_t i = 0; i < m_rows.size(); ++i) {
        rowOf[size_t(m_rows[i])] = int(i);
    }
    QModelIndexList to;
    for (qsizetype i = 0; i < persistent.size(); ++i) {
        const int q = reqOf[size_t(i)];
        to.append(q >= 0 ? index(rowOf[size_t(q)], persistent[i].column()) : QModelIndex());
    }
    changePersistentIndexList(persistent, to);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

}  // namespace lmct
