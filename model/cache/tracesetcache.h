#pragma once

#include "cache/cacheanalysis.h"
#include "trace/traceset.h"

#include <QList>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace lmct {

/**
 * The cache behaviour of a deployment's traces: each trace's CacheAnalysis (what the Cache
 * Behaviour dock shows for one trace) and figures over all of them together.
 *
 * Over all traces each figure says how it is combined (Figure::how):
 * - Union, exact over the merged keys: distinct keys (a key, by chunk hash, model, kv_rank,
 *   object group and cache salt, that several traces touch counts once) and the keys that more
 *   than one trace touches (what the servers share).
 * - Sum of the per-trace figures, where a merge is meaningless because each trace's calls act
 *   on its own server's store: records analysed, requests, reads matched, releases, cancels,
 *   prefetched key occurrences, prefetch hits of an infinite cache, anomalies (all and per
 *   kind). A key written by one server and prefetched by another counts as a miss of the
 *   trace that prefetched it: no trace shows a store the servers share.
 * - Ratio of the sums: the prefetch hit ratio of an infinite cache (hits / prefetched).
 * One trace's figures are its own (How::Trace).
 *
 * Cost: CacheAnalysis::run per trace (one after another, each cancellable), then one hash of
 * every key's identity for the union (about 60 bytes per distinct key, freed at the end).
 * Thread-safety: compute() is a pure function of its inputs (run it on a worker); the result
 * is a value whose analyses are immutable and shared.
 */
class TraceSetCache {
public:
    enum class How : quint8 { Trace, Union, Sum, Ratio };
    /** "this trace", "union of the keys", "sum over the traces", "ratio of the sums". */
    static QString howName(How how);

    struct Figure {
        QString name;
        double value = 0.0;
        bool ratio = false;  ///< a ratio in [0, 1], else a count
        How how = How::Trace;
    };

    struct Options {
        /** Traces done and their total (after each trace's analysis). */
        std::function<void(int done, int total)> progress;
        const std::atomic_bool *cancel = nullptr;
    };

    /** By trace index; null for a trace whose analysis was cancelled. */
    std::vector<std::shared_ptr<const CacheAnalysis>> perTrace;
    qint64 unionKeys = 0;   ///< distinct keys over all traces
    qint64 sharedKeys = 0;  ///< keys that more than one trace touches
    bool cancelled = false;

    static TraceSetCache compute(const TraceSet &set, const Options &options);
    static TraceSetCache compute(const TraceSet &set);

    /** The figures of trace `t`, or of all traces together when `t` is -1; empty when the
     *  analysis of `t` is missing (cancelled). */
    QList<Figure> figures(int t) const;
};

}  // namespace lmct
