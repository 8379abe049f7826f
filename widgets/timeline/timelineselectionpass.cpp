#include "timeline/timelineselectionpass.h"

#include "timeline/timelineframe.h"

#include <cmath>

namespace lmct {

void TimelineSelectionPass::draw(const TimelineFrame &f) {
    const TraceDocument *doc = f.lanes->document();
    const int selected = f.selected;
    if (selected < 0 || !doc || selected >= doc->records().size()) {
        return;
    }
    QCPPainter *p = f.painter;
    const TimelineColumns &c = f.columns;
    const RecordStore &rs = doc->records();
    const double t = rs.tMono(selected);
    const QRect ar = f.axisRect;
    const double x = std::floor(f.keyAxis->coordToPixel(t) * c.dpr) / c.dpr + 0.5 / c.dpr;
    if (!std::isfinite(x) || x < ar.left() - 1 || x > ar.right() + 1) {
        return;
    }
    p->setBrush(Qt::NoBrush);
    QPen line(f.highlight, 1);
    line.setCosmetic(true);
    p->setPen(line);
    p->drawLine(QPointF(x, ar.top()), QPointF(x, ar.bottom() + 1));
    const int r = f.lanes->rowOfLane(int(rs.qualnameId(selected)));
    if (r >= 0 && f.detailed) {
        const QRectF rr = f.lanes->rowRect(r);
        p->setAntialiasing(true);
        p->setPen(QPen(f.highlight, 2));
        p->drawRoundedRect(QRectF(x - 5, rr.top() + 1.5, 10, rr.height() - 3), 2, 2);
        p->setAntialiasing(false);
    }
    p->setPen(Qt::NoPen);
}

}  // namespace lmct
