#pragma once

#include "trace/traceset.h"

#include <QList>
#include <QWidget>

class QLabel;
class QVBoxLayout;

namespace lmct {

class DeploymentLink;
class TimelineAlignment;
class TimelineWidget;
class ViewState;

/**
 * The timelines of one deployment, one under the other: per trace of a TraceSet a header row
 * (a colour badge with the trace's number, its label and instance, records, offset, and how
 * damaged it is) over a TimelineWidget on that trace's ViewState: one lane group per trace.
 *
 * Every timeline's axis shows the wall clock (TimelineWidget::TimeMode::Wall) shifted by the
 * trace's offset (TimelineWidget::setWallShift), so one instant reads the same in all; the
 * windows are linked by the DeploymentLink and the plot areas start at the same x
 * (TimelineAlignment), so one x is one instant of the common axis. Hovering one timeline draws
 * a guide at the same instant in the others. The first timeline keeps its toolbar (its zoom and
 * pan move all, through the link); the others leave it out for room, their Lanes menu stays in
 * their context menu. Rate plot and overview are left out, as in a comparison.
 *
 * Until the user moves a window, each time a timeline's index is ready the windows span every
 * trace whole on the common axis (showAll()).
 *
 * Ownership: owns the timelines and headers; not the ViewStates or the link. Thread-safety: GUI
 * thread only.
 */
class DeploymentTimelines : public QWidget {
    Q_OBJECT
public:
    explicit DeploymentTimelines(QWidget *parent = nullptr);

    /**
     * One timeline per trace of `set`, on `states` (states[t] shows trace t), linked by `link`.
     * Call once. `labels` replace the traces' labels in the headers (lane groups of a trace by
     * model, rank or tenant); `badges` the badges' numbers (default: t + 1). With
     * `hideFiltered`, records outside the state's filter are left out, not dimmed (a group's
     * timeline shows its group only).
     */
    void setTraces(const TraceSet &set, const QList<ViewState *> &states, DeploymentLink *link,
                   const QStringList &labels = {}, const QList<int> &badges = {},
                   bool hideFiltered = false);
    /** New offsets or grown documents: the axes' shifts and the headers. */
    void updateSet(const TraceSet &set);

    int count() const { return int(m_timelines.size()); }
    TimelineWidget *timeline(int t) const { return m_timelines.value(t); }
    QLabel *header(int t) const { return m_headers.value(t); }
    /** Every trace whole on the common axis, as a window of each timeline. */
    void showAll();
    /** The colour of trace `t`'s badge (and its rows in the record table). */
    static QColor traceColor(int t);

private:
    void updateHeader(int t);

    TraceSet m_set;
    DeploymentLink *m_link = nullptr;
    QVBoxLayout *m_rows = nullptr;
    TimelineAlignment *m_alignment = nullptr;
    QList<TimelineWidget *> m_timelines;
    QList<QLabel *> m_headers;
    QStringList m_labels;
};

}  // namespace lmct
