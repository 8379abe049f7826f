#pragma once

#include "trace/traceset.h"
#include "viewstate.h"

#include <QList>
#include <QObject>
#include <QPointer>

namespace lmct {

class TimelineViewport;

/**
 * Keeps the ViewStates of the traces of one deployment (a TraceSet, one ViewState per trace)
 * linked on one common time axis, the shared state of a combined tab's timelines. Views never
 * talk to each other: each sets its own ViewState, and this link carries the change over to the
 * others.
 *
 * Time mapping. Trace t's `t_mono` (seconds since its start) lies on the common axis at
 * x = t_mono + base(t), where base(t) = wallStart(t) + offset(t) − origin(): wallStart is the
 * Unix time of the trace's t_mono 0 (ComparisonLink::wallStart: the header's `t_wall_start`,
 * else the first record's t_wall − t_mono), offset is TraceSet::offset (clocks of hosts a few ms
 * apart), and origin() is the earliest wallStart + offset of the set. So x is aligned `t_wall`
 * seconds since the deployment's first start. A trace without any t_wall has base 0.
 *
 * What is linked:
 * - the time range: mapped to every other trace; clearing it clears all;
 * - the selection: one record of one trace is selected at a time; selecting a record in trace t
 *   clears the selection of the others and makes t the current trace (currentTraceChanged());
 * - the visible windows of the TimelineViewports given to linkViewport(): moving one shows the
 *   mapped window in the others (TimelineViewport::showWindow(): no clamp, no history entry).
 * The filter is not linked here: the combined tab evaluates one expression over every trace
 * (TraceSetFilter) and hands each trace's result to its ViewState.
 *
 * setSet() with other offsets maps the current trace's range and window into the others again
 * and emits mappingChanged().
 *
 * Ownership: a QObject (parent-owned); keeps QPointers to the ViewStates and viewports (not
 * owned) and a copy of the set (sharing its documents). Thread-safety: GUI thread only. Errors:
 * none; a trace index out of range maps nothing.
 */
class DeploymentLink : public QObject {
    Q_OBJECT
public:
    explicit DeploymentLink(QObject *parent = nullptr);

    /** Links `states` (states[t] shows set.document(t)); replaces what was linked before. */
    void setTraces(const TraceSet &set, const QList<ViewState *> &states);
    /** The same traces with other offsets (or grown documents): remaps. */
    void setSet(const TraceSet &set);
    const TraceSet &set() const { return m_set; }
    int count() const { return int(m_states.size()); }
    ViewState *state(int t) const;
    /** The trace `state` shows, or -1. */
    int traceOf(const ViewState *state) const;

    /** The earliest wallStart + offset of the set (Unix seconds); NaN when no trace has one. */
    double origin() const;
    /** Where t_mono 0 of trace `t` lies on the common axis (seconds). */
    double base(int t) const;
    double toCommon(int t, double tMono) const { return tMono + base(t); }
    double fromCommon(int t, double x) const { return x - base(t); }
    /** Trace `from`'s t_mono `tMono` as trace `to`'s t_mono for the same instant. */
    double map(int from, int to, double tMono) const { return tMono + base(from) - base(to); }

    /** Links trace `t`'s timeline window (not owned). */
    void linkViewport(int t, TimelineViewport *viewport);
    /** Shows trace `from`'s window, mapped, in every other linked viewport. */
    void alignWindows(int from);

    /** The trace of the selected record (the last trace a record was selected in); 0 at
     *  first, -1 when there is no trace. */
    int currentTrace() const { return m_current; }
    /** Makes `t` the current trace without selecting a record (e.g. a chooser of the trace the
     *  docks show); emits currentTraceChanged() when it changes. */
    void setCurrentTrace(int t);

signals:
    /** The offsets changed: the traces map differently. */
    void mappingChanged();
    /** A record of another trace was selected: the current trace is `t`. */
    void currentTraceChanged(int t);

private:
    void onTimeRange(int from);
    void onSelection(int from, int record);
    void onWindow(int from, double lower, double upper);

    TraceSet m_set;
    QList<QPointer<ViewState>> m_states;
    QList<QPointer<TimelineViewport>> m_views;
    int m_current = -1;
    bool m_syncing = false;  // a change carried over by this link: not carried back
};

}  // namespace lmct
