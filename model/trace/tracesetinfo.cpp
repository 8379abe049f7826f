#include "trace/tracesetinfo.h"
#include "util/plural.h"

#include "util/timeformat.h"

#include <QJsonArray>
#include <QTextStream>
#include <cmath>

namespace lmct {

namespace {

QJsonValue num(double v) {
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

QString wallText(double w) {
    if (!std::isfinite(w)) {
        return QStringLiteral("-");
    }
    const QString date = TimeFormat::wall(w, true);
    return date.isEmpty() ? TimeFormat::fixed(w, 6)
                          : QStringLiteral("%1 (%2)").arg(TimeFormat::fixed(w, 6), date);
}

}  // namespace

QJsonObject TraceSetInfo::toJson(const TraceSet &set, const MergedOrder &order) {
    QJsonArray members;
    for (int t = 0; t < set.size(); ++t) {
        const TraceDocument &d = set.document(t);
        const bool merged = order.traceCount() > t;
        members.append(QJsonObject{
            {QStringLiteral("trace"), t},
            {QStringLiteral("label"), set.label(t)},
            {QStringLiteral("file"), set.trace(t).path},
            {QStringLiteral("instance_id"), set.instanceId(t).isEmpty()
                                                ? QJsonValue(QJsonValue::Null)
                                                : QJsonValue(set.instanceId(t))},
            {QStringLiteral("records"), d.records().size()},
            {QStringLiteral("t_wall_start"), num(set.startWall(t))},
            {QStringLiteral("offset_s"), set.offset(t)},
            {QStringLiteral("aligned_t_wall_start"), num(set.alignedStart(t))},
            {QStringLiteral("aligned_t_wall_end"), num(set.alignedEnd(t))},
            {QStringLiteral("diagnostics"), d.diagnosticCount()},
            {QStringLiteral("warnings"), d.warningCount()},
            {QStringLiteral("errors"), d.errorCount()},
            {QStringLiteral("stepped_back"), merged ? order.steppedBack(t) : 0},
            {QStringLiteral("untimed"), merged ? order.untimed(t) : 0},
        });
    }
    const double start = set.combinedStart(), end = set.combinedEnd();
    return QJsonObject{
        {QStringLiteral("combined"), true},
        {QStringLiteral("traces"), set.size()},
        {QStringLiteral("records"), set.recordCount()},
        {QStringLiteral("t_wall_start"), num(start)},
        {QStringLiteral("t_wall_end"), num(end)},
        {QStringLiteral("span_s"), num(end - start)},
        {QStringLiteral("members"), members},
    };
}

QString TraceSetInfo::toText(const TraceSet &set, const MergedOrder &order) {
    QString text;
    QTextStream ts(&text);
    ts << "combined:  " << set.size() << " traces, " << set.recordCount() << " records\n";
    const double start = set.combinedStart(), end = set.combinedEnd();
    ts << "span:      " << wallText(start) << " to " << wallText(end);
    if (std::isfinite(end - start)) {
        ts << ", " << TimeFormat::duration(end - start);
    }
    ts << " (aligned t_wall)\n\n";
    for (int t = 0; t < set.size(); ++t) {
        const TraceDocument &d = set.document(t);
        ts << "trace " << t << ":   " << set.displayLabel(t) << "\n";
        if (set.trace(t).path != set.label(t)) {
            ts << "  file:        " << set.trace(t).path << "\n";
        }
        ts << "  records:     " << d.records().size() << "\n";
        ts << "  start:       " << wallText(set.startWall(t)) << "\n";
        ts << "  offset:      " << TimeFormat::fixed(set.offset(t), 6) << " s\n";
        ts << "  diagnostics: " << d.diagnosticCount() << " (errors " << d.errorCount()
           << ", warnings " << d.warningCount() << ")\n";
        if (order.traceCount() > t && (order.steppedBack(t) > 0 || order.untimed(t) > 0)) {
            ts << "  t_wall:      "
               << Plural::counted(order.steppedBack(t), "record steps back", "records step back")
               << ", " << order.untimed(t) << " without a t_wall (ordered at the latest before)\n";
        }
    }
    ts.flush();
    return text;
}

}  // namespace lmct
