#pragma once

#include <QObject>
#include <QPointer>
#include <vector>

namespace lmct {

class TimelineWidget;

/**
 * Keeps the plot areas of several timelines one above the other at the same x on screen, so
 * that one time maps to one x in all of them once their windows are linked (a comparison's A
 * and B: CompareTab). Each timeline's lane labels (and axes) need their own left margin, and a
 * timeline in a scroll area can be narrower by a scroll bar; after every replot of any of them
 * it gives each a floor under its left and right margins (TimelineWidget::setPlotMarginFloor)
 * such that every plot area starts at the rightmost start any of them needs and ends at the
 * leftmost end: the label column is as wide as the widest labels of all.
 *
 * Ownership: a QObject (parent given); holds the timelines in QPointers, not owned.
 * Thread-safety: GUI thread only.
 */
class TimelineAlignment : public QObject {
    Q_OBJECT
public:
    explicit TimelineAlignment(QObject *parent = nullptr) : QObject(parent) {}

    /** Aligns `timeline` with the others added. */
    void add(TimelineWidget *timeline);
    /** Chooses the floors again from the last layouts (called after each replot and resize). */
    void realign();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    std::vector<QPointer<TimelineWidget>> m_timelines;
};

}  // namespace lmct
