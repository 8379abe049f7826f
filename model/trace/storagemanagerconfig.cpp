#include "trace/storagemanagerconfig.h"

#include "codec/value.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLocale>
#include <QRegularExpression>
#include <QSet>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>

namespace lmct {

namespace {

/** A number as short as exact: 0.2, 80, 12.5. */
QString shortNumber(double d) {
    return QString::number(d, 'g', QLocale::FloatingPointShortest);
}

/** A JSON value for a field problem's "found": "-3", "true", "the string \"48GiB\"", "a list". */
QString describe(const QJsonValue &v) {
    switch (v.type()) {
        case QJsonValue::Bool:
            return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        case QJsonValue::Double: {
            const double d = v.toDouble();
            // (integers the parser kept exact are shown whole: -4096, not -4.096e+03)
            const qint64 i = v.toInteger(std::numeric_limits<qint64>::min());
            if (i != std::numeric_limits<qint64>::min()) {
                return QString::number(i);
            }
            // (beyond 2^53 a double is not the literal's integer: an exponent says so)
            return std::abs(d) >= 1e16 ? QString::number(d, 'g', 17) : shortNumber(d);
        }
        case QJsonValue::String: {
            const QString t = v.toString();
            return QStringLiteral("the string \"%1\"")
                .arg(t.size() > 40 ? t.left(39) + QChar(0x2026) : t);
        }
        case QJsonValue::Array:
            return QStringLiteral("a list");
        case QJsonValue::Object:
            return QStringLiteral("an object");
        case QJsonValue::Null:
            return QStringLiteral("null");
        case QJsonValue::Undefined:
            break;
    }
    return QStringLiteral("nothing");
}

/**
 * Reads the known fields of a config object, listing each value that is not what LMCache
 * writes (absent and null are not problems: LMCache writes nulls).
 */
class FieldReader {
public:
    using Path = std::initializer_list<const char *>;
    using Problem = StorageManagerConfig::FieldProblem;

    FieldReader(const QJsonObject &root, QList<Problem> *problems)
        : m_root(root), m_problems(problems) {}

    /**
     * The value at a dotted path of nested objects; Undefined when a step is absent, null or
     * not an object (the last a problem, reported once per step).
     */
    QJsonValue at(Path path) {
        QJsonValue v(m_root);
        QString dotted;
        for (const char *key : path) {
            if (!v.isObject()) {
                if (!v.isNull() && !v.isUndefined() && !m_reported.contains(dotted)) {
                    m_reported.insert(dotted);
                    problem(dotted, QStringLiteral("an object"), v);
                }
                return QJsonValue(QJsonValue::Undefined);
            }
            dotted += (dotted.isEmpty() ? QString() : QStringLiteral(".")) + QLatin1String(key);
            v = v.toObject().value(QLatin1String(key));
        }
        return v;
    }

    /** A whole number from 0 to 2^63 − 1 (bytes, seconds, a count); `what` names its unit. */
    std::optional<qint64> whole(Path path, const char *what) {
        const QJsonValue v = at(path);
        if (absent(v)) {
            return std::nullopt;
        }
        const double d = v.isDouble() ? v.toDouble() : qQNaN();
        if (!std::isfinite(d) || d < 0 || d != std::floor(d) || d >= 9.2233720368547758e18) {
            problem(join(path),
                    QStringLiteral("a whole number%1 from 0 to 2^63 − 1").arg(QLatin1String(what)),
                    v);
            return std::nullopt;
        }
        // toInteger() is exact for integers up to 2^63 that the parser kept as integers.
        return v.toInteger(qint64(d));
    }

    /** A finite number from `lo` to `hi`; `what` says what it is. */
    std::optional<double> number(Path path, double lo, double hi, const QString &what) {
        const QJsonValue v = at(path);
        if (absent(v)) {
            return std::nullopt;
        }
        const double d = v.isDouble() ? v.toDouble() : qQNaN();
        if (!std::isfinite(d) || d < lo || d > hi) {
            problem(join(path), what, v);
            return std::nullopt;
        }
        return d;
    }

    std::optional<QString> text(Path path) {
        const QJsonValue v = at(path);
        if (absent(v)) {
            return std::nullopt;
        }
        if (!v.isString()) {
            problem(join(path), QStringLiteral("a string"), v);
            return std::nullopt;
        }
        return v.toString();
    }

    std::optional<bool> flag(Path path) {
        const QJsonValue v = at(path);
        if (absent(v)) {
            return std::nullopt;
        }
        if (!v.isBool()) {
            problem(join(path), QStringLiteral("true or false"), v);
            return std::nullopt;
        }
        return v.toBool();
    }

    void problem(const QString &path, const QString &expected, const QJsonValue &found) {
        m_problems->append(Problem{path, expected, describe(found)});
    }

    static QString join(Path path) {
        QStringList parts;
        for (const char *k : path) {
            parts << QLatin1String(k);
        }
        return parts.join(QLatin1Char('.'));
    }

private:
    static bool absent(const QJsonValue &v) { return v.isUndefined() || v.isNull(); }

    const QJsonObject &m_root;
    QList<Problem> *m_problems;
    QSet<QString> m_reported;
};

/**
 * Byte offset in `utf8` of the first NaN, Infinity or -Infinity outside a string (Python's
 * json.dumps writes them for such floats; JSON has none), at or before `upTo`; -1 if none.
 */
qint64 nonJsonNumberAt(const QByteArray &utf8, qint64 upTo, QString *token) {
    bool inString = false;
    const qint64 end = std::min<qint64>(utf8.size(), upTo + 1);
    for (qint64 i = 0; i < end; ++i) {
        const char c = utf8[i];
        if (inString) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                inString = false;
            }
            continue;
        }
        if (c == '"') {
            inString = true;
            continue;
        }
        for (const char *t : {"NaN", "Infinity", "-Infinity"}) {
            const qsizetype n = qsizetype(std::strlen(t));
            if (utf8.mid(i, n) == t) {
                *token = QString::fromLatin1(t);
                return i;
            }
        }
    }
    return -1;
}

/** The top-level keys read (spec §7a). */
bool isKnownSection(const QString &key) {
    static const QStringList known = {QStringLiteral("eviction_config"),
                                      QStringLiteral("l1_manager_config"),
                                      QStringLiteral("l2_adapter_config"),
                                      QStringLiteral("periodic_notifier_interval_ms"),
                                      QStringLiteral("prefetch_max_in_flight"),
                                      QStringLiteral("prefetch_policy"),
                                      QStringLiteral("store_policy")};
    return known.contains(key);
}

/** Adapter fields that say where an adapter keeps its data, in the order they are looked for. */
constexpr const char *kLocationKeys[] = {"path",     "base_path", "root_path", "url",
                                         "endpoint", "bucket",    "host",      "device_path"};

}  // namespace

StorageManagerConfig StorageManagerConfig::fromJson(const QString &json) {
    StorageManagerConfig c;
    if (json.isEmpty()) {
        return c;
    }
    const QByteArray utf8 = json.toUtf8();
    c.m_byteSize = utf8.size();
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(utf8, &err);
    if (err.error != QJsonParseError::NoError) {
        c.m_state = State::NotJson;
        c.m_parseError = err.errorString();
        c.m_parseOffset = err.offset;
        // Qt says only "illegal value" where Python's json.dumps wrote a float NaN.
        QString token;
        if (const qint64 at = nonJsonNumberAt(utf8, err.offset, &token); at >= 0) {
            c.m_parseError = QStringLiteral("%1 is not JSON").arg(token);
            c.m_parseOffset = at;
        }
        return c;
    }
    if (!doc.isObject()) {
        c.m_state = State::NotObject;
        c.m_jsonKind = doc.isArray() ? QStringLiteral("array") : QStringLiteral("scalar");
        return c;
    }
    c.m_state = State::Valid;
    c.m_object = doc.object();
    c.readFields();
    return c;
}

StorageManagerConfig StorageManagerConfig::fromHeaderField(const Value *field) {
    if (!field) {
        return StorageManagerConfig();
    }
    if (!field->isString()) {
        StorageManagerConfig c;
        c.m_state = State::NotString;
        return c;
    }
    if (field->isCut()) {
        StorageManagerConfig c;
        c.m_state = State::Cut;
        c.m_byteSize = field->fullSize();
        return c;
    }
    return fromJson(field->toString());
}

StorageManagerConfig StorageManagerConfig::lost() {
    StorageManagerConfig c;
    c.m_state = State::Lost;
    return c;
}

void StorageManagerConfig::readFields() {
    FieldReader r(m_object, &m_problems);
    const QString fraction = QStringLiteral("a fraction from 0 to 1");
    m_evictionPolicy = r.text({"eviction_config", "eviction_policy"});
    m_evictionRatio = r.number({"eviction_config", "eviction_ratio"}, 0.0, 1.0, fraction);
    m_triggerWatermark = r.number({"eviction_config", "trigger_watermark"}, 0.0, 1.0, fraction);
    m_l1InitBytes =
        r.whole({"l1_manager_config", "memory_config", "init_size_in_bytes"}, " of bytes");
    m_shmName = r.text({"l1_manager_config", "memory_config", "shm_name"}).value_or(QString());
    m_l1Bytes = r.whole({"l1_manager_config", "memory_config", "size_in_bytes"}, " of bytes");
    m_l1UseLazy = r.flag({"l1_manager_config", "memory_config", "use_lazy"});
    m_readTtl = r.whole({"l1_manager_config", "read_ttl_seconds"}, " of seconds");
    m_writeTtl = r.whole({"l1_manager_config", "write_ttl_seconds"}, " of seconds");
    if (const QJsonValue adapters = r.at({"l2_adapter_config", "adapters"}); adapters.isArray()) {
        QList<L2Adapter> list;
        const QJsonArray array = adapters.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QJsonValue a = array.at(i);
            if (!a.isObject()) {
                r.problem(QStringLiteral("l2_adapter_config.adapters[%1]").arg(i),
                          QStringLiteral("an adapter object"), a);
            }
            L2Adapter adapter;
            adapter.fields = a.toObject();  // (empty for an element that is not an object)
            adapter.type = adapter.fields.value(QLatin1String("type")).toString();
            for (const char *k : kLocationKeys) {
                const QJsonValue loc = adapter.fields.value(QLatin1String(k));
                if (loc.isString() && !loc.toString().isEmpty()) {
                    adapter.location = loc.toString();
                    break;
                }
            }
            list.append(adapter);
        }
        m_l2Adapters = list;
    } else if (!adapters.isUndefined() && !adapters.isNull()) {
        r.problem(QStringLiteral("l2_adapter_config.adapters"),
                  QStringLiteral("a list of adapter objects"), adapters);
    }
    m_notifierIntervalMs =
        r.number({"periodic_notifier_interval_ms"}, 0.0, std::numeric_limits<double>::max(),
                 QStringLiteral("a number of milliseconds, not negative"));
    m_prefetchMaxInFlight = r.whole({"prefetch_max_in_flight"}, "");
    m_prefetchPolicy = r.text({"prefetch_policy"});
    m_storePolicy = r.text({"store_policy"});
}

QString StorageManagerConfig::FieldProblem::toString() const {
    return QStringLiteral("%1: expected %2, found %3").arg(path, expected, found);
}

QString StorageManagerConfig::formatBytes(qint64 bytes) {
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    double scale = 1.0;
    while (u < 6 && double(bytes) >= scale * 1024.0) {
        scale *= 1024.0;
        ++u;
    }
    if (u == 0) {
        return QStringLiteral("%1 B").arg(bytes);
    }
    const double v = double(bytes) / scale;
    QString n = QString::number(v, 'f', 2);
    while (n.endsWith(QLatin1Char('0'))) {
        n.chop(1);
    }
    if (n.endsWith(QLatin1Char('.'))) {
        n.chop(1);
    }
    return QStringLiteral("%1 %2").arg(n, QLatin1String(units[u]));
}

QStringList StorageManagerConfig::summaryParts() const {
    switch (m_state) {
        case State::None:
            return {QStringLiteral("no StorageManager config attached")};
        case State::Lost:
            return {QStringLiteral("the config was overwritten (header rewritten in place)")};
        case State::NotString:
            return {QStringLiteral("sm_config_json is not a string: the config is unknown")};
        case State::Cut:
            return {QStringLiteral("sm_config_json is %1 bytes, too long to read whole: the "
                                   "config is unknown")
                        .arg(m_byteSize)};
        case State::NotJson:
            return {QStringLiteral("sm_config_json is not valid JSON (%1 at byte offset %2 of "
                                   "%3): the config is unknown")
                        .arg(m_parseError)
                        .arg(m_parseOffset)
                        .arg(m_byteSize)};
        case State::NotObject:
            return {QStringLiteral("sm_config_json holds a JSON %1, not the config object: the "
                                   "config is unknown")
                        .arg(m_jsonKind)};
        case State::Valid:
            break;
    }
    QStringList parts;

    QStringList l1;
    if (m_l1InitBytes && m_l1UseLazy != false) {
        l1 << QStringLiteral("init %1").arg(formatBytes(*m_l1InitBytes));
    }
    if (m_l1UseLazy) {
        l1 << (*m_l1UseLazy ? QStringLiteral("lazy") : QStringLiteral("eager"));
    }
    if (m_l1Bytes || !l1.isEmpty()) {
        QString s = m_l1Bytes ? QStringLiteral("L1 %1").arg(formatBytes(*m_l1Bytes))
                              : QStringLiteral("L1 size unknown");
        if (!l1.isEmpty()) {
            s += QStringLiteral(" (%1)").arg(l1.join(QStringLiteral(", ")));
        }
        parts << s;
    }

    if (m_evictionPolicy || m_triggerWatermark || m_evictionRatio) {
        QString s = m_evictionPolicy && !m_evictionPolicy->isEmpty()
                        ? QStringLiteral("%1 eviction").arg(*m_evictionPolicy)
                        : QStringLiteral("eviction");
        if (m_triggerWatermark) {
            s += QStringLiteral(" at %1 % watermark").arg(shortNumber(*m_triggerWatermark * 100));
        }
        if (m_evictionRatio) {
            s += QStringLiteral(", ratio %1").arg(shortNumber(*m_evictionRatio));
        }
        parts << s;
    }

    QStringList ttl;
    if (m_writeTtl) {
        ttl << QStringLiteral("write TTL %1 s").arg(*m_writeTtl);
    }
    if (m_readTtl) {
        ttl << QStringLiteral("read TTL %1 s").arg(*m_readTtl);
    }
    if (!ttl.isEmpty()) {
        parts << ttl.join(QStringLiteral(", "));
    }

    if (m_l2Adapters) {
        if (m_l2Adapters->isEmpty()) {
            parts << QStringLiteral("no L2 adapters");
        } else {
            QStringList names;
            for (const L2Adapter &a : *m_l2Adapters) {
                QString n = a.type.isEmpty() ? QStringLiteral("(no type)") : a.type;
                if (!a.location.isEmpty()) {
                    n += QLatin1Char(' ') + a.location;
                }
                names << n;
            }
            parts << QStringLiteral("L2: %1").arg(names.join(QStringLiteral(", ")));
        }
    }

    QStringList prefetch;
    if (m_prefetchMaxInFlight) {
        prefetch << QStringLiteral("%1 in flight").arg(*m_prefetchMaxInFlight);
    }
    if (m_prefetchPolicy) {
        prefetch << QStringLiteral("policy %1").arg(*m_prefetchPolicy);
    }
    if (!prefetch.isEmpty()) {
        parts << QStringLiteral("prefetch: %1").arg(prefetch.join(QStringLiteral(", ")));
    }
    if (m_storePolicy) {
        parts << QStringLiteral("store policy %1").arg(*m_storePolicy);
    }
    if (m_notifierIntervalMs) {
        parts << QStringLiteral("notifier every %1 ms").arg(shortNumber(*m_notifierIntervalMs));
    }
    if (parts.isEmpty()) {
        const QStringList keys = m_object.keys();
        if (!m_problems.isEmpty()) {
            parts << QStringLiteral("no config field readable");
        } else if (keys.isEmpty()) {
            parts << QStringLiteral("an empty config object");
        } else if (std::any_of(keys.begin(), keys.end(), isKnownSection)) {
            parts << QStringLiteral("every known config field is null or absent (keys: %1)")
                         .arg(keys.join(QStringLiteral(", ")));
        } else {
            parts << QStringLiteral("none of the known config fields (keys: %1)")
                         .arg(keys.join(QStringLiteral(", ")));
        }
    }
    for (const FieldProblem &p : m_problems) {
        parts << QStringLiteral("⚠ ") + p.toString();
    }
    return parts;
}

QString StorageManagerConfig::summary() const {
    return summaryParts().join(QStringLiteral(" · "));
}

QString StorageManagerConfig::volatileNote() const {
    if (m_shmName.isEmpty()) {
        return QString();
    }
    static const QRegularExpression pid(QStringLiteral("_(\\d+)$"));
    const QRegularExpressionMatch m = pid.match(m_shmName);
    const QString who = m.hasMatch()
                            ? QStringLiteral("embeds the server's PID (%1)").arg(m.captured(1))
                            : QStringLiteral(
                                  "is set per server process (LMCache's default "
                                  "embeds the PID)");
    return QStringLiteral(
               "shm_name \"%1\" %2,\nso sm_config_digest changes with every server "
               "process:\ntwo runs with the same settings have different digests.\n"
               "Compare configs with shm_name left out.")
        .arg(m_shmName, who);
}

}  // namespace lmct
