#pragma once

#include "whatif/cachepolicy.h"

#include <QColor>
#include <QPen>

namespace lmct {

/**
 * Stable colours for the simulated eviction policies (CachePolicy::Kind), shared by the What-if
 * tab's curves and the timeline's hit-ratio plot, so one policy has one colour everywhere.
 *
 * Mid-tone colours, well apart (Tableau 10 order), readable on light and dark palettes; red is
 * left to the capacity markers. LMCache's own account (the PrefetchHandle's
 * `l1_prefix_hit_count`) is drawn in lmcacheColor(), dashed.
 *
 * Thread-safety: reentrant.
 */
class PolicyColors {
public:
    static QColor color(CachePolicy::Kind kind);
    /** A pen of `kind`'s colour, `width` logical pixels wide. */
    static QPen pen(CachePolicy::Kind kind, double width = 2.0);
    /** LMCache's own account of its L1 prefix hits. */
    static QColor lmcacheColor();
    /** Bytes resident (occupancy). */
    static QColor occupancyColor();
};

}  // namespace lmct
