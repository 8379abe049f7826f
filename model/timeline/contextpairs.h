#pragma once

#include "util/sortedtimes.h"

#include <QByteArrayView>
#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>
#include <vector>

namespace lmct {

class RecordStore;
class TraceDocument;

/**
 * The spans of one context manager traced as two calls, `<family>.__enter__` and
 * `<family>.__exit__` (LMCache: `StorageManager.read_prefetched_results`).
 *
 * Matching follows LMCache's replay: one FIFO queue per identical key list; an `__enter__`
 * joins the queue of its `keys` argument, an `__exit__` closes the oldest open `__enter__` of the
 * same key list, in file order. Pairs may interleave. What is left are unmatched enters (e.g. a
 * truncated trace) and unmatched exits (no open enter with those keys).
 *
 * Key-list identity is the msgpack value of the `keys` argument (the whole `args` map when there
 * is no `keys`), found in the mapped file without decoding it (MsgpackSkim) and hashed to 128
 * bits on worker threads, in one pass over the bodies. The hash ignores encoding widths (array16
 * vs array32, bin8 vs bin32, uint64 vs fixint, float32 vs float64), so key lists that Python
 * would find equal after decoding are the same; two different key lists would have to collide
 * on 128 bits (odds about n²/2^129 for n key lists) to be confused.
 *
 * Spans are sorted by (start, enter record). `end` is the exit's t_mono, clamped to `start` when
 * the exit's t_mono stepped back before its enter's. Each span gets a `depth`: the row of a
 * greedy interval layout (lowest free row), the same at every zoom.
 *
 * Memory: ≈ 48 bytes per span (span, start/end rank tables, block maxima). While
 * build() runs it needs ≈ 25 bytes per `__enter__`/`__exit__` call besides (its record index,
 * key-list identity, queue link and matched flag) and, per distinct key list, a 24-byte slot of a
 * table kept one third to two thirds full (36 to 72 bytes).
 *
 * Ownership: build() returns a shared immutable object with no pointer into the document.
 * Thread-safety: build() and match() are reentrant (run them on a worker); the result is
 * immutable and its const methods may be called from any thread.
 */
class ContextPairs {
public:
    struct Span {
        double start = 0.0;  ///< t_mono of the __enter__ record (seconds)
        double end = 0.0;    ///< t_mono of the __exit__ record, >= start
        qint32 enter = -1;   ///< record index of the __enter__
        qint32 exit = -1;    ///< record index of the __exit__
        qint32 depth = 0;    ///< layout row, 0 = top
        double duration() const { return end - start; }
    };

    /** One __enter__ or __exit__ call in file order; `key` is the key-list identity bytes. */
    struct Event {
        qint32 record = -1;
        double t = 0.0;
        bool enter = true;
        QByteArrayView key;
    };

    /**
     * Context-manager families present in `store`: each `X` (full qualname prefix) for which an
     * `X.__enter__` or `X.__exit__` qualname exists, in Qualname flow order.
     */
    static QStringList families(const RecordStore &store);

    /**
     * Pairs the records of `family` (a full qualname prefix, see families()) of `doc` among its
     * first `doc.records().size()` records (read once: the document may grow meanwhile), or,
     * when the file was cut short while open, those before its new end
     * (TraceDocument::readableRecordCount).
     * Returns nullptr when `cancel` became true meanwhile.
     */
    static std::shared_ptr<const ContextPairs> build(const TraceDocument &doc,
                                                     const QString &family,
                                                     const std::atomic_bool *cancel = nullptr);

    /** Pairs `events` (file order; events with a non-finite t are ignored). The key bytes are
     *  only read during the call. */
    static std::shared_ptr<const ContextPairs> match(const std::vector<Event> &events,
                                                     const QString &family = QString());

    /** The full qualname prefix, e.g. `lmcache…StorageManager.read_prefetched_results`. */
    const QString &family() const { return m_family; }

    const std::vector<Span> &spans() const { return m_spans; }
    int matchedCount() const { return int(m_spans.size()); }
    /** Record indices of enters never closed / exits that closed nothing, by (t_mono, record). */
    const std::vector<qint32> &unmatchedEnters() const { return m_unmatchedEnters; }
    const std::vector<qint32> &unmatchedExits() const { return m_unmatchedExits; }
    /** Their t_mono, in the same order (for per-column counts and drawing). */
    const SortedTimes &unmatchedEnterTimes() const { return m_unmatchedEnterTimes; }
    const SortedTimes &unmatchedExitTimes() const { return m_unmatchedExitTimes; }

    /** Number of layout rows (largest depth + 1; 0 without spans). */
    int depthCount() const { return m_depthCount; }
    /** Longest span duration (seconds). */
    double maxDuration() const { return m_maxDuration; }

    /** Spans overlapping [from, to] (start <= to and end >= from). */
    int overlapCount(double from, double to) const;
    /**
     * For k in [0, n): out[k] = spans overlapping column [origin + k·w, origin + (k+1)·w), i.e.
     * start < column end and end >= column start. O(n · log) whatever the number of spans;
     * O(n) with a `tolerance` (column edges snapped, see SortedTimes::edgeRanks).
     */
    void overlapCounts(double origin, double width, int n, int *out, double tolerance = 0.0) const;

    /**
     * Indices (into spans()) of the spans overlapping [from, to], in start order. Returns false
     * (and leaves `out` empty) when there are more than `limit`. Output-sensitive: O((k + log n)
     * · 32) through a max-end tree over blocks of 32 spans.
     */
    bool spansIn(double from, double to, int limit, std::vector<int> *out) const;

    /**
     * Index of the span whose enter or exit is `record`; -1 when it has none. O(spans): no
     * per-record table is kept for it (16 bytes a span, 19 MB on a 10 M record trace), the views
     * find spans by time (spansIn()).
     */
    int spanOfRecord(int record) const;

    qint64 memoryBytes() const;

    /**
     * The key-list identity bytes of record `record` of `doc`, as build() pairs them: the
     * msgpack value of its `keys` argument (of the whole `args` when it has no `keys`), a view
     * into the document's mapped file (valid while `doc` lives); empty when the body has
     * neither. For match() on a chosen subset of records. Reentrant.
     */
    static QByteArrayView keyListBytes(const TraceDocument &doc, int record);

    /** The identity of a key list: 128 bits of MsgpackSkim::canonicalHash (see above). */
    struct KeyId {
        quint64 a = 0, b = 0;
        bool operator==(const KeyId &o) const { return a == o.a && b == o.b; }
    };
    /** KeyId of a msgpack value (of the bytes themselves when they are not msgpack). */
    static KeyId keyId(QByteArrayView value);

private:
    /**
     * Pairs n events in file order, event k read as eventAt(k) (an Event whose `key` is not
     * used) with identity keys[k]. Takes `keys` to free it before the spans are laid out.
     */
    template <typename EventAt>
    static std::shared_ptr<const ContextPairs> matchKeys(size_t n, EventAt eventAt,
                                                         std::vector<KeyId> keys,
                                                         const QString &family);
    void finish();

    QString m_family;
    std::vector<Span> m_spans;
    std::vector<qint32> m_unmatchedEnters;
    std::vector<qint32> m_unmatchedExits;
    SortedTimes m_unmatchedEnterTimes;
    SortedTimes m_unmatchedExitTimes;
    SortedTimes m_starts;        // span starts (ascending, as m_spans)
    SortedTimes m_ends;          // span ends, sorted
    std::vector<double> m_tree;  // max end per node over blocks
    int m_leaves = 0;            // leaf count of m_tree (power of 2)
    int m_depthCount = 0;
    double m_maxDuration = 0.0;
};

}  // namespace lmct
