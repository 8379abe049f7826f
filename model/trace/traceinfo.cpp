#include "trace/traceinfo.h"

#include "codec/qualname.h"
#include "codec/valueformatter.h"
#include "util/plural.h"
#include "util/terminaltext.h"
#include "util/timeformat.h"

#include <QJsonArray>
#include <QStringList>
#include <algorithm>

namespace lmct {

QJsonObject TraceInfo::headerJson(const TraceHeader &h) {
    QJsonObject header;
    const Value &f = h.fields();
    for (int i = 0; i < f.size(); ++i) {
        const Value &v = f.at(i);
        if (f.keyAt(i) == QLatin1String("magic") && v.isBytes()) {
            header.insert(f.keyAt(i), QString::fromLatin1(v.toBytes()));
        } else {
            header.insert(f.keyAt(i), ValueFormatter::toJson(v));
        }
    }
    return header;
}

QJsonValue TraceInfo::configJson(const StorageManagerConfig &c) {
    using State = StorageManagerConfig::State;
    if (c.state() == State::None || c.state() == State::Lost) {
        return QJsonValue(QJsonValue::Null);
    }
    const QJsonValue null(QJsonValue::Null);
    auto integer = [&null](const std::optional<qint64> &v) { return v ? QJsonValue(*v) : null; };
    auto real = [&null](const std::optional<double> &v) { return v ? QJsonValue(*v) : null; };
    auto str = [&null](const std::optional<QString> &v) { return v ? QJsonValue(*v) : null; };
    QJsonValue adapters = null;
    if (c.l2Adapters()) {
        QJsonArray a;
        for (const StorageManagerConfig::L2Adapter &l2 : *c.l2Adapters()) {
            a.append(l2.fields);
        }
        adapters = a;
    }
    QJsonArray problems;
    for (const StorageManagerConfig::FieldProblem &p : c.fieldProblems()) {
        problems.append(QJsonObject{{QStringLiteral("path"), p.path},
                                    {QStringLiteral("expected"), p.expected},
                                    {QStringLiteral("found"), p.found}});
    }
    return QJsonObject{
        {QStringLiteral("l1_bytes"), integer(c.l1Bytes())},
        {QStringLiteral("l1_init_bytes"), integer(c.l1InitBytes())},
        {QStringLiteral("l1_use_lazy"), c.l1UseLazy() ? QJsonValue(*c.l1UseLazy()) : null},
        {QStringLiteral("eviction_policy"), str(c.evictionPolicy())},
        {QStringLiteral("eviction_ratio"), real(c.evictionRatio())},
        {QStringLiteral("trigger_watermark"), real(c.triggerWatermark())},
        {QStringLiteral("read_ttl_s"), integer(c.readTtlSeconds())},
        {QStringLiteral("write_ttl_s"), integer(c.writeTtlSeconds())},
        {QStringLiteral("l2_adapters"), adapters},
        {QStringLiteral("prefetch_max_in_flight"), integer(c.prefetchMaxInFlight())},
        {QStringLiteral("prefetch_policy"), str(c.prefetchPolicy())},
        {QStringLiteral("store_policy"), str(c.storePolicy())},
        {QStringLiteral("notifier_interval_ms"), real(c.notifierIntervalMs())},
        {QStringLiteral("error"), c.isValid() ? null : QJsonValue(c.summary())},
        {QStringLiteral("problems"), problems},
    };
}

QJsonObject TraceInfo::toJson(const QString &file, const TraceDocument &doc, bool details) {
    const QJsonObject header = headerJson(doc.header());
    QJsonObject qualnames;
    const RecordStore &rs = doc.records();
    const std::vector<qint64> counts = rs.qualnameCounts();
    for (int id = 0; id < int(counts.size()); ++id) {
        qualnames.insert(rs.qualnameById(quint32(id)), double(counts[size_t(id)]));
    }
    QJsonArray diags;
    for (const Diagnostic &d : doc.diagnostics()) {
        diags.append(QJsonObject{{QStringLiteral("severity"), Diagnostic::severityName(d.severity)},
                                 {QStringLiteral("offset"), double(d.offset)},
                                 {QStringLiteral("kind"), Diagnostic::kindName(d.kind)},
                                 {QStringLiteral("message"), d.message}});
    }
    QJsonObject out{
        {QStringLiteral("file"), file},
        {QStringLiteral("ok"), true},
        {QStringLiteral("error"), QJsonValue(QJsonValue::Null)},
        {QStringLiteral("header"), header},
        {QStringLiteral("records"), rs.size()},
        {QStringLiteral("duration_s"), doc.duration()},
        {QStringLiteral("qualnames"), qualnames},
        {QStringLiteral("diagnostics"), diags},
        {QStringLiteral("config"), configJson(doc.header().smConfig())},
    };
    if (details) {
        out.insert(QStringLiteral("digest"),
                   TraceHeader::digestStatusName(doc.header().digestStatus()));
        out.insert(QStringLiteral("partial"), doc.isPartial());
        out.insert(QStringLiteral("args_checked"), doc.argsChecked());
        out.insert(
            QStringLiteral("damage"),
            QJsonObject{{QStringLiteral("skipped_bytes"), double(doc.skippedBytes())},
                        {QStringLiteral("skipped_frames"), double(doc.skippedFrames())},
                        {QStringLiteral("recovered_frames"), double(doc.recoveredFrames())}});
    }
    return out;
}

QJsonObject TraceInfo::refusedJson(const QString &file, const QString &error) {
    return QJsonObject{
        {QStringLiteral("file"), file},
        {QStringLiteral("ok"), false},
        {QStringLiteral("error"), error},
        {QStringLiteral("header"), QJsonObject()},
        {QStringLiteral("records"), QJsonValue(QJsonValue::Null)},  // unknown: nothing was read
        {QStringLiteral("duration_s"), QJsonValue(QJsonValue::Null)},
        {QStringLiteral("qualnames"), QJsonObject()},
        {QStringLiteral("diagnostics"), QJsonArray()},
        {QStringLiteral("config"), QJsonValue(QJsonValue::Null)},
    };
}

QString TraceInfo::toText(const QString &file, const TraceDocument &doc) {
    const TraceHeader &h = doc.header();
    QStringList out;
    auto line = [&](const QString &k, const QString &v) {
        out.append(QStringLiteral("  %1 %2").arg(k + QLatin1Char(':'), -22).arg(v));
    };
    out.append(file);
    line(QStringLiteral("level"), h.level().isEmpty() ? QStringLiteral("(none)") : h.level());
    line(QStringLiteral("format_version"),
         h.formatVersion() ? QString::number(*h.formatVersion()) : QStringLiteral("(none)"));
    line(QStringLiteral("trace_schema_version"), h.traceSchemaVersion()
                                                     ? QString::number(*h.traceSchemaVersion())
                                                     : QStringLiteral("(none)"));
    if (!h.lmcacheVersion().isEmpty()) {
        line(QStringLiteral("lmcache_version"), h.lmcacheVersion());
    }
    if (h.tWallStart()) {
        // a number that is no date (1.7e308, nan) is printed as it is, not left blank
        const QString date = TimeFormat::wall(*h.tWallStart());
        line(QStringLiteral("t_wall_start"),
             !date.isEmpty()
                 ? date
                 : TimeFormat::fixed(*h.tWallStart(), 6) + QStringLiteral(" (not a valid date)"));
    }
    line(QStringLiteral("duration"),
         QStringLiteral("%1 s").arg(TimeFormat::fixed(doc.duration(), 6)));
    const QString digest = h.smConfigDigest();
    line(QStringLiteral("sm_config_digest"),
         (digest.isEmpty() ? QStringLiteral("(none)") : digest) +
             QStringLiteral(" [%1]").arg(TraceHeader::digestStatusName(h.digestStatus())));
    const QStringList config = h.smConfig().summaryParts();
    line(QStringLiteral("config"), config.first());
    for (qsizetype i = 1; i < config.size(); ++i) {
        out.append(QString(25, QLatin1Char(' ')) + config.at(i));
    }
    line(QStringLiteral("file size"),
         doc.shrunkTo() >= 0 ? QStringLiteral("%1 bytes (shrank to %2 bytes while it was read)")
                                   .arg(doc.fileSize())
                                   .arg(doc.shrunkTo())
                             : QStringLiteral("%1 bytes").arg(doc.fileSize()));
    line(QStringLiteral("total records"), QString::number(doc.records().size()));
    const RecordStore &rs = doc.records();
    QStringList names = rs.qualnames();
    const std::vector<qint64> counts = rs.qualnameCounts();
    std::sort(names.begin(), names.end(), Qualname::flowLess);
    for (const QString &q : names) {
        out.append(QStringLiteral("    %1 %2")
                       .arg(counts[size_t(rs.qualnameIdOf(q))], 10)
                       .arg(Qualname::capped(q)));  // (a 50 MB qualname printed 52 MB)
    }
    line(QStringLiteral("arguments"),
         doc.argsChecked() ? QStringLiteral("every record's arguments decoded and checked")
                           : QStringLiteral("not checked (lmct info --check decodes them all)"));
    if (doc.skippedBytes() || doc.skippedFrames() || doc.recoveredFrames()) {
        line(QStringLiteral("damage"),
             QStringLiteral("%1 skipped, %2 skipped, %3 recovered")
                 .arg(Plural::counted(doc.skippedBytes(), "byte", "bytes"),
                      Plural::counted(doc.skippedFrames(), "frame", "frames"))
                 .arg(doc.recoveredFrames()));
    }
    if (!doc.diagnostics().isEmpty()) {
        out.append(QStringLiteral("  diagnostics (%1):").arg(doc.diagnosticCount()));
        for (const Diagnostic &d : doc.diagnostics()) {
            // (a summary such as the damage counts has no offset)
            out.append(QStringLiteral("    %1%2 [%3] %4")
                           .arg(Diagnostic::severityName(d.severity))
                           .arg(d.offset >= 0 ? QStringLiteral(" @%1").arg(d.offset) : QString())
                           .arg(Diagnostic::kindName(d.kind), d.message));
        }
    }
    // Qualnames, file names and messages hold whatever the trace or the file system gave.
    for (QString &l : out) {
        l = TerminalText::escaped(l);
    }
    return out.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

}  // namespace lmct
