#include "export/recordjson.h"

#include "codec/valueformatter.h"

namespace lmct {

QJsonObject RecordJson::toJson(const TraceDocument &doc, int record) {
    QJsonObject o;
    const RecordStore &rs = doc.records();
    if (record < 0 || record >= rs.size()) {
        return o;
    }
    o.insert(QStringLiteral("index"), record);
    o.insert(QStringLiteral("t_mono"), rs.tMono(record));
    o.insert(QStringLiteral("t_wall"), rs.tWall(record));
    o.insert(QStringLiteral("qualname"), rs.qualname(record));
    const auto args = doc.args(record);
    o.insert(QStringLiteral("args"), args ? ValueFormatter::toJson(args->value) : QJsonValue());
    if (args && !args->error.isEmpty()) {
        o.insert(QStringLiteral("args_error"), args->error);
    }
    o.insert(QStringLiteral("frame_offset"), rs.frameOffset(record));
    // The frame's bytes as hex, up to Value::kMaxKeptBytes of them (a 2.2 GB frame made 4.4 GB
    // of hex); a larger frame's size is given instead.
    if (qint64(rs.bodyLength(record)) + 4 <= Value::kMaxKeptBytes) {
        o.insert(QStringLiteral("bytes"), QString::fromLatin1(doc.frameBytes(record).toHex()));
    } else {
        o.insert(QStringLiteral("bytes_omitted"), qint64(rs.bodyLength(record)) + 4);
    }
    return o;
}

}  // namespace lmct
