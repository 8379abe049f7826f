#pragma once

#include "timeline/lanemerge.h"

#include <QVector>

namespace lmct {

/**
 * What a timeline picture of a fixed height keeps (a small export: there is no dock to scroll):
 * what does not fit goes, in this order, until the rest fits with lane labels apart:
 *
 * 1. everything, rows at least `readableRowPx` (the labels' font and a pixel);
 * 2. without the legends (the rate plot's and the hit-ratio plot's);
 * 3. without the plots under the lanes (rate plot, hit-ratio plot);
 * 4. rows down to `leastRowPx` (the widget gives their labels a smaller font);
 * 5. rows merged (LaneMerge: a stage of the call flow per row, or all in one) at `leastRowPx`.
 *
 * A large picture is at 1. and laid out as before any of this.
 *
 * Units: logical pixels; lane weights as TimelineLanes' (a calls row weighs 1).
 * Thread-safety: stateless; of() is a pure function. Errors: none.
 */
class TimelineFit {
public:
    struct Room {
        int height = 0;        ///< what the lanes, plots and legends share
        int legendsPx = 0;     ///< the legends' height (0: none shown)
        int plotsLeastPx = 0;  ///< the plots' least heights with margins (0: none shown)
        int readableRowPx = 0;
        int leastRowPx = 0;
        QVector<LaneMerge::Lane> lanes;  ///< the rows shown, in order
    };
    struct Fit {
        bool legends = true;
        bool plots = true;
        bool smallRows = false;        ///< rows below readableRowPx (4. or 5.)
        QVector<LaneMerge::Row> rows;  ///< every lane alone unless merged (5.)
        bool merged() const { return LaneMerge::anyMerged(rows); }
    };

    static Fit of(const Room &room);
    /** Every lane a row of its own, legends and plots kept (the plot on screen). */
    static Fit keepAll(const QVector<LaneMerge::Lane> &lanes);
};

}  // namespace lmct
