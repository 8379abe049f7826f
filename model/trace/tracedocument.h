#pragma once

#include "codec/value.h"
#include "trace/diagnostic.h"
#include "trace/recordstore.h"
#include "trace/tracefile.h"
#include "trace/traceheader.h"

#include <QCache>
#include <QMutex>
#include <atomic>
#include <memory>

namespace lmct {

/**
 * One opened trace: the mapped file, its header, the index of its good records and the
 * diagnostics found while reading it. Produced by TraceLoader.
 *
 * Arguments are decoded lazily from the mapped bytes by args(), with a small LRU cache.
 *
 * A document can grow while it is shown: records appear progressively while a large file loads
 * and while a live trace is followed (TraceLoader::scan and TraceLoader::refresh append).
 *
 * Ownership: share it with std::shared_ptr<const TraceDocument> (TraceLoader makes every
 * document so): analyses that read the record store later take a share of it
 * (weak_from_this()), e.g. KeyAnalysis. Every pointer into its data lives as long as the
 * document. Thread-safety: one loader thread appends; any thread may read
 * concurrently (RecordStore's rules: only indices below a size() read earlier). diagnostics() and
 * damage() return snapshots; args() is internally synchronised.
 */
class TraceDocument : public std::enable_shared_from_this<TraceDocument> {
public:
    /** Decoded args of one record: the `args` map, or a partial tree and a reason. */
    struct Args {
        Value value;    ///< the record's `args` map (codec tags resolved)
        QString error;  ///< empty when decoded completely
    };

    QString filePath() const { return m_file.fileName(); }
    /** The file name without its directory. */
    QString fileName() const;
    qint64 fileSize() const { return m_file.size(); }
    const uchar *fileData() const { return m_file.data(); }

    /** The header. Fixed once the document is published (a follower may refine it, see
     *  TraceLoader::refresh, only before the first record). */
    const TraceHeader &header() const { return m_header; }
    const RecordStore &records() const { return m_records; }
    /** A snapshot of the diagnostics found so far (capped; see diagnosticCount()). */
    DiagnosticList diagnostics() const;
    /**
     * Grows by one each time a diagnostic already listed is replaced (the notes on times kept
     * current while a trace is followed): a view of diagnostics() refreshes its rows then.
     */
    quint64 diagnosticsRevision() const {
        return m_diagnosticsRevision.load(std::memory_order_acquire);
    }
    /** Number of diagnostics found, including those beyond the stored cap. */
    qint64 diagnosticCount() const;
    /** Warnings and errors found, including those beyond the stored cap. */
    int warningCount() const;
    int errorCount() const;

    /** Largest t_mono of the records (seconds); what `lmcache trace info` calls duration. */
    double duration() const { return m_records.maxTMono(); }

    /** Decodes record `i`'s arguments from the file (cached): decodeArgs() kept. */
    std::shared_ptr<const Args> args(int i) const;
    /**
     * Decodes record `i`'s arguments from the file, not cached (passes that read every record
     * once, e.g. the exports, use it). `error` says why they are partial or missing: the
     * decoder's reason, "no args map", or, for a record whose frame lies past the end of a file
     * that shrank while open, that it is no longer there (the zeros read in its place are not
     * decoded as its bytes; checked only after a failed decode or an absorbed fault: one fstat).
     */
    Args decodeArgs(int i) const;
    /** Whole frame bytes of record `i` (length prefix and body), a view of the mapping. */
    QByteArray frameBytes(int i) const;
    /**
     * Drops this process's resident pages of the file between the frames of records `first`
     * and `last` (indices below records().size(), in either order; the frames of both included),
     * see TraceFile::releaseResident. A pass that reads the arguments of many records calls it
     * on each stretch it has finished, so that a trace read once by an analysis does not stay
     * in the process's RSS (a 1.37 GB trace kept 1.37 GB of file pages in the viewer's RSS
     * after the key analysis). Costs a page fault later if the bytes are read again.
     *
     * Thread-safety: any thread, also while others read those records.
     */
    void releaseRecordPages(int first, int last) const;

    /** What reading the file had to skip or recover. */
    struct Damage {
        qint64 skippedBytes = 0;     ///< bytes in no good record nor the header
        qint64 skippedFrames = 0;    ///< frames skipped (malformed, bad fields, limits)
        qint64 recoveredFrames = 0;  ///< records read right after a resync or header recovery
        bool partial = false;        ///< loading stopped early (cancelled)
    };
    Damage damage() const;
    qint64 skippedBytes() const { return damage().skippedBytes; }
    qint64 skippedFrames() const { return damage().skippedFrames; }
    qint64 recoveredFrames() const { return damage().recoveredFrames; }
    /** Whether loading stopped early because it was cancelled. */
    bool isPartial() const { return damage().partial; }
    /** Bytes of the file indexed so far (the scan position). */
    qint64 scannedBytes() const { return m_scanOffset.load(std::memory_order_acquire); }
    /**
     * Whether every record's arguments were decoded completely while loading
     * (TraceLoadOptions::validateArgs), so that damage inside `args` is diagnosed; false after an
     * index-only load (`lmct info` without --check), a cancelled load, or while following.
     */
    bool argsChecked() const { return m_argsChecked.load(std::memory_order_acquire); }
    /**
     * When the argument check (TraceLoadOptions::validateArgs) was cancelled after every record
     * was indexed: the index of the first record whose arguments it did not check (those before
     * it were all checked; of those from it on, not all were). -1 when the check ran to its end
     * or did not run. The records themselves are all there (isPartial() stays false); a Warning
     * diagnostic says the same.
     */
    int argsCheckCancelledAt() const {
        return m_argsCheckCancelledAt.load(std::memory_order_acquire);
    }
    /** Whether a loader is still appending (initial load or live follow). */
    bool isLoading() const { return m_loading.load(std::memory_order_acquire); }
    /**
     * Whether a scan has read the file to its end once: the initial load (with its argument
     * check) is done. A followed file may grow after, and isLoading() stays true while it is
     * followed. Views that analyse every record wait for it (not for isLoading(), which a
     * followed trace never ends, nor for the scan offset, which a frame still being written
     * keeps short of the file's end).
     */
    bool isReadToEnd() const { return m_readToEnd.load(std::memory_order_acquire); }
    /** Offset where the first record frame starts. */
    qint64 recordsStart() const { return m_recordsStart; }

    /**
     * Size in bytes the file shrank to while it was open (another process truncated it, while
     * it loaded or later), or -1 while it has not been seen to shrink. fileSize() stays the size
     * mapped. Records indexed before it shrank stay; their arguments beyond the new end are not
     * there (args() says so). A Diagnostic::Kind::Shrank error reports it, naming the file, the
     * new and the old size and the offset after which records are no longer readable; it is
     * added by whichever read notices first (the loader, args(), checkShrunk()), and again for
     * each smaller size the file is later seen cut to.
     */
    qint64 shrunkTo() const { return m_file.shrunkTo(); }
    /**
     * Checks now (one fstat, and faults absorbed by MappingGuard) whether the file is shorter
     * than when it was mapped; the size it shrank to (bytes), or -1. See TraceFile::checkShrunk.
     * When it shrank, adds the Kind::Shrank error (once per size, however often called).
     * Cheap enough for a timer (a view checking the file it shows); any thread.
     */
    qint64 checkShrunk() const;
    /**
     * checkRewritten(), said in words for a command or an export to end with: empty when the
     * file did not shrink, else "FILE shrank to N bytes while being read (truncated by another
     * process?)", or, when bytes read were found replaced, "FILE was cut and written again
     * while being read: its bytes from offset N on are not those read" (FILE as given to the
     * loader, not escaped: the caller's output escapes it). `size` receives N (bytes), or -1.
     */
    QString shrinkSentence(qint64 *size = nullptr) const;
    /**
     * checkShrunk(), and when the file did not shrink but changed since it was mapped
     * (TraceFile::changedSinceMapped: its identity, size or change times), a check of the
     * bytes read: the header frame's bytes (a digest taken when it was read) and every
     * record's index fields (t_mono, at its frame offset and length). A file cut and written
     * again past its old size passes a check of the size alone. The first offset whose bytes
     * are no longer those read becomes where the file shrank to (TraceFile::noteRewrittenFrom),
     * with a Kind::Shrank error saying so; a file only appended to passes (and is stamped
     * anew). Returns the size it shrank to, or -1. Reads every record's frame when the file
     * changed (parallel): for the end of a command or an export, not for a timer. Any thread.
     */
    qint64 checkRewritten() const;

    /**
     * Adds `d` unless a diagnostic of the same kind and message is listed already: a fact an
     * analysis finds about the whole trace (e.g. KeyAnalysis: keys without cache_salt under
     * schema 2), told once however often the analysis runs. Any thread.
     */
    void noteOnce(const Diagnostic &d) const;

    /** The record index whose frame starts nearest at or before `offset`; -1 when none. */
    int recordNearOffset(qint64 offset) const;
    /**
     * How many records, from the first, have their whole frame in the file as it is now:
     * records().size() unless the file shrank while open (checkShrunk(), called here: one
     * fstat), else those before its new end (their arguments are still there). Any thread.
     */
    int readableRecordCount() const;
    /** How many records, from the first, have their whole frame before byte `end`. Any thread. */
    int recordsWithin(qint64 end) const;

    /** Loader state kept between scans (for live follow); loader only. */
    struct ScanState {
        quint8 pendingFlags = 0;
        double prevTMono = -1e300;
        qint64 backSteps = 0;
        double worstStep = 0.0;
        int worstIndex = -1;
        qint64 badTimes = 0;  // records whose t_mono/t_wall is not finite or t_mono < 0
        int firstBadTime = -1;
        // While following: where the notes on times are listed (-1: not yet), and what they
        // said, so that a scan that finds more replaces them.
        int timeNoteAt = -1;
        int orderNoteAt = -1;
        qint64 timeNoteCount = 0;
        qint64 orderNoteCount = 0;
        bool headerRead = false;
        bool recovered = false;
    };

private:
    friend class ArgsCheck;
    friend class ScanReport;
    friend class TraceHeaderReader;
    friend class TraceLoader;
    friend class TraceScanner;
    void addDiagnostic(const Diagnostic &d, int cap);
    /**
     * Replaces diagnostic `at` by `d` (its counts by severity follow), or adds `d` when `at` is
     * -1; returns where `d` is, or -1 when it was not stored (the list is at `cap`, or `at` is
     * past it). Notes kept current while a trace is followed (ScanReport::reportOrder).
     */
    int setDiagnostic(int at, const Diagnostic &d, int cap);
    /** addDiagnostic() with m_mutex held; the index `d` got, or -1 when not listed. */
    int appendLocked(const Diagnostic &d, int cap);
    /** Adds a Kind::Shrank diagnostic when the file has shrunk below the sizes noted so far
     *  (any thread). */
    void noteShrink(int cap = 10000) const;
    mutable std::atomic<qint64> m_shrinkNoted{-1};  // smallest size a diagnostic names, or -1
    size_t m_headerDigest = 0;  // qHashBits (seed 0) of the bytes before the records

    TraceFile m_file;
    std::atomic_bool m_argsChecked{false};
    std::atomic<int> m_argsCheckCancelledAt{-1};
    TraceHeader m_header;
    RecordStore m_records;
    std::atomic<quint64> m_diagnosticsRevision{0};  // setDiagnostic() replacements
    mutable QMutex m_mutex;  // guards m_diagnostics, m_diagnosticCount, m_damage
    DiagnosticList m_diagnostics;
    qint64 m_diagnosticCount = 0;  // every diagnostic found, stored or not
    qint64 m_errorTotal = 0;
    qint64 m_warningTotal = 0;
    Damage m_damage;
    qint64 m_recordsStart = 0;
    std::atomic<qint64> m_scanOffset{0};
    std::atomic<bool> m_loading{false};
    std::atomic<bool> m_readToEnd{false};
    ScanState m_scan;

    mutable QMutex m_cacheMutex;
    mutable QCache<int, std::shared_ptr<const Args>> m_argsCache{512};
};

}  // namespace lmct
