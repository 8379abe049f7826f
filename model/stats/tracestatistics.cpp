#include "stats/tracestatistics.h"

#include "timeline/contextpairs.h"
#include "timeline/finishreadplacement.h"

#include "codec/qualname.h"
#include "codec/recordfacts.h"
#include "trace/packedargsdecoder.h"
#include "util/parallelchunks.h"
#include "util/passprogress.h"

#include <QHash>
#include <QJsonArray>
#include <QMutex>
#include <QtEndian>
#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

namespace lmct {

namespace {

enum class Category : quint8 {
    Other,
    Reserve,
    FinishWrite,
    Prefetch,
    Enter,
    Exit,
    FinishRead,
    Release,
    Cancel
};

Category categoryOf(const QString &qualname) {
    const QString call = Qualname::shortName(qualname);
    if (call.startsWith(QLatin1String("reserve_write"))) {
        return Category::Reserve;
    }
    if (call == QLatin1String("finish_write")) {
        return Category::FinishWrite;
    }
    if (call == QLatin1String("submit_prefetch_task")) {
        return Category::Prefetch;
    }
    if (call == QLatin1String("read_prefetched_results.__enter__")) {
        return Category::Enter;
    }
    if (call == QLatin1String("read_prefetched_results.__exit__")) {
        return Category::Exit;
    }
    if (call == QLatin1String("finish_read_prefetched")) {
        return Category::FinishRead;
    }
    if (call == QLatin1String("release_prefetch_task")) {
        return Category::Release;
    }
    if (call == QLatin1String("cancel_prefetch_task")) {
        return Category::Cancel;
    }
    return Category::Other;
}

struct GroupAcc {
    qint64 calls = 0;
    qint64 reserves = 0;
    qint64 finishedWrites = 0;
    qint64 prefetches = 0;
    qint64 reads = 0;
    qint64 finishedReads = 0;
    qint64 releases = 0;
    qint64 distinctKeys = 0;

    void count(Category c) {
        ++calls;
        switch (c) {
            case Category::Reserve:
                ++reserves;
                break;
            case Category::FinishWrite:
                ++finishedWrites;
                break;
            case Category::Prefetch:
                ++prefetches;
                break;
            case Category::Enter:
                ++reads;
                break;
            case Category::FinishRead:
                ++finishedReads;
                break;
            case Category::Release:
                ++releases;
                break;
            default:
                break;
        }
    }
    void merge(const GroupAcc &o) {
        calls += o.calls;
        reserves += o.reserves;
        finishedWrites += o.finishedWrites;
        prefetches += o.prefetches;
        reads += o.reads;
        finishedReads += o.finishedReads;
        releases += o.releases;
    }
};

/**
 * The groups of one distinct key. A key's identity (hash, model, kv_rank, group, salt)
 * determines its model, rank and salt, so distinct keys per group are counted from one set of
 * distinct keys. The views point into the mapped file (strings are unpacked by reference), valid
 * as long as the document: each is the key of its group's entry in the chunk's ChunkAcc (one
 * place per name and chunk, not one per record).
 */
struct KeyGroups {
    std::string_view model;
    int rankKey = 0;  // world_size << 8 | rank
    bool hasSalt = false;
    std::string_view salt;
};

/** An enter, exit, finish_read_prefetched or release of the selection, in file order. */
struct PairEvent {
    Category cat = Category::Other;
    bool hasKeys = false;
    quint64 keys = 0;
    double tMono = 0.0;
    qint32 record = -1;
};

struct ChunkAcc {
    std::vector<qint64> keysSum;
    std::vector<qint64> keysMax;
    std::vector<double> bytesSum;
    std::vector<qint64> bytesCalls;
    // Group names are views into the mapped file (valid as long as the document).
    QHash<QByteArrayView, GroupAcc> models;
    QHash<int, GroupAcc> ranks;  // world_size << 8 | rank
    QHash<QByteArrayView, GroupAcc> salts;
    GroupAcc noSalt;                 // keys without a cache_salt field
    QHash<quint64, KeyGroups> keys;  // distinct keys by identity hash
    std::vector<PairEvent> events;
    qint64 errors = 0;

    void resize(int qualnames) {
        keysSum.assign(size_t(qualnames), 0);
        keysMax.assign(size_t(qualnames), 0);
        bytesSum.assign(size_t(qualnames), 0.0);
        bytesCalls.assign(size_t(qualnames), 0);
    }
};

template <typename Key>
void mergeGroups(QHash<Key, GroupAcc> &into, const QHash<Key, GroupAcc> &from) {
    for (auto it = from.cbegin(); it != from.cend(); ++it) {
        into[it.key()].merge(it.value());
    }
}

TraceStatistics::GroupRow toRow(const GroupAcc &g) {
    TraceStatistics::GroupRow r;
    r.calls = g.calls;
    r.reserves = g.reserves;
    r.finishedWrites = g.finishedWrites;
    r.prefetches = g.prefetches;
    r.reads = g.reads;
    r.finishedReads = g.finishedReads;
    r.releases = g.releases;
    r.distinctKeys = g.distinctKeys;
    return r;
}

QByteArrayView viewOf(std::string_view v) {
    return QByteArrayView(v.data(), qsizetype(v.size()));
}

/** `name` as the key of its entry in `groups` (added, with no counts, when new). */
std::string_view groupName(QHash<QByteArrayView, GroupAcc> &groups, std::string_view name) {
    auto it = groups.find(viewOf(name));
    if (it == groups.end()) {
        it = groups.insert(viewOf(name), GroupAcc());
    }
    return std::string_view(it.key().data(), size_t(it.key().size()));
}

/**
 * The models, kv_ranks and cache_salts one record has keys in, each once: a record counts once
 * in each group it has a key in. The names are views of the record's keys.
 */
struct RecordGroups {
    std::vector<std::string_view> models;
    std::vector<std::string_view> salts;
    std::vector<int> ranks;  // world_size << 8 | rank
    bool sawSaltless = false;

    static int rankKeyOf(const PackedObjectKey &key) {
        const KvRank kr = key.rank();
        return (kr.worldSize << 8) | kr.rank;
    }
    void clear() {
        models.clear();
        salts.clear();
        ranks.clear();
        sawSaltless = false;
    }
    void add(const PackedObjectKey &key) {
        if (std::find(models.begin(), models.end(), key.modelName) == models.end()) {
            models.push_back(key.modelName);
        }
        const int rankKey = rankKeyOf(key);
        if (std::find(ranks.begin(), ranks.end(), rankKey) == ranks.end()) {
            ranks.push_back(rankKey);
        }
        if (!key.hasCacheSalt) {
            sawSaltless = true;
        } else if (std::find(salts.begin(), salts.end(), key.cacheSalt) == salts.end()) {
            salts.push_back(key.cacheSalt);
        }
    }
    /** Calls `f` on the entry of `acc` of each group the record is in. */
    template <typename F>
    void forEachGroup(ChunkAcc &acc, F f) const {
        for (std::string_view m : models) {
            f(acc.models[viewOf(m)]);
        }
        for (int rk : ranks) {
            f(acc.ranks[rk]);
        }
        for (std::string_view salt : salts) {
            f(acc.salts[viewOf(salt)]);
        }
        if (sawSaltless) {
            f(acc.noSalt);
        }
    }
};

/**
 * Fills count/time fields of a row from its (unsorted) t_mono values, which it consumes: they
 * are sorted and then overwritten by the inter-arrival gaps (no second column of 8 bytes per
 * record).
 */
void timeStats(TraceStatistics::CallRow *row, std::vector<double> &times, qint64 total) {
    row->count = qint64(times.size());
    row->share = total > 0 ? double(row->count) / double(total) : TraceStatistics::kNaN;
    // Times that are not times (NaN, infinite, negative: before the trace's t_mono_start) are
    // left out, as the duration and the time axes leave them out (one NaN t_mono made
    // First t_mono, the rate and the percentiles "—": sorting with a NaN is not an order; one
    // of -1e300 made the rate 0/s).
    times.erase(std::remove_if(times.begin(), times.end(),
                               [](double t) { return !std::isfinite(t) || t < 0.0; }),
                times.end());
    if (times.empty()) {
        return;
    }
    std::sort(times.begin(), times.end());
    row->firstTMono = times.front();
    row->lastTMono = times.back();
    const double span = row->lastTMono - row->firstTMono;
    row->rate = span > 0 ? double(times.size()) / span : TraceStatistics::kNaN;
    if (times.size() >= 2) {
        std::vector<double> &gaps = times;
        for (size_t i = 0; i + 1 < times.size(); ++i) {
            gaps[i] = times[i + 1] - times[i];
        }
        gaps.pop_back();
        std::sort(gaps.begin(), gaps.end());
        row->interArrivalP50 = TraceStatistics::percentile(gaps, 0.50);
        row->interArrivalP95 = TraceStatistics::percentile(gaps, 0.95);
        row->interArrivalMax = gaps.back();
    }
}

QJsonValue num(double v) {
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

}  // namespace

double TraceStatistics::percentile(const std::vector<double> &sorted, double p) {
    if (sorted.empty()) {
        return kNaN;
    }
    const double pos = std::clamp(p, 0.0, 1.0) * double(sorted.size() - 1);
    const size_t lo = size_t(std::floor(pos));
    const size_t hi = std::min(sorted.size() - 1, lo + 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - double(lo));
}

TraceStatistics TraceStatistics::compute(const TraceDocument &doc) {
    return compute(doc, Options());
}

TraceStatistics TraceStatistics::compute(const TraceDocument &doc, const Options &options) {
    // One pass over the first `readable` records.
    auto once = [&doc, &options](int readable) -> TraceStatistics {
        TraceStatistics st;
        st.range = options.range;
        const RecordStore &rs = doc.records();
        // The document may grow while we read it (loading, live follow): take the records published
        // now, then the qualnames, which then cover every one of those records.
        // After a file was cut short while open, the records past its new end have no arguments any
        // more (zeros read): left out, as KeyAnalysis leaves them out.
        const int n = readable;
        const QStringList names = rs.qualnames();
        const int nq = int(names.size());

        // The selection, ascending; none is listed when it is every record (4 bytes per record).
        const bool everything = !options.subset && options.range.isAll();
        std::vector<int> sel;
        const bool allTimes = options.range.isAll();
        auto consider = [&](int r) {
            if (r >= 0 && r < n && (allTimes || options.range.contains(rs.tMono(r)))) {
                sel.push_back(r);
            }
        };
        if (options.subset) {
            sel.reserve(options.subset->size());
            for (int r : *options.subset) {
                consider(r);
            }
        } else if (!everything) {
            for (int r = 0; r < n; ++r) {
                consider(r);
            }
        }
        if (!std::is_sorted(sel.begin(), sel.end())) {
            std::sort(sel.begin(), sel.end());  // file order, whatever order the subset came in
        }
        const qint64 total = everything ? qint64(n) : qint64(sel.size());
        st.records = total;
        auto recordAt = [&](qint64 k) { return everything ? int(k) : sel[size_t(k)]; };
        // Records per qualname (to size the t_mono columns below).
        std::vector<qint64> counts(static_cast<size_t>(nq), 0);
        for (qint64 k = 0; k < total; ++k) {
            ++counts[rs.qualnameId(recordAt(k))];
        }

        // Arguments: keys, bytes, groups, pairs.
        std::vector<Category> cats(static_cast<size_t>(nq));
        for (int q = 0; q < nq; ++q) {
            cats[size_t(q)] = categoryOf(names[q]);
        }
        ChunkAcc acc;
        acc.resize(nq);
        // Enter/exit events of each chunk, in file order (paired below).
        std::vector<std::vector<PairEvent>> chunkEvents;
        if (options.decodeArgs && total > 0) {
            const qint64 chunk = 4096;
            const auto chunks = PassProgress::chunks(total, chunk);
            const std::atomic_bool *cancel = options.cancel;
            PassProgress progress(total, cancel, options.progress);
            auto map = [&](const std::pair<qint64, qint64> &ch) -> ChunkAcc {
                ChunkAcc a;
                a.resize(nq);
                if (progress.cancelled()) {
                    return a;
                }
                PackedArgsDecoder decoder(doc);
                RecordFacts facts;
                RecordGroups groups;
                for (qint64 k = ch.first; k < ch.second; ++k) {
                    if ((k & 511) == 0 && progress.cancelled()) {
                        break;
                    }
                    const int r = recordAt(k);
                    const quint32 q = rs.qualnameId(r);
                    const Category cat = cats[q];
                    const PackedValue args = decoder.decode(r);
                    if (!args.isValid()) {
                        ++a.errors;
                        continue;
                    }
                    facts.reset(args);
                    const qint64 nkeys = facts.keyCount();
                    a.keysSum[q] += nkeys;
                    a.keysMax[q] = std::max(a.keysMax[q], nkeys);
                    if (const auto b = facts.bytes()) {
                        a.bytesSum[q] += double(*b);
                        ++a.bytesCalls[q];
                    }
                    groups.clear();
                    for (const PackedObjectKey &key : facts.keys()) {
                        // The names a key refers to are the group's own key views (the first
                        // occurrence in this chunk), not this record's bytes: the distinct keys are
                        // counted per group at the end, and views spread over the whole file would
                        // fault all of it in again (1.3 GB of RSS for a 1.37 GB trace).
                        a.keys.insert(key.identityHash(),
                                      KeyGroups{groupName(a.models, key.modelName),
                                                RecordGroups::rankKeyOf(key), key.hasCacheSalt,
                                                key.hasCacheSalt ? groupName(a.salts, key.cacheSalt)
                                                                 : std::string_view()});
                        groups.add(key);
                    }
                    groups.forEachGroup(a, [cat](GroupAcc &g) { g.count(cat); });
                    if (cat == Category::Enter || cat == Category::Exit ||
                        cat == Category::FinishRead || cat == Category::Release) {
                        a.events.push_back(
                            PairEvent{cat, nkeys > 0, facts.keyListHash(), rs.tMono(r), r});
                    }
                }
                if (ch.second > ch.first) {  // read once: keep the file out of the RSS
                    doc.releaseRecordPages(recordAt(ch.first), recordAt(ch.second - 1));
                }
                progress.add(ch.second - ch.first);
                return a;
            };
            // Counters and distinct keys merge in any order as chunks finish (so finished chunks
            // do not pile up); enter/exit events are kept per chunk to pair them in file order.
            QMutex mergeMutex;
            chunkEvents.resize(chunks.size());
            auto merge = [&](ChunkAcc &a, size_t chunkIndex) {
                chunkEvents[chunkIndex] = std::move(a.events);
                QMutexLocker lock(&mergeMutex);
                for (size_t q = 0; q < size_t(nq); ++q) {
                    acc.keysSum[q] += a.keysSum[q];
                    acc.keysMax[q] = std::max(acc.keysMax[q], a.keysMax[q]);
                    acc.bytesSum[q] += a.bytesSum[q];
                    acc.bytesCalls[q] += a.bytesCalls[q];
                }
                mergeGroups(acc.models, a.models);
                mergeGroups(acc.ranks, a.ranks);
                mergeGroups(acc.salts, a.salts);
                acc.noSalt.merge(a.noSalt);
                if (acc.keys.isEmpty()) {
                    acc.keys.swap(a.keys);
                } else {
                    acc.keys.insert(a.keys);  // same identity, same groups: overwriting is harmless
                }
                acc.errors += a.errors;
            };
            ParallelChunks::run(
                int(chunks.size()),
                [&](int i) {
                    ChunkAcc a = map(chunks[size_t(i)]);
                    merge(a, size_t(i));
                },
                options.pool);
            if (acc.keysSum.size() != size_t(nq)) {
                acc.resize(nq);
            }
            st.cancelled = cancel && cancel->load();
            st.argsDecoded = !st.cancelled;
            st.decodeErrors = acc.errors;
        }

        // The totals row's times, then the calls': t_mono columns exactly sized, one set at a time,
        // gaps computed in place (a 10 M record trace: 80 MB at a time; columns grown by doubling,
        // a copy of all of them and the gaps took 400 MB).
        {
            std::vector<double> all;
            all.reserve(size_t(total));
            for (qint64 k = 0; k < total; ++k) {
                all.push_back(rs.tMono(recordAt(k)));
            }
            timeStats(&st.totals, all, total);
        }
        std::vector<std::vector<double>> times(static_cast<size_t>(nq));
        for (int q = 0; q < nq; ++q) {
            times[size_t(q)].reserve(size_t(counts[size_t(q)]));
        }
        for (qint64 k = 0; k < total; ++k) {
            const int r = recordAt(k);
            times[rs.qualnameId(r)].push_back(rs.tMono(r));
        }

        // Per-call rows, in call-flow order.
        std::vector<int> order;
        for (int q = 0; q < nq; ++q) {
            if (counts[size_t(q)] > 0) {
                order.push_back(q);
            }
        }
        std::sort(order.begin(), order.end(),
                  [&](int a, int b) { return Qualname::flowLess(names[a], names[b]); });
        qint64 keysSum = 0, keysMax = 0, bytesCalls = 0;
        double bytesSum = 0.0;
        for (int q : order) {
            CallRow row;
            row.qualname = names[q];
            row.call = Qualname::shortName(row.qualname);
            timeStats(&row, times[size_t(q)], total);
            std::vector<double>().swap(times[size_t(q)]);
            if (st.argsDecoded) {
                row.keysMean = double(acc.keysSum[size_t(q)]) / double(row.count);
                row.keysMax = acc.keysMax[size_t(q)];
                row.bytesCalls = acc.bytesCalls[size_t(q)];
                row.bytesMean =
                    row.bytesCalls > 0 ? acc.bytesSum[size_t(q)] / double(row.bytesCalls) : kNaN;
                keysSum += acc.keysSum[size_t(q)];
                keysMax = std::max(keysMax, row.keysMax);
                bytesSum += acc.bytesSum[size_t(q)];
                bytesCalls += row.bytesCalls;
            }
            st.calls.append(row);
        }
        st.totals.qualname = QStringLiteral("(total)");
        st.totals.call = QStringLiteral("total");
        if (st.argsDecoded && total > 0) {
            st.totals.keysMean = double(keysSum) / double(total);
            st.totals.keysMax = keysMax;
            st.totals.bytesCalls = bytesCalls;
            st.totals.bytesMean = bytesCalls > 0 ? bytesSum / double(bytesCalls) : kNaN;
        }
        if (!st.argsDecoded) {
            return st;
        }

        // finish_read_prefetched that are no reads (FinishReadPlacement, in file order over the
        // selection): moved from the groups' finishedReads, their groups read again (few records).
        std::vector<int> notReads;
        {
            FinishReadPlacement placement;
            for (const std::vector<PairEvent> &chunkEvent : chunkEvents) {
                for (const PairEvent &e : chunkEvent) {
                    switch (e.cat) {
                        case Category::Enter:
                            placement.enter(e.keys, e.record);
                            break;
                        case Category::Exit:
                            placement.exit(e.keys, e.tMono);
                            break;
                        case Category::Release:
                            ++st.releases;
                            placement.release(e.keys, e.record, e.hasKeys);
                            break;
                        case Category::FinishRead: {
                            qint32 owner = -1;
                            const auto role = placement.finish(e.keys, e.record, e.tMono, &owner);
                            ++st.finishReadRoles[size_t(role)];
                            if (role != FinishReadPlacement::Role::Read) {
                                notReads.push_back(e.record);
                            }
                            break;
                        }
                        default:
                            break;
                    }
                }
            }
        }
        if (!notReads.empty()) {
            PackedArgsDecoder decoder(doc);
            RecordFacts facts;
            RecordGroups groups;
            for (const int r : notReads) {
                const PackedValue args = decoder.decode(r);
                if (!args.isValid()) {
                    continue;
                }
                facts.reset(args);
                groups.clear();
                for (const PackedObjectKey &key : facts.keys()) {
                    groups.add(key);
                }
                groups.forEachGroup(acc, [](GroupAcc &g) { --g.finishedReads; });
            }
        }
        for (int q = 0; q < nq; ++q) {
            if (cats[size_t(q)] == Category::Cancel) {
                st.cancels += counts[size_t(q)];
            }
        }

        // Groups.
        st.distinctKeys = qint64(acc.keys.size());
        for (const KeyGroups &g : std::as_const(acc.keys)) {
            ++acc.models[viewOf(g.model)].distinctKeys;
            ++acc.ranks[g.rankKey].distinctKeys;
            ++(g.hasSalt ? acc.salts[viewOf(g.salt)] : acc.noSalt).distinctKeys;
        }
        for (auto it = acc.models.cbegin(); it != acc.models.cend(); ++it) {
            GroupRow row = toRow(it.value());
            row.name = QString::fromUtf8(it.key());
            st.models.append(row);
        }
        std::sort(st.models.begin(), st.models.end(),
                  [](const GroupRow &a, const GroupRow &b) { return a.name < b.name; });
        for (auto it = acc.ranks.cbegin(); it != acc.ranks.cend(); ++it) {
            GroupRow row = toRow(it.value());
            row.worldSize = it.key() >> 8;
            row.rank = it.key() & 0xff;
            row.name = QStringLiteral("rank %1/%2").arg(row.rank).arg(row.worldSize);
            st.ranks.append(row);
        }
        std::sort(st.ranks.begin(), st.ranks.end(), [](const GroupRow &a, const GroupRow &b) {
            return std::pair(a.worldSize, a.rank) < std::pair(b.worldSize, b.rank);
        });
        for (auto it = acc.salts.cbegin(); it != acc.salts.cend(); ++it) {
            GroupRow row = toRow(it.value());
            row.name = QString::fromUtf8(it.key());
            st.salts.append(row);
        }
        if (acc.noSalt.calls > 0) {
            GroupRow row = toRow(acc.noSalt);
            row.hasSalt = false;
            st.salts.append(row);
        }
        std::sort(st.salts.begin(), st.salts.end(), [](const GroupRow &a, const GroupRow &b) {
            return std::pair(a.hasSalt, a.name) < std::pair(b.hasSalt, b.name);
        });

        if (options.decodeArgs && total > 0) {
            // The group names and distinct keys above are views into the file; reading them faulted
            // some of its pages in again.
            doc.releaseRecordPages(recordAt(0), recordAt(total - 1));
        }

        // Context-manager pairs: ContextPairs' FIFO matching (the timeline's too) over the selected
        // enter/exit calls, each key list identified by its 64-bit hash written as msgpack bin8.
        // Each chunk's events are freed as they are converted.
        size_t eventCount = 0;
        for (const std::vector<PairEvent> &chunkEvent : chunkEvents) {
            for (const PairEvent &e : chunkEvent) {
                eventCount += e.cat == Category::Enter || e.cat == Category::Exit ? 1 : 0;
            }
        }
        std::vector<std::array<char, 10>> keyBytes(eventCount);
        std::vector<ContextPairs::Event> events(eventCount);
        size_t k = 0;
        for (std::vector<PairEvent> &chunkEvent : chunkEvents) {
            for (const PairEvent &e : chunkEvent) {
                if (e.cat != Category::Enter && e.cat != Category::Exit) {
                    continue;
                }
                keyBytes[k][0] = char(0xc4);
                keyBytes[k][1] = char(8);
                qToBigEndian(e.keys, keyBytes[k].data() + 2);
                events[k] = ContextPairs::Event{e.record, e.tMono, e.cat == Category::Enter,
                                                QByteArrayView(keyBytes[k].data(), 10)};
                ++k;
            }
            std::vector<PairEvent>().swap(chunkEvent);
        }
        const std::shared_ptr<const ContextPairs> cp = ContextPairs::match(events);
        st.pairs.matched = cp->matchedCount();
        st.pairs.unmatchedEnter = qint64(cp->unmatchedEnters().size());
        st.pairs.unmatchedExit = qint64(cp->unmatchedExits().size());
        std::vector<double> durations;
        durations.reserve(cp->spans().size());
        for (const ContextPairs::Span &span : cp->spans()) {
            durations.push_back(span.duration());
        }
        std::sort(durations.begin(), durations.end());
        st.pairs.durationP50 = percentile(durations, 0.50);
        st.pairs.durationP95 = percentile(durations, 0.95);
        st.pairs.durationMax = durations.empty() ? kNaN : durations.back();
        if (options.pairDurations) {
            *options.pairDurations = std::move(durations);
        }
        if (!st.cancelled && options.progress) {
            options.progress(total, total);
        }
        return st;
    };
    // A file cut while the pass read it: the records past its new end were read as zeros
    // (MappingGuard), counted as records and decode errors. Read again, over those still there,
    // as KeyAnalysis does.
    int readable = std::min(doc.records().size(), doc.readableRecordCount());
    for (;;) {
        TraceStatistics st = once(readable);
        const int still = std::min(readable, doc.readableRecordCount());
        if (st.cancelled || still == readable) {
            return st;
        }
        readable = still;
    }
}

QJsonObject TraceStatistics::toJson(const CallRow &r) {
    return QJsonObject{
        {QStringLiteral("qualname"), r.qualname},
        {QStringLiteral("call"), r.call},
        {QStringLiteral("count"), r.count},
        {QStringLiteral("share"), num(r.share)},
        {QStringLiteral("first_t_mono"), num(r.firstTMono)},
        {QStringLiteral("last_t_mono"), num(r.lastTMono)},
        {QStringLiteral("rate_per_s"), num(r.rate)},
        {QStringLiteral("inter_arrival_p50_s"), num(r.interArrivalP50)},
        {QStringLiteral("inter_arrival_p95_s"), num(r.interArrivalP95)},
        {QStringLiteral("inter_arrival_max_s"), num(r.interArrivalMax)},
        {QStringLiteral("keys_mean"), num(r.keysMean)},
        {QStringLiteral("keys_max"), r.keysMax},
        {QStringLiteral("bytes_mean"), num(r.bytesMean)},
        {QStringLiteral("bytes_calls"), r.bytesCalls},
    };
}

QJsonObject TraceStatistics::toJson(const GroupRow &r) {
    QJsonObject o{
        {QStringLiteral("name"), r.name},
        {QStringLiteral("calls"), r.calls},
        {QStringLiteral("reserves"), r.reserves},
        {QStringLiteral("finished_writes"), r.finishedWrites},
        {QStringLiteral("prefetches"), r.prefetches},
        {QStringLiteral("reads"), r.reads},
        {QStringLiteral("finished_reads"), r.finishedReads},
        {QStringLiteral("releases"), r.releases},
        {QStringLiteral("distinct_keys"), r.distinctKeys},
    };
    if (r.rank >= 0) {
        o.insert(QStringLiteral("rank"), r.rank);
        o.insert(QStringLiteral("world_size"), r.worldSize);
    }
    if (!r.hasSalt) {
        o.insert(QStringLiteral("name"), QJsonValue(QJsonValue::Null));
    }
    return o;
}

QJsonObject TraceStatistics::toJson() const {
    auto groups = [](const QList<GroupRow> &rows) {
        QJsonArray a;
        for (const GroupRow &r : rows) {
            a.append(toJson(r));
        }
        return a;
    };
    QJsonArray callRows;
    for (const CallRow &r : calls) {
        callRows.append(toJson(r));
    }
    QJsonObject rangeJson{
        {QStringLiteral("from"), std::isinf(range.from) ? QJsonValue() : QJsonValue(range.from)},
        {QStringLiteral("to"), std::isinf(range.to) ? QJsonValue() : QJsonValue(range.to)},
    };
    return QJsonObject{
        {QStringLiteral("records"), records},
        {QStringLiteral("range"), rangeJson},
        {QStringLiteral("args_decoded"), argsDecoded},
        {QStringLiteral("decode_errors"), decodeErrors},
        {QStringLiteral("distinct_keys"), distinctKeys},
        {QStringLiteral("cancelled"), cancelled},
        {QStringLiteral("releases"), releases},
        {QStringLiteral("cancels"), cancels},
        {QStringLiteral("finish_read_prefetched"),
         QJsonObject{{QStringLiteral("read"), finishReadRoles[0]},
                     {QStringLiteral("of_release"), finishReadRoles[1]},
                     {QStringLiteral("of_read"), finishReadRoles[2]}}},
        {QStringLiteral("calls"), callRows},
        {QStringLiteral("totals"), toJson(totals)},
        {QStringLiteral("models"), groups(models)},
        {QStringLiteral("ranks"), groups(ranks)},
        {QStringLiteral("salts"), groups(salts)},
        {QStringLiteral("context_pairs"),
         QJsonObject{
             {QStringLiteral("matched"), pairs.matched},
             {QStringLiteral("unmatched_enter"), pairs.unmatchedEnter},
             {QStringLiteral("unmatched_exit"), pairs.unmatchedExit},
             {QStringLiteral("duration_p50_s"), num(pairs.durationP50)},
             {QStringLiteral("duration_p95_s"), num(pairs.durationP95)},
             {QStringLiteral("duration_max_s"), num(pairs.durationMax)},
         }},
    };
}

}  // namespace lmct
