#pragma once
// Comparing a loaded trace with what a manifest or .truth.json says a correct reader reports.

#include "trace/recordstore.h"
#include "trace/tracedocument.h"
#include "trace/traceinfo.h"

#include <QJsonObject>
#include <QString>

namespace lmct::test {

/** The header as `lmct info --json` shows it, without the struct tag. */
inline QJsonObject headerJson(const TraceDocument &doc) {
    QJsonObject h = TraceInfo::toJson(doc.filePath(), doc)[QStringLiteral("header")].toObject();
    h.remove(QStringLiteral("type"));
    return h;
}

/** Full qualname → record count, as the truth files write it. */
inline QJsonObject qualnameCounts(const TraceDocument &doc) {
    QJsonObject o;
    const RecordStore &rs = doc.records();
    for (int id = 0; id < rs.qualnameCount(); ++id) {
        o.insert(rs.qualnames()[id], double(rs.qualnameCounts()[size_t(id)]));
    }
    return o;
}

/** The same keys with numerically equal values (JSON integers and doubles alike). */
inline bool sameJsonNumbers(const QJsonObject &a, const QJsonObject &b) {
    if (a.keys() != b.keys()) {
        return false;
    }
    for (auto it = a.begin(); it != a.end(); ++it) {
        if (it.value().toDouble() != b.value(it.key()).toDouble()) {
            return false;
        }
    }
    return true;
}

}  // namespace lmct::test
