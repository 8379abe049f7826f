#pragma once

#include <QStringList>

namespace lmct {

/**
 * `lmct compare [--json] [--no-whatif] A B`: two traces side by side (TraceComparison): header
 * and config fields that differ, per-call figures, latencies and the cache, each figure of B
 * against A (Δ = B − A, Δ % = Δ / |A|). Definitions in docs/compare.md, the JSON schema in
 * docs/cli.md.
 *
 * Text: readable sections (Traces, Header and config, Calls, Latencies, Cache), trace strings
 * escaped (TerminalText). JSON: one object, TraceComparison::toJson().
 *
 * Exit codes: 0 ok, 1 usage error (bad option, not exactly two files), 2 unreadable input (a file
 * that does not open as a trace) or a failed write to standard output.
 */
class CompareCommand {
public:
    /** Runs the command; `args` starts with the program name, the command word removed. */
    static int run(const QStringList &args);
};

}  // namespace lmct
