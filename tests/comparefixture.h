#pragma once
// Pairs of traces for the compare suites: one prefetch workload written with a chosen L1 size,
// eviction policy, model name and number of rounds, and everything the comparison should find
// in it computed here, independently of the model's classes (uses, latencies, call counts, and
// tiny LRU / FIFO replays of the uses).

#include "cachetracewriter.h"
#include "testutil.h"
#include "trace/traceloader.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <algorithm>
#include <cmath>
#include <deque>
#include <list>
#include <memory>
#include <set>
#include <unordered_map>
#include <vector>

namespace lmct::test {

/** What a workload varies. */
struct WorkloadSpec {
    qint64 l1Bytes = 8 * 128;                ///< 8 chunks of 128 bytes
    bool withL1Size = true;                  ///< false: the config has no size_in_bytes
    QString policy = QStringLiteral("LRU");  ///< empty: no eviction_policy
    QString model = QStringLiteral("Qwen/Qwen3-8B");
    QString shmName = QStringLiteral("lmcache_l1_pool_9101");
    int keys = 16;
    int rounds = 40;
    bool prefetch = true;  ///< false: writes only (no submit, no reads)
    bool handles = false;  ///< a release_prefetch_task with a PrefetchHandle per request
    /** With handles: every cancelEvery-th request (0: none) is not read but cancelled
     *  (cancel_prefetch_task with its handle, hit counts filled in) instead of released. */
    int cancelEvery = 0;
};

/** One use, as UseSequence defines it. */
struct TUse {
    int key;
    int kind;  ///< 0 finish_write, 1 submit_prefetch_task, 2 read_prefetched_results.__enter__
};

/** A workload trace and what it holds. */
struct Workload {
    QByteArray bytes;
    std::vector<TUse> uses;
    std::vector<double> writeLatencies;  ///< per key: finish − reserve
    std::vector<double> firstReuses;     ///< per key read: first enter − finish
    std::vector<double> readDurations;   ///< per read: exit − enter
    std::vector<double> timesToRead;     ///< per request: enter − submit
    QMap<QString, qint64> counts;        ///< records per short call name
    QMap<QString, qint64> callKeys;      ///< key occurrences per short call name
    qint64 keyOccurrences = 0;           ///< keys over all records
    qint64 records = 0;
    qint64 handleHits = 0, handleTotal = 0;  ///< Σ l1_prefix_hit_count, Σ total_requested_keys
                                             ///< of the releases
    qint64 releases = 0;                     ///< release_prefetch_task records
    qint64 cancelHits = 0, cancelTotal = 0;  ///< the same sums of the cancels' handles
};

/** The config JSON of `s` (keys sorted, as LMCache's recorder writes it). */
inline QString workloadConfig(const WorkloadSpec &s) {
    QJsonObject memory{{QStringLiteral("shm_name"), s.shmName},
                       {QStringLiteral("use_lazy"), false}};
    if (s.withL1Size) {
        memory[QStringLiteral("size_in_bytes")] = double(s.l1Bytes);
    }
    QJsonObject eviction{{QStringLiteral("eviction_ratio"), 0.2},
                         {QStringLiteral("trigger_watermark"), 0.8}};
    if (!s.policy.isEmpty()) {
        eviction[QStringLiteral("eviction_policy")] = s.policy;
    }
    QJsonObject o{{QStringLiteral("eviction_config"), eviction},
                  {QStringLiteral("l1_manager_config"),
                   QJsonObject{{QStringLiteral("memory_config"), memory},
                               {QStringLiteral("write_ttl_seconds"), 600}}},
                  {QStringLiteral("prefetch_max_in_flight"), 8}};
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

/**
 * Writes the workload: `keys` keys reserved (MemoryLayoutDesc of 128 bytes per object) and
 * finished one by one, then `rounds` requests of 1 to 3 consecutive keys: submit_prefetch_task,
 * read_prefetched_results.__enter__, finish_read_prefetched (inside the context: a read),
 * __exit__ (and, with handles, a release_prefetch_task).
 */
inline Workload makeWorkload(const WorkloadSpec &s) {
    CacheTraceWriter w;
    Workload out;
    auto tkey = [&s](int i) {
        TKey k = key(i);
        k.model = s.model;
        return k;
    };
    auto count = [&out](const char *call, qint64 keys) {
        out.counts[QLatin1String(call)] += 1;
        out.callKeys[QLatin1String(call)] += keys;
        out.keyOccurrences += keys;
        ++out.records;
    };
    double t = 1.0;
    std::vector<double> finishT(size_t(s.keys));
    for (int i = 0; i < s.keys; ++i) {
        w.reserveWithLayout(t, {tkey(i)}, {1, 64});
        count("reserve_write", 1);
        const double reserveT = t;
        t += 0.001 * (i % 5 + 1);
        out.writeLatencies.push_back(t - reserveT);
        w.call(t, QStringLiteral("finish_write"), {tkey(i)});
        count("finish_write", 1);
        finishT[size_t(i)] = t;
        out.uses.push_back({i, 0});
        t += 0.01;
    }
    std::vector<double> firstRead(size_t(s.keys), qQNaN());
    quint32 lcg = 12345;
    auto next = [&lcg] {
        lcg = lcg * 1103515245u + 12345u;
        return (lcg >> 16) & 0x7fff;
    };
    for (int r = 0; s.prefetch && r < s.rounds; ++r) {
        const int start = int(next() % quint32(s.keys));
        const int len = 1 + int(next() % 3);
        std::vector<TKey> keys;
        std::vector<int> ids;
        for (int i = start; i < std::min(s.keys, start + len); ++i) {
            keys.push_back(tkey(i));
            ids.push_back(i);
        }
        const QString rid = QStringLiteral("req-%1").arg(r);
        w.call(t, QStringLiteral("submit_prefetch_task"), keys, KeysAt::Spec, rid);
        count("submit_prefetch_task", qint64(keys.size()));
        const double submitT = t;
        for (int id : ids) {
            out.uses.push_back({id, 1});
        }
        THandle h;
        h.externalRequestId = rid;
        h.l1PrefixHitCount = qint64(keys.size()) / 2;
        h.totalRequestedKeys = qint64(keys.size());
        h.submitTime = 1000.5 + submitT;  // headerBody()'s t_mono_start
        if (s.handles && s.cancelEvery > 0 && r % s.cancelEvery == 0) {
            // dropped without being read: no read, a cancel with the handle
            h.l1PrefixHitCount = qint64(keys.size());
            t += 0.003;
            out.cancelHits += h.l1PrefixHitCount;
            out.cancelTotal += h.totalRequestedKeys;
            w.cancel(t, h);
            count("cancel_prefetch_task", 0);
            t += 0.01;
            continue;
        }
        t += 0.0005 * (r % 7 + 1);
        out.timesToRead.push_back(t - submitT);
        w.call(t, QStringLiteral("read_prefetched_results.__enter__"), keys);
        count("read_prefetched_results.__enter__", qint64(keys.size()));
        for (int id : ids) {
            out.uses.push_back({id, 2});
            if (std::isnan(firstRead[size_t(id)])) {
                firstRead[size_t(id)] = t;
            }
        }
        const double enterT = t;
        w.finishRead(t + 0.0001, keys);
        count("finish_read_prefetched", qint64(keys.size()));
        t += 0.002 * (r % 4 + 1);
        out.readDurations.push_back(t - enterT);
        w.call(t, QStringLiteral("read_prefetched_results.__exit__"), keys);
        count("read_prefetched_results.__exit__", qint64(keys.size()));
        if (s.handles) {
            out.handleHits += h.l1PrefixHitCount;
            out.handleTotal += h.totalRequestedKeys;
            ++out.releases;
            w.release(t + 0.0002, h, keys);
            count("release_prefetch_task", qint64(keys.size()));
        }
        t += 0.01;
    }
    for (int i = 0; i < s.keys; ++i) {
        if (!std::isnan(firstRead[size_t(i)])) {
            out.firstReuses.push_back(firstRead[size_t(i)] - finishT[size_t(i)]);
        }
    }
    // The writer's header has no config: put one in front of its records.
    HeaderSpec h;
    h.configJson = workloadConfig(s);
    const qint64 headerEnd = frameEnds(w.bytes()).first();
    out.bytes = frame(headerBody(h)) + w.bytes().mid(headerEnd);
    return out;
}

/**
 * `bytes` damaged: the first `badArgs` records get 2 bytes after their body inside their frame
 * (kept, flagged with damaged arguments by the argument check), and a frame that is no record
 * (8 bytes of 0xc1) goes in after the middle record (skipped).
 */
inline QByteArray damagedWorkload(const QByteArray &bytes, int badArgs) {
    const QList<qint64> ends = frameEnds(bytes);
    QByteArray out = bytes.left(ends.first());
    for (qsizetype i = 1; i < ends.size(); ++i) {
        QByteArray f = bytes.mid(ends[i - 1], ends[i] - ends[i - 1]);
        if (i <= badArgs) {
            f = frame(f.mid(4) + QByteArray(2, char(0xc0)));
        }
        out += f;
        if (i == ends.size() / 2) {
            out += frame(QByteArray(8, char(0xc1)));
        }
    }
    return out;
}

inline std::shared_ptr<TraceDocument> loadWorkload(const Workload &w, const QString &name) {
    QString error;
    auto doc = TraceLoader::loadBytes(w.bytes, name, &error);
    if (!doc) {
        qWarning("%s", qPrintable(error));
    }
    return doc;
}

/** Counted prefetch hits of an LRU (or FIFO) cache of `capacity` chunks replaying `uses`. */
inline qint64 tinyReplay(const std::vector<TUse> &uses, size_t capacity, bool fifo) {
    std::list<int> order;  // front: next to evict
    std::unordered_map<int, std::list<int>::iterator> where;
    std::set<int> written;
    qint64 hits = 0;
    for (const TUse &u : uses) {
        const bool counted = u.kind == 1 && written.count(u.key);
        auto it = where.find(u.key);
        if (it != where.end()) {
            hits += counted ? 1 : 0;
            if (!fifo) {
                order.erase(it->second);
                order.push_back(u.key);
                it->second = std::prev(order.end());
            }
        } else if (capacity > 0) {
            if (order.size() == capacity) {
                where.erase(order.front());
                order.pop_front();
            }
            order.push_back(u.key);
            where[u.key] = std::prev(order.end());
        }
        if (u.kind == 0) {
            written.insert(u.key);
        }
    }
    return hits;
}

inline qint64 prefetchUses(const std::vector<TUse> &uses) {
    return std::count_if(uses.begin(), uses.end(), [](const TUse &u) { return u.kind == 1; });
}

/** Linear-interpolation percentile (numpy's default) of `v`, p in [0, 1]; NaN when empty. */
inline double percentileOf(std::vector<double> v, double p) {
    if (v.empty()) {
        return qQNaN();
    }
    std::sort(v.begin(), v.end());
    const double pos = p * double(v.size() - 1);
    const size_t lo = size_t(std::floor(pos));
    const size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - double(lo));
}

/** Power-of-two microsecond bucket: 0 below 1 µs, b for [2^(b-1), 2^b) µs. */
inline int microsecondBucket(double seconds) {
    const double us = seconds * 1e6;
    return us < 1.0 ? 0 : int(std::floor(std::log2(us))) + 1;
}

}  // namespace lmct::test
