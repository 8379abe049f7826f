#include "msgpack/packedvalue.h"

namespace lmct {

namespace {

std::string_view view(const msgpack::object &o) {
    return std::string_view(o.via.str.ptr, o.via.str.size);
}

}  // namespace

bool PackedValue::toBool() const {
    return m_o && m_o->type == msgpack::type::BOOLEAN && m_o->via.boolean;
}

qint64 PackedValue::toInt() const {
    if (!m_o) {
        return 0;
    }
    switch (m_o->type) {
        case msgpack::type::POSITIVE_INTEGER:
            return qint64(m_o->via.u64);
        case msgpack::type::NEGATIVE_INTEGER:
            return m_o->via.i64;
        case msgpack::type::FLOAT32:
        case msgpack::type::FLOAT64:
            return qint64(m_o->via.f64);
        default:
            return 0;
    }
}

bool PackedValue::isUnsigned() const {
    return m_o && m_o->type == msgpack::type::POSITIVE_INTEGER &&
           m_o->via.u64 > quint64(std::numeric_limits<qint64>::max());
}

quint64 PackedValue::toUInt() const {
    if (m_o && m_o->type == msgpack::type::POSITIVE_INTEGER) {
        return m_o->via.u64;
    }
    return quint64(toInt());
}

double PackedValue::toDouble() const {
    if (!m_o) {
        return 0.0;
    }
    switch (m_o->type) {
        case msgpack::type::POSITIVE_INTEGER:
            return double(m_o->via.u64);
        case msgpack::type::NEGATIVE_INTEGER:
            return double(m_o->via.i64);
        case msgpack::type::FLOAT32:
        case msgpack::type::FLOAT64:
            return m_o->via.f64;
        default:
            return 0.0;
    }
}

std::string_view PackedValue::str() const {
    return (m_o && m_o->type == msgpack::type::STR) ? view(*m_o) : std::string_view();
}

std::string_view PackedValue::bytes() const {
    return (m_o && m_o->type == msgpack::type::BIN)
               ? std::string_view(m_o->via.bin.ptr, m_o->via.bin.size)
               : std::string_view();
}

QString PackedValue::toQString() const {
    const std::string_view s = str();
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

int PackedValue::size() const {
    if (!m_o) {
        return 0;
    }
    if (m_o->type == msgpack::type::ARRAY) {
        return int(m_o->via.array.size);
    }
    if (m_o->type == msgpack::type::MAP) {
        return int(m_o->via.map.size);
    }
    return 0;
}

PackedValue PackedValue::at(int i) const {
    if (!m_o || m_o->type != msgpack::type::ARRAY || i < 0 || quint32(i) >= m_o->via.array.size) {
        return PackedValue();
    }
    return PackedValue(&m_o->via.array.ptr[i]);
}

std::string_view PackedValue::keyAt(int i) const {
    if (!m_o || m_o->type != msgpack::type::MAP || i < 0 || quint32(i) >= m_o->via.map.size) {
        return std::string_view();
    }
    const msgpack::object &k = m_o->via.map.ptr[i].key;
    return k.type == msgpack::type::STR ? view(k) : std::string_view();
}

PackedValue PackedValue::valueAt(int i) const {
    if (!m_o || m_o->type != msgpack::type::MAP || i < 0 || quint32(i) >= m_o->via.map.size) {
        return PackedValue();
    }
    return PackedValue(&m_o->via.map.ptr[i].val);
}

PackedValue PackedValue::find(std::string_view key) const {
    if (!m_o || m_o->type != msgpack::type::MAP) {
        return PackedValue();
    }
    const msgpack::object_kv *kv = m_o->via.map.ptr;
    for (quint32 i = 0, n = m_o->via.map.size; i < n; ++i) {
        if (kv[i].key.type == msgpack::type::STR && view(kv[i].key) == key) {
            return PackedValue(&kv[i].val);
        }
    }
    return PackedValue();
}

std::string_view PackedValue::tag() const {
    if (!m_o || m_o->type != msgpack::type::MAP || m_o->via.map.size != 2) {
        return std::string_view();
    }
    const msgpack::object_kv *kv = m_o->via.map.ptr;
    for (int i = 0; i < 2; ++i) {
        const msgpack::object &other = kv[1 - i].key;
        if (kv[i].key.type == msgpack::type::STR && view(kv[i].key) == "__t__" &&
            kv[i].val.type == msgpack::type::STR && other.type == msgpack::type::STR &&
            view(other) == "v") {
            return view(kv[i].val);
        }
    }
    return std::string_view();
}

PackedValue PackedValue::payload() const {
    return isTagged() ? find("v") : PackedValue();
}

PackedValue PackedValue::untagged() const {
    PackedValue v = *this;
    for (int depth = 0; depth < 64 && v.isTagged(); ++depth) {
        v = v.payload();
    }
    return v;
}

bool PackedValue::truthy() const {
    const PackedValue v = untagged();
    switch (v.kind()) {
        case Kind::Invalid:
        case Kind::Nil:
            return false;
        case Kind::Bool:
            return v.toBool();
        case Kind::Int:
            return v.toUInt() != 0;
        case Kind::Float:
            return v.toDouble() != 0.0;
        case Kind::String:
            return !v.str().empty();
        case Kind::Bytes:
            return !v.bytes().empty();
        case Kind::Ext:
            return true;
        case Kind::Array:
        case Kind::Map:
            return v.size() != 0;
    }
    return false;
}

}  // namespace lmct
