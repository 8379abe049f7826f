#pragma once

#include "trace/recordstore.h"

#include <vector>

namespace lmct {

/**
 * The `t_mono` values (seconds) of one timeline lane, read from the RecordStore through the
 * lane's record indices instead of copied: the values of the lane's BasicSortedTimes
 * (TimelineIndex::Lane::times). Position p holds record `records()[p]`; the records are sorted
 * by (t_mono, record index), so the values ascend.
 *
 * Memory: 4 bytes per record (the index), where a copy of the times cost 12 (10 M records:
 * 80 MB less).
 *
 * Ownership: holds `store` by pointer, without owning it; TimelineIndex keeps the store alive
 * for as long as its lanes. Thread-safety: immutable; reads only records the store had published
 * (below a size() read before), so any thread may read while the store grows.
 */
class LaneTimes {
public:
    LaneTimes() = default;
    /** `records`: indices below a size() of `store` read earlier, sorted by (t_mono, index). */
    LaneTimes(const RecordStore *store, std::vector<qint32> records)
        : m_store(store), m_records(std::move(records)) {}

    size_t size() const { return m_records.size(); }
    /** t_mono of the record at sorted position p. */
    double operator[](size_t p) const { return m_store->tMono(m_records[p]); }
    /** Record index (RecordStore row) at each sorted position. */
    const std::vector<qint32> &records() const { return m_records; }
    /** Bytes of heap held: the record indices. */
    qint64 memoryBytes() const { return qint64(m_records.capacity() * sizeof(qint32)); }

private:
    const RecordStore *m_store = nullptr;
    std::vector<qint32> m_records;
};

}  // namespace lmct
