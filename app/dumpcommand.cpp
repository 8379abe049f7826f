#include "dumpcommand.h"
#include "util/terminaltext.h"

#include "codec/qualname.h"
#include "codec/valuedecoder.h"
#include "codec/valueformatter.h"
#include "commandsupport.h"
#include "export/csvwriter.h"
#include "export/recordexport.h"
#include "export/recordlineformatter.h"
#include "trace/mergedorder.h"
#include "trace/traceset.h"
#include "util/timeformat.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <cerrno>
#include <cmath>

using namespace lmct;

namespace {

enum class Format { Text, Jsonl, Csv };

/** The text line of a record (--jsonl and --csv lines come from RecordLineFormatter). */
QByteArray textLine(const TraceDocument &doc, int r) {
    const RecordStore &rs = doc.records();
    const TraceDocument::Args args = doc.decodeArgs(r);
    // A trace's strings may hold terminal controls: escaped (CSV and JSON Lines quote them).
    return QStringLiteral("%1  %2  %3  %4\n")
        .arg(r, 8)
        .arg(TimeFormat::mono(rs.tMono(r)), 14)
        .arg(TerminalText::escaped(Qualname::shortName(rs.qualname(r))), -34)
        .arg(TerminalText::escaped(RecordExport::summary(rs.qualname(r), args, 200)))
        .toUtf8();
}

/** A JSON string literal of `text` (quotes included). */
QByteArray jsonString(const QString &text) {
    QByteArray a = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact);
    return a.mid(1, a.size() - 2);
}

/** Row `row` of a combined dump: the trace first, then the record as a single dump writes it. */
QByteArray formatCombined(const TraceSet &set, const MergedOrder &order, qint64 row, Format format,
                          const std::vector<QByteArray> &labels, int labelWidth) {
    const int t = order.traceAt(row), r = order.recordAt(row);
    const TraceDocument &doc = set.document(t);
    const double aligned = doc.records().tWall(r) + set.offset(t);
    if (format == Format::Jsonl) {
        const QByteArray rec = RecordExport::formatRecord(doc, r, RecordExport::Format::Jsonl);
        const QByteArray w = std::isfinite(aligned) ? CommandSupport::number(aligned) : "null";
        return "{\"trace\":" + labels[size_t(t)] + ",\"aligned_t_wall\":" + w + "," + rec.mid(1);
    }
    if (format == Format::Csv) {
        const QByteArray rec = RecordExport::formatRecord(doc, r, RecordExport::Format::Csv);
        const QByteArray w = std::isfinite(aligned) ? CommandSupport::number(aligned) : "";
        return labels[size_t(t)] + "," + w + "," + rec;
    }
    const RecordStore &rs = doc.records();
    const TraceDocument::Args args = doc.decodeArgs(r);
    return QStringLiteral("%1  %2  %3  %4  %5\n")
        .arg(TerminalText::padded(QString::fromUtf8(labels[size_t(t)]), labelWidth))
        .arg(r, 8)
        .arg(TimeFormat::fixed(aligned, 6), 17)
        .arg(TerminalText::escaped(Qualname::shortName(rs.qualname(r))), -34)
        .arg(TerminalText::escaped(RecordExport::summary(rs.qualname(r), args, 200)))
        .toUtf8();
}

int runCombined(const CommandSupport &cs, const QCommandLineParser &p, Format format,
                const CommandSupport::Selection &sel) {
    TraceSet set;
    if (const int rc = cs.loadCombined(p, sel, &set); rc >= 0) {
        return rc;
    }
    cs.warnIfDamaged(set);
    const MergedOrder order = MergedOrder::build(set);
    const std::vector<qint64> rows = CommandSupport::selectRows(set, order, sel.filter);
    std::vector<QByteArray> labels;
    for (int t = 0; t < set.size(); ++t) {
        labels.push_back(format == Format::Jsonl ? jsonString(set.label(t))
                         : format == Format::Csv ? CsvWriter::field(set.label(t).toUtf8())
                                                 : TerminalText::escaped(set.label(t)).toUtf8());
    }
    // the text's trace column as wide as its widest label, so that the columns after it align
    int labelWidth = 16;
    for (const QByteArray &label : labels) {
        labelWidth = std::max(labelWidth, TerminalText::columns(QString::fromUtf8(label)));
    }
    QFile out;
    if (!out.open(stdout, QIODevice::WriteOnly)) {
        cs.error(QStringLiteral("cannot write to standard output"));
        return CommandSupport::kExitUnreadable;
    }
    if (format == Format::Csv) {
        out.write("trace,aligned_t_wall," + RecordExport::csvHeader());
    }
    QString writeError;
    constexpr qint64 kChunk = 1 << 16;
    bool ok = true;
    for (qint64 s = 0; ok && s < qint64(rows.size()); s += kChunk) {
        const qint64 n = std::min<qint64>(kChunk, qint64(rows.size()) - s);
        std::vector<int> at(static_cast<size_t>(n));
        for (qint64 i = 0; i < n; ++i) {
            at[size_t(i)] = int(i);
        }
        ok = RecordExport::writeRows(
            &out, at,
            [&](int i) {
                return formatCombined(set, order, rows[size_t(s + i)], format, labels, labelWidth);
            },
            &writeError);
    }
    if (!ok || !out.flush()) {
        const int e = errno;
        CommandSupport::noteOutputError(writeError.isEmpty() ? out.errorString() : writeError, e);
        return CommandSupport::kExitUnreadable;
    }
    return CommandSupport::kExitOk;
}

}  // namespace

int DumpCommand::run(const QStringList &args) {
    CommandSupport cs(QStringLiteral("dump"));
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Print the records of a trace that match a filter, in file order.\n"
        "Default: one text line per record (index, t_mono, call, summary).\n"
        "--jsonl: one JSON object per line: index, t_mono, t_wall, qualname, args (bytes as\n"
        "hex, codec-tagged values as {\"__t__\": TAG, \"v\": PAYLOAD}).\n"
        "--csv: RFC 4180 with columns index,t_mono,t_wall,qualname,call,summary,args_json.\n"
        "--combine FILE...: the records of every FILE interleaved by t_wall plus the trace's\n"
        "offset, the trace's label and that aligned t_wall first (text, JSONL and CSV).\n"
        "Exit 0 ok, 1 usage error or invalid filter/range, 2 unreadable input or a failed\n"
        "write to standard output."));
    p.addOption({QStringLiteral("jsonl"), QStringLiteral("JSON Lines output.")});
    p.addOption({QStringLiteral("csv"), QStringLiteral("CSV output (RFC 4180).")});
    cs.addSelectionOptions(p);
    cs.addCombineOptions(p);
    if (const int rc = cs.parseArguments(p, args); rc >= 0) {
        return rc;
    }
    const bool jsonl = p.isSet(QStringLiteral("jsonl"));
    const bool csv = p.isSet(QStringLiteral("csv"));
    if (jsonl && csv) {
        cs.error(QStringLiteral("--jsonl and --csv exclude each other"));
        return CommandSupport::kExitUsage;
    }
    const Format format = jsonl ? Format::Jsonl : csv ? Format::Csv : Format::Text;
    CommandSupport::Selection sel;
    if (!cs.readSelection(p, &sel)) {
        return CommandSupport::kExitUsage;
    }
    if (cs.combine(p)) {
        return runCombined(cs, p, format, sel);
    }
    const auto doc = cs.load(p.positionalArguments().front());
    if (!doc) {
        return CommandSupport::kExitUnreadable;
    }
    cs.warnIfDamaged(*doc);
    const std::vector<int> rows = CommandSupport::select(doc, sel);

    QFile out;
    if (!out.open(stdout, QIODevice::WriteOnly)) {
        cs.error(QStringLiteral("cannot write to standard output"));
        return CommandSupport::kExitUnreadable;
    }
    if (format == Format::Csv) {
        out.write(RecordExport::csvHeader());
    }
    const TraceDocument &d = *doc;
    const RecordLineFormatter lines(
        d, format == Format::Csv ? RecordExport::Format::Csv : RecordExport::Format::Jsonl);
    const auto appendOne = [&](int r, QByteArray *text) {
        if (format == Format::Text) {
            text->append(textLine(d, r));
        } else {
            lines.append(r, text);
        }
    };
    QString writeError;
    if (!RecordExport::writeRows(&out, rows, appendOne, &writeError) || !out.flush()) {
        // Stop at the first failed write; main() reports it (finishStandardOutput). errno is
        // still the failed write's (EPIPE when the reader has gone: `lmct dump FILE | head`).
        const int e = errno;
        CommandSupport::noteOutputError(writeError.isEmpty() ? out.errorString() : writeError, e);
        return CommandSupport::kExitUnreadable;
    }
    return CommandSupport::kExitOk;
}
