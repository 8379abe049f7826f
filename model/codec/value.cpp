#include "codec/value.h"

#include "util/saturatingint.h"

#include <algorithm>

namespace lmct {

Value Value::boolean(bool b) {
    Value v;
    v.m_type = Type::Bool;
    v.m_u = b ? 1 : 0;
    return v;
}

Value Value::integer(qint64 i) {
    Value v;
    v.m_type = Type::Int;
    v.m_u = quint64(i);
    return v;
}

Value Value::unsignedInteger(quint64 u) {
    Value v;
    v.m_type = Type::Int;
    v.m_u = u;
    v.m_unsigned = u > quint64(std::numeric_limits<qint64>::max());
    return v;
}

Value Value::floating(double d, bool wasFloat32) {
    Value v;
    v.m_type = Type::Float;
    v.m_d = d;
    v.m_unsigned = wasFloat32;
    return v;
}

Value Value::string(const QString &s) {
    Value v;
    v.m_type = Type::String;
    v.m_text = s;
    return v;
}

Value Value::bytes(const QByteArray &b) {
    Value v;
    v.m_type = Type::Bytes;
    v.m_bytes = b;
    return v;
}

Value Value::cutBytes(const QByteArray &kept, qint64 fullSize) {
    Value v = bytes(kept);
    v.m_full = std::max(fullSize, qint64(kept.size()));
    return v;
}

Value Value::cutExt(qint8 type, const QByteArray &kept, qint64 fullSize) {
    Value v = ext(type, kept);
    v.m_full = std::max(fullSize, qint64(kept.size()));
    return v;
}

Value Value::cutString(const QString &kept, qint64 fullSize) {
    Value v = string(kept);
    v.m_full = fullSize;
    return v;
}

qint64 Value::fullSize() const {
    if (m_full >= 0) {
        return m_full;
    }
    if (m_type == Type::String) {
        return m_text.toUtf8().size();
    }
    return m_bytes.size();
}

Value Value::ext(qint8 type, const QByteArray &b) {
    Value v;
    v.m_type = Type::Ext;
    v.m_u = quint64(quint8(type));
    v.m_bytes = b;
    return v;
}

Value Value::array() {
    Value v;
    v.m_type = Type::Array;
    return v;
}

Value Value::map() {
    Value v;
    v.m_type = Type::Map;
    return v;
}

Value Value::tagged(const QString &tag, Value payload) {
    Value v;
    v.m_type = Type::Tagged;
    v.m_text = tag;
    v.m_children.push_back(std::move(payload));
    return v;
}

Value Value::truncated(const QString &why) {
    Value v;
    v.m_type = Type::Truncated;
    v.m_text = why;
    return v;
}

qint64 Value::toInt() const {
    if (m_type == Type::Int) {
        return qint64(m_u);
    }
    if (m_type == Type::Float) {
        return saturatingInt(m_d);
    }
    return 0;
}

double Value::toDouble() const {
    if (m_type == Type::Float) {
        return m_d;
    }
    if (m_type == Type::Int) {
        return m_unsigned ? double(m_u) : double(qint64(m_u));
    }
    return 0.0;
}

const Value &Value::payload() const {
    static const Value kNil;
    return (m_type == Type::Tagged && !m_children.empty()) ? m_children.front() : kNil;
}

const Value *Value::find(QStringView key) const {
    if (m_type != Type::Map) {
        return nullptr;
    }
    for (size_t i = 0; i < m_keys.size(); ++i) {
        if (m_keys[i] == key) {
            return &m_children[i];
        }
    }
    return nullptr;
}

const Value &Value::untagged() const {
    const Value *v = this;
    while (v->m_type == Type::Tagged && !v->m_children.empty()) {
        v = &v->m_children.front();
    }
    return *v;
}

QString Value::typeName() const {
    switch (m_type) {
        case Type::Nil:
            return QStringLiteral("nil");
        case Type::Bool:
            return QStringLiteral("bool");
        case Type::Int:
            return QStringLiteral("int");
        case Type::Float:
            return m_unsigned ? QStringLiteral("float32") : QStringLiteral("float");
        case Type::String:
            return QStringLiteral("str");
        case Type::Bytes:
            return QStringLiteral("bytes");
        case Type::Array:
            return QStringLiteral("list");
        case Type::Map:
            return QStringLiteral("map");
        case Type::Tagged:
            return m_text;
        case Type::Ext:
            return QStringLiteral("ext");
        case Type::Truncated:
            return QStringLiteral("truncated");
    }
    return QString();
}

}  // namespace lmct
