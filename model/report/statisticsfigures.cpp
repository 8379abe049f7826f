#include "report/statisticsfigures.h"

#include "report/reportsections.h"
#include "util/timeformat.h"

#include <QLocale>
#include <QObject>
#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

using S = ReportSections;

/** The height of a horizontal chart of `rows` rows: a row is 24 px, plus the axes and title. */
int heightFor(int rows, int extra) {
    return std::max(150, 76 + extra + 24 * rows);
}

/** A horizontal chart with one labelled row per call, its identity and its value axis set. */
ReportContent::Figure callRowsFigure(const QString &id, const QString &title, const QString &name,
                                     const QString &caption, const QString &yLabel) {
    ReportContent::Figure f;
    f.id = id;
    f.title = title;
    f.name = name;
    f.caption = caption;
    f.yLabel = yLabel;
    f.horizontal = true;
    f.ticks = ReportContent::Ticks::Labels;
    return f;
}

}  // namespace

QString StatisticsFigures::caption(const QString &file, const QString &filterText,
                                   const TMonoRange &range, qint64 records) {
    QStringList parts{file};
    if (range.isAll()) {
        parts << QObject::tr("whole trace");
    } else {
        const QString from =
            std::isfinite(range.from) ? TimeFormat::mono(range.from) : QObject::tr("start");
        const QString to =
            std::isfinite(range.to) ? TimeFormat::mono(range.to) : QObject::tr("end");
        parts << QObject::tr("t_mono %1 … %2 s").arg(from, to);
    }
    parts << (filterText.isEmpty() ? QObject::tr("no filter")
                                   : QObject::tr("filter: %1").arg(filterText));
    parts << S::counted(records, QObject::tr("record"), QObject::tr("records"));
    return S::caption(parts);
}

QString StatisticsFigures::rateText(double perSecond) {
    if (!std::isfinite(perSecond)) {
        return QStringLiteral("—");
    }
    const QLocale loc;
    const double r = std::abs(perSecond);
    const QString n = r >= 100 ? loc.toString(qint64(std::llround(perSecond)))
                      : r >= 1 ? loc.toString(perSecond, 'f', 1)
                               : loc.toString(perSecond, 'g', 2);
    return QObject::tr("%1/s").arg(n);
}

ReportContent::Figure StatisticsFigures::callCounts(const TraceStatistics &stats,
                                                    const QString &caption) {
    ReportContent::Figure f = callRowsFigure(
        QStringLiteral("calls-chart"), QObject::tr("Calls: how many, and how often"),
        QObject::tr("Calls Chart"), caption,
        QObject::tr("calls (rate: calls per second between the first and the last)"));
    QStringList words;
    for (int i = 0; i < stats.calls.size(); ++i) {
        const TraceStatistics::CallRow &row = stats.calls[i];
        ReportContent::Series s;
        s.color = ReportContent::Color::Call;
        s.call = row.call;
        s.style = ReportContent::Style::Bars;
        s.x = {double(i)};
        s.y = {double(row.count)};
        s.labels = {QStringLiteral("%1 · %2").arg(S::count(row.count), rateText(row.rate))};
        f.tickLabels.emplace_back(double(i), row.call);
        f.series.push_back(std::move(s));
        words
            << QStringLiteral("%1 %2 (%3)").arg(row.call, S::count(row.count), rateText(row.rate));
    }
    f.xMin = -0.6;
    f.xMax = std::max<qsizetype>(1, stats.calls.size()) - 0.4;
    f.height = heightFor(int(stats.calls.size()), 0);
    f.alt =
        QObject::tr("Calls per call and their rates: %1.").arg(words.join(QStringLiteral(", ")));
    return f;
}

ReportContent::Figure StatisticsFigures::interArrival(const TraceStatistics &stats,
                                                      const QString &caption) {
    ReportContent::Figure f =
        callRowsFigure(QStringLiteral("interarrival-chart"),
                       QObject::tr("Time between successive calls: p50, p95 and max"),
                       QObject::tr("Call Intervals Chart"), caption,
                       QObject::tr("Δt between calls of one kind (log scale)"));
    f.logY = true;
    f.yTicks = ReportContent::Ticks::Seconds;
    const QString names[3] = {QObject::tr("p50"), QObject::tr("p95"), QObject::tr("max")};
    ReportContent::Series dots[3];
    for (int k = 0; k < 3; ++k) {
        dots[k].name = names[k];
        dots[k].color = ReportContent::Color::Histogram;
        dots[k].colorIndex = k;
        dots[k].style = ReportContent::Style::Points;
    }
    ReportContent::Series spread;  // a thin line from each row's least dot to its max
    spread.color = ReportContent::Color::Neutral;
    QStringList words;
    int rows = 0;
    for (const TraceStatistics::CallRow &row : stats.calls) {
        const double v[3] = {row.interArrivalP50, row.interArrivalP95, row.interArrivalMax};
        if (!(v[2] > 0)) {
            continue;  // fewer than two calls, or every gap 0 s
        }
        const double x = double(rows++);
        f.tickLabels.emplace_back(x, row.call);
        for (int k = 0; k < 3; ++k) {
            if (v[k] > 0) {
                dots[k].x.push_back(x);
                dots[k].y.push_back(v[k]);
                spread.x.push_back(x);
                spread.y.push_back(v[k]);
            }
        }
        spread.x.push_back(x);  // a gap before the next row
        spread.y.push_back(ReportContent::kNaN);
        words << QObject::tr("%1 p50 %2, p95 %3, max %4")
                     .arg(row.call, TimeFormat::duration(v[0]), TimeFormat::duration(v[1]),
                          TimeFormat::duration(v[2]));
    }
    f.series.push_back(std::move(spread));
    for (ReportContent::Series &d : dots) {
        f.series.push_back(std::move(d));
    }
    f.xMin = -0.6;
    f.xMax = std::max(1, rows) - 0.4;
    f.height = heightFor(rows, 22);  // (the legend's row under the plot)
    f.alt = QObject::tr("The time between successive calls of each kind: %1.")
                .arg(words.join(QStringLiteral("; ")));
    return f;
}

std::vector<ReportContent::Figure> StatisticsFigures::figures(const TraceStatistics &stats,
                                                              const QString &caption) {
    std::vector<ReportContent::Figure> out;
    for (ReportContent::Figure f : {callCounts(stats, caption), interArrival(stats, caption)}) {
        if (f.hasData()) {
            out.push_back(std::move(f));
        }
    }
    return out;
}

std::vector<ReportContent::Figure> StatisticsFigures::comparisonFigures(const CallComparison &calls,
                                                                        const QString &caption) {
    using F = CallComparison::Figure;
    std::vector<const CallComparison::Row *> rows;
    for (const CallComparison::Row &r : calls.rows()) {
        if (!r.isTotal) {
            rows.push_back(&r);
        }
    }
    const QString sides[2] = {QObject::tr("A"), QObject::tr("B")};
    const ReportContent::Color colors[2] = {ReportContent::Color::SideA,
                                            ReportContent::Color::SideB};
    const double offsets[2] = {-0.2, 0.2};  // A above B on a horizontal chart (reversed axis)

    ReportContent::Figure counts = callRowsFigure(
        QStringLiteral("compare-calls-chart"), QObject::tr("Calls: how many, and how often (A, B)"),
        QObject::tr("Calls Chart"), caption,
        QObject::tr("calls (rate: calls per second between the first and the last)"));
    ReportContent::Figure gaps = callRowsFigure(
        QStringLiteral("compare-interarrival-chart"),
        QObject::tr("Time between successive calls: p50 (disc) and p95 (ring), A and B"),
        QObject::tr("Call Intervals Chart"), caption,
        QObject::tr("Δt between calls of one kind (log scale)"));
    gaps.logY = true;
    gaps.yTicks = ReportContent::Ticks::Seconds;
    QStringList countWords, gapWords;
    int gapRows = 0;
    ReportContent::Series bars[2], p50[2], p95[2], spread;
    spread.color = ReportContent::Color::Neutral;
    for (int side = 0; side < 2; ++side) {
        bars[side].name = sides[side];
        bars[side].color = colors[side];
        bars[side].style = ReportContent::Style::Bars;
        p50[side].name = QObject::tr("%1 p50").arg(sides[side]);
        p95[side].name = QObject::tr("%1 p95").arg(sides[side]);
        for (ReportContent::Series *d : {&p50[side], &p95[side]}) {
            d->color = colors[side];
            d->style = ReportContent::Style::Points;
        }
        p95[side].hollow = true;
    }
    for (size_t i = 0; i < rows.size(); ++i) {
        const CallComparison::Row &r = *rows[i];
        counts.tickLabels.emplace_back(double(i), r.call);
        QStringList perSide;
        for (int side = 0; side < 2; ++side) {
            const FigurePair &n = r.figure(F::Count), &rate = r.figure(F::Rate);
            const double count = side == 0 ? n.a : n.b;
            const double perSecond = side == 0 ? rate.a : rate.b;
            const qint64 c = std::isfinite(count) ? qint64(count) : 0;
            bars[side].x.push_back(double(i) + offsets[side]);
            bars[side].y.push_back(double(c));
            bars[side].labels.push_back(
                QStringLiteral("%1 · %2").arg(S::count(c), rateText(perSecond)));
            perSide
                << QStringLiteral("%1 %2 (%3)").arg(sides[side], S::count(c), rateText(perSecond));
        }
        countWords << QStringLiteral("%1: %2").arg(r.call, perSide.join(QStringLiteral(", ")));

        const FigurePair &a50 = r.figure(F::InterArrivalP50), &a95 = r.figure(F::InterArrivalP95);
        const double v50[2] = {a50.a, a50.b}, v95[2] = {a95.a, a95.b};
        if (!(v95[0] > 0) && !(v95[1] > 0)) {
            continue;  // neither side has a positive gap
        }
        const double x = double(gapRows++);
        gaps.tickLabels.emplace_back(x, r.call);
        QStringList g;
        for (int side = 0; side < 2; ++side) {
            const double at = x + offsets[side];
            for (auto [series, v] : {std::pair{&p50[side], v50[side]}, {&p95[side], v95[side]}}) {
                if (v > 0) {
                    series->x.push_back(at);
                    series->y.push_back(v);
                    spread.x.push_back(at);
                    spread.y.push_back(v);
                }
            }
            spread.x.push_back(at);  // a gap before the next dots
            spread.y.push_back(ReportContent::kNaN);
            g << QStringLiteral("%1 p50 %2, p95 %3")
                     .arg(sides[side],
                          v50[side] > 0 ? TimeFormat::duration(v50[side]) : QStringLiteral("—"),
                          v95[side] > 0 ? TimeFormat::duration(v95[side]) : QStringLiteral("—"));
        }
        gapWords << QStringLiteral("%1: %2").arg(r.call, g.join(QStringLiteral(", ")));
    }
    for (ReportContent::Series &b : bars) {
        counts.series.push_back(std::move(b));
    }
    counts.xMin = -0.6;
    counts.xMax = double(std::max<size_t>(1, rows.size())) - 0.4;
    counts.height = heightFor(int(rows.size()) * 2, 22);
    counts.alt = QObject::tr("Calls per call in A and in B, with their rates: %1.")
                     .arg(countWords.join(QStringLiteral("; ")));
    gaps.series.push_back(std::move(spread));
    for (int side = 0; side < 2; ++side) {
        gaps.series.push_back(std::move(p50[side]));
        gaps.series.push_back(std::move(p95[side]));
    }
    gaps.xMin = -0.6;
    gaps.xMax = std::max(1, gapRows) - 0.4;
    gaps.height = heightFor(gapRows * 2, 22);
    gaps.alt = QObject::tr("The time between successive calls of each kind in A and in B: %1.")
                   .arg(gapWords.join(QStringLiteral("; ")));
    std::vector<ReportContent::Figure> out;
    for (ReportContent::Figure *f : {&counts, &gaps}) {
        if (f->hasData()) {
            out.push_back(std::move(*f));
        }
    }
    return out;
}

}  // namespace lmct
