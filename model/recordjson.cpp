#include "recordjson.h"

#include "valueformatter.h"

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
    o.insert(QStringLiteral("bytes"), QString::fromLatin1(doc.frameBytes(record).toHex()));
    return o;
}

}  // namespace lmct
