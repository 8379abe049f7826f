#pragma once
// Records of LMCache's late 2026 builds (spec §5, §6), written as LMCache's recorder writes
// them: the PrefetchHandle codec value, release_prefetch_task (followed by the nested
// finish_read_prefetched that releases its lease) and cancel_prefetch_task, keys in the
// upstream 4-field ObjectKey shape (no cache_salt), and a header whose t_mono_start is a raw
// time.monotonic() of the recording server (as submit_time is). Built on testutil.h's Mp.

#include "testutil.h"

#include <QByteArray>
#include <QString>
#include <optional>
#include <vector>

namespace lmct::test::late2026 {

/** The recorder's t_mono_start of the reference late 2026 trace (seconds). */
inline constexpr double kTMonoStart = 418117.7186669254;

/** One PrefetchHandle payload; l1_prefix_hit_count is the length of l1FoundIndices unless set. */
struct Handle {
    qint64 prefetchRequestId = -1;
    QString externalRequestId = QStringLiteral("chatcmpl-3fb688cf00e48cc95c28f5c53fe9497b");
    std::vector<qint64> l1FoundIndices = {0, 1, 2, 3};
    std::optional<qint64> l1PrefixHitCount;
    std::optional<quint64> l1PrefixHitCountU;  ///< written as a msgpack uint64 instead
    qint64 l1HitChunks = 4;
    qint64 totalRequestedKeys = 7;
    std::optional<quint64> totalRequestedKeysU;   ///< written as a msgpack uint64 instead
    double submitTime = kTMonoStart + 21.229481;  ///< raw time.monotonic()
    std::vector<qint64> l2OrigIndices;
    qint64 generation = 0;
};

/** The tagged value {"__t__": "PrefetchHandle", "v": {...}} in LMCache's field order. */
inline QByteArray prefetchHandle(const Handle &h) {
    Mp m;
    m.tag("PrefetchHandle").map(9);
    m.str("prefetch_request_id").sint(h.prefetchRequestId);
    m.str("external_request_id").str(h.externalRequestId);
    m.str("l1_prefix_hit_count");
    if (h.l1PrefixHitCountU) {
        m.uintW(*h.l1PrefixHitCountU, 64);
    } else {
        m.sint(h.l1PrefixHitCount ? *h.l1PrefixHitCount : qint64(h.l1FoundIndices.size()));
    }
    m.str("l1_found_indices").arr(quint32(h.l1FoundIndices.size()));
    for (const qint64 i : h.l1FoundIndices) {
        m.sint(i);
    }
    m.str("l1_hit_chunks").sint(h.l1HitChunks);
    m.str("total_requested_keys");
    if (h.totalRequestedKeysU) {
        m.uintW(*h.totalRequestedKeysU, 64);
    } else {
        m.sint(h.totalRequestedKeys);
    }
    m.str("submit_time").f64(h.submitTime);
    m.str("l2_orig_indices").arr(quint32(h.l2OrigIndices.size()));
    for (const qint64 i : h.l2OrigIndices) {
        m.sint(i);
    }
    m.str("generation").sint(h.generation);
    return m.bytes;
}

/** An upstream late 2026 ObjectKey: chunk_hash, model_name, kv_rank, object_group_id. */
inline QByteArray key(int seed, qint64 kvRank = 16777472, const char *model = "Qwen/Qwen3-8B") {
    Mp m;
    m.tag("ObjectKey").map(4);
    m.str("chunk_hash").bin(chunkHash(seed)).str("model_name").str(model);
    m.str("kv_rank").sint(kvRank).str("object_group_id").sint(0);
    return m.bytes;
}

/** A list of `n` keys key(seed), key(seed + 1), … */
inline QByteArray keyList(int n, int seed = 0, qint64 kvRank = 16777472) {
    Mp m;
    m.arr(quint32(n));
    for (int i = 0; i < n; ++i) {
        m.raw(key(seed + i, kvRank));
    }
    return m.bytes;
}

/** args of release_prefetch_task: {handle, keys}; no `keyCount` writes keys = nil (all keys). */
inline QByteArray releaseArgs(const Handle &h, std::optional<int> keyCount, int seed = 0) {
    Mp m;
    m.map(2).str("handle").raw(prefetchHandle(h)).str("keys");
    if (keyCount) {
        m.raw(keyList(*keyCount, seed));
    } else {
        m.nil();
    }
    return m.bytes;
}

/** args of cancel_prefetch_task: {handle}. */
inline QByteArray cancelArgs(const Handle &h) {
    Mp m;
    m.map(1).str("handle").raw(prefetchHandle(h));
    return m.bytes;
}

/** args of finish_read_prefetched in these builds: {keys, read_locks}. */
inline QByteArray finishReadArgs(int keyCount, int seed = 0, qint64 readLocks = 1) {
    Mp m;
    m.map(2).str("keys").raw(keyList(keyCount, seed)).str("read_locks").sint(readLocks);
    return m.bytes;
}

/** A late 2026 header (schema 2, no sm_config) with the given raw t_mono_start. */
inline QByteArray header(double tMonoStart = kTMonoStart) {
    Mp m;
    m.map(9).str("type").str("header");
    m.str("magic").bin("LMCT");
    m.str("format_version").sint(1);
    m.str("level").str("storage");
    m.str("trace_schema_version").sint(2);
    m.str("t_mono_start").f64(tMonoStart);
    m.str("t_wall_start").f64(1790950423.8345783);
    m.str("sm_config_json").str("");
    m.str("sm_config_digest").str("");
    return m.bytes;
}

/** A trace of late 2026 records, framed as the recorder frames them. */
class Trace {
public:
    explicit Trace(double tMonoStart = kTMonoStart) : m_bytes(frame(header(tMonoStart))) {}

    /** Appends a record of call `shortCall` at `tMono` with the msgpack map `args`. */
    Trace &record(double tMono, const char *shortCall, const QByteArray &args) {
        m_bytes +=
            frame(recordBody(tMono, 1790950423.8345783 + tMono, storageQualname(shortCall), args));
        return *this;
    }
    /**
     * A release_prefetch_task of `keyCount` keys (nil: all keys) and, 10 µs later, the nested
     * finish_read_prefetched(keys, read_locks=1) through which it releases the lease (spec §6;
     * for all keys it names the handle's total_requested_keys keys).
     */
    Trace &release(double tMono, const Handle &h, std::optional<int> keyCount, int seed = 0) {
        record(tMono, "release_prefetch_task", releaseArgs(h, keyCount, seed));
        return record(tMono + 10e-6, "finish_read_prefetched",
                      finishReadArgs(keyCount ? *keyCount : int(h.totalRequestedKeys), seed));
    }
    Trace &cancel(double tMono, const Handle &h) {
        return record(tMono, "cancel_prefetch_task", cancelArgs(h));
    }

    const QByteArray &bytes() const { return m_bytes; }

private:
    QByteArray m_bytes;
};

}  // namespace lmct::test::late2026
