#pragma once

#include <QtGlobal>
#include <cmath>

namespace lmct {

/**
 * One figure of two traces side by side: its value in A and in B, and how B differs from A.
 *
 * delta() = B − A (NaN when either is unknown, NaN). percent() = (B − A) / |A| × 100: 0 when both
 * are 0, NaN when A is 0 and B is not, or either is unknown. Units are the figure's (seconds,
 * calls per second, a fraction, a count).
 *
 * Thread-safety: a value type.
 */
struct FigurePair {
    double a = qQNaN();
    double b = qQNaN();

    double delta() const { return b - a; }
    double percent() const {
        if (!std::isfinite(a) || !std::isfinite(b)) {
            return qQNaN();
        }
        if (a == 0.0) {
            return b == 0.0 ? 0.0 : qQNaN();
        }
        return (b - a) / std::fabs(a) * 100.0;
    }
};

}  // namespace lmct
