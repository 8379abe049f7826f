#pragma once

#include "codec/prefetchhandle.h"

#include <QtGlobal>
#include <cmath>

namespace lmct {

class KeyAnalysis;

/**
 * LMCache's own account of its L1 prefix hits, one definition for every view that shows it (the
 * timeline's hit-ratio plot through HitOverTime, the Compare pane and `lmct compare` through
 * CacheComparison; docs/cache-behaviour.md, "Hit ratio over time").
 *
 * Late-2026 builds end a prefetch with `release_prefetch_task(handle, keys)`, the served request
 * giving its lease back, or `cancel_prefetch_task(handle)`, a prefetch dropped without being read
 * (a clean shutdown cancels every lease still open; lmct-format.md, "Calls"). The account counts
 * the releases only: a release's PrefetchHandle `l1_prefix_hit_count` over its
 * `total_requested_keys`. Cancels are left out (a dropped prefetch served nothing), and so is a
 * handle whose counts are missing, saturated (beyond int64), negative, a total of 0 or of 2^40
 * keys and more, or more hits than keys requested (a damaged count).
 *
 * Units: keys; ratios in [0, 1]. Thread-safety: stateless functions; reentrant.
 */
class LmcacheAccount {
public:
    /** The account summed over a trace. */
    struct Totals {
        qint64 releases = 0;       ///< releases counted
        qint64 hitKeys = 0;        ///< Σ l1_prefix_hit_count
        qint64 requestedKeys = 0;  ///< Σ total_requested_keys
        /** hitKeys / requestedKeys; NaN when nothing was counted. */
        double hitRatio() const {
            return requestedKeys > 0 ? double(hitKeys) / double(requestedKeys) : qQNaN();
        }
    };

    /** Whether `h`'s counts are usable (see the class comment). */
    static bool usable(const PrefetchHandle &h);
    /** Whether key record `kr` of `keys` counts: a release_prefetch_task with a usable handle.
     *  Its handle is then keys.handleAt(kr). */
    static bool counts(const KeyAnalysis &keys, int kr);
    /** Every counted release of `keys`, summed. */
    static Totals total(const KeyAnalysis &keys);
};

}  // namespace lmct
