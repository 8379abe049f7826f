// lmct: the headless command line of LMCache Trace Viewer (model/ only, no display needed).

#include "anomaliescommand.h"
#include "commandsupport.h"
#include "comparecommand.h"
#include "dumpcommand.h"
#include "exportcommand.h"
#include "keyscommand.h"
#include "statscommand.h"
#include "trace/mergedorder.h"
#include "trace/traceinfo.h"
#include "trace/traceloader.h"
#include "trace/tracesetinfo.h"
#include "util/terminaltext.h"
#include "util/utf8argument.h"
#include "whatifcommand.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

using namespace lmct;

namespace {

constexpr int kExitOk = 0;
constexpr int kExitUsage = 1;
constexpr int kExitUnreadable = 2;

int runInfo(const QStringList &args) {
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Print what a trace holds: header fields, the StorageManagerConfig in words, record\n"
        "count, duration (largest t_mono), records per qualname, and diagnostics. Exit 0 when "
        "every file opened (warnings\n"
        "allowed), 2 when any was refused (reason on stderr) or standard output could not be\n"
        "written, 1 on a usage error."));
    p.addHelpOption();
    p.addOption({QStringLiteral("json"),
                 QStringLiteral("One JSON object per file, one per line, with the "
                                "StorageManagerConfig read in `config` (L1 capacity, eviction "
                                "policy, TTLs, L2 adapters, prefetch limits).")});
    p.addOption({QStringLiteral("details"),
                 QStringLiteral("With --json (required): also the keys digest, partial, "
                                "args_checked and damage.")});
    p.addOption({QStringLiteral("check"),
                 QStringLiteral("Also decode every record's arguments completely and report "
                                "damage inside them (a full pass over the file; without it only "
                                "t_mono, t_wall and qualname are read).")});
    p.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Trace files (*.lct, *.lmct)."),
                            QStringLiteral("FILE..."));
    CommandSupport cs(QStringLiteral("info"));
    cs.addCombineOptions(p);
    if (!p.parse(args)) {
        cs.error(p.errorText() + QStringLiteral(" (see lmct info --help)"));
        return kExitUsage;
    }
    if (p.isSet(QStringLiteral("help"))) {
        cs.printHelp(p);
        return kExitOk;
    }
    const QStringList files = p.positionalArguments();
    if (files.isEmpty()) {
        cs.error(QStringLiteral("no FILE given (see lmct info --help)"));
        return kExitUsage;
    }
    const bool json = p.isSet(QStringLiteral("json"));
    if (p.isSet(QStringLiteral("details")) && !json) {
        cs.error(
            QStringLiteral("--details needs --json (it adds keys to the JSON object; see "
                           "lmct info --help)"));
        return kExitUsage;
    }
    if (!cs.combine(p) && p.isSet(QStringLiteral("offset"))) {
        cs.error(QStringLiteral("--offset goes with --combine"));
        return kExitUsage;
    }
    if (cs.combine(p)) {
        if (p.isSet(QStringLiteral("details")) || p.isSet(QStringLiteral("check"))) {
            cs.error(
                QStringLiteral("--details and --check do not go with --combine (run lmct "
                               "info on each FILE for them)"));
            return kExitUsage;
        }
        TraceSet set;
        QList<QPair<QString, QString>> refused;  // left out: said in the output too
        const int loaded = cs.loadSet(p, files, &set, true, &refused);
        if (loaded == kExitUsage) {
            return loaded;
        }
        const MergedOrder order = MergedOrder::build(set);
        if (json) {
            QJsonObject o = TraceSetInfo::toJson(set, order);
            QJsonArray left;
            for (const auto &[file, why] : refused) {
                left.append(
                    QJsonObject{{QStringLiteral("file"), file}, {QStringLiteral("error"), why}});
            }
            o.insert(QStringLiteral("refused"), left);
            CommandSupport::print(QJsonDocument(o).toJson(QJsonDocument::Compact) + "\n");
        } else {
            QString text = TraceSetInfo::toText(set, order);
            for (const auto &[file, why] : refused) {
                text += QStringLiteral("refused:   %1 (left out: %2)\n").arg(file, why);
            }
            CommandSupport::print(TerminalText::escapedLines(text));
        }
        return loaded >= 0 ? loaded : kExitOk;
    }
    int rc = kExitOk;
    TraceLoader::Options options;
    options.validateArgs = p.isSet(QStringLiteral("check"));
    for (const QString &file : files) {
        QString error;
        auto doc = TraceLoader::load(file, &error, options);
        CommandSupport::watchInput(file, doc);
        if (!doc) {
            cs.error(error);
            rc = kExitUnreadable;
            if (json) {
                CommandSupport::print(QJsonDocument(TraceInfo::refusedJson(file, error))
                                          .toJson(QJsonDocument::Compact) +
                                      "\n");
            }
            continue;
        }
        if (json) {
            CommandSupport::print(
                QJsonDocument(TraceInfo::toJson(file, *doc, p.isSet(QStringLiteral("details"))))
                    .toJson(QJsonDocument::Compact) +
                "\n");
        } else {
            CommandSupport::print(TraceInfo::toText(file, *doc));
        }
        CommandSupport::flushOutput();  // one file at a time (a reader sees each as soon as it is
                                        // read)
    }
    return rc;
}

QString usage() {
    return QStringLiteral(
        "Usage: lmct COMMAND [OPTIONS] FILE...\n"
        "\n"
        "Headless tools for LMCache storage traces (*.lct, *.lmct).\n"
        "\n"
        "Commands:\n"
        "  info [--json [--details]] [--check] FILE...\n"
        "                          header, record counts per qualname, duration, diagnostics\n"
        "  dump [--jsonl|--csv] [--filter EXPR] [--range T0:T1] FILE\n"
        "                          the matching records in file order\n"
        "  stats [--json|--csv [--table calls|models|ranks|salts]] [--filter EXPR]\n"
        "        [--range T0:T1] FILE\n"
        "                          per call, model, rank and cache salt statistics\n"
        "  info|dump|stats --combine [--offset LABEL=SECONDS]... FILE...\n"
        "                          several traces of one deployment on one t_wall axis\n"
        "  export (--chrome-json|--jsonl|--csv|--sqlite) OUT [--filter EXPR]\n"
        "         [--range T0:T1] FILE\n"
        "                          write the matching records to OUT (Chrome JSON for\n"
        "                          Perfetto; SQLite tables for pandas, DuckDB, SQL)\n"
        "  keys [--json] FILE      every distinct ObjectKey, its calls and state\n"
        "  anomalies [--json] FILE what looks wrong: unmatched writes and reads, time, gaps\n"
        "  compare [--json] [--no-whatif] A B\n"
        "                          two traces side by side: config, calls, latencies, cache\n"
        "  whatif [--policy LIST] [--capacity LIST] [--model M] [--salt S] [--sample RATE]\n"
        "         [--json] FILE    prefetch hit ratio per eviction policy and capacity\n"
        "\n"
        "Run 'lmct COMMAND --help' for a command's options.\n"
        "Filters: see docs/filter-language.md, e.g. --filter 'call == reserve_write && rank == "
        "1'.\n"
        "Exit codes: 0 ok, 1 usage error or invalid filter, 2 unreadable input or unwritable\n"
        "output (also a failed write to standard output).\n");
}

int run(const QString &command, const QStringList &args) {
    if (command == QLatin1String("info")) {
        return runInfo(args);
    }
    if (command == QLatin1String("dump")) {
        return DumpCommand::run(args);
    }
    if (command == QLatin1String("export")) {
        return ExportCommand::run(args);
    }
    if (command == QLatin1String("stats")) {
        return StatsCommand::run(args);
    }
    if (command == QLatin1String("keys")) {
        return KeysCommand::run(args);
    }
    if (command == QLatin1String("anomalies")) {
        return AnomaliesCommand::run(args);
    }
    if (command == QLatin1String("compare")) {
        return CompareCommand::run(args);
    }
    if (command == QLatin1String("whatif")) {
        return WhatIfCommand::run(args);
    }
    QTextStream(stderr) << "lmct: unknown command '" << command << "'\n\n" << usage();
    return kExitUsage;
}

}  // namespace

int main(int argc, char *argv[]) {
    CommandSupport::guardStandardStreams();  // first: before anything opens a descriptor
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("lmct"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LMCT_VERSION));
    // A name that is not UTF-8 would arrive with U+FFFD in it and be "no such file".
    for (int i = 1; i < argc; ++i) {
        if (const QString problem = Utf8Argument::problem(argv[i]); !problem.isEmpty()) {
            QTextStream(stderr) << "lmct: " << problem << "\n";
            return kExitUnreadable;
        }
    }
    QStringList args = QCoreApplication::arguments();
    if (args.size() < 2 || args[1] == QLatin1String("--help") || args[1] == QLatin1String("-h") ||
        args[1] == QLatin1String("help")) {
        if (args.size() < 2) {
            QTextStream(stderr) << usage();
            return kExitUsage;
        }
        CommandSupport::print(usage());
        return CommandSupport::finishStandardOutput(kExitOk);
    }
    if (args[1] == QLatin1String("--version")) {
        CommandSupport::print(QByteArray("lmct " LMCT_VERSION "\n"));
        return CommandSupport::finishStandardOutput(kExitOk);
    }
    const QString command = args.takeAt(1);
    // Every command writes standard output through its FILE (fwrite, or QFile and QTextStream
    // on it); a failed write (a full disk, /dev/full, a closed descriptor, a pipe whose reader
    // has gone) is found here.
    return CommandSupport::finishStandardOutput(
        CommandSupport::checkShrunkInputs(run(command, args)));
}
