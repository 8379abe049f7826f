#include "dumpcommand.h"
#include "util/terminaltext.h"

#include "codec/qualname.h"
#include "codec/valuedecoder.h"
#include "codec/valueformatter.h"
#include "commandsupport.h"
#include "export/recordexport.h"
#include "export/recordlineformatter.h"
#include "util/timeformat.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtConcurrent/QtConcurrentMap>

#include <cerrno>

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
        "Exit 0 ok, 1 usage error or invalid filter/range, 2 unreadable input or a failed\n"
        "write to standard output."));
    p.addOption({QStringLiteral("jsonl"), QStringLiteral("JSON Lines output.")});
    p.addOption({QStringLiteral("csv"), QStringLiteral("CSV output (RFC 4180).")});
    cs.addSelectionOptions(p);
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
    const auto doc = cs.load(p.positionalArguments().front());
    if (!doc) {
        return CommandSupport::kExitUnreadable;
    }
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
