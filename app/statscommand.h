#pragma once

#include <QStringList>

/**
 * `lmct stats [--filter EXPR] [--range T0:T1] [--json|--csv [--table T]] FILE`: statistics of
 * the matching records (TraceStatistics): per call, per model, per rank, per cache salt, and
 * the read_prefetched_results context-manager pairs.
 *
 * Formats: text tables (default), one JSON object (TraceStatistics::toJson plus `file` and
 * `filter`), or CSV of one table (`--table calls|models|ranks|salts`, default calls; the calls
 * table ends with its totals row), RFC 4180 like `lmct dump --csv`.
 *
 * Exit codes: see CommandSupport.
 */
class StatsCommand {
public:
    static int run(const QStringList &args);
};
