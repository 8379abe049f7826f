#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace lmct {

class Value;

/**
 * The StorageManagerConfig a trace was recorded with: the header's `sm_config_json` read once
 * (spec §7a; LMCache `lmcache/v1/distributed/config.py`, written with `json.dumps(...,
 * sort_keys=True)` by the recorder).
 *
 * Fields read, each optional (absent or JSON null: unknown, std::nullopt). A value of another
 * type than LMCache writes, or out of its range (a byte count, TTL or count that is negative,
 * not whole or 2^63 and more; a fraction outside [0, 1]), is unknown too and listed in
 * fieldProblems() with its dotted path, what was expected and what was found, so that no
 * nonsense is shown as the configuration and none is dropped without a word:
 * - `l1_manager_config.memory_config.size_in_bytes`: the L1 capacity (bytes), what a cache
 *   what-if takes as "the configuration you ran"; `init_size_in_bytes` (bytes, the first
 *   allocation when `use_lazy`) and `use_lazy`.
 * - `eviction_config.eviction_policy` (e.g. "LRU"), `eviction_ratio` (fraction of L1 evicted at
 *   once) and `trigger_watermark` (fraction of L1 in use that starts eviction).
 * - `l1_manager_config.read_ttl_seconds` / `write_ttl_seconds` (s, lifetimes of an object's
 *   read and write locks).
 * - `l2_adapter_config.adapters`: the L2 adapters, each a JSON object kept as written (LMCache
 *   writes `type` and the adapter's own fields, e.g. `path` for "fs").
 * - `prefetch_max_in_flight`, `prefetch_policy`, `store_policy`,
 *   `periodic_notifier_interval_ms` (ms).
 * Other keys (older recorders invent `chunk_size`, `world_size`) are kept in object() only.
 *
 * state() tells a header with no config attached (no key, or "" as LMCache writes then) from
 * one whose text is not a JSON object. A text holding `NaN` or `Infinity` (what Python's
 * json.dumps writes for such floats; JSON has no such numbers) is NotJson with the parse error
 * "NaN is not JSON" at the token's byte offset. Never throws; bad input leaves fields unknown.
 *
 * Thread-safety: a value type (QJsonObject is implicitly shared); const use from any thread.
 */
class StorageManagerConfig {
public:
    enum class State : quint8 {
        None,       ///< no config attached: `sm_config_json` absent or ""
        Valid,      ///< a JSON object (its fields may still be unknown)
        NotJson,    ///< not valid JSON: parseError() at parseOffset()
        NotObject,  ///< valid JSON, but an array or a scalar
        NotString,  ///< `sm_config_json` is not a msgpack str
        Cut,        ///< the text was cut when read (over Value::kMaxKeptBytes): not parsed
        Lost        ///< overwritten: the header was rewritten in place (spec §7.4)
    };

    /** A known field whose value is not what LMCache writes there (spec §7a). */
    struct FieldProblem {
        QString path;      ///< dotted path: "l1_manager_config.memory_config.size_in_bytes"
        QString expected;  ///< e.g. "a fraction from 0 to 1"
        QString found;     ///< the value as found: "-3", "the string \"48GiB\"", "a list"
        /** "PATH: expected EXPECTED, found FOUND". */
        QString toString() const;
        bool operator==(const FieldProblem &) const = default;
    };

    /** One L2 adapter: `type` and a location field when present, and the object as written. */
    struct L2Adapter {
        QString type;        ///< `type` (e.g. "fs"); empty when absent or not a string
        QString location;    ///< the first string among `path`, `base_path`, `url`, ...
        QJsonObject fields;  ///< every field as written
    };

    StorageManagerConfig() = default;

    /** Parses `json` (the text of `sm_config_json`); "" is State::None. */
    static StorageManagerConfig fromJson(const QString &json);
    /** From the header field `sm_config_json` as decoded (nullptr when absent). */
    static StorageManagerConfig fromHeaderField(const Value *field);
    /** A config overwritten with the header (State::Lost). */
    static StorageManagerConfig lost();

    State state() const { return m_state; }
    /** Whether a config text was attached (any state but None and Lost). */
    bool isAttached() const { return m_state != State::None && m_state != State::Lost; }
    bool isValid() const { return m_state == State::Valid; }
    /** The JSON object (empty unless isValid()). */
    const QJsonObject &object() const { return m_object; }
    /** QJsonParseError::errorString() when NotJson; else empty. */
    QString parseError() const { return m_parseError; }
    /** Byte offset of the parse error in the UTF-8 text when NotJson; else -1. */
    qint64 parseOffset() const { return m_parseOffset; }
    /** Size of the config text in UTF-8 bytes (as in the record when Cut). */
    qint64 byteSize() const { return m_byteSize; }
    /** "array" or "scalar" when NotObject; else empty. */
    QString jsonKind() const { return m_jsonKind; }

    std::optional<qint64> l1Bytes() const { return m_l1Bytes; }
    std::optional<qint64> l1InitBytes() const { return m_l1InitBytes; }
    std::optional<bool> l1UseLazy() const { return m_l1UseLazy; }
    std::optional<QString> evictionPolicy() const { return m_evictionPolicy; }
    std::optional<double> evictionRatio() const { return m_evictionRatio; }
    std::optional<double> triggerWatermark() const { return m_triggerWatermark; }
    std::optional<qint64> readTtlSeconds() const { return m_readTtl; }
    std::optional<qint64> writeTtlSeconds() const { return m_writeTtl; }
    /** The L2 adapters; nullopt when `l2_adapter_config.adapters` is not an array. */
    const std::optional<QList<L2Adapter>> &l2Adapters() const { return m_l2Adapters; }
    std::optional<qint64> prefetchMaxInFlight() const { return m_prefetchMaxInFlight; }
    std::optional<QString> prefetchPolicy() const { return m_prefetchPolicy; }
    std::optional<QString> storePolicy() const { return m_storePolicy; }
    std::optional<double> notifierIntervalMs() const { return m_notifierIntervalMs; }
    /** `l1_manager_config.memory_config.shm_name` (embeds the server's PID); empty if unknown. */
    QString shmName() const { return m_shmName; }
    /** The known fields present with a value of another type or out of range, in key order. */
    const QList<FieldProblem> &fieldProblems() const { return m_problems; }

    /**
     * The config in words, one part per topic, each left out when unknown, e.g. {"L1 48 GiB
     * (init 20 GiB, lazy)", "LRU eviction at 80 % watermark, ratio 0.2", "write TTL 600 s, read
     * TTL 300 s", "no L2 adapters", "prefetch: 8 in flight, policy default", "store policy
     * default", "notifier every 5 ms"}, then one part per field problem ("⚠ PATH: expected ...,
     * found ..."). A config that is not Valid is one sentence saying so ("no StorageManager
     * config attached", "sm_config_json is not valid JSON: ...").
     */
    QStringList summaryParts() const;
    /** summaryParts() joined with " · ". */
    QString summary() const;
    /**
     * Why the digest of this config differs from run to run, when it does: the sentence that
     * `shm_name` ("lmcache_l1_pool_9101") embeds the server's PID, so `sm_config_digest`
     * changes with every server process; empty when the config has no `shm_name`. In short
     * lines ('\n' between them) for a tool tip.
     */
    QString volatileNote() const;

    /** A byte count in binary units, as few digits as exact: "48 GiB", "1.5 MiB", "100 B". */
    static QString formatBytes(qint64 bytes);

private:
    void readFields();

    State m_state = State::None;
    QJsonObject m_object;
    QString m_parseError;
    qint64 m_parseOffset = -1;
    qint64 m_byteSize = 0;
    QString m_jsonKind;

    std::optional<qint64> m_l1Bytes;
    std::optional<qint64> m_l1InitBytes;
    std::optional<bool> m_l1UseLazy;
    std::optional<QString> m_evictionPolicy;
    std::optional<double> m_evictionRatio;
    std::optional<double> m_triggerWatermark;
    std::optional<qint64> m_readTtl;
    std::optional<qint64> m_writeTtl;
    std::optional<QList<L2Adapter>> m_l2Adapters;
    std::optional<qint64> m_prefetchMaxInFlight;
    std::optional<QString> m_prefetchPolicy;
    std::optional<QString> m_storePolicy;
    std::optional<double> m_notifierIntervalMs;
    QString m_shmName;
    QList<FieldProblem> m_problems;
};

}  // namespace lmct
