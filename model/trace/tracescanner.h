#pragma once

#include "trace/frameprobe.h"
#include "trace/recordindexer.h"
#include "trace/tracedocument.h"
#include "trace/traceloader.h"

#include <QList>
#include <QPair>
#include <QString>
#include <vector>

namespace lmct {

/**
 * The frame-reading state machine over one document's mapped file: from the document's scan
 * offset to the end of the current mapping it hops over the length-prefixed frames (spec §1),
 * parses each record's index fields (RecordIndexer) on every core, appends the good records to
 * the document's RecordStore in file order, and recovers from damage as it meets it (spec §7:
 * resync, a truncated tail, a length prefix too long, a frame written short, a file that shrinks
 * while mapped). It is a FrameProbe over the mapping, its end moved in when the file shrinks.
 * TraceLoader::scan() then has ScanReport report times, order and the damage, and ArgsCheck
 * check every record's arguments; TraceHeaderReader uses its frame tests and diag() to find where
 * the records of a rewritten header start.
 *
 * Units: offsets and lengths are bytes of the file (a frame's offset is that of its 4-byte
 * big-endian length prefix, its length that of its body); record indices count from 0 in file
 * order; `t_mono` and `t_wall` are seconds.
 *
 * Ownership: holds references to the document (its TraceFile, RecordStore and ScanState) and to
 * the options; both outlive it. One is made per scan, on the stack; what a scan must remember
 * for the next one (live follow) is in TraceDocument::ScanState.
 *
 * Thread-safety: one scanner per document at a time, on the thread that scans; the parse runs
 * on ComputePool (ParallelChunks) inside its calls. Readers of the document may read meanwhile:
 * records are appended to the store and the scan offset is published with release ordering.
 *
 * Errors: nothing is refused or thrown here. Damage becomes a Diagnostic on the document (byte
 * offset, what was expected, what was found) and is counted in its Damage; a cancel (Options::
 * cancel) marks the document partial.
 *
 * LMCache source: the frames are written by LMCache's trace recorder (`trace/format.py`: a
 * 4-byte big-endian length, then one msgpack map per record).
 */
class TraceScanner : public FrameProbe {
    /** A frame found by hopping: its offset and body length (bytes). */
    struct Frame {
        qint64 off;
        quint32 len;
    };

public:
    TraceScanner(TraceDocument &doc, const TraceLoader::Options &opt);

    /**
     * Indexes record frames from the document's scan offset to the end of the mapping. Damage is
     * diagnosed as it is met; while following (Options::follow) an incomplete frame at the end is
     * left for the next scan instead.
     */
    void readRecords();

    /** Adds a diagnostic to the document (stored up to Options::maxDiagnostics). */
    void diag(Diagnostic::Severity s, Diagnostic::Kind k, qint64 offset, const QString &msg);

    /**
     * Looks whether the file shrank since the last look (see clipToShrink); true when it did
     * now. The checks after the scan (ArgsCheck) ask before and after their pass.
     */
    bool checkShrink();

    /** Whether the file shrank while mapped: scanEnd() is then its new size. */
    bool hasShrunk() const { return m_shrunk; }

private:
    // The steps below are called from tracescanner.cpp only, where they are defined; inline, so
    // that the per-frame ones are inlined into the scan loops.

    /**
     * Checks whether the file shrank under us (TraceFile::checkShrunk: fstat and absorbed
     * SIGBUS faults); if so, the end of the scan moves to its new size, the document reports it
     * once, and true is returned. What lies beyond reads as zeros and is not the file's: it is
     * not there, not damage.
     */
    inline bool clipToShrink(bool force = false);

    /** Adds to the damage counts (rare: only on damage). */
    inline void damage(qint64 bytes, qint64 frames, qint64 recovered = 0, bool partial = false);

    /** Appends one good record (frame at `off`, body length `len`) and follows its times. */
    inline void append(qint64 off, quint32 len, const RecordIndexer::Fields &f, int knownId = -1);

    /**
     * Hops over up to `maxFrames` frames (and at most kBatchBytes) from `off` that lie wholly
     * inside the mapping, into `frames`; returns the offset after the last one. When a bad
     * length or a cut-off prefix follows, the frame before it is left out (its length may be the
     * damaged one: a length a few bytes too long swallows the start of the next frame) and the
     * careful path checks it.
     */
    inline qint64 hop(qint64 off, std::vector<Frame> &frames, int maxFrames) const;

    /**
     * The fast path: hops over up to kBatch frames that lie wholly inside the file, parses them
     * on every core, and appends the good ones in order. Returns the offset of the first frame
     * that needs the careful path (damage, end of file), or the end of the batch.
     *
     * Hopping is a chain of dependent loads from memory not yet in the cache (each frame's
     * length gives the next frame's offset), so it cannot itself be split, and the appends are
     * serial; so they overlap as a pipeline of work items: while one batch is appended, the next
     * is parsed and the one after it hopped. A batch starts the pipeline again (parseBatch())
     * after damage, a shrink or a batch too small to split.
     */
    inline qint64 fastBatch(qint64 off);

    /**
     * Takes the frames from `off` (hopped already beside the previous batch's work, or hopped
     * now) into m_frames and parses them, hopping the next batch beside the parse. False when no
     * frame from `off` lies wholly inside the mapping.
     */
    inline bool parseBatch(qint64 off);

    /**
     * Appends the parsed batch m_frames (ending at `end`) in order up to its first frame that
     * needs the careful path, or (`shrank`) the first no longer wholly inside the file; returns
     * the offset there, or `end`.
     */
    inline qint64 appendParsed(qint64 end, bool shrank);

    /** Parses frames[from, to) into `fields` and their qualname ids among those interned. */
    inline void parseRange(const std::vector<Frame> &frames,
                           std::vector<RecordIndexer::Fields> &fields, std::vector<int> &ids,
                           int from, int to) const;

    /** Ranges of a batch of `n` frames to parse as separate work items; none: one thread. */
    static inline QList<QPair<int, int>> parseChunks(int n);

    /** Releases the indexed bytes pending (releaseLater), of batches appended already. */
    inline void releasePending();

    /**
     * Appends the record at frame offset `off` (fields `f`, interned qualname id `id` or -1)
     * with the body length its value fills, up to `x` where a record frame starts: its length
     * prefix is damaged. Flagged AfterResync (append() counts it recovered) and said in a
     * Resync error, `message`.
     */
    inline void keepUpTo(qint64 off, qint64 x, const RecordIndexer::Fields &f, int id,
                         const QString &message);

    /**
     * keepUpTo() for a frame whose value ends at `x`, before the end its prefix claims (too
     * long) or after it (too short).
     */
    inline void keepAtValueEnd(const Frame &frame, qint64 x, const RecordIndexer::Fields &f,
                               int id = -1);

    /**
     * Where the record value of `frame` ends, when a record frame starts there and that is not
     * the frame's end: before it (its length prefix is too long), or, when the value is cut
     * short at the frame's end, at the first record frame after it, the value being whole up
     * to there (its length prefix is too short); within kMaxKeptBody; else -1. Full parses:
     * only for a frame followed by one that is no record.
     */
    inline qint64 valueEndsAtRecordFrame(const Frame &frame) const;

    /**
     * Whether the body of `frame` is one whole record value that ends exactly at the frame's end
     * (a Full parse; true past kMaxKeptBody, which is not parsed): its length prefix is right.
     * While following, a frame not followed by a record frame is kept only then: bytes not yet
     * written cannot tell a prefix too long or too short from one that is right.
     */
    inline bool valueFillsFrame(const Frame &frame) const;

    /**
     * Skips from `*off` to the next frame that decodes as a record, reporting why (`what`) and
     * the skipped byte range; the next record is flagged AfterResync. When the bytes skipped
     * (after the frame's length prefix) are exactly one record, that record is kept instead
     * (flagged AfterResync) and the diagnostic says so. False when no record frame follows
     * (`*off` unchanged).
     */
    inline bool resync(qint64 *off, const QString &what);

    /**
     * The longest record value looked for under a damaged length prefix (bytes): a crafted
     * value of 3e9 nils up to the next frame would take a parse of seconds and keep its pages
     * resident.
     */
    static constexpr qint64 kMaxKeptBody = 64 << 20;

    /** A frame this long at the end of a followed file is waited for, not resynced over. */
    static constexpr qint64 kMaxWaitedFrame = 64 << 20;

    /**
     * Indexed bytes need not stay in the RSS (the table reads a few back; the page cache keeps
     * them): [from, from + length) joins the range the next parallel batch releases beside its
     * parsing (TraceFile::releaseResident costs about as much as hopping). A range that does not
     * continue the pending one, or length 0, releases the pending one now.
     */
    inline void releaseLater(qint64 from, qint64 length);

    TraceDocument &m_doc;
    const TraceLoader::Options &m_opt;
    RecordStore &m_store;
    TraceDocument::ScanState &m_st;
    bool m_shrunk = false;     // the file shrank while mapped: m_size is its new end
    quint64 m_faultsSeen = 0;  // MappingGuard::faultCount() at the last look (clipToShrink)
    quint32 m_clipCalls = 0;   // clipToShrink() calls without a look

    static constexpr int kBatch = 1 << 15;  // frames per fast batch at most
    static constexpr int kMinBatch = 4;
    int m_batchFrames = kBatch;  // frames the next fast batch may take (fastBatch)
    std::vector<Frame> m_frames;
    qint64 m_parsedFrom = -1;          // where m_frames starts when it is parsed, to append
    qint64 m_parsedEnd = -1;           // the offset after m_frames then
    std::vector<Frame> m_nextFrames;   // the batch after m_frames, hopped while it was parsed
    std::vector<Frame> m_afterFrames;  // the batch after m_nextFrames, hopped meanwhile
    qint64 m_nextFrom = -1;            // where m_nextFrames starts (-1: none)
    qint64 m_nextEnd = -1;             // the offset after m_nextFrames
    qint64 m_releaseFrom = 0;          // indexed bytes not yet released (releaseLater)
    qint64 m_releaseLength = 0;
    std::vector<RecordIndexer::Fields> m_fields;
    std::vector<int> m_ids;  // qualname id found by the parse threads, or -1
    std::vector<RecordIndexer::Fields> m_nextFields;  // of m_nextFrames, parsed meanwhile
    std::vector<int> m_nextIds;
};

}  // namespace lmct
