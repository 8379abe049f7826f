#include "timeline/timelinefit.h"

#include <algorithm>

namespace lmct {

TimelineFit::Fit TimelineFit::keepAll(const QVector<LaneMerge::Lane> &lanes) {
    Fit fit;
    for (int i = 0; i < lanes.size(); ++i) {
        fit.rows.append(LaneMerge::Row{{i}, QString()});
    }
    return fit;
}

TimelineFit::Fit TimelineFit::of(const Room &room) {
    Fit fit = keepAll(room.lanes);
    double weight = 0.0;
    for (const LaneMerge::Lane &l : room.lanes) {
        weight += l.weight;
    }
    const double readable = weight * room.readableRowPx;
    if (room.legendsPx + room.plotsLeastPx + readable <= room.height) {
        return fit;
    }
    fit.legends = false;
    if (room.plotsLeastPx + readable <= room.height) {
        return fit;
    }
    fit.plots = false;
    if (readable <= room.height) {
        return fit;
    }
    fit.smallRows = true;
    const int least = std::max(1, room.leastRowPx);
    if (weight * least <= room.height) {
        return fit;
    }
    fit.rows = LaneMerge::rows(room.lanes, double(room.height) / least);
    return fit;
}

}  // namespace lmct
