#pragma once

#include "cache/keyanalysis.h"
#include "codec/prefetchhandle.h"
#include "codec/rawkeyscanner.h"

#include <QByteArrayView>
#include <atomic>
#include <functional>
#include <utility>
#include <vector>

namespace lmct {

class TraceDocument;

/**
 * The parallel pass of KeyAnalysis over a document's records: picks the scanned records (the
 * key records, and the read_prefetched_results.__exit__ records when the trace has
 * finish_read_prefetched records to place: their key lists only), scans their args with
 * RawKeyScanner on ComputePool (ParallelChunks) and hands the results to a merge callback in file
 * order, batch by batch.
 *
 * Pipeline: while one thread merges batch b (kBatchRecords scanned records), the others scan
 * batch b + 1 in slices of kSliceRecords. After a batch is merged its records' pages are released
 * (TraceDocument::releaseRecordPages): the file stays out of the RSS. Per scanned record a slice
 * keeps its keys (views into the mapped file), its `external_request_id` (submit, release,
 * cancel), its key list hash (KeyListHash: enters, exits, finish_read_prefetched) and, for
 * release/cancel, the PrefetchHandle decoded from its args as a Value (rare records).
 *
 * Units: scan indices (0..scanCount(), file order), document record indices.
 * Ownership: reads the document, which must outlive the pass; slices are valid during the merge
 * callback only (their buffers are reused).
 * Thread-safety: run() is reentrant; the merge callback runs on one thread at a time, in order.
 * Errors: a record whose args do not scan completely keeps the keys found before the damage and
 * counts in Slice::damaged.
 */
class KeyScanPass {
public:
    using Call = KeyAnalysis::Call;
    /** Scanned records merged at a time (scanned in parallel while the previous batch merges). */
    static constexpr int kBatchRecords = 16384;
    /** Scanned records per worker task. */
    static constexpr int kSliceRecords = 512;

    /** What one worker found in a slice of scanned records. */
    struct Slice {
        int from = 0, to = 0;                  ///< scan index range [from, to)
        std::vector<RawKeyScanner::Key> keys;  ///< all keys of the slice, in order
        std::vector<quint32> counts;           ///< keys per scanned record
        std::vector<QByteArrayView> rids;      ///< request id per record (null: none)
        std::vector<quint64> lists;  ///< key list hash per record (enters, exits, finishes)
        std::vector<std::pair<int, PrefetchHandle>> handles;  ///< (scan index, handle), ascending
        qint64 damaged = 0;                                   ///< records not scanned completely
        std::vector<int> damagedAt;                           ///< their scan indices, ascending
    };
    using Merge = std::function<void(const std::vector<Slice> &)>;

    /**
     * Picks the scanned records among the document's first `records` records, whose frames are
     * read from `data` (TraceDocument::fileData(), taken before `records` was counted as
     * readable: a file cut short while open reads as zeros past its new end).
     */
    KeyScanPass(const TraceDocument &doc, const uchar *data, int records);

    /** Key records among them (every scanned record but the exits). */
    qint64 keyRecordCount() const { return m_keyRecords; }
    int scanCount() const { return int(m_records.size()); }
    qint32 recordAt(int si) const { return m_records[size_t(si)]; }
    Call callAt(int si) const { return Call(m_calls[size_t(si)]); }

    /**
     * Scans and merges every batch. `progress` gets 0..100 after a batch when the percentage
     * changed. Returns false when `cancel` became true (some batches left unmerged).
     */
    bool run(const Merge &merge, const std::function<void(int)> &progress,
             const std::atomic_bool *cancel) const;

private:
    void makeSlices(int begin, std::vector<Slice> *slices) const;
    void scanSlice(Slice &sl, const std::atomic_bool *cancel) const;

    const TraceDocument &m_doc;
    const uchar *m_data;
    std::vector<qint32> m_records;  // by scan index
    std::vector<quint8> m_calls;    // Call, by scan index
    qint64 m_keyRecords = 0;
};

}  // namespace lmct
