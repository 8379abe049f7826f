#pragma once

#include "cache/keyanalysis.h"
#include "cache/requestanalysis.h"

#include <QString>
#include <QStringList>
#include <array>
#include <atomic>
#include <memory>
#include <vector>

namespace lmct {

class TraceDocument;

/**
 * What looks wrong in a storage trace, computed in file order, each item with the record(s) to
 * click through to.
 *
 * Kinds (kindName() gives the JSON names):
 * - FinishWithoutReserve: a key of a finish_write with no open reservation (never reserved, or
 *   its reservation already finished or aborted); one item per key occurrence. A reservation
 *   opens at reserve_write / reserve_write_with_status and closes at finish_write or abort_write
 *   of the key (a second reserve while one is open keeps it open).
 * - ReserveWithoutFinish: keys still reserved at the end of the trace (neither finish_write nor
 *   abort_write after their reservation); one item per key, at its reservation. A key reserved
 *   again after a finish_write of it is not one: reserve_write(mode="new") skips keys already
 *   stored and the finish_write after it lists only the others (KeyAnalysis::Key::reservedAgain;
 *   counted in alreadyStored()). finish_write
 *   records without keys (newest builds with several L1 managers) cannot be attributed: a
 *   reservation followed by such a record may have been finished by it and is not reported
 *   (keylessFinishes() says how many there were; suppressedReservations() how many were spared).
 *   A finish_write whose arguments are damaged (KeyAnalysis::lastDamagedFinish()) spares the
 *   reservations before it the same way: the keys after the damage are not seen.
 * - ExitWithoutEnter / EnterWithoutExit: read_prefetched_results.__exit__ / __enter__ left
 *   unmatched by ContextPairs (FIFO per identical key list), for every context-manager family of
 *   the trace; one item per record.
 * - ReadNeverWritten: distinct keys read (read_prefetched_results.__enter__ or a
 *   finish_read_prefetched that is a read, KeyAnalysis::FinishRole::Read) before any finish_write
 *   of them in the trace (never written, or written only later); one item per key, at its first
 *   such read.
 * - TimeBackwards: records whose t_mono is below the previous record's (file order); the item
 *   holds both records.
 * - Gap: silences between consecutive records (file order) longer than kGapFactor × the median
 *   of the positive inter-arrival times, while work is open: a reservation of a key not stored
 *   yet without its finish_write / abort_write, or a read_prefetched_results.__enter__ without
 *   its __exit__, opened at or before the record before the silence and closed at or after the
 *   one after it. A reservation spans from the latest reserve of the key before its close.
 *   Work never closed (a reservation without finish_write / abort_write, a reserve followed by
 *   another of the key before any close, an __enter__ without __exit__) spans no silence: its
 *   extent is unknown and its own kind reports it (one lost finish_write must not make every
 *   later idle period a gap). Idle time between
 *   bursts, when nothing is in flight, is no gap. Possibly lost events. The item holds the
 *   records before and after the silence.
 * - HitDisagrees: requests whose PrefetchHandle (of their release_prefetch_task or
 *   cancel_prefetch_task) tells another L1 prefix hit than the calls (RequestAnalysis::
 *   hitCheck()); one item per request, at the handle's record, with its submit as second record.
 *
 * Counts are exact; at most kMaxItemsPerKind items are kept per kind (truncated() tells).
 * Items are sorted by first record.
 *
 * Ownership: build() returns a shared immutable object with no pointer into the document.
 * Thread-safety: build() is reentrant (run it on a worker); the result is immutable.
 */
class AnomalyReport {
public:
    enum class Kind : quint8 {
        FinishWithoutReserve,
        ReserveWithoutFinish,
        ExitWithoutEnter,
        EnterWithoutExit,
        ReadNeverWritten,
        TimeBackwards,
        Gap,
        HitDisagrees,
    };
    static constexpr int kKindCount = 8;
    static constexpr double kGapFactor = 20.0;
    static constexpr int kMaxItemsPerKind = 100000;

    /** "finish_without_reserve", "reserve_without_finish", "exit_without_enter",
     *  "enter_without_exit", "read_never_written", "time_backwards", "gap", "hit_disagrees". */
    static QString kindName(Kind k);
    /** A short description for people. */
    static QString kindDescription(Kind k);

    struct Item {
        Kind kind = Kind::Gap;
        qint32 record = -1;   ///< the record to show
        qint32 record2 = -1;  ///< a second record (TimeBackwards, Gap: the later one;
                              ///< HitDisagrees: the submit), or -1
        qint32 key = -1;      ///< KeyAnalysis key id (HitDisagrees: request index), or -1
        double t = 0.0;       ///< t_mono of `record`
        double value = 0.0;   ///< TimeBackwards: step back (s); Gap: silence (s)
    };

    using Progress = KeyAnalysis::Progress;

    /** Analyses the first keys.recordCount() records of `doc` (which `keys` was built from).
     *  `requests` (built from `keys`) gives HitDisagrees; when null, it is built here if the
     *  trace has release/cancel records. Returns nullptr when `cancel` became true meanwhile. */
    static std::shared_ptr<const AnomalyReport> build(
        const TraceDocument &doc, std::shared_ptr<const KeyAnalysis> keys,
        const Progress &progress = {}, const std::atomic_bool *cancel = nullptr,
        std::shared_ptr<const RequestAnalysis> requests = nullptr);

    qint64 count(Kind k) const { return m_counts[size_t(k)]; }
    qint64 totalCount() const;
    bool truncated(Kind k) const { return count(k) > kMaxItemsPerKind; }
    const std::vector<Item> &items() const { return m_items; }
    /** The records of an item ([record] or [record, record2]). */
    static std::vector<int> records(const Item &item);
    /** A one-line explanation of an item, e.g. "finish_write of 3f2a…/Qwen/Qwen3-8B/rank 0/2
     *  with no open reservation". */
    QString message(const Item &item) const;

    /** The key analysis the report was built from. */
    const std::shared_ptr<const KeyAnalysis> &keys() const { return m_keys; }
    qint64 keylessFinishes() const { return qint64(m_keys->keylessFinishes().size()); }
    qint64 suppressedReservations() const { return m_suppressed; }
    /** Keys left reserved after an earlier finish_write (already stored; not reported). */
    qint64 alreadyStored() const { return m_alreadyStored; }
    /** Median positive inter-arrival time (s) and the gap threshold (s); 0 when undefined. */
    double medianInterArrival() const { return m_median; }
    double gapThreshold() const { return m_median * kGapFactor; }

private:
    void add(const Item &item);

    std::shared_ptr<const KeyAnalysis> m_keys;
    std::shared_ptr<const RequestAnalysis> m_requests;
    qint64 m_alreadyStored = 0;
    std::array<qint64, kKindCount> m_counts{};
    std::vector<Item> m_items;
    qint64 m_suppressed = 0;
    double m_median = 0.0;
};

}  // namespace lmct
