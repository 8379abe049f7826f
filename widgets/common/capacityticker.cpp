#include "common/capacityticker.h"

#include "whatif/configuredrun.h"

#include <cmath>

namespace lmct {

namespace {

/** Fewer powers of the base than this in the range: ticks at 1-2-5 (or linear) steps. */
constexpr double kLeastPowers = 1.6;

/** `v` with at most three significant digits and never an exponent: "2", "2.5", "250". */
QString significant(double v) {
    QString s = QString::number(v, 'f', v >= 100 ? 0 : v >= 10 ? 1 : v >= 1 ? 2 : 3);
    if (s.contains(QLatin1Char('.'))) {
        while (s.endsWith(QLatin1Char('0'))) {
            s.chop(1);
        }
        if (s.endsWith(QLatin1Char('.'))) {
            s.chop(1);
        }
    }
    return s;
}

}  // namespace

CapacityTicker::CapacityTicker(Unit unit) : m_unit(unit) {
    if (unit == Unit::Bytes) {
        setLogBase(2);
        setSubTickCount(0);
    } else {
        setLogBase(10);
        setSubTickCount(8);
    }
}

QString CapacityTicker::label(double value, Unit unit) {
    if (unit == Unit::Bytes) {
        return ConfiguredRun::bytesText(value);
    }
    static const char *const kSuffix[] = {"", "k", "M", "G", "T", "P", "E"};
    double v = value;
    int group = 0;
    while (group < 6 && std::abs(v) >= 1000.0 * (1 - 0.0005)) {  // (999.9 is written 1k)
        v /= 1000.0;
        ++group;
    }
    return significant(v) + QLatin1String(kSuffix[group]);
}

QVector<double> CapacityTicker::createTickVector(double tickStep, const QCPRange &range) {
    m_subTicks = 0;
    if (!(range.lower > 0) || !(range.upper > range.lower)) {
        return QCPAxisTickerLog::createTickVector(tickStep, range);
    }
    const double powers = std::log(range.upper / range.lower) / std::log(mLogBase);
    if (powers >= kLeastPowers) {
        QVector<double> ticks = QCPAxisTickerLog::createTickVector(tickStep, range);
        // sub-ticks (2 to 9 × a power of ten) only between powers one apart
        const bool oneApart =
            ticks.size() >= 2 && std::abs(ticks[1] / ticks[0] - mLogBase) < 1e-6 * mLogBase;
        m_subTicks = oneApart ? mSubTickCount : 0;
        return ticks;
    }
    if (m_unit == Unit::Bytes) {
        return QCPAxisTicker::createTickVector(tickStep, range);  // linear, labelled by value
    }
    // 1, 2 and 5 times the powers of ten in the range, with one outside at either end
    QVector<double> ticks;
    const int first = int(std::floor(std::log10(range.lower))) - 1;
    const int last = int(std::ceil(std::log10(range.upper))) + 1;
    for (int e = first; e <= last; ++e) {
        for (const double m : {1.0, 2.0, 5.0}) {
            ticks.append(m * std::pow(10.0, e));
        }
    }
    return ticks;
}

int CapacityTicker::getSubTickCount(double) {
    return m_subTicks;
}

QString CapacityTicker::getTickLabel(double tick, const QLocale &, QChar, int) {
    return label(tick, m_unit);
}

}  // namespace lmct
