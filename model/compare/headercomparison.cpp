#include "compare/headercomparison.h"

#include "trace/tracedocument.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QMap>
#include <optional>

namespace lmct {

namespace {

QString compact(const QJsonValue &v) {
    switch (v.type()) {
        case QJsonValue::Null:
            return QStringLiteral("null");
        case QJsonValue::Bool:
            return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        case QJsonValue::Double:
            return QString::number(v.toDouble(), 'g', QLocale::FloatingPointShortest);
        case QJsonValue::String:
            return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact))
                .mid(1)
                .chopped(1);
        case QJsonValue::Array:
            return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
        case QJsonValue::Object:
            return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
        case QJsonValue::Undefined:
            break;
    }
    return {};
}

/** Every leaf of `v` under `path` (empty containers are leaves). */
void flatten(const QString &path, const QJsonValue &v, QMap<QString, QString> *out) {
    if (v.isObject() && !v.toObject().isEmpty()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            flatten(path.isEmpty() ? it.key() : path + QLatin1Char('.') + it.key(), it.value(),
                    out);
        }
    } else if (v.isArray() && !v.toArray().isEmpty()) {
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            flatten(path + QStringLiteral("[%1]").arg(i), a[i], out);
        }
    } else {
        out->insert(path, compact(v));
    }
}

/** Whether `inner` is `outer` or lies below it (`outer.x`, `outer[0]`; "" holds every path). */
bool within(const QString &inner, const QString &outer) {
    if (outer.isEmpty() || inner == outer) {
        return true;
    }
    return inner.startsWith(outer) &&
           (inner[outer.size()] == QLatin1Char('.') || inner[outer.size()] == QLatin1Char('['));
}

QString optionalText(const std::optional<qint64> &v) {
    return v ? QString::number(*v) : QString();
}
QString optionalText(const std::optional<double> &v) {
    return v ? QString::number(*v, 'g', QLocale::FloatingPointShortest) : QString();
}

}  // namespace

HeaderComparison HeaderComparison::build(const TraceDocument &a, const TraceDocument &b) {
    HeaderComparison out;
    const TraceHeader &ha = a.header();
    const TraceHeader &hb = b.header();
    out.m_diff = ConfigDiff::compare(ha.smConfigJson(), hb.smConfigJson());
    auto header = [&out](const QString &field, const QString &va, const QString &vb,
                         bool isVolatile = false) {
        Row r;
        r.field = field;
        r.a = va;
        r.b = vb;
        r.isVolatile = isVolatile && va != vb;
        r.differs = va != vb && !isVolatile;
        out.m_rows.append(r);
    };
    header(QStringLiteral("file"), a.fileName(), b.fileName());
    header(QStringLiteral("level"), ha.level(), hb.level());
    header(QStringLiteral("format_version"), optionalText(ha.formatVersion()),
           optionalText(hb.formatVersion()));
    header(QStringLiteral("trace_schema_version"), optionalText(ha.traceSchemaVersion()),
           optionalText(hb.traceSchemaVersion()));
    header(QStringLiteral("lmcache_version"), ha.lmcacheVersion(), hb.lmcacheVersion());
    header(QStringLiteral("t_mono_start"), optionalText(ha.tMonoStart()),
           optionalText(hb.tMonoStart()));
    header(QStringLiteral("t_wall_start"), optionalText(ha.tWallStart()),
           optionalText(hb.tWallStart()));
    // Digests of configs equal but for shm_name differ with the server's PID only.
    header(QStringLiteral("sm_config_digest"), ha.smConfigDigest(), hb.smConfigDigest(),
           !out.m_diff.isIdentical() && out.m_diff.isEqualIgnoringVolatile());
    header(QStringLiteral("records"), QString::number(a.records().size()),
           QString::number(b.records().size()));
    // seconds with 6 decimals (µs), as the start times print: 0.31, not 0.3100000000000001
    header(QStringLiteral("duration_s"), QString::number(a.records().maxTMono(), 'f', 6),
           QString::number(b.records().maxTMono(), 'f', 6));

    const StorageManagerConfig &ca = ha.smConfig();
    const StorageManagerConfig &cb = hb.smConfig();
    QMap<QString, QString> fa, fb;
    if (ca.isValid()) {
        flatten(QString(), ca.object(), &fa);
    }
    if (cb.isValid()) {
        flatten(QString(), cb.object(), &fb);
    }
    if (!ca.isValid() || !cb.isValid()) {
        Row r;
        r.field = QStringLiteral("sm_config_json");
        r.config = true;
        r.a = ca.isValid() ? QStringLiteral("a config") : ca.summary();
        r.b = cb.isValid() ? QStringLiteral("a config") : cb.summary();
        r.differs = !out.m_diff.isIdentical();
        out.m_rows.append(r);
    }
    QMap<QString, bool> paths;
    for (auto it = fa.begin(); it != fa.end(); ++it) {
        paths.insert(it.key(), true);
    }
    for (auto it = fb.begin(); it != fb.end(); ++it) {
        paths.insert(it.key(), true);
    }
    for (auto it = paths.begin(); it != paths.end(); ++it) {
        Row r;
        r.field = it.key();
        r.config = true;
        r.a = fa.value(it.key());
        r.b = fb.value(it.key());
        for (const ConfigDiff::Change &c : out.m_diff.changes()) {
            if (within(r.field, c.path) || within(c.path, r.field)) {
                (c.isVolatile ? r.isVolatile : r.differs) = true;
            }
        }
        out.m_rows.append(r);
    }
    return out;
}

int HeaderComparison::differingCount() const {
    int n = 0;
    for (const Row &r : m_rows) {
        n += r.differs ? 1 : 0;
    }
    return n;
}

}  // namespace lmct
