#include "timeformat.h"

#include <QDateTime>
#include <QTimeZone>
#include <cmath>

namespace lmct {

QString TimeFormat::duration(double s) {
    const double a = std::abs(s);
    if (!std::isfinite(s)) {
        return QStringLiteral("—");
    }
    if (a == 0.0) {
        return QStringLiteral("0 s");
    }
    // Each unit and its decimals are chosen by the value as shown (rounded): 0.99999 ms is
    // "1.000 ms", not "1000.0 µs", and 9.9999 ms "10.00 ms", not "10.000 ms".
    const auto shown = [](double v, int decimals) {
        const double f = std::pow(10.0, decimals);
        return std::round(v * f) / f;
    };
    if (shown(a * 1e9, 0) < 1000.0) {
        return QStringLiteral("%1 ns").arg(s * 1e9, 0, 'f', 0);
    }
    if (const double us = a * 1e6; shown(us, 1) < 1000.0) {
        return QStringLiteral("%1 µs").arg(s * 1e6, 0, 'f', shown(us, 2) < 10.0 ? 2 : 1);
    }
    if (const double ms = a * 1e3; shown(ms, 2) < 1000.0) {
        return QStringLiteral("%1 ms").arg(s * 1e3, 0, 'f', shown(ms, 3) < 10.0 ? 3 : 2);
    }
    if (shown(a, 3) < 60.0) {
        return QStringLiteral("%1 s").arg(s, 0, 'f', 3);
    }
    // Split into minutes after rounding to the tenth shown: 119.97 s is "2 min 0.0 s".
    const double tenths = std::round(a * 10.0) / 10.0;
    if (tenths < 3600.0) {
        const int m = int(tenths / 60.0);
        return QStringLiteral("%1%2 min %3 s")
            .arg(s < 0 ? "-" : "")
            .arg(m)
            .arg(tenths - m * 60.0, 0, 'f', 1);
    }
    if (a >= 1e9) {
        // About 32 years and more: hours would leave int's range (found by fuzzing a header's
        // duration field), and a clock reading means nothing at that scale.
        return QStringLiteral("%1 s").arg(s, 0, 'g', 4);
    }
    const double b = qMax(a, 3600.0);  // 3599.95 s and up read as an hour
    const int h = int(b / 3600.0);
    const int m = int((b - h * 3600.0) / 60.0);
    return QStringLiteral("%1%2 h %3 min")
        .arg(s < 0 ? "-" : "")
        .arg(h)
        .arg(m, 2, 10, QLatin1Char('0'));
}

QString TimeFormat::delta(double s) {
    if (!std::isfinite(s)) {
        return QString();
    }
    const QString d = duration(std::abs(s));
    return (s < 0 ? QStringLiteral("\u2212") : QStringLiteral("+")) + d;
}

QString TimeFormat::mono(double s) {
    return fixed(s, 6);
}

QString TimeFormat::fixed(double v, int decimals) {
    if (std::isnan(v)) {
        return QStringLiteral("nan");
    }
    if (std::isinf(v)) {
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    }
    if (std::abs(v) >= kCompactAbove) {
        return QString::number(v, 'g', 7);
    }
    return QString::number(v, 'f', decimals);
}

QString TimeFormat::wall(double t, bool utc) {
    // Beyond ±1e13 s (about 317 000 years) a date means nothing, and the conversion to
    // milliseconds would leave qint64's range (found by fuzzing a header's t_wall_start).
    if (!std::isfinite(t) || std::abs(t) > kMaxWallSeconds) {
        return QString();
    }
    const qint64 ms = qint64(std::floor(t * 1000.0 + 0.5));
    const QDateTime dt = utc ? QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc())
                             : QDateTime::fromMSecsSinceEpoch(ms);
    return dt.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")) +
           (utc ? QStringLiteral("Z") : QString());
}

}  // namespace lmct
