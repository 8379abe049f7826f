#pragma once

#include <QtGlobal>
#include <cmath>
#include <limits>

namespace lmct {

/**
 * @p d truncated toward zero and saturated to qint64's range; 0 for NaN. What a msgpack float
 * read as an integer (a float `kv_rank`, Value::toInt) becomes, without the undefined behaviour
 * of converting an out-of-range double (found by fuzzing: a float64 of 5.6e228).
 */
inline qint64 saturatingInt(double d) {
    if (std::isnan(d)) {
        return 0;
    }
    constexpr double kLimit = 9223372036854775808.0;  // 2^63, exactly representable
    if (d >= kLimit) {
        return std::numeric_limits<qint64>::max();
    }
    if (d <= -kLimit) {
        return std::numeric_limits<qint64>::min();
    }
    return qint64(d);
}

}  // namespace lmct
