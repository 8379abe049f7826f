#pragma once

#include "filterexpression.h"
#include "tmonorange.h"
#include "tracedocument.h"

#include <QCommandLineParser>
#include <QString>
#include <memory>
#include <vector>

/**
 * What the `lmct` commands share: exit codes, the `--filter`/`--range` options, loading the
 * input, selecting records, printing help and errors.
 *
 * Exit codes: 0 ok, 1 usage error (bad option, invalid filter or range), 2 unreadable input.
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
     * Parses `args` with `p`; prints help and returns kExitOk on --help, prints the error and
     * returns kExitUsage on a bad option or when the number of FILE arguments is not exactly 1.
     * Returns -1 when the command should go on.
     */
    int parseArguments(QCommandLineParser &p, const QStringList &args) const;

    /** Reads --filter and --range; prints the error (column and caret) and returns false. */
    bool readSelection(const QCommandLineParser &p, Selection *out) const;

    /** Loads `file`; prints the reason and returns null when it cannot be read as a trace. */
    std::shared_ptr<const lmct::TraceDocument> load(const QString &file) const;

    /** Matching record indices in file order (every record when the filter is empty). */
    static std::vector<int> select(const std::shared_ptr<const lmct::TraceDocument> &doc,
                                   const Selection &selection);

    /** Prints "lmct COMMAND: message" on stderr. */
    void error(const QString &message) const;

    /** Shortest text that reads back as the same double ("0.1", "1e-05", "1760000000.25"). */
    static QByteArray number(double v);

private:
    QString m_command;
};
