#include "trace/traceheader.h"

#include <QCryptographicHash>

namespace lmct {

TraceHeader::TraceHeader(Value fields)
    : m_fields(std::move(fields)),
      m_config(StorageManagerConfig::fromHeaderField(field(u"sm_config_json"))) {}

void TraceHeader::setConfigLost(bool lost) {
    m_configLost = lost;
    if (lost) {
        m_config = StorageManagerConfig::lost();
    } else if (m_config.state() == StorageManagerConfig::State::Lost) {
        m_config = StorageManagerConfig::fromHeaderField(field(u"sm_config_json"));
    }
}

bool TraceHeader::hasMagic() const {
    return field(u"magic") != nullptr;
}

QString TraceHeader::magic() const {
    const Value *v = field(u"magic");
    if (!v) {
        return QString();
    }
    if (v->isBytes()) {
        return QString::fromLatin1(v->toBytes());
    }
    if (v->isString()) {
        return v->toString();
    }
    return QStringLiteral("<%1>").arg(v->typeName());
}

std::optional<qint64> TraceHeader::formatVersion() const {
    const Value *v = field(u"format_version");
    return v && v->isInt() ? std::optional<qint64>(v->toInt()) : std::nullopt;
}

std::optional<qint64> TraceHeader::traceSchemaVersion() const {
    const Value *v = field(u"trace_schema_version");
    return v && v->isInt() ? std::optional<qint64>(v->toInt()) : std::nullopt;
}

QString TraceHeader::level() const {
    const Value *v = field(u"level");
    return v && v->isString() ? v->toString() : QString();
}

QString TraceHeader::lmcacheVersion() const {
    if (const Value *v = field(u"lmcache_version"); v && v->isString()) {
        return v->toString();
    }
    if (const Value *meta = levelMeta(); meta && meta->isMap()) {
        if (const Value *v = meta->find(u"lmcache_version"); v && v->isString()) {
            return v->toString();
        }
    }
    return QString();
}

std::optional<double> TraceHeader::tMonoStart() const {
    const Value *v = field(u"t_mono_start");
    return v && v->isNumber() ? std::optional<double>(v->toDouble()) : std::nullopt;
}

std::optional<double> TraceHeader::tWallStart() const {
    const Value *v = field(u"t_wall_start");
    return v && v->isNumber() ? std::optional<double>(v->toDouble()) : std::nullopt;
}

QString TraceHeader::smConfigJson() const {
    const Value *v = field(u"sm_config_json");
    return v && v->isString() ? v->toString() : QString();
}

QString TraceHeader::smConfigDigest() const {
    const Value *v = field(u"sm_config_digest");
    return v && v->isString() ? v->toString() : QString();
}

QString TraceHeader::computedDigest() const {
    const QString json = smConfigJson();
    if (json.isEmpty()) {
        return QString();
    }
    return QString::fromLatin1(
        QCryptographicHash::hash(json.toUtf8(), QCryptographicHash::Sha256).toHex());
}

TraceHeader::DigestStatus TraceHeader::digestStatus() const {
    if (m_configLost) {
        return DigestStatus::Lost;
    }
    const QString digest = smConfigDigest();
    if (digest.isEmpty()) {  // "" or no sm_config_digest key: nothing to check the config by
        return DigestStatus::Absent;
    }
    return digest.compare(computedDigest(), Qt::CaseInsensitive) == 0 ? DigestStatus::Match
                                                                      : DigestStatus::Mismatch;
}

QString TraceHeader::digestStatusName(DigestStatus s) {
    switch (s) {
        case DigestStatus::Absent:
            return QStringLiteral("absent");
        case DigestStatus::Match:
            return QStringLiteral("match");
        case DigestStatus::Mismatch:
            return QStringLiteral("mismatch");
        case DigestStatus::Lost:
            return QStringLiteral("lost");
    }
    return QString();
}

}  // namespace lmct
