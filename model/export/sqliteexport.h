#pragma once

#include "trace/tracedocument.h"

#include <QString>
#include <atomic>
#include <functional>
#include <vector>

namespace lmct {

/**
 * A trace as one SQLite database for notebooks and SQL (`lmct export --sqlite`, the viewer's
 * File > Export > SQLite Database): the selected records, the key uses of those records, and
 * the keys, requests, diagnostics and header of the whole trace. Tables and columns are
 * documented in docs/cli.md ("SQLite tables"); times are t_mono / t_wall seconds, sizes bytes.
 *
 * - `records`: one row per selected record (`rows`): record index, t_mono, t_wall, call,
 *   qualname, request (`external_request_id` anywhere in the args), the first ObjectKey's
 *   model_name / kv_rank / rank / world_size, keys (ObjectKeys anywhere), bytes (layout bytes
 *   per object × keys), args (the JSON of `lmct dump --jsonl`), args_error, frame offset and
 *   length. The facts are the filter fields of the same names (docs/filter-language.md).
 * - `key_uses`: per key occurrence of a selected key record (KeyAnalysis::keysAt): record,
 *   key id, call (KeyAnalysis::callName), position in the record's keys, whether it counts as
 *   a read, the finish_read_prefetched role.
 * - `keys`: KeyAnalysis, the columns of `lmct keys --json`; `requests`: RequestAnalysis, the
 *   columns of the Requests tab; `diagnostics`: TraceDocument::diagnostics(); `header`: (key,
 *   value JSON) rows, the header's fields (TraceInfo::headerJson), `sm_config`
 *   (TraceInfo::configJson) and the export's own facts under `lmct.`.
 * Indices on records(call), key_uses(key_id) and key_uses(record), made after the inserts.
 *
 * Atomic: the database is written to `OUT.tmp-XXXXXX` beside OUT (one transaction, prepared
 * statements, journal_mode=OFF, synchronous=OFF), synced once, and renamed over OUT only when
 * everything succeeded; on any failure or cancel the temporary file is removed and OUT is
 * untouched. The target is refused as ExportFile refuses it (a directory, a device, the input
 * trace, a missing folder). A trace that shrank while it was read (RecordExport::
 * checkNotShrunk) is an error: nothing is written.
 *
 * Thread-safety: reentrant; run it off the GUI thread. The document must be shared
 * (TraceLoader's are) and stay alive. `progress` is called on the writing thread.
 */
class SqliteExport {
public:
    struct Options {
        QString inputPath;   ///< refused as the target
        QString filterText;  ///< recorded in the header table (`lmct.filter`)
        QString rangeText;   ///< recorded in the header table (`lmct.range`)
        /** 0..100, from the writing thread. */
        std::function<void(int percent)> progress;
        /** Set to true to stop; write() then returns false and leaves nothing behind. */
        const std::atomic_bool *cancel = nullptr;
    };

    /** Rows written per table. */
    struct Summary {
        qint64 records = 0;
        qint64 keyUses = 0;
        qint64 keys = 0;
        qint64 requests = 0;
        qint64 diagnostics = 0;
        qint64 headerRows = 0;
    };

    /**
     * Writes `doc` to `path` with the records `rows` (record indices; any order, each once).
     * Returns false with `error` set ("cannot write PATH: reason", or "cancelled") when
     * anything failed or `cancel` was set.
     */
    static bool write(const QString &path, const TraceDocument &doc, const std::vector<int> &rows,
                      const Options &options, Summary *summary, QString *error);

    /** The SQL that creates the tables (without the indices). */
    static const char *schema();
};

}  // namespace lmct
