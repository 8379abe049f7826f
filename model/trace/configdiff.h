#pragma once

#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

namespace lmct {

class TraceHeader;

/**
 * The fields in which two StorageManagerConfig JSON texts (`sm_config_json`, spec §7a) differ.
 *
 * Objects are compared key by key, arrays index by index, down to the leaves; a change is named
 * by its dotted path (`l1_manager_config.memory_config.size_in_bytes`,
 * `l2_adapter_config.adapters[0].path`). Numbers compare by value (600 equals 600.0).
 *
 * Volatile fields differ between runs of the same settings and are marked, not dropped: `shm_name`
 * at any depth (LMCache's default `lmcache_l1_pool_<pid>` embeds the server's PID, so the
 * digest changes with every server process). equalIgnoringVolatile() is what says "the same
 * configuration".
 *
 * A text that is not a JSON object ("" when no config was attached, or not JSON) is compared as a
 * whole: equal texts are no change, else one change at the path "" holding both texts (JSON null
 * for ""). Never throws.
 *
 * Thread-safety: a value type; any thread.
 */
class ConfigDiff {
public:
    struct Change {
        enum class Kind : quint8 {
            Changed,  ///< in both, different values
            Added,    ///< only in B (a is Undefined)
            Removed   ///< only in A (b is Undefined)
        };
        Kind kind = Kind::Changed;
        QString path;             ///< dotted path; "" for the whole config
        QJsonValue a;             ///< value in A (Undefined when Added)
        QJsonValue b;             ///< value in B (Undefined when Removed)
        bool isVolatile = false;  ///< a field that differs from run to run (isVolatilePath)
    };

    /** Compares config texts `a` and `b`. */
    static ConfigDiff compare(const QString &a, const QString &b);
    /** Whether `a` and `b` are the same configuration once volatile fields are left out. */
    static bool equalIgnoringVolatile(const QString &a, const QString &b);
    /** Whether the field at `path` is volatile: its last key is `shm_name`. */
    static bool isVolatilePath(const QString &path);
    /** The key names treated as volatile ({"shm_name"}). */
    static QStringList volatileKeys();

    /** Every change, volatile ones included, in path order. */
    const QList<Change> &changes() const { return m_changes; }
    /** The changes that are not volatile. */
    QList<Change> realChanges() const;
    /** The last keys of the volatile fields that changed ({"shm_name"}), each once. */
    QStringList changedVolatileKeys() const;
    /** No change at all: the texts are the same configuration, byte for byte or in value. */
    bool isIdentical() const { return m_changes.isEmpty(); }
    /** No change outside volatile fields. */
    bool isEqualIgnoringVolatile() const { return realChanges().isEmpty(); }

    /**
     * The comparison in words: "identical", "differs only in volatile fields (shm_name)", or
     * "differs in N fields: PATH (A → B), PATH (added: B), ..." (at most `maxListed` listed,
     * then "and M more"). Values are compact JSON, strings cut at 60 characters.
     */
    QString explanation(int maxListed = 5) const;
    /** One change in words: "PATH: A → B", "PATH: added (B)", "PATH: removed (A)". */
    static QString describe(const Change &c);

    /**
     * What two traces' digests say about their configs: the same digest (and a config that
     * hashes to it) is the same config; different digests are explained by compare() of the two
     * `sm_config_json` texts ("same settings: the digests differ only because shm_name differs",
     * or the fields that differ). A header with no config, or one whose config was lost, says so.
     */
    static QString explainDigests(const TraceHeader &a, const TraceHeader &b);

private:
    QList<Change> m_changes;
};

}  // namespace lmct
