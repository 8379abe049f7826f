#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QtGlobal>
#include <vector>

namespace lmct {

/**
 * Finds LMCache ObjectKeys (codec tag `ObjectKey`) in a record body's raw msgpack bytes, without
 * building a Value tree: the fast path of KeyAnalysis over traces of gigabytes.
 *
 * scan() walks the record's `args` value depth-first (document order, like ObjectKey::collect)
 * and reports every `{"__t__": "ObjectKey", "v": {...}}` map (either entry order) whose payload
 * holds `chunk_hash` (bin, or a hex str), `model_name` (str) and `kv_rank` (int), with
 * `object_group_id` (int) and `cache_salt` (str) when present: the same keys ObjectKey::fromValue
 * accepts. Keys sit in `keys`, in `spec.keys`, inside GroupedObjectKeys or any unknown wrapper
 * alike. It also reports the first `external_request_id` string found at any depth.
 *
 * Fields are views into the scanned bytes: they live as long as those bytes (for a document, its
 * mapping). identityHash() is a 64-bit hash of the key's identity (chunk hash bytes, model name,
 * kv_rank, object group id, cache salt; presence of the optional fields counts), independent of
 * the encoding widths, field order and of a hex-text chunk hash versus bin. Equal identities hash
 * equal; use sameIdentity() to confirm.
 *
 * Bounds: every read is checked against the buffer; containers nested deeper than kMaxDepth are
 * skipped without looking inside; malformed bytes stop the scan (what was found before is kept
 * and scan() returns false).
 *
 * Thread-safety: stateless; every function is reentrant.
 */
class RawKeyScanner {
public:
    static constexpr int kMaxDepth = 64;

    /** One ObjectKey's identity fields, as views into the scanned bytes. */
    struct Fields {
        const uchar *hash = nullptr;  ///< chunk_hash bytes (or hex digits when hashIsHex)
        quint32 hashSize = 0;
        bool hashIsHex = false;  ///< chunk_hash was a str of hex digits
        const uchar *model = nullptr;
        quint32 modelSize = 0;
        qint64 kvRank = 0;
        bool hasGroup = false;
        qint64 group = 0;
        bool hasSalt = false;
        const uchar *salt = nullptr;
        quint32 saltSize = 0;

        /** The chunk hash as bytes (hex text decoded). */
        QByteArray hashBytes() const;
    };

    /** One ObjectKey found by scan(). */
    struct Key {
        Fields fields;
        quint64 hash = 0;  ///< identityHash(fields)
    };

    /**
     * Scans a record body (the msgpack map `{type, t_mono, t_wall, qualname, args}`) and appends
     * every ObjectKey of its `args` to `keys`. When `requestId` is given, it is set to the first
     * `external_request_id` str found in `args` (left empty when none). Returns false when the
     * body is malformed or cut short (keys found before the damage are kept), or has no `args`.
     */
    static bool scan(const uchar *body, qint64 size, std::vector<Key> *keys,
                     QByteArrayView *requestId = nullptr);

    /** Parses an ObjectKey payload map at `data[0, size)`; false when it is not one. */
    static bool parseKey(const uchar *data, qint64 size, Fields *out);

    static quint64 identityHash(const Fields &f);
    static bool sameIdentity(const Fields &a, const Fields &b);
};

}  // namespace lmct
