#include "timeline/timeaxisticker.h"

#include "util/timeformat.h"

#include <QDateTime>
#include <QTimeZone>
#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

constexpr double kDay = 86400.0;

/** Smallest 1/2/5·10^n at or above `x`. */
double nice125(double x) {
    if (!(x > 0.0) || !std::isfinite(x)) {
        return 1.0;
    }
    const double mag = std::pow(10.0, std::floor(std::log10(x)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * mag >= x * (1.0 - 1e-9)) {
            return m * mag;
        }
    }
    return 10.0 * mag;
}

/** Steps on clock boundaries from one second up (seconds). */
double clockStep(double x) {
    static const double steps[] = {
        1,    2,    5,    10,    15,    30,    60,   120,      300,      600,       900,
        1800, 3600, 7200, 10800, 21600, 43200, kDay, 2 * kDay, 7 * kDay, 14 * kDay, 28 * kDay};
    for (double s : steps) {
        if (s >= x * (1.0 - 1e-9)) {
            return s;
        }
    }
    return nice125(x / kDay) * kDay;
}

/** Decimals needed to write multiples of `step` in seconds. */
int decimalsFor(double step) {
    int d = 0;
    while (d < 12 && std::abs(step * std::pow(10.0, d) - std::round(step * std::pow(10.0, d))) >
                         1e-6 * step * std::pow(10.0, d)) {
        ++d;
    }
    return d;
}

QString unitName(int exp) {
    switch (exp) {
        case 0:
            return QStringLiteral("s");
        case -3:
            return QStringLiteral("ms");
        case -6:
            return QStringLiteral("µs");
        default:
            return QStringLiteral("ns");
    }
}

QString signedNumber(double v, int decimals) {
    QString s = QString::number(std::abs(v), 'f', decimals);
    const bool zero = s.toDouble() == 0.0;
    return (v < 0 && !zero ? QStringLiteral("\u2212") : QString()) + s;
}

}  // namespace

double TimeAxisTicker::zoneOffset(double t) const {
    if (m_utc) {
        return 0.0;
    }
    const double w = m_wallOffset + t;
    if (!std::isfinite(w) || std::abs(w) > TimeFormat::kMaxWallSeconds) {
        return 0.0;
    }
    return QDateTime::fromSecsSinceEpoch(qint64(std::floor(w))).offsetFromUtc();
}

void TimeAxisTicker::setRoom(const QCPAxisRect *rect, int labelPx) {
    m_room = rect;
    m_labelPx = std::max(1, labelPx);
}

int TimeAxisTicker::fittingTickCount() const {
    if (!m_room || m_room->width() <= 10) {
        return tickCount();
    }
    return std::clamp(m_room->width() / (m_labelPx + 40), 2, 16);
}

TimeAxisTicker::Plan TimeAxisTicker::plan(const QCPRange &range) {
    Plan p;
    const double size = range.size() > 0 ? range.size() : 1e-9;
    const double rough = size / std::max(1, fittingTickCount());
    if (m_mode == Mode::Relative) {
        const double far = std::max(std::abs(range.lower), std::abs(range.upper));
        if (rough >= 60.0 || (rough >= 10.0 && far >= 600.0)) {
            p.step = clockStep(rough);
            p.clock = true;
            return p;
        }
        p.step = nice125(rough);
        const int d = decimalsFor(p.step);
        const int intDigits = far >= 1.0 ? int(std::floor(std::log10(far))) + 1 : 1;
        if (d <= 3 && intDigits + d <= 7) {
            p.decimals = d;  // plain seconds: "12.35 s"
            return p;
        }
        // Offsets from a round base ("78 µs" after "12.3456 s +"), in the unit that keeps
        // the largest label between 1 and 1000.
        const double b = std::pow(10.0, std::ceil(std::log10(size)));
        p.base = std::abs(range.lower) < b ? 0.0 : std::floor(range.lower / b + 1e-9) * b;
        p.baseStep = b;
        const double maxAbs =
            std::max(std::abs(range.lower - p.base), std::abs(range.upper - p.base));
        p.unitExp = maxAbs >= 1.0 ? 0 : (maxAbs >= 1e-3 ? -3 : (maxAbs >= 1e-6 ? -6 : -9));
        p.decimals = std::min(3, decimalsFor(p.step / std::pow(10.0, p.unitExp)));
        return p;
    }
    // Wall clock.
    p.step = rough >= 1.0 ? clockStep(rough) : nice125(rough);
    p.decimals = p.step >= 1.0 ? 0 : decimalsFor(p.step);
    const double lo = m_wallOffset + range.lower + zoneOffset(range.lower);
    const double hi = m_wallOffset + range.upper + zoneOffset(range.upper);
    p.showDate = std::floor(lo / kDay) != std::floor(hi / kDay) || p.step >= kDay;
    if (p.step < 1e-3) {
        // Below a millisecond: offsets from a round wall time shown by caption().
        const double b = std::pow(10.0, std::ceil(std::log10(size)));
        // base in t_mono such that the wall time at it is a whole multiple of b
        const double a = std::floor(m_wallOffset);
        const double f = m_wallOffset - a;  // wall = a + f + t
        p.base = std::floor((range.lower + f) / b + 1e-9) * b - f;
        p.baseStep = b;
        const double maxAbs =
            std::max(std::abs(range.lower - p.base), std::abs(range.upper - p.base));
        p.unitExp = maxAbs >= 1e-3 ? -3 : (maxAbs >= 1e-6 ? -6 : -9);
        p.decimals = std::min(3, decimalsFor(p.step / std::pow(10.0, p.unitExp)));
    }
    return p;
}

double TimeAxisTicker::stepFor(const QCPRange &range) {
    return plan(range).step;
}

double TimeAxisTicker::getTickStep(const QCPRange &range) {
    return plan(range).step;
}

int TimeAxisTicker::getSubTickCount(double step) {
    const double mant = step / std::pow(10.0, std::floor(std::log10(step)));
    if (std::abs(mant - 2.0) < 1e-6) {
        return 3;
    }
    if (std::abs(mant - 1.5) < 1e-6 || std::abs(mant - 3.0) < 1e-6) {
        return 2;
    }
    if (std::abs(mant - 6.0) < 1e-6 || std::abs(mant - 1.2) < 1e-6) {
        return 5;
    }
    if (std::abs(mant - 3.6) < 1e-6) {
        return 3;
    }
    return 4;
}

QVector<double> TimeAxisTicker::createTickVector(double step, const QCPRange &range) {
    QVector<double> ticks;
    if (!(step > 0.0)) {
        return ticks;
    }
    double c = 0.0;  // tick k sits at k·step − c
    if (m_mode == Mode::Wall) {
        const double a = std::floor(m_wallOffset);
        const double f = m_wallOffset - a;
        // align in the displayed zone: whole seconds of (a + zone) modulo the step
        const double z = zoneOffset((range.lower + range.upper) / 2);
        const double r = step >= 1.0 ? std::fmod(a + z, step) : 0.0;
        c = r + f;
    }
    const double first = std::floor((range.lower + c) / step);
    const double last = std::ceil((range.upper + c) / step);
    if (last - first > 10000) {
        return ticks;
    }
    for (double k = first; k <= last; k += 1.0) {
        ticks.append(k * step - c);
    }
    return ticks;
}

QString TimeAxisTicker::label(double tick, const Plan &p) const {
    if (m_mode == Mode::Relative) {
        if (p.clock) {
            const double s = std::round(tick);
            const qint64 a = qint64(std::abs(s));
            const QString sign = s < 0 ? QStringLiteral("\u2212") : QString();
            if (a >= 3600) {
                return QStringLiteral("%1%2:%3:%4")
                    .arg(sign)
                    .arg(a / 3600)
                    .arg((a / 60) % 60, 2, 10, QLatin1Char('0'))
                    .arg(a % 60, 2, 10, QLatin1Char('0'));
            }
            return QStringLiteral("%1%2:%3").arg(sign).arg(a / 60).arg(a % 60, 2, 10,
                                                                       QLatin1Char('0'));
        }
        const double v = (tick - p.base) / std::pow(10.0, p.unitExp);
        return signedNumber(v, p.decimals) + QLatin1Char(' ') + unitName(p.unitExp);
    }
    if (p.baseStep > 0.0) {
        const double v = (tick - p.base) / std::pow(10.0, p.unitExp);
        return QStringLiteral("+") + signedNumber(v, p.decimals) + QLatin1Char(' ') +
               unitName(p.unitExp);
    }
    // wall = a + (f + tick): whole seconds and fraction kept apart for precision
    const double a = std::floor(m_wallOffset);
    const double rest = (m_wallOffset - a) + tick;
    double whole = std::floor(rest);
    double frac = rest - whole;
    const double scale = std::pow(10.0, p.decimals);
    if (std::round(frac * scale) >= scale) {
        whole += 1.0;
        frac = 0.0;
    }
    const qint64 secs = qint64(a + whole);
    const QDateTime dt = m_utc ? QDateTime::fromSecsSinceEpoch(secs, QTimeZone::utc())
                               : QDateTime::fromSecsSinceEpoch(secs);
    QString s;
    if (p.step >= kDay) {
        return dt.toString(QStringLiteral("yyyy-MM-dd"));
    }
    if (p.step >= 60.0) {
        s = dt.toString(QStringLiteral("HH:mm"));
    } else {
        s = dt.toString(QStringLiteral("HH:mm:ss"));
    }
    if (p.decimals > 0) {
        s += QLatin1Char('.') + QStringLiteral("%1").arg(qint64(std::round(frac * scale)),
                                                         p.decimals, 10, QLatin1Char('0'));
    }
    if (p.showDate) {
        s = dt.toString(QStringLiteral("MM-dd ")) + s;
    }
    return s;
}

QString TimeAxisTicker::cursorLabel(double t, const QCPRange &range, int decimals) {
    decimals = std::clamp(decimals, 0, 9);
    if (m_mode == Mode::Wall) {
        const double w = m_wallOffset + t;
        const QString base = TimeFormat::wall(w, m_utc);  // ms precision
        if (decimals <= 3 || base.isEmpty()) {
            return base;
        }
        return base.left(base.indexOf(QLatin1Char('.'))) + QLatin1Char('.') +
               QString::number(w - std::floor(w), 'f', decimals).mid(2);
    }
    if (!std::isfinite(t) || !plan(range).clock) {
        return QString::number(t, 'f', decimals) + QStringLiteral(" s");
    }
    // h:mm:ss like the ticks, to the pixel's precision (at most milliseconds)
    decimals = std::min(decimals, 3);
    const double scale = std::pow(10.0, decimals);
    const double units = std::round(std::abs(t) * scale);  // in 10^-decimals s
    const qint64 whole = qint64(std::floor(units / scale));
    const qint64 frac = qint64(units - double(whole) * scale);
    QString s = t < 0 && units > 0 ? QStringLiteral("\u2212") : QString();
    if (whole >= 3600) {
        s += QStringLiteral("%1:%2:%3")
                 .arg(whole / 3600)
                 .arg((whole / 60) % 60, 2, 10, QLatin1Char('0'))
                 .arg(whole % 60, 2, 10, QLatin1Char('0'));
    } else {
        s += QStringLiteral("%1:%2").arg(whole / 60).arg(whole % 60, 2, 10, QLatin1Char('0'));
    }
    if (decimals > 0) {
        s += QLatin1Char('.') + QStringLiteral("%1").arg(frac, decimals, 10, QLatin1Char('0'));
    }
    return s;
}

QString TimeAxisTicker::labelFor(double tick, const QCPRange &range) {
    return label(tick, plan(range));
}

QString TimeAxisTicker::caption(const QCPRange &range) {
    const Plan p = plan(range);
    const int baseDecimals =
        p.baseStep > 0.0 ? std::clamp(-int(std::round(std::log10(p.baseStep))), 0, 9) : 0;
    if (m_mode == Mode::Relative) {
        if (p.baseStep == 0.0 || p.base == 0.0) {
            return QString();
        }
        return signedNumber(p.base, baseDecimals) + QStringLiteral(" s +");
    }
    const double mid = (range.lower + range.upper) / 2;
    const double a = std::floor(m_wallOffset);
    const double rest = (m_wallOffset - a) + (p.baseStep > 0.0 ? p.base : range.lower);
    const qint64 secs = qint64(a + std::floor(rest));
    const QDateTime dt = m_utc ? QDateTime::fromSecsSinceEpoch(secs, QTimeZone::utc())
                               : QDateTime::fromSecsSinceEpoch(secs);
    QString zone;
    if (m_utc) {
        zone = QStringLiteral("UTC");
    } else {
        const int off = int(zoneOffset(mid));
        zone = QStringLiteral("UTC%1%2:%3")
                   .arg(off < 0 ? QLatin1Char('-') : QLatin1Char('+'))
                   .arg(std::abs(off) / 3600, 2, 10, QLatin1Char('0'))
                   .arg((std::abs(off) / 60) % 60, 2, 10, QLatin1Char('0'));
    }
    if (p.baseStep > 0.0) {
        const double frac = rest - std::floor(rest);
        const int d = std::max(3, baseDecimals);
        return dt.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) + QLatin1Char('.') +
               QString::number(frac, 'f', d).mid(2) + QLatin1Char(' ') + zone +
               QStringLiteral(" +");
    }
    if (p.showDate) {
        return zone;
    }
    return dt.toString(QStringLiteral("yyyy-MM-dd")) + QStringLiteral(" · ") + zone;
}

void TimeAxisTicker::generate(const QCPRange &range, const QLocale &, QChar, int,
                              QVector<double> &ticks, QVector<double> *subTicks,
                              QVector<QString> *tickLabels) {
    const Plan p = plan(range);
    ticks = createTickVector(p.step, range);
    trimTicks(range, ticks, true);
    if (subTicks) {
        *subTicks = ticks.isEmpty() ? QVector<double>()
                                    : createSubTickVector(getSubTickCount(p.step), ticks);
        trimTicks(range, *subTicks, false);
    }
    trimTicks(range, ticks, false);
    if (tickLabels) {
        tickLabels->clear();
        tickLabels->reserve(ticks.size());
        for (double t : ticks) {
            tickLabels->append(label(t, p));
        }
    }
}

}  // namespace lmct
