#pragma once

#include "trace/tracedocument.h"

#include <QJsonObject>

namespace lmct {

/**
 * One record as JSON, for "Copy Record as JSON": `index`, `t_mono`, `t_wall`, `qualname`,
 * `args` (ValueFormatter::toJson of the decoded arguments), `args_error` (only when decoding
 * stopped early), `frame_offset` and `bytes` (the whole frame, lowercase hex).
 *
 * Thread-safety: any thread (TraceDocument's rules).
 */
class RecordJson {
public:
    static QJsonObject toJson(const TraceDocument &doc, int record);
};

}  // namespace lmct
