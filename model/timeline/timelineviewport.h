#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QVector>
#include <optional>

namespace lmct {

class RecordStore;
class TimelineIndex;

/**
 * What part of a trace a timeline shows: the trace range, the visible window, the zoom history
 * (Back), whether the window shows everything ("fitted": it follows a growing trace) and Keep
 * newest in view. Headless: the timeline's plot axes follow windowChanged(), and every
 * navigation (wheel, keys, drags, the overview, fits) goes through here.
 *
 * The window is clamped (setWindow()): a window that fits in the trace plus a quarter of it on
 * each side keeps its width and its centre stays inside the trace, so panning stops at an edge;
 * a wider one keeps its part inside that limit; none is narrower than kMinViewSeconds.
 *
 * History: one entry per burst of navigation (moves less than 700 ms apart, noteNavigation()),
 * or one of its own (noteJump(): a fit, a zoom to a band); at most 200 entries.
 *
 * Keep newest: while on, trackNewest() keeps the window's width and its right edge just past the
 * newest record; moving the window by hand (setWindow() outside fit and trackNewest()) turns it
 * off, fitting everything keeps it on.
 *
 * Units: t_mono seconds. Ownership: a QObject (parent-owned). Thread-safety: its thread only.
 */
class TimelineViewport : public QObject {
    Q_OBJECT
public:
    /** A t_mono interval [lower, upper]. */
    struct Range {
        double lower = 0.0;
        double upper = 0.0;
        double size() const { return upper - lower; }
        bool operator==(const Range &o) const { return lower == o.lower && upper == o.upper; }
        bool operator!=(const Range &o) const { return !(*this == o); }
    };
    /** The narrowest window: 100 ns. */
    static constexpr double kMinViewSeconds = 1e-7;

    explicit TimelineViewport(QObject *parent = nullptr);

    /**
     * The trace's t_mono extent: its first and last timed record (`any` false: no such record,
     * the trace range is then [0, 1]). Moves no window.
     */
    void setTrace(bool any, double minTime, double maxTime);
    bool hasRecords() const { return m_any; }
    /** The trace range: [minTime, maxTime], at least 1 ms wide (centred), [0, 1] without records.
     */
    Range traceRange() const;
    /**
     * The window that shows a user's range [from, to] (t_mono seconds; an end that is not finite
     * stands for that end of the trace) cut to traceRange(): what a picture with `--range` shows.
     * None when it is empty or lies wholly outside the trace.
     */
    std::optional<Range> windowFor(double from, double to) const;

    Range window() const { return m_window; }
    /** Shows [from, to] clamped (see the class); not fitted any more; Keep newest off unless
     *  fitting or tracking. Ignored when not finite or empty. */
    void setWindow(double from, double to);
    /** Shows [from, to] as it is (no clamp, no history, no state change): the initial window. */
    void showWindow(double from, double to);

    /** Remembers the window before a navigation: one entry per burst of moves. */
    void noteNavigation();
    /** Remembers the window before a navigation that starts a burst (a drag's first move). */
    void beginNavigation();
    /** Keeps the burst begun going (a drag's later moves). */
    void continueNavigation();
    /** Remembers the window before a navigation of its own (its own history entry). */
    void noteJump();
    /** Goes back to the previous window; false when there is none. */
    bool back();
    bool canGoBack() const { return !m_history.isEmpty(); }
    /** Forgets the history and counts as fitted (a new document). */
    void resetHistory();

    /** Fits the trace range with a 1% margin, as a history entry. */
    void fitAll();
    /** Fits the trace range again without a history entry (the trace grew while fitted). */
    void refit();
    bool isFitted() const { return m_fitted; }
    /** Zooms by `factor` (< 1: in) around t_mono `anchor`. */
    void zoomBy(double factor, double anchor);
    /** Pans by `fraction` of the window's width (> 0: later). */
    void panBy(double fraction);
    /**
     * Shows `target` (a time range, a record's neighbourhood); when there is none or the window
     * shows it already (within 2% of its width), everything (fitAll()).
     */
    void fitTo(std::optional<Range> target);
    /** A window (t_mono, seconds) centred on `record`, wide enough to separate it from its 20
     *  neighbours on each side in its lane of `index` (over `records`); none when not indexed. */
    static std::optional<Range> aroundRecord(const TimelineIndex &index, const RecordStore &records,
                                             int record);
    /** Centres `t` keeping the width, when it lies within 2% of an edge or outside; the window
     *  stays within a margin of the trace. */
    void reveal(double t);
    /** Centres `t` keeping the width (unless it is centred already). */
    void centreOn(double t);

    void setKeepNewest(bool on);
    bool keepNewest() const { return m_keepNewest; }
    /** Keep newest: the window's right edge just past the newest record, same width. */
    void trackNewest();

signals:
    /** The window changed (setWindow(), showWindow() and everything that moves it). */
    void windowChanged(double from, double to);
    /** The history gained or lost its last entry, or was cleared. */
    void historyChanged(bool canGoBack);
    /** Keep newest was turned on or off (also by a move by hand). */
    void keepNewestChanged(bool on);

private:
    void moveTo(double from, double to);

    bool m_any = false;
    double m_minTime = 0.0;
    double m_maxTime = 0.0;
    Range m_window{0.0, 1.0};
    QVector<Range> m_history;
    QElapsedTimer m_lastNavigation;
    bool m_fitted = true;
    bool m_keepNewest = false;
    bool m_tracking = false;  // setWindow() called by a fit or trackNewest()
};

}  // namespace lmct
