#pragma once

#include "codec/objectkey.h"
#include "codec/value.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace lmct {

/**
 * The one-line summary of a record's arguments shown in the record table, e.g.
 * `32 keys · Qwen/Qwen3-8B · rank 0/2 · [2,36,256,1024] bf16 · chatcmpl-53477fb8…`.
 *
 * Parts, when present: ObjectKey count (anywhere in the args), the model (or "N models"), the
 * rank (or ranks) over the world size, the cache salt, the first memory layout, the request id
 * (`external_request_id`, top level or inside a spec/handle), and notable flags (`mode`, policy,
 * `extra_count`, `read_locks`, `skip_l2`). Records without keys (events level, unknown calls)
 * list their scalar arguments as `name=value`.
 *
 * PackedSummary writes the same summary from a record's msgpack bytes (the CSV export); the
 * building blocks below are shared with it, so that both word it alike.
 *
 * Thread-safety: stateless and reentrant.
 */
class RecordSummary {
public:
    static QString summarize(const Value &args, int maxChars = 160);
    /**
     * summarize() for a record of call `qualname`. The prefetch-lease calls of late 2026 builds
     * (spec §6) say what they do, from their PrefetchHandle: `release_prefetch_task` as
     * "release 12 keys of request chatcmpl-…" (keys nil: "release all keys of request …")
     * followed by the keys' model and ranks, `cancel_prefetch_task` as "cancel request
     * chatcmpl-…"; both end with LMCache's own L1 prefix hit ("L1 hits 4/7",
     * `l1_prefix_hit_count`/`total_requested_keys`). A handle without `external_request_id`
     * names its `prefetch_request_id` instead. Other calls, and these calls without a readable
     * PrefetchHandle, get summarize(args).
     */
    static QString summarize(const QString &qualname, const Value &args, int maxChars = 160);
    /** The request id of a record (`external_request_id` anywhere in args); empty if none. */
    static QString requestId(const Value &args);

    // Building blocks of the summary (PackedSummary uses them too).

    /** Appends the model (or "N models"), the rank(s) over the world size and the salt(s) of
     *  `keys` (of which only modelName, kvRank and cacheSalt are read). */
    static void appendKeyParts(const QList<ObjectKey> &keys, QStringList *parts);
    /** `parts` joined with " · ", cut to `maxChars` (UTF-16 units) with "…" when longer. */
    static QString capped(const QStringList &parts, int maxChars);
    /** `s` cut to `max` characters with "…" when longer. */
    static QString elideMiddle(const QString &s, int max);
    /**
     * "request chatcmpl-…" for a PrefetchHandle payload: its `external_request_id`, else its
     * `prefetch_request_id` ("prefetch 17", LMCache writes -1 when it has none), else "a
     * prefetch without request id".
     */
    static QString handleRequest(const Value &handle);
};

}  // namespace lmct
