#pragma once

#include "whatif/whatifanalysis.h"

#include <qcustomplot.h>
#include <QString>

namespace lmct {

/**
 * The ticks of a what-if capacity axis (logarithmic): chunks at powers of ten ("1", "10", "1k",
 * "1M"), bytes at powers of two ("1 KiB", "32 KiB", "1 MiB"), labelled with the value each tick
 * stands at, right for any range. A range of less than 1.6 decades (chunks) or octaves (bytes)
 * has too few powers to mark: chunks then tick at 1, 2 and 5 times the powers of ten, bytes at
 * QCustomPlot's linear steps, and neither draws sub-ticks. QCustomPlot's own fallback for such
 * ranges (linear ticks at 2, 4, 6, 8 labelled as the nearest power: "1 10 10 10") is what this
 * replaces.
 *
 * Units: chunks or bytes (WhatIfAnalysis::Unit), the axis' coordinates. Ownership: held by its
 * axis (QSharedPointer). Thread-safety: GUI thread. Errors: none; labels of a range at or below
 * 0 are QCustomPlot's.
 */
class CapacityTicker : public QCPAxisTickerLog {
public:
    using Unit = WhatIfAnalysis::Unit;

    explicit CapacityTicker(Unit unit);

    Unit unit() const { return m_unit; }
    /** The label of a tick at `value`: "0.5", "2", "250", "1k", "2.5k", "1M" (chunks, three
     *  significant digits, thousands by 1000) or ConfiguredRun::bytesText() (bytes). */
    static QString label(double value, Unit unit);

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar,
                         int precision) override;

private:
    Unit m_unit;
    int m_subTicks = 0;  // of the last tick vector made
};

}  // namespace lmct
