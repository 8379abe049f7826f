#pragma once

#include "timeline/timelinecolumns.h"
#include "timeline/timelinelanes.h"

#include <qcustomplot.h>

#include <QColor>
#include <QRect>

namespace lmct {

class TimelineIndex;

/**
 * What every drawing pass of TimelineLanes reads, gathered once per frame by TimelineLanes::
 * draw(): the painter, the columns of the visible time range, the filter's indices and mode, the
 * selection and the palette's colours.
 *
 * Units: the key range in t_mono seconds; the axis rect in logical pixels; columns in device
 * pixels (TimelineColumns). Ownership: borrows everything; valid during one draw() only.
 * Thread-safety: GUI thread.
 */
struct TimelineFrame {
    /** Column edges may move by up to this fraction of a device pixel (TimelineIndex counts). */
    static constexpr double kSnap = 0.25;

    QCPPainter *painter = nullptr;
    const TimelineLanes *lanes = nullptr;
    QCPAxis *keyAxis = nullptr;
    TimelineColumns columns;
    QRect axisRect;
    QCPRange range;
    bool detailed = true;                   ///< Style::Detailed, else the overview's strips
    const TimelineIndex *index = nullptr;   ///< every record
    const TimelineIndex *strong = nullptr;  ///< the records drawn at full strength
    bool filtered = false;                  ///< a filter applies (strong is its index)
    TimelineLanes::FilterMode filterMode = TimelineLanes::FilterMode::Dim;
    int selected = -1;  ///< selected record, -1 for none
    bool spansPending = false;
    QColor zebra, text, highlight, base, error;

    /** Records outside the filter are drawn faintly under the matching ones. */
    bool dim() const { return filtered && filterMode == TimelineLanes::FilterMode::Dim; }

    /** `c` with alpha `a` (clamped to [0, 1]). */
    static QColor withAlpha(QColor c, double a) {
        c.setAlphaF(float(a < 0 ? 0.0 : (a > 1 ? 1.0 : a)));
        return c;
    }
    /** Black or white, whichever reads better on `bg`. */
    static QColor textOn(const QColor &bg) {
        const double l = 0.2126 * bg.redF() + 0.7152 * bg.greenF() + 0.0722 * bg.blueF();
        return l > 0.55 ? QColor(20, 20, 20) : QColor(250, 250, 250);
    }
};

}  // namespace lmct
