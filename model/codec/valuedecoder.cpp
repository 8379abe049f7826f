#include "codec/valuedecoder.h"

#include <msgpack.hpp>

namespace lmct {

namespace {

/** Builds a Value tree from msgpack-cxx's visitor callbacks. */
class TreeVisitor : public msgpack::null_visitor {
public:
    TreeVisitor(qint64 bufferSize, const ValueDecoder::Limits &limits)
        : m_bufferSize(bufferSize), m_limits(limits) {}

    bool visit_nil() { return push(Value::nil()); }
    bool visit_boolean(bool v) { return push(Value::boolean(v)); }
    bool visit_positive_integer(uint64_t v) { return push(Value::unsignedInteger(v)); }
    bool visit_negative_integer(int64_t v) { return push(Value::integer(v)); }
    bool visit_float32(float v) { return push(Value::floating(double(v), true)); }
    bool visit_float64(double v) { return push(Value::floating(v)); }
    bool visit_str(const char *v, uint32_t size) {
        if (size > Value::kMaxKeptBytes) {  // (no real argument is; a hostile one may be GBs)
            // Cut before a character whose UTF-8 straddles the limit (at most 3 bytes back).
            qsizetype kept = Value::kMaxKeptBytes;
            for (int back = 0; back < 3 && kept > 0 && (uchar(v[kept]) & 0xc0) == 0x80; ++back) {
                --kept;
            }
            return push(Value::cutString(QString::fromUtf8(v, kept), size));
        }
        return push(Value::string(QString::fromUtf8(v, qsizetype(size))));
    }
    bool visit_bin(const char *v, uint32_t size) {
        if (size > Value::kMaxKeptBytes) {
            return push(Value::cutBytes(QByteArray(v, Value::kMaxKeptBytes), size));
        }
        return push(Value::bytes(QByteArray(v, qsizetype(size))));
    }
    bool visit_ext(const char *v, uint32_t size) {
        if (size == 0) {
            return push(Value::ext(0, QByteArray()));
        }
        if (size - 1 > Value::kMaxKeptBytes) {
            return push(
                Value::cutExt(qint8(v[0]), QByteArray(v + 1, Value::kMaxKeptBytes), size - 1));
        }
        return push(Value::ext(qint8(v[0]), QByteArray(v + 1, qsizetype(size) - 1)));
    }
    bool start_array(uint32_t n) { return open(Value::array(), n, "array"); }
    bool end_array() { return close(); }
    bool start_map(uint32_t n) { return open(Value::map(), n, "map"); }
    bool start_map_key() {
        m_stack.back().atKey = true;
        return true;
    }
    bool start_map_value() {
        m_stack.back().atKey = false;
        return true;
    }
    bool end_map() { return close(); }
    void parse_error(size_t, size_t errorOffset) {
        m_failed = ValueDecoder::Status::Malformed;
        m_errorOffset = qint64(errorOffset);
    }
    void insufficient_bytes(size_t, size_t errorOffset) {
        m_failed = ValueDecoder::Status::Truncated;
        m_errorOffset = qint64(errorOffset);
    }

    /** Closes every open container and returns the (possibly partial) tree. */
    Value finish(const QString &why) {
        if (!m_stack.empty() && !why.isEmpty()) {
            Value &open = m_stack.back().value;
            if (open.isMap()) {
                open.insert(QStringLiteral("…"), Value::truncated(why));  // maps need a key
            } else {
                open.append(Value::truncated(why));
            }
        }
        while (!m_stack.empty()) {
            close();
        }
        if (!m_haveRoot && !why.isEmpty()) {
            return Value::truncated(why);
        }
        return std::move(m_root);
    }

    bool m_limitHit = false;
    QString m_limitMessage;
    ValueDecoder::Status m_failed = ValueDecoder::Status::Ok;
    qint64 m_errorOffset = 0;

private:
    struct Frame {
        Value value;
        bool atKey = false;
        QString pendingKey;
    };

    bool countNode() {
        if (++m_nodes > m_limits.maxNodes) {
            return stop(QStringLiteral("more than %1 values in one tree").arg(m_limits.maxNodes));
        }
        return true;
    }

    bool stop(const QString &message) {
        m_limitHit = true;
        m_limitMessage = message;
        return false;
    }

    bool open(Value v, uint32_t claimed, const char *what) {
        if (!countNode()) {
            return false;
        }
        if (int(m_stack.size()) >= m_limits.maxDepth) {
            return stop(QStringLiteral("nesting deeper than %1 levels").arg(m_limits.maxDepth));
        }
        // Every element takes at least one byte (two for a map entry): a claim beyond the
        // buffer cannot be backed by data.
        const qint64 minBytes = qint64(claimed) * (v.isMap() ? 2 : 1);
        if (minBytes > m_bufferSize) {
            return stop(QStringLiteral("%1 header claims %2 %3 but only %4 bytes are present")
                            .arg(QLatin1String(what))
                            .arg(claimed)
                            .arg(v.isMap() ? QStringLiteral("entries") : QStringLiteral("elements"))
                            .arg(m_bufferSize));
        }
        m_stack.push_back(Frame{std::move(v), false, QString()});
        return true;
    }

    bool close() {
        Frame f = std::move(m_stack.back());
        m_stack.pop_back();
        if (f.value.isMap() && f.value.size() == 2) {
            const Value *tag = f.value.find(u"__t__");
            const Value *payload = f.value.find(u"v");
            if (tag && payload && tag->isString()) {
                Value t = Value::tagged(tag->toString(), std::move(*const_cast<Value *>(payload)));
                return place(std::move(t), false);
            }
        }
        return place(std::move(f.value), false);
    }

    bool push(Value v) { return place(std::move(v), true); }

    bool place(Value v, bool count) {
        if (count && !countNode()) {
            return false;
        }
        if (m_stack.empty()) {
            m_root = std::move(v);
            m_haveRoot = true;
            return true;
        }
        Frame &top = m_stack.back();
        if (top.value.isMap()) {
            if (top.atKey) {
                top.pendingKey = keyText(v);
            } else {
                top.value.insert(top.pendingKey, std::move(v));
            }
        } else {
            top.value.append(std::move(v));
        }
        return true;
    }

    static QString keyText(const Value &v) {
        switch (v.type()) {
            case Value::Type::String:
                return v.toString();
            case Value::Type::Int:
                return v.isUnsigned() ? QString::number(v.toUInt()) : QString::number(v.toInt());
            case Value::Type::Float:
                return QString::number(v.toDouble(), 'g', 17);
            case Value::Type::Bool:
                return v.toBool() ? QStringLiteral("True") : QStringLiteral("False");
            case Value::Type::Nil:
                return QStringLiteral("None");
            case Value::Type::Bytes:
                return QString::fromLatin1(v.toBytes().toHex());
            default:
                return QStringLiteral("<%1>").arg(v.typeName());
        }
    }

    qint64 m_bufferSize;
    ValueDecoder::Limits m_limits;
    qint64 m_nodes = 0;
    std::vector<Frame> m_stack;
    Value m_root;
    bool m_haveRoot = false;
};

}  // namespace

ValueDecoder::Result ValueDecoder::decode(const char *data, qint64 size, const Limits &limits) {
    Result r;
    if (size <= 0) {
        r.status = Status::Truncated;
        r.message = QStringLiteral("no bytes to decode");
        r.value = Value::truncated(r.message);
        return r;
    }
    TreeVisitor visitor(size, limits);
    std::size_t off = 0;
    bool ok = false;
    try {
        ok = msgpack::parse(data, std::size_t(size), off, visitor);
    } catch (const std::exception &e) {
        // msgpack-cxx throws on sizes it refuses (e.g. its own limits); treat as a limit.
        visitor.m_limitHit = true;
        visitor.m_limitMessage = QString::fromUtf8(e.what());
    }
    if (ok) {
        r.value = visitor.finish(QString());
        r.consumed = qint64(off);
        if (qint64(off) < size) {
            r.status = Status::ExtraBytes;
            r.errorOffset = qint64(off);
            r.message = QStringLiteral("one value of %1 bytes, then %2 bytes more")
                            .arg(off)
                            .arg(size - qint64(off));
        }
        return r;
    }
    if (visitor.m_limitHit) {
        r.status = Status::Limit;
        r.message = visitor.m_limitMessage;
        r.errorOffset = qint64(off);
    } else if (visitor.m_failed == Status::Truncated) {
        r.status = Status::Truncated;
        r.errorOffset = size;
        r.message = QStringLiteral("the value continues past the end of its %1 bytes").arg(size);
    } else {
        r.status = Status::Malformed;
        r.errorOffset = visitor.m_errorOffset;
        const qint64 at = qBound<qint64>(0, r.errorOffset, size - 1);
        r.message = QStringLiteral("byte 0x%1 at +%2 cannot start a msgpack value")
                        .arg(uchar(data[at]), 2, 16, QLatin1Char('0'))
                        .arg(at);
    }
    r.value = visitor.finish(r.message);
    return r;
}

QString ValueDecoder::statusName(Status s) {
    switch (s) {
        case Status::Ok:
            return QStringLiteral("ok");
        case Status::ExtraBytes:
            return QStringLiteral("extra-bytes");
        case Status::Truncated:
            return QStringLiteral("truncated");
        case Status::Malformed:
            return QStringLiteral("malformed");
        case Status::Limit:
            return QStringLiteral("limit");
    }
    return QString();
}

}  // namespace lmct
