#pragma once

#include "viewstate.h"

#include <QObject>
#include <QPointer>
#include <QString>

namespace lmct {

class RecordStore;
class TimelineViewport;

/**
 * Keeps the ViewStates of two compared traces (A and B) linked, the shared state of a
 * comparison that both timelines and the tab observe. Views never talk to each other: each sets
 * its own ViewState, and this link carries the change over to the other one.
 *
 * Time mapping. Both traces are drawn on one common axis x (seconds):
 * - A: x = tA (A's `t_mono`, seconds since its `t_mono_start`);
 * - B: x = tB + base + offset(), where base is 0 under Alignment::Start (both traces start at
 *   x = 0) and, under Alignment::Wall, the difference of the traces' `t_wall` at their starts
 *   (wallStart(): the header's `t_wall_start`, else the first record's `t_wall` − `t_mono`), so
 *   that instants of the same wall-clock time line up. offset() is the manual shift of B
 *   (positive: B drawn later).
 * toB() and toA() map one trace's `t_mono` to the other's for the same x.
 *
 * What is linked:
 * - the filter text: setting it in one sets the same text in the other (each trace evaluates it
 *   against its own records);
 * - the time range: mapped through toB() / toA(); clearing it clears both;
 * - the selection: selecting record r in one selects, in the other, the record of the same
 *   qualname whose mapped `t_mono` is nearest to r's (ties: the lower index), or none (-1) when
 *   the other trace has no record of that call (nearestRecord()). Only the side selected by hand
 *   drives: the follower's change is not mapped back;
 * - the visible windows of two TimelineViewports (linkViewports()): moving one shows the mapped
 *   window in the other (TimelineViewport::showWindow(): no clamp, no history entry).
 * Changing the alignment or the offset maps A's range, selection and window into B again and
 * emits mappingChanged().
 *
 * Ownership: a QObject (parent-owned); keeps QPointers to the ViewStates and viewports (not
 * owned). Thread-safety: GUI thread only, like ViewState. Errors: none; Alignment::Wall without
 * a `t_wall` in either trace falls back to base 0 and wallReason() says why.
 */
class ComparisonLink : public QObject {
    Q_OBJECT
public:
    enum class Alignment { Start, Wall };

    ComparisonLink(ViewState *a, ViewState *b, QObject *parent = nullptr);

    ViewState *a() const { return m_a; }
    ViewState *b() const { return m_b; }

    Alignment alignment() const { return m_alignment; }
    void setAlignment(Alignment alignment);
    /** The manual shift of B on the common axis, seconds (positive: B later). */
    double offset() const { return m_offset; }
    void setOffset(double seconds);

    /** B's start on the common axis without the offset: 0, or the t_wall difference. */
    double base() const;
    /** tB − tA for one instant of the common axis: −(base() + offset()). */
    double shift() const { return -(base() + m_offset); }
    double toB(double tA) const { return tA + shift(); }
    double toA(double tB) const { return tB - shift(); }

    /** Why Alignment::Wall cannot align (a trace has no t_wall); empty when it can. */
    QString wallReason() const;
    /** Unix seconds of `t_mono` 0 of `doc`: t_wall_start, else the first record's
     *  t_wall − t_mono; NaN when neither is known. */
    static double wallStart(const TraceDocument &doc);

    /**
     * The record of `records` with qualname `qualname` whose `t_mono` is nearest to `t`
     * (ties: the lower index), or -1 when there is none. O(records).
     */
    static int nearestRecord(const RecordStore &records, const QString &qualname, double t);

    /** Links the visible windows of A's and B's timelines (not owned). */
    void linkViewports(TimelineViewport *a, TimelineViewport *b);
    /** Shows A's window, mapped, in B's viewport (e.g. once both timelines have their trace). */
    void alignWindows();

signals:
    /** The alignment or the offset changed (toB() / toA() map differently). */
    void mappingChanged();

private:
    enum class Side { A, B };
    void onFilterText(Side from);
    void onTimeRange(Side from);
    void onSelection(Side from, int record);
    void onWindow(Side from, double lower, double upper);
    void remap();

    QPointer<ViewState> m_a, m_b;
    QPointer<TimelineViewport> m_viewA, m_viewB;
    Alignment m_alignment = Alignment::Start;
    double m_offset = 0.0;
    bool m_syncing = false;  // a change carried over by this link: not carried back
};

}  // namespace lmct
