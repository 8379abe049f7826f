#pragma once

#include "compare/figurepair.h"
#include "stats/tracestatistics.h"

#include <QString>
#include <array>
#include <vector>

namespace lmct {

/**
 * The per-call figures of two traces side by side, from their TraceStatistics (whole traces,
 * arguments decoded): one row per call present in either trace, matched by short call name
 * (Qualname::shortName, so a changed module prefix still matches), in call-flow order
 * (Qualname::flowLess), then the totals row.
 *
 * Figures (TraceStatistics::CallRow's definitions): count; rate (calls per second over the
 * call's first to last t_mono); share (count / records); inter-arrival p50 and p95 (seconds,
 * linear interpolation); keys per call (mean). A call absent from one trace has count 0 and
 * share 0 there, its other figures unknown, and a reason ("B has no submit_prefetch_task").
 *
 * Thread-safety: a value type, built once; const use from any thread.
 */
class CallComparison {
public:
    enum class Figure : quint8 {
        Count,
        Rate,
        Share,
        InterArrivalP50,
        InterArrivalP95,
        KeysPerCall
    };
    static constexpr int kFigureCount = 6;
    /** JSON names: "count", "rate_per_s", "share", "inter_arrival_p50_s",
     *  "inter_arrival_p95_s", "keys_per_call". */
    static QString figureName(Figure f);
    /** People's words: "count", "rate (/s)", "share", "inter-arrival p50", ... */
    static QString figureLabel(Figure f);
    /** Whether the figure is a duration in seconds (formatted as one). */
    static bool isSeconds(Figure f) {
        return f == Figure::InterArrivalP50 || f == Figure::InterArrivalP95;
    }

    struct Row {
        QString call;       ///< short call name; "total" for the totals row
        QString qualnameA;  ///< full qualname in A (empty when absent)
        QString qualnameB;  ///< full qualname in B (empty when absent)
        bool isTotal = false;
        std::array<FigurePair, kFigureCount> figures;
        QString reason;  ///< why the call cannot be compared; empty when it can
        const FigurePair &figure(Figure f) const { return figures[size_t(f)]; }
    };

    /** Compares the call rows of `a` and `b`. */
    static CallComparison build(const TraceStatistics &a, const TraceStatistics &b);

    /** The calls, then the totals row (last). */
    const std::vector<Row> &rows() const { return m_rows; }
    /** The row of short call name `call`; nullptr when neither trace has it. */
    const Row *row(const QString &call) const;

private:
    std::vector<Row> m_rows;
};

}  // namespace lmct
