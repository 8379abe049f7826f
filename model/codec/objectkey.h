#pragma once

#include "codec/kvrank.h"
#include "codec/value.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>

namespace lmct {

/**
 * LMCache's ObjectKey (codec tag `ObjectKey`, `lmcache/v1/distributed/api.py`): the identity of
 * one KV chunk. Payload shapes by version: `{chunk_hash: bin, model_name: str, kv_rank: int}`,
 * then `+ object_group_id: int`, then (schema 2) `+ cache_salt: str`.
 *
 * `chunk_hash` is a rolling prefix hash, usually 32 bytes (blake3 or SHA-256), 8 with a
 * fallback hash. `cache_salt` identifies a tenant.
 */
struct ObjectKey {
    QByteArray chunkHash;
    QString modelName;
    qint64 kvRank = 0;
    std::optional<qint64> objectGroupId;
    std::optional<QString> cacheSalt;

    KvRank rank() const { return KvRank::unpack(kvRank); }
    QString hashHex() const { return QString::fromLatin1(chunkHash.toHex()); }
    /** First `n` hex digits of the chunk hash followed by "…" when longer. */
    QString shortHash(int n = 12) const;

    /** Reads a Tagged `ObjectKey` value (or its payload map); nullopt when it is not one. */
    static std::optional<ObjectKey> fromValue(const Value &v);

    /**
     * Every ObjectKey anywhere in `v`, in document order (depth-first), up to `limit` keys.
     * Covers `keys`, `spec.keys`, GroupedObjectKeys and unknown wrappers alike.
     */
    static QList<ObjectKey> collect(const Value &v, int limit = 1 << 20);
    /** Number of ObjectKeys anywhere in `v`. */
    static int count(const Value &v);
};

}  // namespace lmct
