#include "trace/recordindexer.h"

#include "codec/valuedecoder.h"
#include "trace/recordprefix.h"

#include <msgpack.hpp>

#include <cstring>
#include <limits>
#include <memory>

namespace lmct {

namespace {

enum Field : quint8 { kNone, kType, kTMono, kTWall, kQualname, kArgs, kOther };

constexpr quint8 kHaveTMono = 1, kHaveTWall = 2, kHaveQualname = 4, kHaveArgs = 8;

/** Walks a record body, capturing top-level fields only. */
class IndexVisitor : public msgpack::null_visitor {
public:
    IndexVisitor(qint64 size, bool stopEarly)
        : m_size(size),
          m_stopEarly(stopEarly),
          // (Index mode walks the arguments only when the keys come in another order: it
          // reads no more of them than it needs and leaves the count to Full)
          m_maxValues(stopEarly ? std::numeric_limits<qint64>::max() : RecordIndexer::kMaxValues) {}

    void init() {}  // (called by the parser's init(); reset() by assignment instead)

    bool visit_nil() { return counted() && scalar("nil"); }
    bool visit_boolean(bool) { return counted() && scalar("bool"); }
    bool visit_positive_integer(uint64_t v) { return counted() && number(double(v), "int"); }
    bool visit_negative_integer(int64_t v) { return counted() && number(double(v), "int"); }
    bool visit_float32(float v) { return counted() && number(double(v), "float"); }
    bool visit_float64(double v) { return counted() && number(v, "float"); }
    bool visit_bin(const char *, uint32_t) { return counted() && scalar("bytes"); }
    bool visit_ext(const char *, uint32_t) { return counted() && scalar("ext"); }
    bool visit_str(const char *v, uint32_t size) {
        if (!counted()) {
            return false;
        }
        if (m_depth == 1) {
            if (m_atKey) {
                m_field = fieldOf(v, size);
                return true;
            }
            if (m_field == kQualname) {
                f.qualname = v;
                f.qualnameSize = size;
                m_have |= kHaveQualname;
                return true;
            }
            if (m_field == kType) {
                m_typeIsRecord = size == 6 && std::memcmp(v, "record", 6) == 0;
                m_typeText = v;
                m_typeSize = qMin<quint32>(size, 40);
                m_typeSeen = true;
                return true;
            }
        }
        return scalar("str");
    }
    bool start_array(uint32_t n) { return open(n, 1, "an array"); }
    bool end_array() { return close(); }
    bool start_map(uint32_t n) {
        const bool args = m_depth == 1 && !m_atKey && m_field == kArgs;
        if (args) {
            m_have |= kHaveArgs;
        }
        if (!open(n, 2, "a map")) {
            return false;
        }
        if (args && m_stopEarly &&
            m_have == (kHaveTMono | kHaveTWall | kHaveQualname | kHaveArgs)) {
            m_stoppedEarly = true;  // everything the index needs is known
            return false;
        }
        return true;
    }
    bool end_map() { return close(); }
    bool start_map_key() {
        if (m_depth == 1) {
            m_atKey = true;
        }
        return true;
    }
    bool start_map_value() {
        if (m_depth == 1) {
            m_atKey = false;
        }
        return true;
    }
    void parse_error(size_t, size_t errorOffset) {
        m_error = RecordIndexer::Status::Malformed;
        m_errorOffset = qint64(errorOffset);
    }
    void insufficient_bytes(size_t, size_t) { m_error = RecordIndexer::Status::Malformed; }

    RecordIndexer::Fields f;
    RecordIndexer::Status m_error = RecordIndexer::Status::Ok;
    qint64 m_errorOffset = -1;
    bool m_limit = false;
    bool m_rootIsMap = false;
    bool m_rootSeen = false;
    quint8 m_have = 0;
    bool m_typeSeen = false;
    bool m_typeIsRecord = false;
    const char *m_typeText = nullptr;  // points into the body; made a QString only on error
    quint32 m_typeSize = 0;
    bool m_stoppedEarly = false;
    const char *m_wrongType = nullptr;  // type found for a required field, when wrong
    Field m_wrongField = kNone;

private:
    static Field fieldOf(const char *v, uint32_t size) {
        switch (size) {
            case 4:
                if (std::memcmp(v, "type", 4) == 0)
                    return kType;
                if (std::memcmp(v, "args", 4) == 0)
                    return kArgs;
                return kOther;
            case 6:
                if (std::memcmp(v, "t_mono", 6) == 0)
                    return kTMono;
                if (std::memcmp(v, "t_wall", 6) == 0)
                    return kTWall;
                return kOther;
            case 8:
                return std::memcmp(v, "qualname", 8) == 0 ? kQualname : kOther;
            default:
                return kOther;
        }
    }

    bool number(double d, const char *type) {
        if (m_depth == 1 && !m_atKey) {
            if (m_field == kTMono) {
                f.tMono = d;
                m_have |= kHaveTMono;
                return true;
            }
            if (m_field == kTWall) {
                f.tWall = d;
                m_have |= kHaveTWall;
                return true;
            }
        }
        return scalar(type);
    }

    bool scalar(const char *type) {
        if (m_depth == 0) {
            m_rootSeen = true;
            m_wrongType = type;
        } else if (m_depth == 1 && m_atKey) {
            m_field = kOther;  // non-string key
        } else if (m_depth == 1) {
            noteWrongType(type);
        }
        return true;
    }

    void noteWrongType(const char *type) {
        if ((m_field == kTMono || m_field == kTWall || m_field == kQualname || m_field == kArgs ||
             m_field == kType) &&
            m_wrongField == kNone) {
            m_wrongField = m_field;
            m_wrongType = type;
        }
    }

    /**
     * Counts one value as ValueDecoder does (every scalar, map key and container): a record of
     * more values than it decodes is flagged here, not only shown cut when displayed.
     */
    bool counted() {
        if (++m_values > m_maxValues) {
            m_limit = true;
            f.message = QStringLiteral(
                            "more than %1 values, the decoding limit: only the first %1 are "
                            "decoded")
                            .arg(RecordIndexer::kMaxValues);
            return false;
        }
        return true;
    }

    bool open(uint32_t n, int bytesPerItem, const char *what) {
        if (!counted()) {
            return false;
        }
        if (m_depth == 0) {
            m_rootSeen = true;
            m_rootIsMap = bytesPerItem == 2;
            if (!m_rootIsMap) {
                m_wrongType = "list";
            }
        } else if (m_depth == 1 && m_atKey) {
            m_field = kOther;
        } else if (m_depth == 1 && !(m_field == kArgs && bytesPerItem == 2)) {
            noteWrongType(bytesPerItem == 2 ? "map" : "list");
        }
        if (++m_depth > RecordIndexer::kMaxDepth) {
            m_limit = true;
            f.message =
                QStringLiteral("nesting deeper than %1 levels").arg(RecordIndexer::kMaxDepth);
            return false;
        }
        if (qint64(n) * bytesPerItem > m_size) {
            m_limit = true;
            f.message = QStringLiteral("%1 header claims %2 %3 but the frame body has %4 bytes")
                            .arg(QLatin1String(what))
                            .arg(n)
                            .arg(bytesPerItem == 2 ? "entries" : "elements")
                            .arg(m_size);
            return false;
        }
        return true;
    }

    bool close() {
        --m_depth;
        return true;
    }

    qint64 m_size;
    bool m_stopEarly;
    qint64 m_maxValues;
    int m_depth = 0;
    qint64 m_values = 0;
    bool m_atKey = false;
    Field m_field = kNone;
};

/**
 * msgpack-cxx's parser for one thread, kept from record to record with its visitor:
 * msgpack::parse() builds a new parser per call, whose parse stack allocates in its constructor
 * (a malloc and a free per record: 6% of `lmct info`'s CPU on 10 M small records).
 */
struct ReusedParser {
    IndexVisitor visitor{0, false};
    msgpack::detail::parse_helper<IndexVisitor> helper{visitor};

    /** msgpack::parse(data, size, *off, visitor) with this parser: same results. */
    bool parse(const char *data, std::size_t size, std::size_t *off) {
        helper.init();  // empties the parse stack, keeps its memory
        std::size_t noff = *off;
        const msgpack::parse_return ret = helper.execute(data, size, noff);
        switch (ret) {
            case msgpack::PARSE_CONTINUE:
                *off = noff;
                visitor.insufficient_bytes(noff - 1, noff);
                return false;
            case msgpack::PARSE_SUCCESS:
            case msgpack::PARSE_EXTRA_BYTES:
                *off = noff;
                return true;
            default:
                return false;
        }
    }
};

QString fieldName(Field f) {
    switch (f) {
        case kTMono:
            return QStringLiteral("t_mono");
        case kTWall:
            return QStringLiteral("t_wall");
        case kQualname:
            return QStringLiteral("qualname");
        case kArgs:
            return QStringLiteral("args");
        case kType:
            return QStringLiteral("type");
        default:
            return QString();
    }
}

QString trailingMessage(qint64 end, qint64 size) {
    return QStringLiteral(
               "one msgpack value of %1 bytes, then %2 unexpected bytes (trailing bytes at body "
               "offset %1: a record body holds exactly one value)")
        .arg(end)
        .arg(size - end);
}

static_assert(RecordIndexer::kMaxValues == ValueDecoder::Limits{}.maxNodes &&
                  RecordIndexer::kMaxDepth == ValueDecoder::Limits{}.maxDepth,
              "the argument check flags what the display decode cuts");

}  // namespace

RecordIndexer::Fields RecordIndexer::parse(const char *data, qint64 size, Mode mode) {
    if (mode == Mode::Index) {
        Fields f;
        if (RecordPrefix::read(data, size, &f)) {
            return f;
        }
    }
    return parseMsgpack(data, size, mode);
}

RecordIndexer::Fields RecordIndexer::parseMsgpack(const char *data, qint64 size, Mode mode) {
    // Reached through a pointer: a thread_local parser itself made GCC address it from the
    // thread pointer inside msgpack-cxx's parse loop (a specialised copy of execute() with the
    // parser's address folded in), 15-20% of the parse's time (`tests/bench/bench_parse`).
    thread_local const std::unique_ptr<ReusedParser> owned = std::make_unique<ReusedParser>();
    ReusedParser &parser = *owned;
    IndexVisitor &v = parser.visitor;
    v = IndexVisitor(size, mode == Mode::Index);
    Fields &f = v.f;
    if (size <= 0) {
        f.status = Status::Malformed;
        f.message = QStringLiteral("empty frame body");
        return f;
    }
    std::size_t off = 0;
    bool ok = false;
    try {
        ok = parser.parse(data, std::size_t(size), &off);
    } catch (const std::exception &e) {
        v.m_limit = true;
        f.message = QString::fromUtf8(e.what());
    }
    if (v.m_limit) {
        f.status = Status::Limit;
        return f;
    }
    if (v.m_stoppedEarly) {
        if (v.m_wrongField != kNone || (v.m_typeSeen && !v.m_typeIsRecord)) {
            ok = true;  // fall through to the field checks below
            off = std::size_t(size);
        } else {
            f.status = Status::Ok;
            return f;
        }
    }
    if (!ok) {
        f.status = Status::Malformed;
        if (v.m_errorOffset >= 0 && v.m_errorOffset < size) {
            f.message =
                QStringLiteral("not msgpack: byte 0x%1 at body offset %2 cannot start a value")
                    .arg(uchar(data[v.m_errorOffset]), 2, 16, QLatin1Char('0'))
                    .arg(v.m_errorOffset);
        } else {
            f.message =
                QStringLiteral("not one complete msgpack value: the %1-byte body ends inside it")
                    .arg(size);
        }
        return f;
    }
    if (qint64(off) != size) {
        f.status = Status::Malformed;
        f.message = trailingMessage(qint64(off), size);
        f.trailingAt = qint64(off);
        return f;
    }
    f.status = Status::BadFields;
    if (!v.m_rootIsMap) {
        f.message = QStringLiteral("expected a map, found %1")
                        .arg(QLatin1String(v.m_wrongType ? v.m_wrongType : "?"));
        return f;
    }
    if (v.m_wrongField != kNone) {
        const char *expected = v.m_wrongField == kQualname || v.m_wrongField == kType
                                   ? "a string"
                                   : (v.m_wrongField == kArgs ? "a map" : "a number");
        f.message = QStringLiteral("field %1: expected %2, found %3")
                        .arg(fieldName(v.m_wrongField), QLatin1String(expected),
                             QLatin1String(v.m_wrongType));
        return f;
    }
    if (v.m_typeSeen && !v.m_typeIsRecord) {
        f.message = QStringLiteral("tag \"type\" is \"%1\", expected \"record\"")
                        .arg(QString::fromUtf8(v.m_typeText, v.m_typeSize));
        return f;
    }
    static const struct {
        quint8 bit;
        const char *name;
    } required[] = {{kHaveTMono, "t_mono"},
                    {kHaveTWall, "t_wall"},
                    {kHaveQualname, "qualname"},
                    {kHaveArgs, "args"}};
    for (const auto &r : required) {
        if (!(v.m_have & r.bit)) {
            f.message = QStringLiteral("required field %1 is missing").arg(QLatin1String(r.name));
            return f;
        }
    }
    f.status = Status::Ok;
    return f;
}

}  // namespace lmct
