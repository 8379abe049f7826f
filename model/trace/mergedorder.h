#pragma once

#include "trace/traceset.h"

#include <QtGlobal>
#include <atomic>
#include <functional>
#include <vector>

namespace lmct {

/**
 * The records of every trace of a TraceSet in one order: interleaved by aligned `t_wall` (each
 * record's `t_wall` plus its trace's offset), what the combined record table and time axis
 * show. Row i names a trace (traceAt) and a record index of that trace (recordAt).
 *
 * Order. Each trace is taken in file order and the traces are merged k-way by a merge key, ties
 * broken by trace index, then record index: stable, and each trace keeps its file order. A
 * record's merge key is the latest aligned t_wall of its trace so far: the largest of its own
 * t_wall, the t_wall of every earlier record of its trace, and the header's `t_wall_start`
 * (when finite), plus the offset. So:
 * - a t_wall that steps back (an NTP step, a clock a little behind on another thread) does not
 *   reorder a trace: the record is placed right after its trace's record with the latest t_wall
 *   so far, at that time (steppedBack() counts such records per trace);
 * - a record whose t_wall is not finite (NaN, infinite) takes the latest t_wall so far, and a
 *   record before any finite t_wall of a trace without a header `t_wall_start` sorts before every
 *   timed record (untimed() counts the records without a finite t_wall);
 * - records never move before their trace's `t_wall_start`.
 *
 * Storage: 4 bytes of record index and 1 byte of trace index per row (2 bytes when the set has
 * more than 256 traces), and per trace its latest t_wall every kCheckpoint records (for rowOf()
 * and rowAtTime()): 5 bytes per row and a little (memoryBytes()).
 *
 * Growing documents (loading, followed). A trace whose document is still loading may still
 * get records, each with a merge key at least its trace's latest so far. update() merges only
 * what cannot change: it stops at the first row that a future record of a loading trace could
 * precede (that trace's latest key, with its trace index in the tie). The records held back are
 * pendingCount(); a later update() appends them once the document has grown past them or stopped
 * loading, so the order only grows at its end while offsets stay. The one case that cannot be
 * bounded: a loading trace with no record and no header `t_wall_start` holds nothing back; if its
 * first record then goes before rows already merged, update() rebuilds the whole order.
 *
 * Offsets: an order is built for the set's offsets; update() with a set whose offsets or
 * traces differ from those rebuilds it (an offset moves a whole trace against the others).
 * TraceSet::revision() tells a caller when to call update().
 *
 * Cost: one pass over every record's t_wall column, O(n log k) for k traces, on the calling
 * thread (a worker: build it off the GUI thread), with progress and cancel. Cancelled, the rows
 * merged so far stay a valid prefix (isComplete() false) and update() goes on from there.
 *
 * Ownership: reads the documents of the set given to each call; keeps their addresses only to
 * tell whether a later set holds the same documents (never dereferenced).
 * Thread-safety: a value. update() changes it: no reader may use it meanwhile (a viewer builds
 * the next one on a worker, or updates a copy, and swaps it in on its thread). const members may
 * be called from several threads at once.
 */
class MergedOrder {
public:
    struct Options {
        /** Records merged and to merge, now and then (the calling thread). */
        std::function<void(qint64 done, qint64 total)> progress;
        /** When it becomes true, merging stops; the rows so far stay a valid prefix. */
        const std::atomic_bool *cancel = nullptr;
    };

    MergedOrder() = default;

    /** The order of every record of `set` published now. */
    static MergedOrder build(const TraceSet &set, const Options &options);
    static MergedOrder build(const TraceSet &set);

    /**
     * Brings the order up to date with `set` (the same traces, maybe grown, maybe other
     * offsets): rebuilds it when the traces or offsets changed or a record would go before
     * merged rows, else appends what can be merged now. Returns the number of rows added (all
     * rows after a rebuild).
     */
    qint64 update(const TraceSet &set, const Options &options);
    qint64 update(const TraceSet &set);

    qint64 size() const { return qint64(m_record.size()); }
    bool isEmpty() const { return m_record.empty(); }
    int traceAt(qint64 row) const {
        return m_wide ? int(m_trace16[size_t(row)]) : int(m_trace8[size_t(row)]);
    }
    int recordAt(qint64 row) const { return int(m_record[size_t(row)]); }
    /** The record's own t_wall plus its trace's offset in `set` (seconds). */
    double alignedWall(const TraceSet &set, qint64 row) const;

    /**
     * The row of record `record` of trace `t` (what a view that shows one trace's record
     * selects in the combined table), or -1 when it is not merged (yet). O(log n) look-ups of
     * merge keys, each reading at most kCheckpoint t_walls.
     */
    qint64 rowOf(const TraceSet &set, int t, int record) const;
    /** The first row whose merge key is at or after `alignedWall` (seconds); size() if none. */
    qint64 rowAtTime(const TraceSet &set, double alignedWall) const;
    /** The merge key of record `record` of trace `t` (merged), aligned t_wall seconds. */
    double keyOf(const TraceSet &set, int t, int record) const;

    /** Traces the order was built for. */
    int traceCount() const { return int(m_cursor.size()); }
    /** Records of trace `t` in the order (a prefix of its file order). */
    qint64 mergedCount(int t) const { return m_cursor[size_t(t)].next; }
    /** Records published but not merged yet (held back by a loading trace, or cancelled). */
    qint64 pendingCount(const TraceSet &set) const;
    /** Records of trace `t` merged so far whose t_wall is earlier than the latest before it
     *  (an earlier record's, or the header's t_wall_start). */
    qint64 steppedBack(int t) const { return m_cursor[size_t(t)].steppedBack; }
    /** Records of trace `t` merged so far without a finite t_wall. */
    qint64 untimed(int t) const { return m_cursor[size_t(t)].untimed; }
    /** Whether every record of every trace is merged and no trace is still loading. */
    bool isComplete() const { return m_complete; }
    /** Whether the last build or update was cancelled. */
    bool wasCancelled() const { return m_cancelled; }
    /** How often update() had to rebuild (offsets changed, or a late record went before). */
    int rebuilds() const { return m_rebuilds; }
    /** Heap bytes held by the rows (capacity of the columns) and the per-trace state. */
    qint64 memoryBytes() const;

private:
    /** Records between two checkpoints of a trace's latest t_wall. */
    static constexpr int kCheckpoint = 512;
    struct Cursor {
        qint64 next = 0;         // first record not merged
        double latest = -1e300;  // latest t_wall so far (raw, without the offset)
        qint64 steppedBack = 0;
        qint64 untimed = 0;
        /** The latest t_wall before record j × kCheckpoint (raw), for keyOf(). */
        std::vector<double> checkpoints;
    };
    void reset(const TraceSet &set);
    bool sameTraces(const TraceSet &set) const;
    void merge(const TraceSet &set, const Options &options);
    void push(int t, int r) {
        m_record.push_back(quint32(r));
        if (m_wide) {
            m_trace16.push_back(quint16(t));
        } else {
            m_trace8.push_back(quint8(t));
        }
    }

    std::vector<quint32> m_record;
    std::vector<quint8> m_trace8;
    std::vector<quint16> m_trace16;
    bool m_wide = false;
    std::vector<Cursor> m_cursor;
    std::vector<const TraceDocument *> m_docs;  // identity only: which documents it was built for
    std::vector<double> m_offsets;
    // The last row's merge key and trace (a later record must not go before it).
    double m_lastKey = -1e300;
    int m_lastTrace = -1;
    bool m_complete = true;
    bool m_cancelled = false;
    int m_rebuilds = 0;
};

}  // namespace lmct
