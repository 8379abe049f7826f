#pragma once

#include <QString>
#include <QtGlobal>

namespace lmct {

class TraceDocument;

/**
 * How damaged a loaded trace is, in the counts a view that puts its figures beside another
 * trace's (the Compare pane, `lmct compare`) states next to them (docs/damage.md): records whose
 * arguments do not decode completely (kept, flagged RecordStore::BadArgs by the argument check),
 * frames skipped (records lost) and the bytes skipped with them, a last record cut short (a
 * truncated tail: a Diagnostic::Kind::Truncated, its bytes skipped), records recovered after a
 * resync or a rewritten header, and a file that shrank while it was read.
 *
 * Units: records, frames, bytes. Thread-safety: a value type; of() reads the document's
 * records and damage counts (any thread, once the load is done: counts taken then).
 */
struct DamageSummary {
    qint64 records = 0;          ///< records the figures cover: read, kept and still in the file
    qint64 lostRecords = 0;      ///< records read but past the end of a file that shrank since
    qint64 badArgsRecords = 0;   ///< kept records with damaged arguments (RecordStore::BadArgs)
    qint64 skippedFrames = 0;    ///< frames skipped: records lost
    qint64 skippedBytes = 0;     ///< bytes in no good record nor the header
    qint64 recoveredFrames = 0;  ///< records read right after a resync or header recovery
    bool tailCut = false;        ///< the file ends inside a frame: its last record is cut short
    qint64 shrunkTo = -1;        ///< the size (bytes) the file shrank to while read; -1: did not
    bool argsChecked = false;    ///< every record's arguments were checked (badArgsRecords is all)

    /** Whether anything above says the file is damaged. */
    bool isDamaged() const {
        return badArgsRecords > 0 || skippedFrames > 0 || skippedBytes > 0 || recoveredFrames > 0 ||
               shrunkTo >= 0;
    }
    /**
     * "`who` is damaged: 3 records with damaged arguments, 2 frames skipped (412 bytes); its
     * figures cover the 1200 records read", "... is damaged: its last record cut short (1251
     * bytes skipped); ...", "... is damaged: the file shrank to 1048576 bytes while it was read
     * (the last 800 records read are gone); its figures cover the 1200 records read" (`who`
     * e.g. "B (b.lct)"); empty when not damaged.
     */
    QString sentence(const QString &who) const;

    /**
     * The counts of `doc` (one pass over its records' flags and its diagnostics). `covered` is
     * how many records, from the first, the figures stated beside it cover (an analysis's own
     * count, e.g. KeyAnalysis::readableRecordCount(): the file may shrink after it ran), or -1:
     * the records before where the file was last seen to end (TraceDocument::shrunkTo(), no
     * new check), all of them when it did not shrink. The records from `covered` on count in
     * lostRecords when the file shrank.
     */
    static DamageSummary of(const TraceDocument &doc, qint64 covered = -1);
};

}  // namespace lmct
