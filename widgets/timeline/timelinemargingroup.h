#pragma once

#include <qcustomplot.h>

#include <QMargins>

namespace lmct {

/**
 * The margin group that keeps the timeline's plot areas (lanes, rate plot, hit-ratio plot) one
 * above the other, with a floor under its left and right margins: the margin a side gets is the
 * larger of what its elements need (their axes' labels, QCPMarginGroup's common margin) and the
 * floor. A comparison gives two timelines the same floors (TimelineAlignment) so that their
 * plot areas start and end at the same x whatever their lane labels.
 *
 * natural() is what the elements needed at the last layout (without the floor), so the floors
 * can be chosen from both timelines' needs. Units: logical pixels. Ownership: a QObject of the
 * plot (QCPMarginGroup's). Thread-safety: GUI thread.
 */
class TimelineMarginGroup : public QCPMarginGroup {
    Q_OBJECT
public:
    explicit TimelineMarginGroup(QCustomPlot *plot) : QCPMarginGroup(plot) {}

    /** Sets the floors (left and right used; top and bottom ignored); true when they changed
     *  (the caller replots). */
    bool setFloor(const QMargins &floor);
    QMargins floor() const { return m_floor; }
    /** The left and right margins the elements needed at the last layout, without the floor. */
    QMargins natural() const { return m_natural; }

protected:
    int commonMargin(QCP::MarginSide side) const override;

private:
    QMargins m_floor;
    mutable QMargins m_natural;
};

}  // namespace lmct
