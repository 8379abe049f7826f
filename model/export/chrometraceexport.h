#pragma once

#include "trace/tracedocument.h"

#include <QIODevice>
#include <QString>
#include <vector>

namespace lmct {

/**
 * Chrome trace-event JSON (`{"traceEvents": [...]}`), readable by Perfetto UI and
 * chrome://tracing.
 *
 * - One metadata event (`"ph": "M"`) names the process after the trace file, and one
 *   `thread_name` event per qualname: each qualname is a thread (`tid` 1, 2, ... in order of
 *   first appearance) so the calls of one site share a lane; `cat` is the qualname.
 * - Each record is an instant event (`"ph": "i"`, `"s": "t"`), `name` = the short call,
 *   `ts` = t_mono in microseconds, `args` = the record's args as ValueFormatter::toJson plus
 *   `record_index`.
 * - `read_prefetched_results.__enter__`/`__exit__` pairs among the exported rows (ContextPairs'
 *   rule: FIFO per identical `keys` list, the whole args when there is none, in file order)
 *   become one complete event (`"ph": "X"`, `dur` in µs) named
 *   `read_prefetched_results` on the enter's lane, args {`enter`, `exit`, `enter_index`,
 *   `exit_index`}. Unmatched enters and exits stay instants.
 *
 * So the number of non-metadata events is #records − #matched pairs.
 *
 * Thread-safety: reentrant; the document must stay alive.
 */
class ChromeTraceExport {
public:
    struct Summary {
        qint64 events = 0;  ///< instant + complete events (no metadata)
        qint64 pairs = 0;   ///< enter/exit pairs merged into complete events
        qint64 lanes = 0;   ///< distinct qualnames (threads)
    };

    /** Writes the records `rows` (file order expected) of `doc` to `out`. */
    static bool write(QIODevice *out, const TraceDocument &doc, const std::vector<int> &rows,
                      Summary *summary, QString *error);
};

}  // namespace lmct
