#pragma once

#include <QStringList>

/**
 * `lmct dump [--jsonl|--csv] [--filter EXPR] [--range T0:T1] FILE`: the matching records in
 * file order.
 *
 * Formats: text (default; one line per record: index, t_mono, call, summary), JSONL (one JSON
 * object per record: `index`, `t_mono`, `t_wall`, `qualname`, `args` as ValueFormatter::toJson,
 * i.e. bytes as lowercase hex and codec-tagged values as `{"__t__", "v"}`; plus `args_error` when
 * the arguments decoded only partly), CSV (RFC 4180: header row, CRLF line ends, fields with
 * `,` `"` CR or LF quoted with `""` doubling; columns index, t_mono, t_wall, qualname, call,
 * summary, args_json). Numbers are written in their shortest exact form.
 *
 * Arguments are decoded from the mapped file in parallel chunks, output stays in file order.
 * Exit codes: see CommandSupport.
 */
class DumpCommand {
public:
    /** Runs the command; `args` starts with the program name, the command word removed. */
    static int run(const QStringList &args);
};
