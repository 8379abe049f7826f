#include "stats/tracesetstatistics.h"

#include "codec/qualname.h"

#include <QHash>
#include <QJsonArray>
#include <algorithm>
#include <cmath>
#include <map>

namespace lmct {

namespace {

using CallRow = TraceStatistics::CallRow;
using GroupRow = TraceStatistics::GroupRow;

/** Adds `b`'s argument figures (keys, bytes) to the sums of `a`. */
struct ArgSums {
    double keys = 0.0;   // Σ keysMean × count
    double bytes = 0.0;  // Σ bytesMean × bytesCalls
    qint64 keysMax = 0;
    qint64 keysCount = 0;  // calls the keys mean covers
    qint64 bytesCalls = 0;
};

void addArgs(ArgSums *s, const CallRow &r) {
    if (std::isfinite(r.keysMean)) {
        s->keys += r.keysMean * double(r.count);
        s->keysCount += r.count;
    }
    s->keysMax = std::max(s->keysMax, r.keysMax);
    if (r.bytesCalls > 0 && std::isfinite(r.bytesMean)) {
        s->bytes += r.bytesMean * double(r.bytesCalls);
        s->bytesCalls += r.bytesCalls;
    }
}

void setArgs(CallRow *r, const ArgSums &s) {
    r->keysMean = s.keysCount > 0 ? s.keys / double(s.keysCount) : TraceStatistics::kNaN;
    r->keysMax = s.keysMax;
    r->bytesCalls = s.bytesCalls;
    r->bytesMean = s.bytesCalls > 0 ? s.bytes / double(s.bytesCalls) : TraceStatistics::kNaN;
}

/** Times of a call on the common axis: sorted aligned t_walls → first, last, rate, gaps. */
void timeStats(CallRow *row, std::vector<double> &times, double origin) {
    if (times.empty()) {
        return;
    }
    std::sort(times.begin(), times.end());
    row->firstTMono = times.front() - origin;
    row->lastTMono = times.back() - origin;
    const double span = times.back() - times.front();
    row->rate = span > 0 ? double(times.size()) / span : TraceStatistics::kNaN;
    if (times.size() >= 2) {
        std::vector<double> gaps(times.size() - 1);
        for (size_t i = 0; i + 1 < times.size(); ++i) {
            gaps[i] = times[i + 1] - times[i];
        }
        std::sort(gaps.begin(), gaps.end());
        row->interArrivalP50 = TraceStatistics::percentile(gaps, 0.50);
        row->interArrivalP95 = TraceStatistics::percentile(gaps, 0.95);
        row->interArrivalMax = gaps.back();
    }
}

void addGroup(GroupRow *into, const GroupRow &g) {
    into->calls += g.calls;
    into->reserves += g.reserves;
    into->finishedWrites += g.finishedWrites;
    into->prefetches += g.prefetches;
    into->reads += g.reads;
    into->finishedReads += g.finishedReads;
    into->releases += g.releases;
    into->distinctKeys += g.distinctKeys;
}

template <typename Key, typename KeyOf>
QList<GroupRow> mergeGroups(const QList<TraceStatistics> &per,
                            QList<GroupRow> TraceStatistics::*member, KeyOf keyOf) {
    std::map<Key, GroupRow> merged;  // ordered as TraceStatistics orders them
    for (const TraceStatistics &st : per) {
        for (const GroupRow &g : st.*member) {
            auto [it, fresh] = merged.try_emplace(keyOf(g), GroupRow());
            if (fresh) {
                it->second.name = g.name;
                it->second.hasSalt = g.hasSalt;
                it->second.rank = g.rank;
                it->second.worldSize = g.worldSize;
            }
            addGroup(&it->second, g);
        }
    }
    QList<GroupRow> out;
    for (auto &[k, g] : merged) {
        out.append(g);
    }
    return out;
}

}  // namespace

TraceSetStatistics TraceSetStatistics::compute(const TraceSet &set, const MergedOrder &order) {
    return compute(set, order, Options());
}

TraceSetStatistics TraceSetStatistics::compute(const TraceSet &set, const MergedOrder &order,
                                               const Options &options) {
    TraceSetStatistics out;
    const int k = set.size();
    out.origin = set.combinedStart();
    std::vector<double> durations;
    for (int t = 0; t < k; ++t) {
        TraceStatistics::Options o;
        o.subset = size_t(t) < options.subsets.size() ? options.subsets[size_t(t)] : nullptr;
        o.decodeArgs = options.decodeArgs;
        o.cancel = options.cancel;
        std::vector<double> d;
        o.pairDurations = &d;
        out.perTrace.append(TraceStatistics::compute(set.document(t), o));
        durations.insert(durations.end(), d.begin(), d.end());
        if (options.progress) {
            options.progress(t + 1, k);
        }
    }
    TraceStatistics &all = out.all;
    all.argsDecoded = k > 0;
    for (const TraceStatistics &st : out.perTrace) {
        all.records += st.records;
        all.distinctKeys += st.distinctKeys;
        all.decodeErrors += st.decodeErrors;
        all.releases += st.releases;
        all.cancels += st.cancels;
        for (size_t i = 0; i < all.finishReadRoles.size(); ++i) {
            all.finishReadRoles[i] += st.finishReadRoles[i];
        }
        all.argsDecoded = all.argsDecoded && st.argsDecoded;
        all.cancelled = all.cancelled || st.cancelled;
        all.pairs.matched += st.pairs.matched;
        all.pairs.unmatchedEnter += st.pairs.unmatchedEnter;
        all.pairs.unmatchedExit += st.pairs.unmatchedExit;
    }
    std::sort(durations.begin(), durations.end());
    all.pairs.durationP50 = TraceStatistics::percentile(durations, 0.50);
    all.pairs.durationP95 = TraceStatistics::percentile(durations, 0.95);
    all.pairs.durationMax = durations.empty() ? TraceStatistics::kNaN : durations.back();

    // Call rows by qualname: counts and argument figures from the per-trace rows.
    QHash<QString, int> rowOf;
    ArgSums totalArgs;
    std::vector<ArgSums> rowArgs;
    for (const TraceStatistics &st : out.perTrace) {
        for (const CallRow &r : st.calls) {
            auto it = rowOf.find(r.qualname);
            if (it == rowOf.end()) {
                it = rowOf.insert(r.qualname, int(all.calls.size()));
                CallRow n;
                n.qualname = r.qualname;
                n.call = r.call;
                all.calls.append(n);
                rowArgs.emplace_back();
            }
            all.calls[*it].count += r.count;
            addArgs(&rowArgs[size_t(*it)], r);
        }
        addArgs(&totalArgs, st.totals);
    }
    for (int i = 0; i < all.calls.size(); ++i) {
        CallRow &r = all.calls[i];
        r.share = all.records > 0 ? double(r.count) / double(all.records) : TraceStatistics::kNaN;
        if (all.argsDecoded) {
            setArgs(&r, rowArgs[size_t(i)]);
        }
    }
    all.totals.qualname = QStringLiteral("(total)");
    all.totals.call = QStringLiteral("total");
    all.totals.count = all.records;
    all.totals.share = all.records > 0 ? 1.0 : TraceStatistics::kNaN;
    if (all.argsDecoded) {
        setArgs(&all.totals, totalArgs);
    }

    // Times on the common axis: the selected records' aligned t_walls, per call row.
    std::vector<std::vector<char>> selected(static_cast<size_t>(k));
    for (int t = 0; t < k; ++t) {
        const std::vector<int> *sub =
            size_t(t) < options.subsets.size() ? options.subsets[size_t(t)] : nullptr;
        if (sub) {
            selected[size_t(t)].assign(size_t(set.document(t).records().size()), 0);
            for (int r : *sub) {
                if (r >= 0 && size_t(r) < selected[size_t(t)].size()) {
                    selected[size_t(t)][size_t(r)] = 1;
                }
            }
        }
    }
    // Row of each trace's qualname ids.
    std::vector<std::vector<int>> rowOfId(static_cast<size_t>(k));
    for (int t = 0; t < k; ++t) {
        const QStringList names = set.document(t).records().qualnames();
        for (const QString &q : names) {
            rowOfId[size_t(t)].push_back(rowOf.value(q, -1));
        }
    }
    std::vector<std::vector<double>> times(static_cast<size_t>(all.calls.size()));
    std::vector<double> allTimes;
    for (qint64 i = 0, n = order.size(); i < n; ++i) {
        const int t = order.traceAt(i), r = order.recordAt(i);
        if (!selected[size_t(t)].empty() &&
            (size_t(r) >= selected[size_t(t)].size() || !selected[size_t(t)][size_t(r)])) {
            continue;
        }
        const RecordStore &rs = set.document(t).records();
        const double w = rs.tWall(r) + set.offset(t);
        if (!std::isfinite(w)) {
            continue;
        }
        const quint32 id = rs.qualnameId(r);
        const int row = id < rowOfId[size_t(t)].size() ? rowOfId[size_t(t)][id] : -1;
        if (row >= 0) {
            times[size_t(row)].push_back(w);
        }
        allTimes.push_back(w);
    }
    for (int i = 0; i < all.calls.size(); ++i) {
        timeStats(&all.calls[i], times[size_t(i)], out.origin);
        std::vector<double>().swap(times[size_t(i)]);
    }
    timeStats(&all.totals, allTimes, out.origin);

    std::sort(all.calls.begin(), all.calls.end(), [](const CallRow &a, const CallRow &b) {
        return Qualname::flowLess(a.qualname, b.qualname);
    });
    all.models = mergeGroups<QString>(out.perTrace, &TraceStatistics::models,
                                      [](const GroupRow &g) { return g.name; });
    all.ranks = mergeGroups<std::pair<int, int>>(
        out.perTrace, &TraceStatistics::ranks,
        [](const GroupRow &g) { return std::pair(g.worldSize, g.rank); });
    all.salts = mergeGroups<std::pair<bool, QString>>(
        out.perTrace, &TraceStatistics::salts,
        [](const GroupRow &g) { return std::pair(g.hasSalt, g.name); });
    return out;
}

QJsonObject TraceSetStatistics::toJson(const TraceSet &set) const {
    QJsonObject a = all.toJson();
    a.insert(QStringLiteral("time_axis"), QStringLiteral("t_wall"));
    a.insert(QStringLiteral("t_wall_origin"),
             std::isfinite(origin) ? QJsonValue(origin) : QJsonValue(QJsonValue::Null));
    QJsonArray traces;
    for (int t = 0; t < perTrace.size() && t < set.size(); ++t) {
        QJsonObject o = perTrace[t].toJson();
        o.insert(QStringLiteral("trace"), t);
        o.insert(QStringLiteral("label"), set.label(t));
        o.insert(QStringLiteral("instance_id"), set.instanceId(t).isEmpty()
                                                    ? QJsonValue(QJsonValue::Null)
                                                    : QJsonValue(set.instanceId(t)));
        o.insert(QStringLiteral("offset_s"), set.offset(t));
        traces.append(o);
    }
    return QJsonObject{{QStringLiteral("all"), a}, {QStringLiteral("traces"), traces}};
}

}  // namespace lmct
