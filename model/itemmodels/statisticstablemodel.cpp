#include "itemmodels/statisticstablemodel.h"

#include "codec/memorylayout.h"
#include "codec/qualname.h"
#include "filter/filterliteral.h"
#include "util/terminaltext.h"
#include "util/timeformat.h"

#include <cmath>

namespace lmct {

namespace {

enum CallColumn {
    CallName,
    CallCount,
    CallShare,
    CallFirst,
    CallLast,
    CallRate,
    CallP50,
    CallP95,
    CallMax,
    CallKeysMean,
    CallKeysMax,
    CallBytesMean,
    CallColumns
};

enum GroupColumn {
    GroupName,
    GroupCalls,
    GroupReserves,
    GroupFinishedWrites,
    GroupPrefetches,
    GroupReads,
    GroupFinishedReads,
    GroupDistinctKeys,
    GroupReleases,
    GroupColumns
};

const QString kUnknown = QStringLiteral("\u2014");

QString quoted(const QString &s) {
    return FilterLiteral::make(s, true, 0, 0).toString();
}

QString fixed(double v, int decimals) {
    return std::isfinite(v) ? TimeFormat::fixed(v, decimals) : kUnknown;
}

QString duration(double v) {
    return std::isfinite(v) ? TimeFormat::duration(v) : kUnknown;
}

}  // namespace

StatisticsTableModel::StatisticsTableModel(Table table, QObject *parent)
    : QAbstractTableModel(parent), m_table(table) {}

void StatisticsTableModel::setStatistics(std::shared_ptr<const TraceStatistics> stats) {
    beginResetModel();
    m_stats = std::move(stats);
    endResetModel();
}

const QList<TraceStatistics::GroupRow> *StatisticsTableModel::groups() const {
    if (!m_stats) {
        return nullptr;
    }
    switch (m_table) {
        case Table::Models:
            return &m_stats->models;
        case Table::Ranks:
            return &m_stats->ranks;
        case Table::Salts:
            return &m_stats->salts;
        case Table::Calls:
            break;
    }
    return nullptr;
}

int StatisticsTableModel::rowCount(const QModelIndex &parent) const {
    if (parent.isValid() || !m_stats) {
        return 0;
    }
    if (m_table == Table::Calls) {
        return int(m_stats->calls.size()) + 1;
    }
    return int(groups()->size());
}

int StatisticsTableModel::columnCount(const QModelIndex &parent) const {
    if (parent.isValid()) {
        return 0;
    }
    return m_table == Table::Calls ? int(CallColumns) : int(GroupColumns);
}

void StatisticsTableModel::setTimeAxis(const QString &name) {
    if (name == m_timeAxis) {
        return;
    }
    m_timeAxis = name;
    if (m_table == Table::Calls) {
        emit headerDataChanged(Qt::Horizontal, CallFirst, CallLast);
    }
}

QVariant StatisticsTableModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) {
        return QVariant();
    }
    if (role == Qt::DisplayRole) {
        if (m_table == Table::Calls) {
            if (section == CallFirst || section == CallLast) {
                return QStringLiteral("%1 %2").arg(
                    section == CallFirst ? QStringLiteral("First") : QStringLiteral("Last"),
                    m_timeAxis);
            }
            static const char *names[] = {"Call",   "Count",     "Share",    "",
                                          "",       "Rate",      "Δt p50",   "Δt p95",
                                          "Δt max", "Keys/call", "Max keys", "Bytes/call"};
            return QString::fromUtf8(names[section]);
        }
        static const char *names[] = {"",           "Calls", "Reserves",       "Finished writes",
                                      "Prefetches", "Reads", "Finished reads", "Distinct keys",
                                      "Releases"};
        if (section == GroupName) {
            return m_table == Table::Models  ? QStringLiteral("Model")
                   : m_table == Table::Ranks ? QStringLiteral("Rank")
                                             : QStringLiteral("Cache salt");
        }
        return QString::fromUtf8(names[section]);
    }
    if (role == Qt::ToolTipRole) {
        if (m_table == Table::Calls) {
            if (section == CallFirst || section == CallLast) {
                return QStringLiteral("%1 of the %2 call (s)")
                    .arg(m_timeAxis,
                         section == CallFirst ? QStringLiteral("first") : QStringLiteral("last"));
            }
            static const char *tips[] = {
                "The call (qualname without the class prefix)",
                "Number of calls in the selection",
                "Calls of this kind / all calls in the selection",
                "t_mono of the first call (s)",
                "t_mono of the last call (s)",
                "Calls per second between the first and the last call",
                "Median time between consecutive calls",
                "95th percentile of the time between consecutive calls",
                "Longest time between consecutive calls",
                "Mean number of ObjectKeys per call",
                "Largest number of ObjectKeys in one call",
                "Mean of layout bytes per object × keys, over calls with a layout"};
            return QString::fromUtf8(tips[section]);
        }
        static const char *tips[] = {"",
                                     "Calls with at least one key of this group",
                                     "reserve_write and reserve_write_with_status calls",
                                     "finish_write calls",
                                     "submit_prefetch_task calls",
                                     "read_prefetched_results.__enter__ calls",
                                     "finish_read_prefetched calls",
                                     "Distinct ObjectKeys of this group in the selection"};
        return QString::fromUtf8(tips[section]);
    }
    return QVariant();
}

QVariant StatisticsTableModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) ||
        !m_stats) {
        return QVariant();
    }
    if (role == Qt::TextAlignmentRole) {
        return index.column() == 0 ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return m_table == Table::Calls ? callData(index.row(), index.column(), role)
                                   : groupData(index.row(), index.column(), role);
}

QVariant StatisticsTableModel::callData(int row, int column, int role) const {
    const bool total = row == int(m_stats->calls.size());
    const TraceStatistics::CallRow &r = total ? m_stats->totals : m_stats->calls[row];
    if (role == IsTotalRole) {
        return total;
    }
    if (role == FilterRole) {
        return total ? QString() : QStringLiteral("qualname == %1").arg(quoted(r.qualname));
    }
    if (role == Qt::ToolTipRole) {
        return column == CallName ? (total ? QStringLiteral("All calls in the selection")
                                           : Qualname::displayFull(r.qualname))
                                  : QVariant();
    }
    const bool args = m_stats->argsDecoded;
    if (role == SortRole) {
        switch (column) {
            case CallName:
                return r.call;
            case CallCount:
                return r.count;
            case CallShare:
                return r.share;
            case CallFirst:
                return r.firstTMono;
            case CallLast:
                return r.lastTMono;
            case CallRate:
                return r.rate;
            case CallP50:
                return r.interArrivalP50;
            case CallP95:
                return r.interArrivalP95;
            case CallMax:
                return r.interArrivalMax;
            case CallKeysMean:
                return r.keysMean;
            case CallKeysMax:
                return r.keysMax;
            case CallBytesMean:
                return r.bytesMean;
            default:
                return QVariant();
        }
    }
    if (role != Qt::DisplayRole) {
        return QVariant();
    }
    switch (column) {
        case CallName:
            // escaped: a qualname with U+202E reversed the rest of the row
            return total ? r.call : Qualname::displayName(r.qualname);
        case CallCount:
            return QString::number(r.count);
        case CallShare:
            return std::isfinite(r.share) ? QStringLiteral("%1 %").arg(r.share * 100.0, 0, 'f', 1)
                                          : kUnknown;
        case CallFirst:
            return std::isfinite(r.firstTMono) ? TimeFormat::mono(r.firstTMono) : kUnknown;
        case CallLast:
            return std::isfinite(r.lastTMono) ? TimeFormat::mono(r.lastTMono) : kUnknown;
        case CallRate:
            return std::isfinite(r.rate) ? QStringLiteral("%1/s").arg(r.rate, 0, 'f', 2) : kUnknown;
        case CallP50:
            return duration(r.interArrivalP50);
        case CallP95:
            return duration(r.interArrivalP95);
        case CallMax:
            return duration(r.interArrivalMax);
        case CallKeysMean:
            return args ? fixed(r.keysMean, 1) : kUnknown;
        case CallKeysMax:
            return args ? QString::number(r.keysMax) : kUnknown;
        case CallBytesMean:
            return args && std::isfinite(r.bytesMean) ? formatBytes(qint64(r.bytesMean)) : kUnknown;
        default:
            return QVariant();
    }
}

QVariant StatisticsTableModel::groupData(int row, int column, int role) const {
    const TraceStatistics::GroupRow &r = groups()->at(row);
    if (role == IsTotalRole) {
        return false;
    }
    if (role == FilterRole) {
        switch (m_table) {
            case Table::Models:
                return QStringLiteral("model_name == %1").arg(quoted(r.name));
            case Table::Ranks:
                return QStringLiteral("rank == %1 && world_size == %2")
                    .arg(r.rank)
                    .arg(r.worldSize);
            default:
                return r.hasSalt ? QStringLiteral("cache_salt == %1").arg(quoted(r.name))
                                 : QStringLiteral("keys.count > 0 && !(cache_salt matches \"\")");
        }
    }
    QString name = r.name;
    if (m_table == Table::Salts) {
        name = !r.hasSalt       ? QStringLiteral("(not recorded)")
               : name.isEmpty() ? QStringLiteral("(empty)")
                                : name;
    }
    // (model names and salts are the trace's text: control and bidi characters escaped)
    name = TerminalText::escaped(Qualname::capped(name));
    if (role == Qt::ToolTipRole) {
        if (column != GroupName) {
            return QVariant();
        }
        if (m_table == Table::Salts && !r.hasSalt) {
            return QStringLiteral(
                "Keys without a cache_salt field: tenants cannot be told apart (trace schema "
                "before 2, or a schema 2 trace whose ObjectKey codec did not write it)");
        }
        return name;
    }
    qint64 v = 0;
    switch (column) {
        case GroupName:
            return role == SortRole && m_table == Table::Ranks
                       ? QVariant(qint64(r.worldSize) * 256 + r.rank)
                   : (role == SortRole || role == Qt::DisplayRole) ? QVariant(name)
                                                                   : QVariant();
        case GroupCalls:
            v = r.calls;
            break;
        case GroupReserves:
            v = r.reserves;
            break;
        case GroupFinishedWrites:
            v = r.finishedWrites;
            break;
        case GroupPrefetches:
            v = r.prefetches;
            break;
        case GroupReads:
            v = r.reads;
            break;
        case GroupFinishedReads:
            v = r.finishedReads;
            break;
        case GroupReleases:
            v = r.releases;
            break;
        case GroupDistinctKeys:
            v = r.distinctKeys;
            break;
        default:
            return QVariant();
    }
    if (role == SortRole) {
        return v;
    }
    if (role == Qt::DisplayRole) {
        return QString::number(v);
    }
    return QVariant();
}

}  // namespace lmct
