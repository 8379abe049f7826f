#pragma once

#include <QByteArray>
#include <QString>
#include <QStringView>
#include <QtGlobal>
#include <vector>

namespace lmct {

/**
 * A decoded msgpack value, aware of LMCache's codec tags.
 *
 * LMCache's trace codecs (`lmcache/v1/mp_observability/trace/codecs.py`) wrap every value msgpack
 * cannot carry natively as a two-entry map `{"__t__": TAG, "v": PAYLOAD}`. The decoder turns such
 * a map into a Value of type Tagged whose tag() is TAG and whose payload() is PAYLOAD. Tags nest.
 * Every other map is a plain Map.
 *
 * Shapes: Array holds elements; Map holds keys (rendered as text; msgpack allows non-string keys,
 * which are shown by their value) and values in file order; Tagged holds exactly one child, the
 * payload. Int covers every msgpack integer: isUnsigned() tells when the value is above INT64_MAX.
 * Truncated marks the place where decoding stopped (a limit or damage) inside a partial tree.
 *
 * Ownership: a Value owns its children. Thread-safety: a value type; const access is safe from
 * several threads.
 */
class Value {
public:
    enum class Type : quint8 {
        Nil,
        Bool,
        Int,
        Float,
        String,
        Bytes,
        Array,
        Map,
        Tagged,
        Ext,
        Truncated
    };

    Value() = default;

    static Value nil() { return Value(); }
    static Value boolean(bool b);
    static Value integer(qint64 i);
    static Value unsignedInteger(quint64 u);
    static Value floating(double d, bool wasFloat32 = false);
    static Value string(const QString &s);
    static Value bytes(const QByteArray &b);
    static Value ext(qint8 type, const QByteArray &b);
    /**
     * Bytes of which only the first `kept.size()` of `fullSize` are kept (ValueDecoder keeps at
     * most kMaxKeptBytes of a binary or ext payload: a record of two 2.2 GB binaries made
     * `lmct dump` take 70 s and 16 GB). fullSize() tells the size in the record; isCut() that
     * bytes are missing.
     */
    static Value cutBytes(const QByteArray &kept, qint64 fullSize);
    static Value cutExt(qint8 type, const QByteArray &kept, qint64 fullSize);
    /**
     * A string of which only the start `kept` is kept (ValueDecoder keeps at most kMaxKeptBytes
     * of its UTF-8); `fullSize` is the string's size in bytes in the record. toString() is the
     * kept text alone, nothing appended; isCut() and fullSize() tell that it was cut.
     */
    static Value cutString(const QString &kept, qint64 fullSize);
    /** Bytes kept of a binary (Bytes and Ext) or of a string (UTF-8) at most. */
    static constexpr qsizetype kMaxKeptBytes = 1 << 20;
    static Value array();
    static Value map();
    static Value tagged(const QString &tag, Value payload);
    static Value truncated(const QString &why);

    Type type() const { return m_type; }
    bool isNil() const { return m_type == Type::Nil; }
    bool isNumber() const { return m_type == Type::Int || m_type == Type::Float; }
    bool isInt() const { return m_type == Type::Int; }
    bool isString() const { return m_type == Type::String; }
    bool isBytes() const { return m_type == Type::Bytes; }
    bool isArray() const { return m_type == Type::Array; }
    bool isMap() const { return m_type == Type::Map; }
    bool isTagged() const { return m_type == Type::Tagged; }
    bool isContainer() const {
        return m_type == Type::Array || m_type == Type::Map || m_type == Type::Tagged;
    }

    bool toBool() const { return m_type == Type::Bool && m_u != 0; }
    /** The integer (Int) or the truncated float (Float); 0 otherwise. */
    qint64 toInt() const;
    quint64 toUInt() const { return m_type == Type::Int ? m_u : quint64(toInt()); }
    bool isUnsigned() const { return m_unsigned; }
    /** The number as double (Int or Float); 0.0 otherwise. */
    double toDouble() const;
    bool wasFloat32() const { return m_type == Type::Float && m_unsigned; }
    /** String value, codec tag (Tagged), or reason (Truncated); empty otherwise. */
    QString toString() const { return m_text; }
    /** Raw bytes of Bytes and Ext (the first kMaxKeptBytes when isCut()). */
    QByteArray toBytes() const { return m_bytes; }
    /**
     * Size in bytes in the record of Bytes and Ext (more than toBytes() when isCut()) and of a
     * String (its UTF-8; more than toString()'s when isCut()); 0 for other types.
     */
    qint64 fullSize() const;
    /**
     * Whether Bytes, Ext or a String hold only the start of larger ones (cutBytes(), cutExt(),
     * cutString()).
     */
    bool isCut() const {
        return m_type == Type::String ? m_full >= 0 : m_full > qint64(m_bytes.size());
    }
    qint8 extType() const { return qint8(m_u); }

    /** Codec tag of a Tagged value, e.g. "ObjectKey"; empty otherwise. */
    QString tag() const { return m_type == Type::Tagged ? m_text : QString(); }
    /** Payload of a Tagged value; a Nil value otherwise. */
    const Value &payload() const;

    /** Number of elements (Array), entries (Map), 1 (Tagged), 0 otherwise. */
    int size() const { return int(m_children.size()); }
    const Value &at(int i) const { return m_children[size_t(i)]; }
    /** Map key of entry i (Map only). */
    const QString &keyAt(int i) const { return m_keys[size_t(i)]; }
    /** The value of map key `key`, or nullptr (Map only; first match). */
    const Value *find(QStringView key) const;
    /** Follows Tagged wrappers down to the innermost payload. */
    const Value &untagged() const;

    /** A short type name for display: "int", "float", "str", "bytes", "list", "map", tag... */
    QString typeName() const;

    // Building (used by ValueDecoder and tests).
    void append(Value v) { m_children.push_back(std::move(v)); }
    void insert(const QString &key, Value v) {
        m_keys.push_back(key);
        m_children.push_back(std::move(v));
    }
    std::vector<Value> &children() { return m_children; }
    const std::vector<Value> &children() const { return m_children; }
    std::vector<QString> &keys() { return m_keys; }
    const std::vector<QString> &keys() const { return m_keys; }

private:
    Type m_type = Type::Nil;
    bool m_unsigned = false;  // Int: above INT64_MAX; Float: decoded from float32
    quint64 m_u = 0;          // Bool, Int (two's complement), Ext type
    double m_d = 0.0;
    QString m_text;
    QByteArray m_bytes;
    qint64 m_full = -1;  // Bytes, Ext, String: size in the record when cut (cutBytes...), else -1
    std::vector<QString> m_keys;
    std::vector<Value> m_children;
};

}  // namespace lmct
