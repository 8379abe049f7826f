#include "trace/packedargsdecoder.h"

namespace lmct {

namespace {

bool referenceEverything(msgpack::type::object_type, std::size_t, void *) {
    return true;
}

}  // namespace

PackedArgsDecoder::PackedArgsDecoder(const TraceDocument &doc) : m_doc(doc), m_zone(64 * 1024) {}

PackedValue PackedArgsDecoder::decode(int record) {
    const RecordStore &rs = m_doc.records();
    if (record < 0 || record >= rs.size()) {
        m_error = QStringLiteral("no record %1").arg(record);
        return PackedValue();
    }
    const auto *body =
        reinterpret_cast<const char *>(m_doc.fileData() + rs.frameOffset(record) + 4);
    const std::size_t size = rs.bodyLength(record);
    // Every element takes at least one byte: a claim beyond the body cannot be backed by data.
    const msgpack::unpack_limit limit(size, size / 2 + 1, size, size, size, 128);
    m_zone.clear();
    try {
        std::size_t off = 0;
        bool referenced = false;
        m_root = msgpack::unpack(m_zone, body, size, off, referenced, referenceEverything, nullptr,
                                 limit);
    } catch (const std::exception &e) {
        m_error = QStringLiteral("record %1: %2").arg(record).arg(QString::fromUtf8(e.what()));
        return PackedValue();
    }
    const PackedValue args = PackedValue(&m_root).find("args");
    if (!args.isMap()) {
        m_error = QStringLiteral("record %1: no args map").arg(record);
        return PackedValue();
    }
    m_error.clear();
    return args;
}

}  // namespace lmct
