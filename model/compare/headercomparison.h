#pragma once

#include "trace/configdiff.h"

#include <QList>
#include <QString>

namespace lmct {

class TraceDocument;

/**
 * The headers and StorageManagerConfigs of two traces side by side, field by field.
 *
 * Rows, in this order:
 * - header fields: file, level, format_version, trace_schema_version, lmcache_version,
 *   t_mono_start, t_wall_start, sm_config_digest, records, duration_s (largest t_mono);
 * - config fields: every leaf of either `sm_config_json` object by its dotted path (as
 *   ConfigDiff names them: `l1_manager_config.memory_config.size_in_bytes`,
 *   `l2_adapter_config.adapters[0].path`), values as compact JSON; a config that is no JSON
 *   object is one row "sm_config_json" with the config in words.
 * A config row differs when a ConfigDiff change lies at, above or below its path; a change of a
 * volatile field (`shm_name`: it embeds the server's PID) marks the row volatile and does not make
 * it differ. sm_config_digest is volatile, not differing, when the configs are equal once
 * volatile fields are left out (the digest then changes with the PID only).
 *
 * Thread-safety: a value type; build() reads the documents' headers (immutable) and record
 * columns.
 */
class HeaderComparison {
public:
    struct Row {
        QString field;
        QString a;  ///< value in A ("" when absent)
        QString b;
        bool config = false;  ///< a config field (else a header field)
        bool differs = false;
        bool isVolatile = false;
    };

    static HeaderComparison build(const TraceDocument &a, const TraceDocument &b);

    const QList<Row> &rows() const { return m_rows; }
    /** The rows that differ. */
    int differingCount() const;
    const ConfigDiff &configDiff() const { return m_diff; }
    /** The config comparison in words (ConfigDiff::explanation()). */
    QString configExplanation() const { return m_diff.explanation(); }

private:
    QList<Row> m_rows;
    ConfigDiff m_diff;
};

}  // namespace lmct
