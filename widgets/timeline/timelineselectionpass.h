#pragma once

namespace lmct {

struct TimelineFrame;

/**
 * The last drawing pass of TimelineLanes: the selected record's line across every row, and a ring
 * around its tick in its call's row (detailed style only). Draws nothing when no record is
 * selected or its time is off view.
 *
 * Ownership: stateless. Thread-safety: GUI thread.
 */
class TimelineSelectionPass {
public:
    static void draw(const TimelineFrame &f);
};

}  // namespace lmct
