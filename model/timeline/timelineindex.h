#pragma once

#include "timeline/lanetimes.h"
#include "trace/recordstore.h"
#include "util/sortedtimes.h"

#include <QString>
#include <atomic>
#include <memory>
#include <vector>

namespace lmct {

/**
 * The timeline's index of one trace: per lane (one per qualname id) the lane's records sorted by
 * `t_mono`, with a SortedTimes count pyramid so that per-pixel-column counts for any visible
 * range come in O(W) (level of detail, edges snapped to a fraction of a pixel) or exactly in
 * O(W · log k) for W columns, whatever the number of records in view.
 *
 * Records are sorted by (t_mono, file index): `t_mono` may step back slightly in file order.
 * Records whose `t_mono` is not finite are left out of every lane (untimedCount()).
 *
 * Build cost: a parallel counting scatter of the record indices into lanes, then per lane (in
 * parallel) an adaptive insertion sort (O(n + inversions): traces are nearly sorted) that falls
 * back to std::sort when the input is far from sorted, then the rank table.
 *
 * Memory: per record 4 bytes (record index) + 1 to 4 bytes (count pyramid, all levels): 5 to 8
 * bytes; see memoryBytes(). The times are not copied: a lane reads them from the store
 * (LaneTimes). Only a lane far from sorted needs 16 bytes per record of it while it is sorted.
 *
 * Times are `t_mono` seconds. Positions are indices into a lane's sorted arrays; record indices
 * are RecordStore rows (file order).
 *
 * Ownership: build() returns a shared, immutable index that reads `t_mono` from the store it was
 * built from: the store must outlive the index. Pass its owner (e.g. the TraceDocument) as
 * `keepAlive` and the index holds it; without it, the caller guarantees the lifetime.
 * Thread-safety: build() is reentrant (run it on a worker); the index is immutable afterwards
 * and every const method may be called from any thread, also while the store grows.
 */
class TimelineIndex {
public:
    struct Lane {
        quint32 qualnameId = 0;
        QString qualname;
        BasicSortedTimes<LaneTimes> times;  ///< sorted t_mono of the lane's records

        /** Record index (RecordStore row) at each sorted position. */
        const std::vector<qint32> &records() const { return times.values().records(); }
    };

    /**
     * Builds the index of the first `store.size()` records (read once at the start: the store
     * may grow meanwhile) on QThreadPool::globalInstance(), blocking the caller. Returns nullptr
     * when `cancel` became true meanwhile. `keepAlive`: the owner of `store`, held by the index
     * (see the class comment).
     */
    static std::shared_ptr<const TimelineIndex> build(const RecordStore &store,
                                                      const std::atomic_bool *cancel = nullptr,
                                                      std::shared_ptr<const void> keepAlive = {});

    /**
     * Builds the index of the records listed in `records` (ascending record indices, e.g. a
     * filter's result; indices past `store.size()` or negative are ignored), like build(): a
     * lane per qualname id of the store, blocking the caller. Cost O(records.size()), whatever
     * the size of the store. Returns nullptr when `cancel` became true meanwhile.
     */
    static std::shared_ptr<const TimelineIndex> buildSubset(
        const RecordStore &store, const std::vector<int> &records,
        const std::atomic_bool *cancel = nullptr, std::shared_ptr<const void> keepAlive = {});

    /** One lane per qualname id, indexed by id. */
    int laneCount() const { return int(m_lanes.size()); }
    const Lane &lane(int qualnameId) const { return m_lanes[size_t(qualnameId)]; }

    /** Records in lanes (all records with a finite t_mono). */
    qint64 recordCount() const { return m_recordCount; }
    /** Records left out because their t_mono is NaN or infinite. */
    qint64 untimedCount() const { return m_untimed; }
    /** Smallest and largest indexed t_mono (0 when empty). */
    double minTime() const { return m_min; }
    double maxTime() const { return m_max; }

    /**
     * Median of (t_wall − t_mono) over a sample of records: the offset that turns a `t_mono`
     * into an approximate wall-clock time (Unix seconds) for axis labels. A record's own
     * `t_wall` stays the truth for it (NTP may move the wall clock during a trace).
     */
    double wallOffset() const { return m_wallOffset; }

    /** Records of `lane` with t_mono in [from, to). */
    int countIn(int lane, double from, double to) const {
        return m_lanes[size_t(lane)].times.countIn(from, to);
    }
    /**
     * Per-column counts of `lane`, exact (tolerance 0) or from the count pyramid with column
     * edges snapped by at most tolerance/2 of a column (see SortedTimes::columnCounts).
     */
    void columnCounts(int lane, double origin, double width, int n, int *out,
                      double tolerance = 0.0, std::vector<double> *edgesUsed = nullptr) const {
        m_lanes[size_t(lane)].times.columnCounts(origin, width, n, out, tolerance, edgesUsed);
    }

    /**
     * Sorted position in `lane` of the record nearest to `t` within `maxDistance` seconds;
     * -1 when none. Ties go to the earlier record.
     */
    int nearestPosition(int lane, double t, double maxDistance) const;

    /** Sorted position of `record` in its lane; -1 when it is not indexed. */
    int positionOf(const RecordStore &store, int record) const;

    /** Bytes of heap held by the lanes. */
    qint64 memoryBytes() const;

private:
    /** build() over record indices recordAt(0 .. n−1), ascending. */
    template <typename RecordAt>
    static std::shared_ptr<const TimelineIndex> buildOf(const RecordStore &store, int n,
                                                        RecordAt recordAt,
                                                        const std::atomic_bool *cancel,
                                                        std::shared_ptr<const void> keepAlive);

    std::shared_ptr<const void> m_keepAlive;  // the store's owner, when the builder gave it
    std::vector<Lane> m_lanes;
    qint64 m_recordCount = 0;
    qint64 m_untimed = 0;
    double m_min = 0.0;
    double m_max = 0.0;
    double m_wallOffset = 0.0;
};

}  // namespace lmct
