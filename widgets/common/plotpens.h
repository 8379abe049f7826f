#pragma once

#include <QColor>
#include <QPen>

namespace lmct {

/**
 * Pens and colours the plots share. Value functions, no state; any thread (QPen and QColor are
 * plain values), though the plots that use them live on the GUI thread.
 */
namespace PlotPens {

/**
 * A one-device-pixel pen: crisp at any devicePixelRatio, and the raster engine's fast path (a
 * scaled 1-px or dashed pen goes through the stroker, many times slower for grids).
 */
inline QPen hairline(const QColor &c) {
    QPen p(c, 0);
    p.setCosmetic(true);
    return p;
}

/** `c` with its alpha set to `a` (0–255). */
inline QColor alpha(QColor c, int a) {
    c.setAlpha(a);
    return c;
}

}  // namespace PlotPens

}  // namespace lmct
