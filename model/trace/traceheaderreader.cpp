#include "trace/traceheaderreader.h"

#include "codec/valuedecoder.h"
#include "codec/valueformatter.h"
#include "trace/tracescanner.h"

#include <QtEndian>
#include <cstring>
#include <functional>

namespace lmct {

namespace {

/** The longest header frame a followed trace's header is waited for (bytes). LMCache's header
 *  (`trace/format.py`) holds a few fields and the StorageManager config JSON: kilobytes. */
constexpr quint32 kMaxFollowedHeader = 16u << 20;

QString hexByte(uchar b) {
    return QStringLiteral("0x%1").arg(b, 2, 16, QLatin1Char('0'));
}

/**
 * Warnings (Kind::Header, offset 4) about header fields that are present with a type LMCache
 * never writes (a string trace_schema_version was shown as "(none)" without a word), about an
 * sm_config_json that is not the JSON object LMCache writes (json.dumps of the config), and
 * about each of its known fields with a value of another type or out of range.
 */
void checkHeaderFieldTypes(const TraceHeader &header,
                           const std::function<void(const QString &)> &warn) {
    static const struct {
        const char *name;
        Value::Type type;
        const char *expected;
    } kFields[] = {{"trace_schema_version", Value::Type::Int, "an integer"},
                   {"level", Value::Type::String, "a string"},
                   {"lmcache_version", Value::Type::String, "a string"},
                   {"sm_config_json", Value::Type::String, "a string"},
                   {"sm_config_digest", Value::Type::String, "a string"},
                   {"level_meta", Value::Type::Map, "a map"}};
    for (const auto &f : kFields) {
        const Value *v = header.field(QString::fromLatin1(f.name));
        if (v && v->type() != f.type) {
            QString found = v->typeName();  // as the record field checks say it
            if (v->isString()) {
                found += QStringLiteral(" \"%1\"").arg(ValueFormatter::display(*v, 60));
            }
            warn(QStringLiteral("header field %1: expected %2, found %3")
                     .arg(QLatin1String(f.name), QLatin1String(f.expected), found));
        }
    }
    // "" is a placeholder header's (no config); a cut one (over 1 MiB) cannot be parsed whole.
    const StorageManagerConfig &config = header.smConfig();
    if (config.state() == StorageManagerConfig::State::NotJson) {
        warn(QStringLiteral("header field sm_config_json is not valid JSON: %1 at byte offset %2 "
                            "of its %3 bytes; expected the StorageManager config as a JSON "
                            "object")
                 .arg(config.parseError())
                 .arg(config.parseOffset())
                 .arg(config.byteSize()));
    } else if (config.state() == StorageManagerConfig::State::NotObject) {
        warn(QStringLiteral("header field sm_config_json holds a JSON %1; expected the "
                            "StorageManager config as a JSON object")
                 .arg(config.jsonKind()));
    }
    for (const StorageManagerConfig::FieldProblem &p : config.fieldProblems()) {
        warn(QStringLiteral("header field sm_config_json: %1 (the field is left unknown)")
                 .arg(p.toString()));
    }
}

/** Offset of the end of the key `sm_config_json` inside the first `limit` bytes, or -1. */
qint64 findConfigKeyEnd(const uchar *data, qint64 limit) {
    static const char key[] = "\xaesm_config_json";
    const qint64 n = sizeof(key) - 1;
    for (qint64 p = 4; p + n <= limit; ++p) {
        if (std::memcmp(data + p, key, size_t(n)) == 0) {
            return p + n;
        }
    }
    return -1;
}

}  // namespace

bool TraceHeaderReader::read(TraceDocument *doc, QString *error, const TraceLoadOptions &options) {
    const QString name = doc->m_file.fileName();
    const uchar *data = doc->m_file.data();
    const qint64 size = doc->m_file.size();
    auto refuse = [&](const QString &msg) {
        *error = QStringLiteral("%1: %2").arg(name, msg);
        if (const qint64 shrunk = doc->m_file.checkShrunk(); shrunk >= 0) {
            *error += QStringLiteral(" (the file shrank to %1 bytes while being read)").arg(shrunk);
        }
        return false;
    };
    // A followed trace may not have its header yet (LMCache writes it with the first record or
    // at attach time): wait for a complete header frame, as long as what is there can begin
    // one (a text file, followed, waited for a 1.8 GB "header" forever).
    // (A byte 4 that cannot begin a map is refused below, as for a plain open.)
    if (options.follow && (size < 5 || FrameProbe::isMapMarker(data[4]))) {
        const quint32 claimed = size >= 4 ? qFromBigEndian<quint32>(data) : 0;
        if (claimed > kMaxFollowedHeader) {
            return refuse(QStringLiteral("offset 0: a length prefix of %1 bytes for the trace "
                                         "header (a header frame waited for is at most %2 bytes); "
                                         "this is not an LMCache trace")
                              .arg(claimed)
                              .arg(kMaxFollowedHeader));
        }
        if (size < 5 || 4 + qint64(claimed) > size) {
            return true;
        }
    }
    if (size == 0) {
        return refuse(
            QStringLiteral("offset 0: empty file (0 bytes): expected a trace header frame"));
    }
    if (size < 5) {
        return refuse(
            QStringLiteral("offset 0: only %1 bytes: too short for a header frame (a 4-byte "
                           "length prefix and a msgpack map)")
                .arg(size));
    }
    if (!FrameProbe::isMapMarker(data[4])) {
        return refuse(QStringLiteral("offset 4: expected a msgpack map (the trace header), found "
                                     "byte %1; this is not an LMCache trace")
                          .arg(hexByte(data[4])));
    }
    TraceScanner reader(*doc, options);
    const quint32 len0 = reader.lengthAt(0);
    const qint64 frameEnd = 4 + qint64(len0);
    Value headerMap;
    qint64 recordsStart = -1;
    qint64 trailingAt = -1;  // file offset of trailing bytes in the header frame
    bool recovered = false;
    ValueDecoder::Result r;
    if (frameEnd <= size) {
        r = ValueDecoder::decode(reinterpret_cast<const char *>(data + 4), len0);
        if (r.ok() && r.value.isMap()) {
            headerMap = std::move(r.value);
            recordsStart = frameEnd;
        }
    }
    qint64 prefixFixedAt = -1;  // where the header map really ends, when the prefix is off
    if (recordsStart < 0) {
        // A damaged length prefix over an intact header: one whole header map at offset 4 ends
        // where a record frame begins (a header-only file with a damaged prefix stays refused:
        // a map that runs to the end of a cut file proves nothing). A header rewritten in place
        // never does: its map runs into the records that overwrote its tail.
        const qint64 limit = qMin<qint64>(size, 4 + qint64(kMaxFollowedHeader)) - 4;
        const ValueDecoder::Result whole =
            ValueDecoder::decode(reinterpret_cast<const char *>(data + 4), limit);
        const qint64 end = 4 + whole.consumed;
        qint64 next;
        if ((whole.ok() || whole.status == ValueDecoder::Status::ExtraBytes) &&
            whole.value.isMap() && end != frameEnd && reader.recordFrameAt(end, &next)) {
            if (TraceHeader(Value(whole.value)).magic() == QLatin1String("LMCT")) {
                headerMap = whole.value;
                recordsStart = end;
                prefixFixedAt = end;
            }
        }
    }
    if (recordsStart < 0) {
        // The first frame does not decode on its own. LMCache's first recorder rewrote a longer
        // header over a placeholder, and its records start where the placeholder ended
        // (spec §7.4): after `sm_config_json`, "" (a0), `sm_config_digest`, "" (a0).
        const qint64 keyEnd = findConfigKeyEnd(data, qMin<qint64>(size, 4096));
        qint64 start = -1, next;
        if (keyEnd > 0 && reader.recordFrameAt(keyEnd + 19, &next)) {
            start = keyEnd + 19;
        } else {
            start = reader.findRecordFrame(5, qMin(frameEnd, size));
            // No record at the placeholder's end, but one later: the first record is damaged.
            // Read from the placeholder's end anyway, so that its loss is reported like any
            // other damage instead of being counted as header (unless the header map decoded
            // whole right up to that record and only its length prefix is off).
            const bool wholeHeader =
                r.status == ValueDecoder::Status::ExtraBytes && 4 + r.consumed == start;
            if (start > 0 && keyEnd > 0 && keyEnd + 19 < start && !wholeHeader) {
                start = keyEnd + 19;
            }
        }
        if (start > 4) {
            ValueDecoder::Result salvage =
                ValueDecoder::decode(reinterpret_cast<const char *>(data + 4), start - 4);
            if (salvage.value.isMap()) {
                // Keep only the complete fields; the partial tail is garbage from the records.
                Value fields = Value::map();
                const Value &m = salvage.value;
                for (int i = 0; i < m.size(); ++i) {
                    if (m.at(i).type() != Value::Type::Truncated &&
                        !(m.at(i).isString() && m.keyAt(i) == QLatin1String("sm_config_json") &&
                          frameEnd > start)) {
                        fields.insert(m.keyAt(i), m.at(i));
                    }
                }
                headerMap = std::move(fields);
                recordsStart = start;
                recovered = true;
            }
        }
        if (recordsStart < 0 && r.status == ValueDecoder::Status::ExtraBytes && r.value.isMap()) {
            // One whole map, then bytes that are no rewritten header's records: trailing bytes
            // in the header frame. Read the map, report the rest.
            headerMap = std::move(r.value);
            recordsStart = frameEnd;
            trailingAt = 4 + r.consumed;
        }
        if (recordsStart < 0) {
            if (frameEnd > size) {
                return refuse(QStringLiteral("offset 0: the header frame claims %1 bytes but the "
                                             "file has only %2 after the length prefix; the "
                                             "header is cut short and no record follows")
                                  .arg(len0)
                                  .arg(size - 4));
            }
            return refuse(QStringLiteral("offset 4: the first frame (%1 bytes) is not a msgpack "
                                         "map: %2")
                              .arg(len0)
                              .arg(r.message));
        }
    }
    // What the header map says.
    if (const Value *type = headerMap.find(u"type")) {
        if (type->isString() && type->toString() == QLatin1String("record")) {
            return refuse(
                QStringLiteral("offset 4: the first frame is a record (type \"record\"); "
                               "expected the header frame (type \"header\")"));
        }
        if (!type->isString() || type->toString() != QLatin1String("header")) {
            return refuse(QStringLiteral("offset 4: the first frame has type %1; expected "
                                         "\"header\"")
                              .arg(type->isString() ? QStringLiteral("\"%1\"").arg(type->toString())
                                                    : type->typeName()));
        }
    }
    TraceHeader header(std::move(headerMap));
    if (!header.hasMagic()) {
        if (header.fields().find(u"qualname") && header.fields().find(u"t_mono")) {
            return refuse(
                QStringLiteral("offset 4: the first frame is a record; expected the "
                               "header frame"));
        }
        return refuse(
            QStringLiteral("offset 4: the first frame has no magic field; expected a "
                           "trace header with magic \"LMCT\""));
    }
    if (header.magic() != QLatin1String("LMCT")) {
        return refuse(QStringLiteral("offset 4: header magic is \"%1\"; expected \"LMCT\"")
                          .arg(header.magic().left(40)));
    }
    const auto fv = header.formatVersion();
    if (!fv) {
        return refuse(QStringLiteral("offset 4: header has no integer format_version; expected 1"));
    }
    if (*fv != 1) {
        return refuse(QStringLiteral("offset 4: format_version is %1; this viewer reads "
                                     "format_version 1, the only one LMCache has written")
                          .arg(*fv));
    }
    if (recovered) {
        const bool lost =
            !header.fields().find(u"sm_config_json") || !header.fields().find(u"sm_config_digest");
        header.setConfigLost(lost);
        reader.diag(Diagnostic::Severity::Warning, Diagnostic::Kind::HeaderRewritten, 0,
                    QStringLiteral("the header frame claims %1 bytes but records start at offset "
                                   "%2: LMCache's first recorder rewrote its header in place over "
                                   "its own records. The header fields that decode were "
                                   "recovered%3; records are read from offset %2.")
                        .arg(len0)
                        .arg(recordsStart)
                        .arg(lost ? QStringLiteral(" (sm_config_json and sm_config_digest were "
                                                   "overwritten and are lost)")
                                  : QString()));
    }
    if (prefixFixedAt > 0) {
        reader.diag(Diagnostic::Severity::Error, Diagnostic::Kind::Malformed, 0,
                    QStringLiteral("offset 0: the header frame's length prefix is damaged: "
                                   "expected %1 bytes (the msgpack map at offset 4 ends at "
                                   "offset %2, where a record frame begins), found %3. The header "
                                   "was read from the map; "
                                   "records are read from offset %2.")
                        .arg(prefixFixedAt - 4)
                        .arg(prefixFixedAt)
                        .arg(len0));
    }
    if (trailingAt > 0) {
        reader.diag(Diagnostic::Severity::Error, Diagnostic::Kind::Malformed, trailingAt,
                    QStringLiteral("the header frame (offset 0, %1 bytes) holds one msgpack map "
                                   "of %2 bytes, then %3 trailing bytes at offset %4 (a frame "
                                   "body holds exactly one value; LMCache's reader rejects it). "
                                   "The header was read from the map; the trailing bytes are "
                                   "ignored.")
                        .arg(len0)
                        .arg(trailingAt - 4)
                        .arg(frameEnd - trailingAt)
                        .arg(trailingAt));
    }
    const auto schema = header.traceSchemaVersion();
    if (schema && !TraceHeader::isKnownSchema(*schema)) {
        reader.diag(Diagnostic::Severity::Warning, Diagnostic::Kind::UnknownSchema, 4,
                    QStringLiteral("trace_schema_version is %1; this viewer knows 1 and 2. "
                                   "Records are shown as decoded; unknown codec tags are shown "
                                   "generically.")
                        .arg(*schema));
    }
    checkHeaderFieldTypes(header, [&reader](const QString &message) {
        reader.diag(Diagnostic::Severity::Warning, Diagnostic::Kind::Header, 4, message);
    });
    const QString level = header.level();
    const Value *levelField = header.field(u"level");
    // (a level that is not a string was warned about above)
    if (!TraceHeader::isKnownLevel(level) && (!levelField || levelField->isString())) {
        reader.diag(Diagnostic::Severity::Warning, Diagnostic::Kind::UnknownLevel, 4,
                    level.isEmpty()
                        ? QStringLiteral("header has no level; expected \"storage\" or \"events\"")
                        : QStringLiteral("level is \"%1\"; this viewer knows \"storage\" and "
                                         "\"events\"")
                              .arg(level.left(60)));
    }
    for (const char *f : {"t_mono_start", "t_wall_start"}) {
        const Value *v = header.field(QString::fromLatin1(f));
        if (!v || !v->isNumber()) {
            reader.diag(Diagnostic::Severity::Warning, Diagnostic::Kind::Header, 4,
                        QStringLiteral("header field %1 is %2; expected a number (seconds)")
                            .arg(QLatin1String(f), v ? v->typeName() : QStringLiteral("missing")));
        }
    }
    if (header.digestStatus() == TraceHeader::DigestStatus::Mismatch) {
        reader.diag(Diagnostic::Severity::Warning, Diagnostic::Kind::Digest, 4,
                    QStringLiteral("sm_config_digest %1 does not match the SHA-256 of "
                                   "sm_config_json (%2)")
                        .arg(header.smConfigDigest().left(64), header.computedDigest()));
    }
    doc->m_header = std::move(header);
    doc->m_recordsStart = recordsStart;
    doc->m_headerDigest = qHashBits(doc->m_file.data(), size_t(recordsStart), 0);
    doc->m_scan.headerRead = true;
    doc->m_scan.pendingFlags = recovered ? RecordStore::AfterResync : 0;
    doc->m_scanOffset.store(recordsStart, std::memory_order_release);
    return true;
}

}  // namespace lmct
