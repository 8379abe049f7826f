#pragma once

#include "filter/filterexpression.h"
#include "filter/tmonorange.h"
#include "trace/mergedorder.h"
#include "trace/tracedocument.h"
#include "trace/traceset.h"

#include <QCommandLineParser>
#include <QString>
#include <memory>
#include <vector>

/**
 * What the `lmct` commands share: exit codes, the `--filter`/`--range` options, loading the
 * input, selecting records, printing help and errors.
 *
 * Exit codes: 0 ok, 1 usage error (bad option, invalid filter or range), 2 unreadable input or
 * unwritable output (an export's OUT, or standard output: see finishStandardOutput()).
 * Errors go to stderr prefixed with "lmct COMMAND: ".
 *
 * Thread-safety: main thread of the command-line program.
 */
class CommandSupport {
public:
    static constexpr int kExitOk = 0;
    static constexpr int kExitUsage = 1;
    static constexpr int kExitUnreadable = 2;

    /** The records to consider: a valid filter (possibly empty) and a t_mono range. */
    struct Selection {
        lmct::FilterExpression filter;
        lmct::TMonoRange range;
    };

    explicit CommandSupport(const QString &command) : m_command(command) {}

    /** Adds `--filter EXPR` and `--range T0:T1` to `p`. */
    void addSelectionOptions(QCommandLineParser &p) const;

    /**
     * Adds `--combine` (several FILEs read as one deployment: a TraceSet) and `--offset
     * LABEL=SECONDS` (repeatable: a trace's clock offset, units ns, us, ms, s, min, h allowed)
     * to `p`. parseArguments() then accepts several FILEs with --combine.
     */
    void addCombineOptions(QCommandLineParser &p);
    /** Whether --combine was given (after parseArguments()). */
    bool combine(const QCommandLineParser &p) const;

    /**
     * Parses `args` with `p`; prints help and returns kExitOk on --help, prints the error and
     * returns kExitUsage on a bad option or when the number of FILE arguments is not exactly 1
     * (at least 1 with --combine; --offset without --combine is an error too).
     * Returns -1 when the command should go on.
     */
    int parseArguments(QCommandLineParser &p, const QStringList &args) const;

    /**
     * Prints `p`'s help on standard output, its first line naming the command ("Usage: lmct
     * COMMAND [options] ...") rather than the program as invoked (its full path).
     */
    void printHelp(const QCommandLineParser &p) const;

    /** Reads --filter and --range; prints the error (column and caret) and returns false. */
    bool readSelection(const QCommandLineParser &p, Selection *out) const;

    /** Loads `file`; prints the reason (also into `whyNot`) and returns null when it cannot be
     *  read as a trace. */
    std::shared_ptr<const lmct::TraceDocument> load(const QString &file,
                                                    QString *whyNot = nullptr) const;

    /**
     * Loads every file of `files` into `set` (each a trace, labelled as TraceSet says) and applies
     * the `--offset` values of `p`. Prints each refusal and returns kExitUnreadable when a file
     * cannot be read as a trace (with `keepGoing`, the others are still added), kExitUsage for
     * an --offset that is malformed or names no trace; else -1. `refused`, when given, gets
     * each file left out and why (file, message).
     */
    int loadSet(const QCommandLineParser &p, const QStringList &files, lmct::TraceSet *set,
                bool keepGoing = false, QList<QPair<QString, QString>> *refused = nullptr) const;
    /**
     * What `dump --combine` and `stats --combine` do first: refuse a `--range` of `sel` (t_mono
     * is one host's clock) with kExitUsage, then loadSet() of the positional arguments. -1 when
     * `set` holds every trace.
     */
    int loadCombined(const QCommandLineParser &p, const Selection &sel, lmct::TraceSet *set) const;
    /**
     * The rows of `order` whose record matches the filter (evaluated per trace, `trace`
     * naming it); every row when the filter is empty. Row numbers ascending.
     */
    static std::vector<qint64> selectRows(const lmct::TraceSet &set, const lmct::MergedOrder &order,
                                          const lmct::FilterExpression &filter,
                                          std::vector<std::vector<int>> *perTrace = nullptr);

    /** Matching record indices in file order (every record when the filter is empty). */
    static std::vector<int> select(const std::shared_ptr<const lmct::TraceDocument> &doc,
                                   const Selection &selection);

    /** Prints "lmct COMMAND: message" on stderr. */
    void error(const QString &message) const;

    /**
     * When `doc` is damaged (DamageSummary::isDamaged()), prints one line on stderr in the words
     * of `lmct compare`: "lmct COMMAND: warning: WHO is damaged: ...; its figures cover the N
     * records read" (DamageSummary::sentence(); WHO is `who`, or the file name when empty).
     * `covered` is how many records the command's figures cover (DamageSummary::of(): -1, the
     * records before where the file was last seen to end); a command whose analysis checks the
     * file for a shrink (KeyAnalysis) warns after it, with its count. Nothing else changes: the
     * command goes on as far as the trace reads, with the same standard output and exit code.
     */
    void warnIfDamaged(const lmct::TraceDocument &doc, const QString &who = QString(),
                       qint64 covered = -1) const;
    /** warnIfDamaged() for every trace of `set`, each named by its label. */
    void warnIfDamaged(const lmct::TraceSet &set) const;

    /**
     * Prepares the process's standard streams; called first by main(), before anything opens a
     * file. SIGPIPE is ignored, so a write to a pipe whose reader has gone (`lmct dump FILE |
     * head -1`) fails with EPIPE instead of killing lmct (exit 141). A standard stream that is
     * closed (`>&-`) gets /dev/null opened read-only on its descriptor, so no file or event
     * descriptor the program opens later takes its number (writes meant for standard output
     * went into it) and every write to it fails with EBADF ("Bad file descriptor").
     */
    static void guardStandardStreams();
    /**
     * Flushes standard output and checks that every write to it succeeded (its FILE's error
     * flag: a full disk, /dev/full). Returns `rc` when it did. When standard output is a pipe
     * whose reader has gone (EPIPE, normal for `| head`), returns kExitUnreadable (2) and prints
     * nothing. Otherwise prints "lmct: cannot write to standard output: REASON" on stderr and
     * returns kExitUnreadable (2, "unwritable output"). Called once by main() after the command.
     */
    static int finishStandardOutput(int rc);
    /**
     * Remembers `doc` (loaded from `file`) for checkShrunkInputs(). Every command's loaded trace
     * goes through this (load() does it).
     */
    static void watchInput(const QString &file,
                           const std::shared_ptr<const lmct::TraceDocument> &doc);
    /**
     * Whether a watched trace shrank (truncated by another process) while the command read it:
     * then what was read past its new end is not the file's (MappingGuard reads zeros there).
     * Prints "lmct: FILE shrank to N bytes while being read: ..." on stderr for each and returns
     * kExitUnreadable (2); otherwise returns `rc`. Called once by main() after the command.
     */
    static int checkShrunkInputs(int rc);
    /**
     * Says that the command's own error has told of `doc`'s shrink (at the size it has now),
     * so that checkShrunkInputs() does not tell it again (it still returns kExitUnreadable).
     */
    static void shrinkReported(const lmct::TraceDocument &doc);
    /**
     * Writes `bytes` to standard output (stdio, buffered). A failed write is remembered, with
     * its reason, for finishStandardOutput(); every command writes standard output through this
     * (or a QFile on stdout whose failure it passes to noteOutputError()).
     */
    static void print(const QByteArray &bytes);
    static void print(const QString &text) { print(text.toUtf8()); }
    /** Flushes standard output (stdio), remembering a failure like print(). */
    static void flushOutput();
    /**
     * Remembers why a write to standard output failed (the first reason is kept), and its errno
     * value when known (EPIPE: the reader has gone, see finishStandardOutput()).
     */
    static void noteOutputError(const QString &reason, int errorNumber = 0);

    /** Shortest text that reads back as the same double ("0.1", "1e-05", "1760000000.25"). */
    static QByteArray number(double v);

private:
    QString m_command;
    bool m_combinable = false;
};
