#pragma once
// Crafted storage traces for the cache-behaviour tests, written the way LMCache's recorder writes
// them (spec §1-§6): 4-byte big-endian frame lengths, msgspec tagged structs as msgpack maps
// ("type" first), float64 times, ObjectKeys as {"__t__": "ObjectKey", "v": {...}}. Packed with
// msgpack-cxx's packer.

#include "codec/qualname.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <QFile>
#include <QString>
#include <msgpack.hpp>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

namespace lmct::test {

/** One ObjectKey as written. */
struct TKey {
    QByteArray hash;  ///< chunk_hash bytes
    QString model = QStringLiteral("Qwen/Qwen3-8B");
    qint64 kvRank = 33554944;  ///< TP=2, rank 0
    std::optional<qint64> group = 0;
    std::optional<QString> salt = QString();
    bool hashAsHex = false;  ///< write chunk_hash as a hex str instead of bin
};

/** A 32-byte chunk hash made from a small number (distinct numbers, distinct hashes). */
inline QByteArray chunk(int n) {
    QByteArray h(32, '\0');
    for (int i = 0; i < 32; ++i) {
        h[i] = char((n * 131 + i * 17 + (n >> 8) * 7) & 0xff);
    }
    h[0] = char(n & 0xff);
    h[1] = char((n >> 8) & 0xff);
    return h;
}

inline TKey key(int n, qint64 kvRank = 33554944) {
    TKey k;
    k.hash = chunk(n);
    k.kvRank = kvRank;
    return k;
}

/** A PrefetchHandle as late-2026 LMCache writes it (spec §6). */
struct THandle {
    qint64 prefetchRequestId = -1;
    QString externalRequestId;
    qint64 l1PrefixHitCount = 0;
    qint64 totalRequestedKeys = 0;
    double submitTime = 0.0;  ///< server time.monotonic(): the header's t_mono_start + t_mono
    qint64 generation = 0;
};

/** Where a record's keys go. */
enum class KeysAt {
    Flat,     ///< args.keys
    Spec,     ///< args.spec = PrefetchRequestSpec{keys, ...}
    Grouped,  ///< args.spec = PrefetchTaskSpec{key_groups: [GroupedObjectKeys{keys}]}
    None,     ///< no keys argument at all (keyless finish_write)
};

class CacheTraceWriter {
public:
    using Packer = msgpack::packer<std::stringstream>;
    static constexpr double kTMonoStart = 81234.5;  ///< the header's t_mono_start

    /** The header: schema 2 by default (`schema` < 0: no trace_schema_version at all), with
     *  `configJson` as sm_config_json (none when empty). */
    explicit CacheTraceWriter(int schema = 2, const QString &configJson = QString()) {
        std::stringstream s;
        Packer p(s);
        p.pack_map(schema >= 0 ? 9 : 8);
        str(p, "type");
        str(p, "header");
        str(p, "magic");
        p.pack_bin(4);
        p.pack_bin_body("LMCT", 4);
        str(p, "format_version");
        p.pack(1);
        str(p, "level");
        str(p, "storage");
        if (schema >= 0) {
            str(p, "trace_schema_version");
            p.pack(schema);
        }
        str(p, "t_mono_start");
        p.pack_double(kTMonoStart);
        str(p, "t_wall_start");
        p.pack_double(1760000000.25);
        str(p, "sm_config_json");
        str(p, configJson);
        str(p, "sm_config_digest");
        str(p, configJson.isEmpty()
                   ? QString()
                   : QString::fromLatin1(
                         QCryptographicHash::hash(configJson.toUtf8(), QCryptographicHash::Sha256)
                             .toHex()));
        frame(s.str());
    }

    /**
     * Appends a record of call `shortCall` (e.g. "finish_write") at `tMono` with `keys`. A
     * submit_prefetch_task also gets `external_request_id` = `requestId` when not empty.
     */
    void call(double tMono, const QString &shortCall, const std::vector<TKey> &keys,
              KeysAt where = KeysAt::Flat, const QString &requestId = QString()) {
        std::stringstream s;
        Packer p(s);
        p.pack_map(5);
        str(p, "type");
        str(p, "record");
        str(p, "t_mono");
        p.pack_double(tMono);
        str(p, "t_wall");
        p.pack_double(1760000000.25 + tMono);
        str(p, "qualname");
        str(p, Qualname::storagePrefix() + shortCall);
        str(p, "args");
        const bool rid = !requestId.isEmpty();
        switch (where) {
            case KeysAt::Flat:
                p.pack_map(rid ? 2 : 1);
                str(p, "keys");
                keyList(p, keys);
                break;
            case KeysAt::Spec:
                p.pack_map(rid ? 2 : 1);
                str(p, "spec");
                tag(p, "PrefetchRequestSpec");
                p.pack_map(2);
                str(p, "keys");
                keyList(p, keys);
                str(p, "policy");
                tag(p, "TrimPolicy");
                str(p, "PREFIX");
                break;
            case KeysAt::Grouped:
                p.pack_map(rid ? 2 : 1);
                str(p, "spec");
                tag(p, "PrefetchTaskSpec");
                p.pack_map(2);
                str(p, "key_groups");
                p.pack_array(1);
                tag(p, "GroupedObjectKeys");
                p.pack_map(1);
                str(p, "keys");
                keyList(p, keys);
                str(p, "num_kv_readers");
                p.pack(1);
                break;
            case KeysAt::None:
                p.pack_map(rid ? 1 : 0);
                break;
        }
        if (rid) {
            str(p, "external_request_id");
            str(p, requestId);
        }
        frame(s.str());
    }

    /**
     * reserve_write(keys, layout_desc, mode="new") (or `shortCall`, e.g.
     * reserve_write_with_status) whose MemoryLayoutDesc has one shape `shape` of torch.bfloat16:
     * 2 × ∏ shape bytes per object.
     */
    void reserveWithLayout(double tMono, const std::vector<TKey> &keys,
                           const std::vector<qint64> &shape,
                           const char *shortCall = "reserve_write") {
        std::stringstream s;
        Packer p(s);
        recordHead(p, tMono, shortCall);
        p.pack_map(3);
        str(p, "keys");
        keyList(p, keys);
        str(p, "layout_desc");
        tag(p, "MemoryLayoutDesc");
        p.pack_map(2);
        str(p, "shapes");
        p.pack_array(1);
        p.pack_array(quint32(shape.size()));
        for (const qint64 d : shape) {
            p.pack(d);
        }
        str(p, "dtypes");
        p.pack_array(1);
        str(p, "torch.bfloat16");
        str(p, "mode");
        str(p, "new");
        frame(s.str());
    }

    /**
     * release_prefetch_task(handle, keys) at `tMono`: `keys` nil when not given (all of the
     * handle's keys).
     */
    void release(double tMono, const THandle &h, const std::optional<std::vector<TKey>> &keys) {
        handleCall(tMono, "release_prefetch_task", h, &keys);
    }
    /** cancel_prefetch_task(handle) at `tMono`. */
    void cancel(double tMono, const THandle &h) {
        handleCall(tMono, "cancel_prefetch_task", h, nullptr);
    }
    /** finish_read_prefetched(keys, read_locks) as late-2026 builds write it. */
    void finishRead(double tMono, const std::vector<TKey> &keys, int readLocks = 1) {
        std::stringstream s;
        Packer p(s);
        recordHead(p, tMono, "finish_read_prefetched");
        p.pack_map(2);
        str(p, "keys");
        keyList(p, keys);
        str(p, "read_locks");
        p.pack(readLocks);
        frame(s.str());
    }
    /** The PrefetchHandle codec: {"__t__": "PrefetchHandle", "v": {...}}. */
    static void prefetchHandle(Packer &p, const THandle &h) {
        tag(p, "PrefetchHandle");
        p.pack_map(9);
        str(p, "prefetch_request_id");
        p.pack(h.prefetchRequestId);
        str(p, "external_request_id");
        str(p, h.externalRequestId);
        str(p, "l1_prefix_hit_count");
        p.pack(h.l1PrefixHitCount);
        str(p, "l1_found_indices");
        p.pack_array(quint32(h.l1PrefixHitCount));
        for (qint64 i = 0; i < h.l1PrefixHitCount; ++i) {
            p.pack(i);
        }
        str(p, "l1_hit_chunks");
        p.pack(h.l1PrefixHitCount);
        str(p, "total_requested_keys");
        p.pack(h.totalRequestedKeys);
        str(p, "submit_time");
        p.pack_double(h.submitTime);
        str(p, "l2_orig_indices");
        p.pack_array(0);
        str(p, "generation");
        p.pack(h.generation);
    }

    /** A record of an unrelated call with no keys (for time anomalies). */
    void plain(double tMono, const QString &shortCall = QStringLiteral("abort_write")) {
        call(tMono, shortCall, {});
    }

    const QByteArray &bytes() const { return m_bytes; }
    /** The bytes written so far, handed over; the writer goes on empty (to stream a large
     *  trace to a file piece by piece). */
    QByteArray takeBytes() { return std::exchange(m_bytes, QByteArray()); }

    bool save(const QString &path) const {
        QFile f(path);
        return f.open(QIODevice::WriteOnly) && f.write(m_bytes) == m_bytes.size();
    }

    static void str(Packer &p, const QString &s) {
        const QByteArray u = s.toUtf8();
        p.pack_str(quint32(u.size()));
        p.pack_str_body(u.constData(), quint32(u.size()));
    }
    static void str(Packer &p, const char *s) { str(p, QString::fromUtf8(s)); }
    static void tag(Packer &p, const char *t) {
        p.pack_map(2);
        str(p, "__t__");
        str(p, t);
        str(p, "v");
    }
    static void objectKey(Packer &p, const TKey &k) {
        tag(p, "ObjectKey");
        p.pack_map(3 + (k.group ? 1 : 0) + (k.salt ? 1 : 0));
        str(p, "chunk_hash");
        if (k.hashAsHex) {
            str(p, QString::fromLatin1(k.hash.toHex()));
        } else {
            p.pack_bin(quint32(k.hash.size()));
            p.pack_bin_body(k.hash.constData(), quint32(k.hash.size()));
        }
        str(p, "model_name");
        str(p, k.model);
        str(p, "kv_rank");
        p.pack(k.kvRank);
        if (k.group) {
            str(p, "object_group_id");
            p.pack(*k.group);
        }
        if (k.salt) {
            str(p, "cache_salt");
            str(p, *k.salt);
        }
    }
    static void keyList(Packer &p, const std::vector<TKey> &keys) {
        p.pack_array(quint32(keys.size()));
        for (const TKey &k : keys) {
            objectKey(p, k);
        }
    }

private:
    void recordHead(Packer &p, double tMono, const char *shortCall) {
        p.pack_map(5);
        str(p, "type");
        str(p, "record");
        str(p, "t_mono");
        p.pack_double(tMono);
        str(p, "t_wall");
        p.pack_double(1760000000.25 + tMono);
        str(p, "qualname");
        str(p, Qualname::storagePrefix() + QString::fromLatin1(shortCall));
        str(p, "args");
    }
    void handleCall(double tMono, const char *shortCall, const THandle &h,
                    const std::optional<std::vector<TKey>> *keys) {
        std::stringstream s;
        Packer p(s);
        recordHead(p, tMono, shortCall);
        p.pack_map(keys ? 2 : 1);
        str(p, "handle");
        prefetchHandle(p, h);
        if (keys) {
            str(p, "keys");
            if (*keys) {
                keyList(p, **keys);
            } else {
                p.pack_nil();
            }
        }
        frame(s.str());
    }
    void frame(const std::string &body) {
        const quint32 n = quint32(body.size());
        const char len[4] = {char(n >> 24), char(n >> 16), char(n >> 8), char(n)};
        m_bytes.append(len, 4);
        m_bytes.append(body.data(), qsizetype(body.size()));
    }

    QByteArray m_bytes;
};

}  // namespace lmct::test
