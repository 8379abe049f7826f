#pragma once

#include "compare/tracecomparison.h"
#include "itemmodels/figuretablemodel.h"

#include <memory>

namespace lmct {

/**
 * The cache figures of a TraceComparison (CacheComparison) as a FigureTableModel, by group:
 * - "at the configured capacity": prefetch hit ratio, capacity (chunks), bytes per object,
 *   policy replayed (text), prefetched keys, prefetch hits (reason: CapacityHit::reason, notes
 *   of assumptions in the policy row's tool tip);
 * - "LMCache's L1 prefix hits": hit ratio, release_prefetch_task records counted (LmcacheAccount);
 * - "matched reads": prefix hit ratio of the requests;
 * - "what-if": the prefetch hit ratio at the what-if's largest capacity (every key resident),
 *   unknown ("—", with CacheComparison::whatIfReason()) for a trace without prefetches;
 * - "reuse distance": p50 and p95 in distinct keys and in seconds (ReuseAnalysis::total());
 * - "anomalies": the count of each kind (AnomalyReport::kindName).
 * The key overlap is KeyOverlapModel's; the what-if curves and histograms for plots are in
 * TraceComparison::cache().
 *
 * Ownership: shares the comparison. Thread-safety: GUI thread only.
 */
class CacheComparisonModel : public FigureTableModel {
    Q_OBJECT
public:
    explicit CacheComparisonModel(QObject *parent = nullptr);
    /** Shows `c` (resets the model); null shows nothing. */
    void setComparison(std::shared_ptr<const TraceComparison> c);

private:
    std::shared_ptr<const TraceComparison> m_comparison;
};

}  // namespace lmct
