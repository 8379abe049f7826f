#pragma once

#include "trace/tracedocument.h"

#include <QString>
#include <atomic>
#include <functional>
#include <memory>

namespace lmct {

/**
 * Opens a trace file: maps it, decodes and checks the header, scans every frame and indexes
 * the good records, recovering from damage as far as the bytes allow (spec §7).
 *
 * Refusals (load() returns nullptr and sets `*error` to "FILE: offset N: expected ..., found
 * ..."): unreadable file, empty file, a first frame that is not a msgpack map, a first frame that
 * is a record, a header without the `LMCT` magic, `format_version` other than 1.
 *
 * Everything else opens, with diagnostics: a truncated tail keeps every complete record; a
 * malformed or mistyped record is skipped; a corrupted length prefix or a run of garbage is
 * skipped up to the next frame that decodes as a record (resync); a header rewritten in place by
 * LMCache's first recorder is salvaged; an unknown `trace_schema_version` or `level` is a warning.
 * Hostile frames (deep nesting, containers claiming more elements than there are bytes, 4 GiB
 * lengths) are refused by limits without allocating from claimed sizes.
 *
 * Thread-safety: load() is reentrant; call it on a worker thread for large files. The progress
 * callback is called on the loading thread.
 */
/** Options of TraceLoader::load(). */
struct TraceLoadOptions {
    /** Called now and then with bytes scanned and records indexed so far. */
    std::function<void(qint64 bytesDone, qint64 bytesTotal, qint64 records)> progress;
    /** When it becomes true, loading stops and the document is marked partial. */
    const std::atomic_bool *cancel = nullptr;
    /** Stored diagnostics are capped; the rest are counted only. */
    int maxDiagnostics = 10000;
    /**
     * Also check every record's arguments completely (a second, parallel pass). Indexing reads
     * only `t_mono`, `t_wall`, `qualname` and the start of `args`; this pass finds damage inside
     * `args`, flags such records RecordStore::BadArgs and adds a diagnostic. It costs a full
     * msgpack walk of the file (about 5x the index time on large records).
     */
    bool validateArgs = true;
    /**
     * Live follow: the file is still being written. An incomplete frame at the end (up to
     * 64 MiB) is waited for instead of diagnosed, a missing header is waited for, and scan()
     * leaves the document loading. Set by refresh().
     */
    bool follow = false;
};

class TraceLoader {
public:
    using Options = TraceLoadOptions;

    /** Opens `path`, reads its header and indexes every record: open() then scan(). */
    static std::shared_ptr<TraceDocument> load(const QString &path, QString *error,
                                               const Options &options = Options());

    /**
     * Opens `path` and reads only its header; the document is returned at once, empty and
     * loading, so it can be shown while scan() fills it on a worker thread (records appear
     * progressively). Refusals as for load(). With Options::follow, a file without a complete
     * header yet is not refused: refresh() reads the header once it is there.
     */
    static std::shared_ptr<TraceDocument> open(const QString &path, QString *error,
                                               const Options &options = Options());
    /**
     * Indexes the records of an opened document from where the last scan stopped to the end of
     * the file as mapped, then (unless following) checks arguments and marks the document done.
     * Call from one thread at a time per document; readers may read concurrently.
     */
    static void scan(TraceDocument *doc, const Options &options = Options());
    /**
     * Live follow: maps the file again if it grew and indexes the new complete records.
     * Returns the number of records added, or -1 when the header turned out not to be a
     * trace's (with `*error` set). The document stays loading until stopFollowing().
     */
    static int refresh(TraceDocument *doc, QString *error, const Options &options = Options());
    /** Ends a live follow: the document is no longer loading. */
    static void stopFollowing(TraceDocument *doc);
    /** Same, over bytes in memory (tests, fuzzing); `name` is used in messages. */
    static std::shared_ptr<TraceDocument> loadBytes(const QByteArray &bytes, const QString &name,
                                                    QString *error,
                                                    const Options &options = Options());

    /** Whether the file starts like a trace (spec §1 sniffing): header frame map at offset 4. */
    static bool looksLikeTrace(const QByteArray &firstBytes);
};

}  // namespace lmct
