#pragma once

#include "codec/value.h"
#include "trace/storagemanagerconfig.h"

#include <QString>
#include <optional>

namespace lmct {

/**
 * The decoded header frame (frame 0) of a trace.
 *
 * LMCache has written three header shapes (spec §3; `trace/format.py` `TraceHeader`):
 * the first recorder's (with `lmcache_version`, no schema number), schema 1 and 2 (with
 * `trace_schema_version`), and the newest with a `level_meta` map. LMCache's readers are strict
 * per shape; this class reads the header as a generic map and treats absent fields as unknown.
 *
 * Times are seconds: `t_mono_start` is the recorder's `time.monotonic()` (meaningless across
 * hosts), `t_wall_start` Unix epoch seconds.
 *
 * `sm_config_json` is parsed once, when the header is made (smConfig()), for every view and
 * analysis that needs the L1 capacity or the eviction policy.
 *
 * Thread-safety: a value type.
 */
class TraceHeader {
public:
    /** Whether `sm_config_digest` is the SHA-256 of `sm_config_json`. */
    enum class DigestStatus : quint8 {
        Absent,    ///< no digest ("" or no key): a placeholder header, or nothing to check by
        Match,     ///< lowercase hex SHA-256 of the UTF-8 config equals the digest
        Mismatch,  ///< the recomputed digest differs
        Lost       ///< the fields were overwritten (header rewritten in place)
    };

    TraceHeader() = default;
    /** Takes the header map (the decoded frame-0 body). */
    explicit TraceHeader(Value fields);

    /** The whole header map as decoded, in file order. */
    const Value &fields() const { return m_fields; }
    const Value *field(QStringView name) const { return m_fields.find(name); }

    bool hasMagic() const;
    /** The magic as text ("LMCT" for a good trace); empty when missing. */
    QString magic() const;
    std::optional<qint64> formatVersion() const;
    std::optional<qint64> traceSchemaVersion() const;
    QString level() const;
    QString lmcacheVersion() const;  ///< first shape, or level_meta.lmcache_version; else empty
    std::optional<double> tMonoStart() const;
    std::optional<double> tWallStart() const;
    QString smConfigJson() const;
    QString smConfigDigest() const;
    /** `sm_config_json` parsed (StorageManagerConfig::State::Lost when configLost()). */
    const StorageManagerConfig &smConfig() const { return m_config; }
    const Value *levelMeta() const { return field(u"level_meta"); }

    /** Recomputes SHA-256 of sm_config_json and compares it with sm_config_digest. */
    DigestStatus digestStatus() const;
    /** The recomputed lowercase hex SHA-256 of sm_config_json (empty when the config is). */
    QString computedDigest() const;
    static QString digestStatusName(DigestStatus s);

    /** Set by the loader when the config and digest were overwritten (spec §7.4). */
    void setConfigLost(bool lost);
    bool configLost() const { return m_configLost; }

    /** Schema numbers LMCache has written: 1 and 2. */
    static bool isKnownSchema(qint64 v) { return v == 1 || v == 2; }
    /** Levels LMCache has written: "storage" and "events". */
    static bool isKnownLevel(const QString &l) {
        return l == QLatin1String("storage") || l == QLatin1String("events");
    }

private:
    Value m_fields = Value::map();
    bool m_configLost = false;
    StorageManagerConfig m_config;
};

}  // namespace lmct
