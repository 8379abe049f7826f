#pragma once

#include <QStringList>

/**
 * `lmct export (--chrome-json OUT | --jsonl OUT | --csv OUT) [--filter EXPR] [--range T0:T1]
 * FILE`: writes the matching records, in file order, to OUT.
 *
 * --chrome-json: Chrome trace-event JSON (lmct::ChromeTraceExport; opens in Perfetto UI).
 * --jsonl / --csv: the formats of `lmct dump` (lmct::RecordExport).
 *
 * OUT is written through QSaveFile (lmct::ExportFile): on any error nothing is left behind and
 * the input is never overwritten. Exit codes: 0 ok, 1 usage error or invalid filter/range,
 * 2 unreadable input or unwritable output (the reason on stderr).
 */
class ExportCommand {
public:
    /** Runs the command; `args` starts with the program name, the command word removed. */
    static int run(const QStringList &args);
};
