#pragma once

#include "timeline/contextpairs.h"
#include "timeline/timelinelanes.h"

#include <memory>
#include <vector>

namespace lmct {

struct TimelineFrame;

/**
 * The drawing pass of TimelineLanes' span rows (context managers, ContextPairs): each span as a
 * bar stacked by its depth, with its duration written inside when it fits, while at most about one
 * span per pixel is in view; otherwise the number of open spans per column. Unmatched enters and
 * exits are red caps (an enter's dashed tail runs to the end of the trace). With a filter, spans
 * drawn one by one are dimmed or left out by their enter/exit record; counted rows count the
 * matching spans (Dim draws all of them faintly under those).
 *
 * Ownership: owns its scratch buffers and the per-pairing cache of matching spans, valid for one
 * filter result (clear() when the filter or the pairs change). Thread-safety: GUI thread.
 */
class TimelineSpansPass {
public:
    /** Span rows split into at most this many sub-rows by depth. */
    static constexpr int kMaxSubRows = 4;

    void draw(const TimelineFrame &f, const TimelineLanes::Row &row, const QRectF &rr);
    /** Forgets the matching spans worked out for the previous filter or pairs. */
    void clear() { m_spanMatch.clear(); }

private:
    void drawUnmatched(const TimelineFrame &f, const ContextPairs &cp, const QRectF &r);
    /**
     * With a filter: per span of `cp` (ContextPairs::spans() order) whether it matches, worked
     * out once per filter result and pairing (O(records + spans), cached).
     */
    const std::vector<char> &matchingSpans(const std::shared_ptr<const ContextPairs> &cp,
                                           const std::vector<int> *matchingRecords);
    /**
     * counts[k] = spans of `cp` flagged in `match` overlapping column k (as
     * ContextPairs::overlapCounts counts them all): one pass over the spans that may overlap
     * the columns.
     */
    static void matchingOverlapCounts(const ContextPairs &cp, const std::vector<char> &match,
                                      const TimelineColumns &c, int *counts);

    std::vector<int> m_counts;
    std::vector<int> m_allCounts;
    std::vector<int> m_spanScratch;
    struct SpanMatch {
        std::weak_ptr<const ContextPairs> pairs;
        std::vector<char> flags;
    };
    std::vector<SpanMatch> m_spanMatch;
};

}  // namespace lmct
