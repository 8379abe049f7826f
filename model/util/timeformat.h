#pragma once

#include <QString>

namespace lmct {

/**
 * Formatting of trace times for tables, tooltips and axes.
 *
 * `t_mono` values are seconds relative to the header's `t_mono_start`; `t_wall` values are Unix
 * epoch seconds (LMCache `time.time()`), shown as local or UTC date-times.
 */
class TimeFormat {
public:
    /** "812 ns", "12.3 µs", "4.567 ms", "1.234 s", "2 min 3.4 s", "1 h 02 min"; from 1e9 s on,
     *  seconds in scientific notation ("7.679e+39 s"); "—" when not finite. */
    static QString duration(double seconds);
    /** A signed duration with an explicit sign: "+1.2 ms", "−3.4 µs". */
    static QString delta(double seconds);
    /** `t_mono` with microsecond precision: "12.345678"; see fixed() for huge and non-finite
     *  values. */
    static QString mono(double seconds);
    /** Magnitude from which fixed() switches to scientific notation. */
    static constexpr double kCompactAbove = 1e12;
    /**
     * `v` with `decimals` decimals ("1760000000.250000"), the way every number of seconds is
     * printed in text output: from kCompactAbove in magnitude on, 7 significant digits in
     * scientific notation ("1e+308", "-1.7e+308") instead of up to 309 digits; non-finite values
     * as "nan", "inf" and "-inf". JSON output never uses this: there non-finite numbers are null.
     */
    static QString fixed(double v, int decimals);
    /** Largest |`t_wall`| (seconds) that wall() renders as a date. */
    static constexpr double kMaxWallSeconds = 1e13;

    /** `t_wall` as "yyyy-MM-dd HH:mm:ss.zzz" in local time (or UTC with a trailing "Z"); empty
     *  when @p epochSeconds is not finite or its magnitude exceeds kMaxWallSeconds. */
    static QString wall(double epochSeconds, bool utc = false);
};

}  // namespace lmct
