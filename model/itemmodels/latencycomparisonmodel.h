#pragma once

#include "compare/tracecomparison.h"
#include "itemmodels/figuretablemodel.h"

#include <memory>

namespace lmct {

/**
 * The latencies of a TraceComparison (LatencyComparison) as a FigureTableModel: per latency
 * (write latency, time to first reuse, read enter → exit, time to read), one row each for n,
 * p50, p95 and max with A, B, Δ and Δ %; a latency one trace lacks carries the reason. The
 * distributions for an overlay plot are in TraceComparison::latencies() (µs buckets).
 *
 * Ownership: shares the comparison. Thread-safety: GUI thread only.
 */
class LatencyComparisonModel : public FigureTableModel {
    Q_OBJECT
public:
    explicit LatencyComparisonModel(QObject *parent = nullptr);
    /** Shows `c` (resets the model); null shows nothing. */
    void setComparison(std::shared_ptr<const TraceComparison> c);

private:
    std::shared_ptr<const TraceComparison> m_comparison;
};

}  // namespace lmct
