#include "timeline/timelinecolumns.h"

#include <algorithm>
#include <cmath>

namespace lmct {

TimelineColumns TimelineColumns::of(double lower, double upper, int left, int widthPx, double dpr) {
    TimelineColumns c;
    const double size = upper - lower;
    if (widthPx <= 0 || !(size > 0)) {
        return c;
    }
    c.dpr = std::max(1.0, dpr);
    c.width = size / (widthPx * c.dpr);
    c.origin = std::floor(lower / c.width) * c.width;
    c.count = std::min(int(std::ceil((upper - c.origin) / c.width)) + 1, int(widthPx * c.dpr) + 2);
    c.x0 = left * c.dpr + std::round((c.origin - lower) / c.width);
    return c;
}

double TimelineColumns::columnOf(double t) const {
    return std::floor((t - origin) / width);
}

}  // namespace lmct
