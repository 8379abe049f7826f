#include "timeline/timelinemargingroup.h"

#include <algorithm>

namespace lmct {

bool TimelineMarginGroup::setFloor(const QMargins &floor) {
    const QMargins f(std::max(0, floor.left()), 0, std::max(0, floor.right()), 0);
    if (f == m_floor) {
        return false;
    }
    m_floor = f;
    return true;
}

int TimelineMarginGroup::commonMargin(QCP::MarginSide side) const {
    const int natural = QCPMarginGroup::commonMargin(side);
    if (side == QCP::msLeft) {
        m_natural.setLeft(natural);
        return std::max(natural, m_floor.left());
    }
    if (side == QCP::msRight) {
        m_natural.setRight(natural);
        return std::max(natural, m_floor.right());
    }
    return natural;
}

}  // namespace lmct
