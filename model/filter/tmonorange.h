#pragma once

#include <QString>
#include <limits>
#include <optional>

namespace lmct {

/**
 * An inclusive range of `t_mono` seconds, open at either end, used to restrict filters and
 * statistics (and by the command line's `--range T0:T1`).
 *
 * Thread-safety: a value type.
 */
struct TMonoRange {
    double from = -std::numeric_limits<double>::infinity();
    double to = std::numeric_limits<double>::infinity();

    bool isAll() const;
    bool contains(double t) const { return t >= from && t <= to; }
    /** Whether some `t` in [first, last] (a trace's `t_mono` extent) lies in the range. */
    bool meets(double first, double last) const { return from <= last && to >= first; }
    bool operator==(const TMonoRange &o) const { return from == o.from && to == o.to; }

    /**
     * Reads "T0:T1" where each side is decimal seconds with an optional time unit ("1.5",
     * "250ms", "2min") and may be empty for an open end ("5:", ":10s", ":"). Returns nullopt
     * and sets `*error` ("expected T0:T1 ...", "expected a time ... found '0x10'", "the range
     * ends before it starts") otherwise: a side that is a `0x` hex integer, a size ("1MiB"),
     * not finite ("nan", "inf", "1e400") or not a number is no time.
     */
    static std::optional<TMonoRange> parse(const QString &text, QString *error);
    /** "5.000000:10.000000", with empty open ends. */
    QString toString() const;
};

}  // namespace lmct
