#pragma once

#include <qcustomplot.h>

#include <QPointer>
#include <QString>

namespace lmct {

/**
 * Ticks and labels of the timeline's time axis, whose coordinates are always `t_mono` seconds.
 *
 * Relative mode labels t_mono with an adaptive unit chosen from the tick step (h:mm:ss, s, ms,
 * µs, ns) and just enough decimals. When absolute labels would need many digits (deep zoom far
 * from 0), labels become offsets from a round base shown by caption(), e.g. base "12.3456 s"
 * and labels "78 µs", "80 µs".
 *
 * Wall mode labels t_mono + wallOffset() (Unix seconds; see TimelineIndex::wallOffset) as local
 * time or UTC, with steps on clock boundaries (1/2/5·10^n s below a second, then 1, 2, 5, 10, 15,
 * 30 s, 1, 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12 h, days) aligned in the displayed time zone.
 * Labels carry the date when the visible range spans more than one day; caption() names the
 * date and the zone otherwise.
 *
 * The tick count follows the width of the axis rect given to setRoom() as it is when the ticks
 * are made (during a replot, after the layout): plots that show one range at one width tick
 * alike, whatever order their widgets were resized in. Without a room, QCPAxisTicker's
 * tickCount() applies.
 *
 * Thread-safety: GUI thread (used by QCustomPlot during replot).
 */
class TimeAxisTicker : public QCPAxisTicker {
public:
    enum class Mode { Relative, Wall };

    void setMode(Mode m) { m_mode = m; }
    Mode mode() const { return m_mode; }
    /** Seconds added to t_mono to get Unix time in wall mode. */
    void setWallOffset(double seconds) { m_wallOffset = seconds; }
    double wallOffset() const { return m_wallOffset; }
    void setUtc(bool utc) { m_utc = utc; }
    bool utc() const { return m_utc; }

    /**
     * Sizes the tick count to `rect`'s width: one tick per `labelPx` + 40 px, 2 to 16. `rect`
     * is not owned; once it is destroyed, or while it is under 10 px wide (not laid out yet),
     * tickCount() applies.
     */
    void setRoom(const QCPAxisRect *rect, int labelPx);
    /** The tick count for the room's width as it is now (tickCount() without a room). */
    int fittingTickCount() const;
    /** The tick step this ticker picks for `range` (seconds). */
    double stepFor(const QCPRange &range);
    /**
     * What the labels leave out for `range`: the relative base ("+12.3456 s") or, in wall mode,
     * the date and zone ("2025-10-09 · UTC+02:00"). Empty when nothing is left out.
     */
    QString caption(const QCPRange &range);
    /**
     * The time at t_mono `t` for the hover line's tag, as the axis shows `range`, with
     * `decimals` decimals of a second: "2:05.3" or "1:02:05" when the relative axis is in
     * h:mm:ss, "125.300 s" otherwise; in wall mode the local (or UTC) date and time.
     */
    QString cursorLabel(double t, const QCPRange &range, int decimals);
    /** The label of one tick for `range` (tests). */
    QString labelFor(double tick, const QCPRange &range);

    void generate(const QCPRange &range, const QLocale &locale, QChar formatChar, int precision,
                  QVector<double> &ticks, QVector<double> *subTicks,
                  QVector<QString> *tickLabels) override;

protected:
    double getTickStep(const QCPRange &range) override;
    int getSubTickCount(double tickStep) override;
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override;

private:
    struct Plan {
        double step = 1.0;
        double base = 0.0;      // subtracted from every label (offset labels)
        double baseStep = 0.0;  // base is a whole multiple of it; 0: labels are absolute
        bool clock = false;     // relative mode: h:mm:ss labels
        int unitExp = 0;        // relative mode: 0 s, -3 ms, -6 µs, -9 ns
        int decimals = 0;
        bool showDate = false;  // wall mode
    };
    Plan plan(const QCPRange &range);
    QString label(double tick, const Plan &p) const;
    /** Seconds east of UTC of the displayed zone at t_mono `t` (0 in UTC). */
    double zoneOffset(double t) const;

    Mode m_mode = Mode::Relative;
    double m_wallOffset = 0.0;
    bool m_utc = false;
    QPointer<const QCPAxisRect> m_room;
    int m_labelPx = 60;
};

}  // namespace lmct
