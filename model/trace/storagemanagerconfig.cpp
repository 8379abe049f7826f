#include "trace/storagemanagerconfig.h"

#include "codec/value.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLocale>
#include <QRegularExpression>
#include <cmath>
#include <initializer_list>

namespace lmct {

namespace {

/** The value at a dotted path of nested objects; Undefined when any step is not an object. */
QJsonValue at(const QJsonObject &root, std::initializer_list<const char *> path) {
    QJsonValue v(root);
    for (const char *key : path) {
        if (!v.isObject()) {
            return QJsonValue(QJsonValue::Undefined);
        }
        v = v.toObject().value(QLatin1String(key));
    }
    return v;
}

/** A whole number >= 0 (bytes, seconds, a count); nullopt for anything else. */
std::optional<qint64> count(const QJsonValue &v) {
    if (!v.isDouble()) {
        return std::nullopt;
    }
    const double d = v.toDouble();
    if (!std::isfinite(d) || d < 0 || d != std::floor(d) || d >= 9.2233720368547758e18) {
        return std::nullopt;
    }
    // toInteger() is exact for integers up to 2^63 that the parser kept as integers.
    return v.toInteger(qint64(d));
}

std::optional<double> number(const QJsonValue &v) {
    if (!v.isDouble() || !std::isfinite(v.toDouble())) {
        return std::nullopt;
    }
    return v.toDouble();
}

std::optional<QString> text(const QJsonValue &v) {
    return v.isString() ? std::optional<QString>(v.toString()) : std::nullopt;
}

/** A number as short as exact: 0.2, 80, 12.5. */
QString shortNumber(double d) {
    return QString::number(d, 'g', QLocale::FloatingPointShortest);
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
    const QJsonObject &o = m_object;
    m_l1Bytes = count(at(o, {"l1_manager_config", "memory_config", "size_in_bytes"}));
    m_l1InitBytes = count(at(o, {"l1_manager_config", "memory_config", "init_size_in_bytes"}));
    if (const QJsonValue lazy = at(o, {"l1_manager_config", "memory_config", "use_lazy"});
        lazy.isBool()) {
        m_l1UseLazy = lazy.toBool();
    }
    m_shmName = text(at(o, {"l1_manager_config", "memory_config", "shm_name"})).value_or(QString());
    m_evictionPolicy = text(at(o, {"eviction_config", "eviction_policy"}));
    m_evictionRatio = number(at(o, {"eviction_config", "eviction_ratio"}));
    m_triggerWatermark = number(at(o, {"eviction_config", "trigger_watermark"}));
    m_readTtl = count(at(o, {"l1_manager_config", "read_ttl_seconds"}));
    m_writeTtl = count(at(o, {"l1_manager_config", "write_ttl_seconds"}));
    if (const QJsonValue adapters = at(o, {"l2_adapter_config", "adapters"}); adapters.isArray()) {
        QList<L2Adapter> list;
        for (const QJsonValue &a : adapters.toArray()) {
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
    }
    m_prefetchMaxInFlight = count(o.value(QLatin1String("prefetch_max_in_flight")));
    m_prefetchPolicy = text(o.value(QLatin1String("prefetch_policy")));
    m_storePolicy = text(o.value(QLatin1String("store_policy")));
    m_notifierIntervalMs = number(o.value(QLatin1String("periodic_notifier_interval_ms")));
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
        QStringList keys = m_object.keys();
        parts << (keys.isEmpty() ? QStringLiteral("an empty config object")
                                 : QStringLiteral("none of the known config fields (keys: %1)")
                                       .arg(keys.join(QStringLiteral(", "))));
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
