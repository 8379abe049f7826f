#include "exportcommand.h"

#include "commandsupport.h"
#include "export/chrometraceexport.h"
#include "export/exportfile.h"
#include "export/recordexport.h"

#include <QTextStream>

using namespace lmct;

int ExportCommand::run(const QStringList &args) {
    CommandSupport cs(QStringLiteral("export"));
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Write the records of a trace that match a filter to a file, in file order.\n"
        "--chrome-json OUT: Chrome trace-event JSON for Perfetto UI (ui.perfetto.dev) or\n"
        "chrome://tracing: one instant event per record on one lane per qualname;\n"
        "read_prefetched_results __enter__/__exit__ pairs become complete events.\n"
        "--jsonl OUT / --csv OUT: the formats of 'lmct dump --jsonl/--csv'.\n"
        "The output is written atomically; the input is never written.\n"
        "Exit 0 ok, 1 usage error or invalid filter/range, 2 unreadable input or unwritable\n"
        "output."));
    const QCommandLineOption chrome(QStringLiteral("chrome-json"),
                                    QStringLiteral("Chrome trace-event JSON to OUT."),
                                    QStringLiteral("OUT"));
    const QCommandLineOption jsonl(QStringLiteral("jsonl"), QStringLiteral("JSON Lines to OUT."),
                                   QStringLiteral("OUT"));
    const QCommandLineOption csv(QStringLiteral("csv"), QStringLiteral("CSV (RFC 4180) to OUT."),
                                 QStringLiteral("OUT"));
    p.addOption(chrome);
    p.addOption(jsonl);
    p.addOption(csv);
    cs.addSelectionOptions(p);
    if (const int rc = cs.parseArguments(p, args); rc >= 0) {
        return rc;
    }
    const int formats = int(p.isSet(chrome)) + int(p.isSet(jsonl)) + int(p.isSet(csv));
    if (formats != 1) {
        cs.error(
            QStringLiteral("give exactly one of --chrome-json, --jsonl, --csv "
                           "(see lmct export --help)"));
        return CommandSupport::kExitUsage;
    }
    CommandSupport::Selection sel;
    if (!cs.readSelection(p, &sel)) {
        return CommandSupport::kExitUsage;
    }
    const QString input = p.positionalArguments().front();
    const auto doc = cs.load(input);
    if (!doc) {
        return CommandSupport::kExitUnreadable;
    }
    const std::vector<int> rows = CommandSupport::select(doc, sel);
    const TraceDocument &d = *doc;
    QString error;
    QString outPath;
    bool ok = false;
    if (p.isSet(chrome)) {
        outPath = p.value(chrome);
        ChromeTraceExport::Summary summary;
        ok = ExportFile::write(
            outPath,
            [&](QIODevice *out, QString *e) {
                return ChromeTraceExport::write(out, d, rows, &summary, e);
            },
            &error, input);
        if (ok) {
            QTextStream(stderr) << "lmct export: " << summary.events << " events (" << summary.pairs
                                << " enter/exit pairs merged) on " << summary.lanes << " lanes to "
                                << outPath << "\n";
        }
    } else {
        const bool isCsv = p.isSet(csv);
        outPath = p.value(isCsv ? csv : jsonl);
        const auto format = isCsv ? RecordExport::Format::Csv : RecordExport::Format::Jsonl;
        ok = ExportFile::write(
            outPath,
            [&](QIODevice *out, QString *e) {
                return RecordExport::write(out, d, rows, format, e);
            },
            &error, input);
        if (ok) {
            QTextStream(stderr) << "lmct export: " << rows.size() << " records to " << outPath
                                << "\n";
        }
    }
    if (!ok) {
        cs.error(error);
        if (d.shrunkTo() >= 0) {
            CommandSupport::shrinkReported(d);  // the error names the shrink: not again
        }
        return CommandSupport::kExitUnreadable;
    }
    return CommandSupport::kExitOk;
}
