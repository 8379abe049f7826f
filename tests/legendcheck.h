#pragma once

// Whether the timeline's rate legend is in view in a MainWindow (GUI suites): every entry inside
// the plot and the legend inside what the timeline dock's scroll area shows.

#include "shell/mainwindow.h"
#include "timeline/timelinewidget.h"

#include <qcustomplot.h>

#include <QDockWidget>
#include <QScrollArea>
#include <QString>
#include <QTest>

namespace lmct::test {

/**
 * Waits (up to 20 s) for the timeline of `w` to be indexed, replots it and returns an empty
 * string when its rate legend has at least `entries` entries, each inside the plot, and the
 * legend is inside the timeline dock's view; else what is wrong.
 */
inline QString legendOutOfView(MainWindow &w, int entries) {
    auto *dock = w.findChild<QDockWidget *>(QStringLiteral("dock-timeline"));
    auto *timeline = dock ? qobject_cast<TimelineWidget *>(MainWindow::dockView(dock)) : nullptr;
    auto *scroll = dock ? qobject_cast<QScrollArea *>(dock->widget()) : nullptr;
    if (!timeline || !scroll) {
        return QStringLiteral("no timeline dock");
    }
    if (!QTest::qWaitFor(
            [&] { return !timeline->isIndexing() && timeline->rateLegend()->itemCount() > 0; },
            20000)) {
        return QStringLiteral("the timeline was not indexed");
    }
    QTest::qWait(100);  // queued layouts and replots
    timeline->plot()->replot();
    const QCPLegend *legend = timeline->rateLegend();
    int found = 0;
    for (int i = 0; i < legend->itemCount(); ++i) {
        const QCPAbstractLegendItem *item = legend->item(i);
        if (!item) {
            continue;  // an empty cell of the legend's grid
        }
        ++found;
        const QRect r = item->outerRect();
        if (!timeline->plot()->rect().contains(r)) {
            return QStringLiteral("entry %1 at y %2..%3 is outside the plot (%4 px high)")
                .arg(i)
                .arg(r.top())
                .arg(r.bottom())
                .arg(timeline->plot()->height());
        }
    }
    if (found < entries) {
        return QStringLiteral("%1 entries, expected %2").arg(found).arg(entries);
    }
    // the dock scrolls when the timeline is taller than its view
    const QRect shown = scroll->viewport()->rect();
    const QRect inView(timeline->plot()->mapTo(scroll->viewport(), legend->outerRect().topLeft()),
                       legend->outerRect().size());
    if (!shown.contains(inView)) {
        return QStringLiteral("the legend is at y %1..%2, the dock shows 0..%3")
            .arg(inView.top())
            .arg(inView.bottom())
            .arg(shown.height() - 1);
    }
    return QString();
}

}  // namespace lmct::test
