#include "timeline/timelinealignment.h"

#include "timeline/timelinewidget.h"

#include <qcustomplot.h>

#include <QEvent>
#include <algorithm>
#include <climits>

namespace lmct {

void TimelineAlignment::add(TimelineWidget *timeline) {
    m_timelines.emplace_back(timeline);
    connect(timeline->plot(), &QCustomPlot::afterReplot, this, &TimelineAlignment::realign);
    timeline->plot()->installEventFilter(this);
}

bool TimelineAlignment::eventFilter(QObject *watched, QEvent *event) {
    // A plot moved or resized (a scroll bar came or went): its edges move on screen.
    if (event->type() == QEvent::Move || event->type() == QEvent::Resize ||
        event->type() == QEvent::Show) {
        QMetaObject::invokeMethod(this, &TimelineAlignment::realign, Qt::QueuedConnection);
    }
    return QObject::eventFilter(watched, event);
}

void TimelineAlignment::realign() {
    struct Edge {
        TimelineWidget *t;
        int x0, width;
        QMargins natural;
    };
    std::vector<Edge> edges;
    int left = INT_MIN, right = INT_MAX;
    for (const QPointer<TimelineWidget> &t : m_timelines) {
        if (!t || !t->plot()->isVisible() || t->plot()->width() <= 0) {
            continue;
        }
        QCustomPlot *p = t->plot();
        const Edge e{t.data(), p->mapToGlobal(QPoint(0, 0)).x(), p->width(),
                     t->naturalPlotMargins()};
        left = std::max(left, e.x0 + e.natural.left());
        right = std::min(right, e.x0 + e.width - e.natural.right());
        edges.push_back(e);
    }
    if (edges.size() < 2 || right <= left) {
        return;  // nothing to align with, or no room for a common area
    }
    for (const Edge &e : edges) {
        e.t->setPlotMarginFloor(QMargins(left - e.x0, 0, e.x0 + e.width - right, 0));
    }
}

}  // namespace lmct
