#pragma once

#include "codec/kvrank.h"
#include "msgpack/packedvalue.h"

#include <QString>
#include <QtGlobal>
#include <string_view>

namespace lmct {

/**
 * An ObjectKey read from a PackedValue without copying (see ObjectKey for the meaning of the
 * fields and the payload shapes across LMCache versions).
 *
 * Ownership: the string views point into the unpacked record (see PackedArgsDecoder); a
 * PackedObjectKey is valid exactly as long as the PackedValue it was read from.
 * Thread-safety: a value type of views; const use from several threads is safe.
 */
struct PackedObjectKey {
    /** Raw hash bytes; when the trace stored the hash as a hex string, that text instead. */
    std::string_view chunkHash;
    bool chunkHashIsHex = false;  ///< chunkHash holds hex text rather than bytes
    std::string_view modelName;   ///< UTF-8
    qint64 kvRank = 0;
    bool hasObjectGroupId = false;
    qint64 objectGroupId = 0;
    bool hasCacheSalt = false;  ///< false before schema 2 (no `cache_salt` field)
    std::string_view cacheSalt;

    KvRank rank() const { return KvRank::unpack(kvRank); }
    /** The chunk hash as lowercase hex. */
    QByteArray hashHex() const;
    /**
     * Whether the hash, in lowercase hex, starts with `hexPrefix` (lowercase hex digits, any
     * length, odd lengths allowed). Compares nibbles in place without building the hex text.
     */
    bool hashHasHexPrefix(std::string_view hexPrefix) const;

    /**
     * 64-bit hash of the key's identity (hash, model, kv_rank, group, salt), for distinct counts
     * and for matching identical key lists: RawKeyScanner::identityHash of the same fields, so
     * that KeyAnalysis and the passes over PackedValues count and pair keys alike (a hex-text
     * chunk hash hashes as its bytes). Equal keys give equal hashes; different keys collide
     * with probability ~2^-64.
     */
    quint64 identityHash() const;

    /** Reads a tagged `ObjectKey` (or its bare payload map); false when `v` is not one. */
    static bool fromValue(const PackedValue &v, PackedObjectKey *out);
};

}  // namespace lmct
