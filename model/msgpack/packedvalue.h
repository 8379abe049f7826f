#pragma once

#include <QString>
#include <QtGlobal>
#include <msgpack.hpp>
#include <string_view>

namespace lmct {

/**
 * A read-only view of one msgpack value unpacked by msgpack-cxx (a `msgpack::object`), with the
 * same codec awareness as Value: a map of exactly the two keys `__t__` (a string) and `v` is a
 * codec-tagged value (tag(), payload()).
 *
 * This is the fast path for scanning many records (filters, statistics): nothing is copied,
 * strings and bytes are views of the unpacked buffer, no QString is built unless asked for.
 * Use Value (ValueDecoder, TraceDocument::args) for display.
 *
 * Ownership: a PackedValue points into a msgpack zone and, for strings and bytes, into the
 * buffer that was unpacked (the mapped trace file). It is valid as long as both are; see
 * PackedArgsDecoder. A default-constructed PackedValue is invalid (isValid() false) and behaves
 * as an absent value: every accessor returns an empty/zero result.
 *
 * Thread-safety: a const view; safe to read from several threads.
 */
class PackedValue {
public:
    enum class Kind : quint8 {
        Invalid,  ///< no value (absent key, index out of range)
        Nil,
        Bool,
        Int,
        Float,
        String,
        Bytes,
        Array,
        Map,
        Ext
    };

    PackedValue() = default;
    explicit PackedValue(const msgpack::object *o) : m_o(o) {}

    bool isValid() const { return m_o != nullptr; }
    inline Kind kind() const;
    bool isNil() const { return kind() == Kind::Nil; }
    bool isBool() const { return kind() == Kind::Bool; }
    bool isInt() const { return kind() == Kind::Int; }
    bool isNumber() const {
        const Kind k = kind();
        return k == Kind::Int || k == Kind::Float;
    }
    bool isString() const { return kind() == Kind::String; }
    bool isBytes() const { return kind() == Kind::Bytes; }
    bool isArray() const { return kind() == Kind::Array; }
    bool isMap() const { return kind() == Kind::Map; }
    bool isContainer() const { return isArray() || isMap(); }

    bool toBool() const;
    /** Int as qint64 (wraps above INT64_MAX), Float truncated; 0 otherwise. */
    qint64 toInt() const;
    /** Whether an Int is above INT64_MAX (read it with toUInt()). */
    bool isUnsigned() const;
    quint64 toUInt() const;
    /** Int or Float as double; 0.0 otherwise. */
    double toDouble() const;
    /** UTF-8 bytes of a String; empty otherwise. */
    std::string_view str() const;
    /** Raw bytes of a Bytes value (bin); empty otherwise. */
    std::string_view bytes() const;
    /** A String as QString (allocates). */
    QString toQString() const;

    /** Elements of an Array, entries of a Map, 0 otherwise. */
    int size() const;
    /** Element `i` of an Array. */
    PackedValue at(int i) const;
    /** Key of Map entry `i` as UTF-8 when it is a string; empty otherwise. */
    std::string_view keyAt(int i) const;
    /** Value of Map entry `i`. */
    PackedValue valueAt(int i) const;
    /** The value of string key `key` in a Map (first match); invalid when absent. */
    PackedValue find(std::string_view key) const;

    /** Codec tag when this is `{"__t__": TAG, "v": PAYLOAD}`; empty otherwise. */
    std::string_view tag() const;
    bool isTagged() const { return !tag().empty(); }
    /** PAYLOAD of a tagged value; invalid otherwise. */
    PackedValue payload() const;
    /** Follows tag wrappers down to the innermost payload (at most 64 levels). */
    PackedValue untagged() const;

    /**
     * Python-like truthiness, seen through tags: nil, false, 0, empty strings, bytes and
     * containers are false; an invalid value is false.
     */
    bool truthy() const;

    const msgpack::object *object() const { return m_o; }

private:
    const msgpack::object *m_o = nullptr;
};

inline PackedValue::Kind PackedValue::kind() const {
    if (!m_o) {
        return Kind::Invalid;
    }
    switch (m_o->type) {
        case msgpack::type::NIL:
            return Kind::Nil;
        case msgpack::type::BOOLEAN:
            return Kind::Bool;
        case msgpack::type::POSITIVE_INTEGER:
        case msgpack::type::NEGATIVE_INTEGER:
            return Kind::Int;
        case msgpack::type::FLOAT32:
        case msgpack::type::FLOAT64:
            return Kind::Float;
        case msgpack::type::STR:
            return Kind::String;
        case msgpack::type::BIN:
            return Kind::Bytes;
        case msgpack::type::ARRAY:
            return Kind::Array;
        case msgpack::type::MAP:
            return Kind::Map;
        case msgpack::type::EXT:
            return Kind::Ext;
    }
    return Kind::Invalid;
}

}  // namespace lmct
