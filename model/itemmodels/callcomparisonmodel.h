#pragma once

#include "compare/tracecomparison.h"
#include "itemmodels/figuretablemodel.h"

#include <memory>

namespace lmct {

/**
 * The per-call figures of a TraceComparison (CallComparison) as a FigureTableModel: per call,
 * in call-flow order and then the totals row, one row per figure (count, rate, share,
 * inter-arrival p50 and p95, keys per call) with A, B, Δ and Δ %. A call missing from one trace
 * carries the reason ("B has no submit_prefetch_task") on its rows.
 *
 * Ownership: shares the comparison. Thread-safety: GUI thread only.
 */
class CallComparisonModel : public FigureTableModel {
    Q_OBJECT
public:
    explicit CallComparisonModel(QObject *parent = nullptr);
    /** Shows `c` (resets the model); null shows nothing. */
    void setComparison(std::shared_ptr<const TraceComparison> c);

private:
    std::shared_ptr<const TraceComparison> m_comparison;
};

}  // namespace lmct
