#pragma once

#include "diagnostic.h"
#include "recordstore.h"
#include "tracefile.h"
#include "traceheader.h"
#include "value.h"

#include <QCache>
#include <QMutex>
#include <memory>

namespace lmct {

/**
 * One opened trace: the mapped file, its header, the index of its good records and the
 * diagnostics found while reading it. Produced by TraceLoader.
 *
 * Arguments are decoded lazily from the mapped bytes by args(), with a small LRU cache.
 *
 * Ownership: share it with std::shared_ptr<const TraceDocument>; every pointer into its data
 * lives as long as the document. Thread-safety: immutable after loading; args() is internally
 * synchronised, every other accessor is read-only. Safe to use from several threads at once.
 */
class TraceDocument {
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

    const TraceHeader &header() const { return m_header; }
    const RecordStore &records() const { return m_records; }
    const DiagnosticList &diagnostics() const { return m_diagnostics; }
    /** Number of diagnostics found, including those beyond the stored cap. */
    qint64 diagnosticCount() const { return m_diagnosticCount; }
    int warningCount() const;
    int errorCount() const;

    /** Largest t_mono of the records (seconds); what `lmcache trace info` calls duration. */
    double duration() const { return m_records.maxTMono(); }

    /** Decodes record `i`'s arguments from the file (cached). */
    std::shared_ptr<const Args> args(int i) const;
    /** Whole frame bytes of record `i` (length prefix and body), a view of the mapping. */
    QByteArray frameBytes(int i) const;

    /** What reading the file had to skip or recover. */
    struct Damage {
        qint64 skippedBytes = 0;     ///< bytes in no good record nor the header
        qint64 skippedFrames = 0;    ///< frames skipped (malformed, bad fields, limits)
        qint64 recoveredFrames = 0;  ///< records read right after a resync or header recovery
        bool partial = false;        ///< loading stopped early (cancelled)
    };
    const Damage &damage() const { return m_damage; }
    qint64 skippedBytes() const { return m_damage.skippedBytes; }
    qint64 skippedFrames() const { return m_damage.skippedFrames; }
    qint64 recoveredFrames() const { return m_damage.recoveredFrames; }
    /** Whether loading stopped early because it was cancelled. */
    bool isPartial() const { return m_damage.partial; }
    /** Offset where the first record frame starts. */
    qint64 recordsStart() const { return m_recordsStart; }

    /** The record index whose frame starts nearest at or before `offset`; -1 when none. */
    int recordNearOffset(qint64 offset) const;

private:
    friend class TraceLoader;
    TraceFile m_file;
    TraceHeader m_header;
    RecordStore m_records;
    DiagnosticList m_diagnostics;
    qint64 m_diagnosticCount = 0;
    Damage m_damage;
    qint64 m_recordsStart = 0;

    mutable QMutex m_cacheMutex;
    mutable QCache<int, std::shared_ptr<const Args>> m_argsCache{512};
};

}  // namespace lmct
