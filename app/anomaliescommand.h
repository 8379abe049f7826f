#pragma once

#include <QStringList>

namespace lmct {

/**
 * `lmct anomalies [--json] FILE`: what looks wrong in a trace (AnomalyReport).
 *
 * JSON: `{"counts": {KIND: N, ...}, "items": [{"kind", "records": [i, ...], "t_mono",
 * "message"}, ...], "truncated": [KIND, ...], "keyless_finish_writes": N,
 * "median_inter_arrival_s": S, "gap_threshold_s": S}` where `counts` holds every kind
 * (finish_without_reserve, reserve_without_finish, exit_without_enter, enter_without_exit,
 * read_never_written, time_backwards, gap), 0 when none; items are in file order (at most
 * AnomalyReport::kMaxItemsPerKind per kind: `truncated` lists the kinds cut). Text: the counts
 * with what each kind means, then one line per item.
 *
 * Exit codes: 0 ok (anomalies found or not), 1 usage error, 2 unreadable input or a failed write
 * to standard output.
 */
class AnomaliesCommand {
public:
    /** Runs the command; `args` starts with the program name, the command word removed. */
    static int run(const QStringList &args);
};

}  // namespace lmct
