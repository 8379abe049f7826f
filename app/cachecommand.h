#pragma once

#include "commandsupport.h"
#include "trace/tracedocument.h"
#include "util/plural.h"

#include <QByteArray>
#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <cstdio>
#include <memory>

namespace lmct {

/**
 * What `lmct keys` and `lmct anomalies` share: the `--json` option on top of CommandSupport's
 * `--help`, one FILE, loading and errors ("lmct COMMAND: ..." on stderr), and a buffered stdout
 * writer with JSON helpers (streamed: a trace may have millions of keys).
 *
 * Exit codes (CommandSupport's): 0 ok, 1 usage error (bad option, no FILE or more than one), 2
 * unreadable input (the file does not open as a trace).
 *
 * Thread-safety: main thread of the command-line program.
 */
class CacheCommand {
public:
    static constexpr int kExitOk = CommandSupport::kExitOk;
    static constexpr int kExitUsage = CommandSupport::kExitUsage;
    static constexpr int kExitUnreadable = CommandSupport::kExitUnreadable;

    CacheCommand(const QString &command, const QString &description);
    ~CacheCommand();

    QCommandLineParser &parser() { return m_parser; }

    /** Parses `args` (program name first). Returns -1 to go on, else the exit code (help
     *  printed, or a usage error reported). */
    int parse(const QStringList &args);
    bool json() const { return m_parser.isSet(QStringLiteral("json")); }
    QString file() const { return m_parser.positionalArguments().value(0); }

    /** Loads file(); nullptr after reporting why. */
    std::shared_ptr<const TraceDocument> load() const;
    void error(const QString &message) const;
    /**
     * CommandSupport::warnIfDamaged(): a one-line warning on stderr when `doc` is damaged; its
     * figures cover `covered` records (-1: those before where the file was last seen to end).
     * Called after the analysis, with KeyAnalysis::readableRecordCount(), so that a file cut
     * while the analysis read it is told, and the count is that of the figures. A shrink it
     * tells is not told again when the command ends (CommandSupport::shrinkReported(); the exit
     * code is still 2).
     */
    void warnIfDamaged(const TraceDocument &doc, qint64 covered = -1) const {
        m_support.warnIfDamaged(doc, QString(), covered);
        if (doc.shrunkTo() >= 0) {
            CommandSupport::shrinkReported(doc);
        }
    }

    /**
     * Buffered output to stdout (UTF-8). Text output (without --json) has terminal controls and
     * bidi overrides escaped (TerminalText::escapedLines: a model name or cache salt from the
     * trace must not recolour the terminal or reverse a line); JSON is written as it is (its
     * strings are escaped by string()).
     */
    void write(const QByteArray &s);
    void write(const QString &s) { write(s.toUtf8()); }
    void write(const char *s) { write(QByteArray(s)); }
    void flush();

    /** A JSON number in its shortest exact form; `null` for NaN and infinities. */
    static QByteArray number(double v);
    static QByteArray number(qint64 v) { return QByteArray::number(v); }
    /** A JSON string literal. */
    static QByteArray string(const QString &s);
    /** `n` and the noun in its number: counted(1, "key", "keys") is "1 key", 2 gives "2 keys". */
    static QString counted(qint64 n, const char *one, const char *many) {
        return Plural::counted(n, one, many);
    }

private:
    CommandSupport m_support;
    QCommandLineParser m_parser;
    QByteArray m_buffer;
};

}  // namespace lmct
