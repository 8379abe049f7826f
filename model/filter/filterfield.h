#pragma once

#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <vector>

namespace lmct {

/**
 * The left-hand side of a filter condition: a record column, a derived field, or a path into
 * the record's arguments (see docs/filter-language.md).
 *
 * Record columns (never decode arguments): `qualname`, `call` (Qualname::shortName), `t_mono`,
 * `t_wall` (seconds), `index` (record index in file order), `trace` (the trace a record belongs
 * to: its label, its `level_meta.instance_id`, or as an unquoted integer its index in a
 * TraceSet; one document alone is trace 0, labelled by its file name).
 *
 * Derived from the arguments: `keys.count` (ObjectKeys anywhere), the ObjectKey fields
 * `chunk_hash`, `model_name`, `kv_rank`, `rank`, `world_size`, `local_rank`, `local_world_size`,
 * `object_group_id`, `cache_salt` (a condition on them holds when ANY key of the record
 * satisfies it), `request` (`external_request_id` anywhere), `bytes` (layout bytes per object ×
 * key count).
 *
 * Argument paths: dotted names and `[i]` indices (negative from the end) from the args map,
 * e.g. `spec.keys[0].chunk_hash`; `args.` may prefix a path to reach an argument whose name is
 * also a derived field, and `args` alone is the whole map. A name step sees through codec tags
 * and, applied to a list, to every element.
 *
 * Thread-safety: a value type.
 */
struct FilterField {
    enum class Kind : quint8 {
        Qualname,
        Call,
        TMono,
        TWall,
        Index,
        Trace,
        KeysCount,
        ChunkHash,
        ModelName,
        KvRank,
        Rank,
        WorldSize,
        LocalRank,
        LocalWorldSize,
        ObjectGroupId,
        CacheSalt,
        Request,
        Bytes,
        ArgPath
    };
    /** How literals compared with the field are read (checked at parse time). */
    enum class Type : quint8 {
        Text,     ///< compared as text
        Number,   ///< needs a number
        Hex,      ///< chunk hash: hex digits, `==` is a prefix match
        Dynamic,  ///< argument path: by the value found in each record
    };

    /** One step of an argument path: a map key or a list index. */
    struct Step {
        QByteArray name;  ///< UTF-8 map key; empty for an index step
        int index = 0;
        bool isIndex = false;
    };

    Kind kind = Kind::ArgPath;
    QString text;  ///< as written
    std::vector<Step> path;

    Type type() const;
    /** Whether evaluating the field needs the record's arguments decoded. */
    bool needsArgs() const;
    /** Whether the field is a property of each ObjectKey (any-key semantics). */
    bool isKeyField() const;

    /**
     * Reads a field name; false (with `*error` saying what was expected) when `text` is neither a
     * known field nor a well-formed argument path.
     */
    static bool parse(const QString &text, FilterField *out, QString *error);
    /** Names of the record columns and derived fields, for completion and help. */
    static const QStringList &knownNames();
};

}  // namespace lmct
