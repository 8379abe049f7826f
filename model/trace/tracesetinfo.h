#pragma once

#include "trace/mergedorder.h"
#include "trace/traceset.h"

#include <QJsonObject>
#include <QString>

namespace lmct {

/**
 * What `lmct info --combine` prints about a TraceSet: per trace its label, file, instance,
 * records, start `t_wall`, offset, diagnostics and how the merge placed it; then the combined
 * span on the aligned `t_wall` axis.
 *
 * Units: seconds; t_wall values are Unix epoch seconds (JSON numbers, null when unknown).
 * Thread-safety: pure functions of their inputs (the documents may be read from any thread).
 */
class TraceSetInfo {
public:
    /**
     * One JSON object: `combined` (true), `traces` (count), `records`, `t_wall_start` and
     * `t_wall_end` (the combined span, aligned), `span_s`, and `members`: per trace `trace`
     * (index), `label`, `file`, `instance_id` (null when none), `records`, `t_wall_start` (its
     * own clock), `offset_s`, `aligned_t_wall_start`, `aligned_t_wall_end`, `diagnostics`,
     * `warnings`, `errors`, `stepped_back`, `untimed` (MergedOrder).
     */
    static QJsonObject toJson(const TraceSet &set, const MergedOrder &order);
    /** The same as text lines: a table of the traces, then the combined span. */
    static QString toText(const TraceSet &set, const MergedOrder &order);
};

}  // namespace lmct
