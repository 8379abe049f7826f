#include "common/figureplot.h"

#include "common/callcolors.h"
#include "common/legendplacement.h"
#include "common/policycolors.h"
#include "whatif/cachepolicy.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

/** Capacity ticks at powers of ten: "1", "10", "100", "1k", "10k", "1M". */
class DecadeTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override {
        if (tick < 1) {
            return QString::number(tick, 'g', 2);
        }
        static const char *const kSuffix[] = {"", "k", "M", "G", "T"};
        const int e = int(std::lround(std::log10(tick)));
        const int group = std::clamp(e / 3, 0, 4);
        return QString::number(qint64(std::llround(std::pow(10.0, e - 3 * group)))) +
               QLatin1String(kSuffix[group]);
    }
};

/** Durations at powers of ten, in words: "10 µs", "1 ms", "100 s". */
class DurationLogTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override {
        static const struct {
            double seconds;
            const char *unit;
        } kUnits[] = {{1.0, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}};
        for (const auto &u : kUnits) {
            if (tick >= u.seconds * 0.999 || u.seconds == 1e-9) {
                return QStringLiteral("%1 %2").arg(QString::number(tick / u.seconds, 'g', 3),
                                                   QString::fromUtf8(u.unit));
            }
        }
        return QString();
    }
};

QColor colorOf(const ReportContent::Series &s) {
    switch (s.color) {
        case ReportContent::Color::Policy:
            return PolicyColors::color(
                CachePolicy::Kind(std::clamp(s.colorIndex, 0, CachePolicy::kKindCount - 1)));
        case ReportContent::Color::SideA:
            return QColor(0x1f, 0x77, 0xb4);
        case ReportContent::Color::SideB:
            return QColor(0xff, 0x7f, 0x0e);
        case ReportContent::Color::Histogram: {
            static const QColor kColors[] = {QColor(0x2c, 0xa0, 0x2c), QColor(0xff, 0x7f, 0x0e),
                                             QColor(0x94, 0x67, 0xbd)};
            return kColors[std::clamp(s.colorIndex, 0, 2)];
        }
        case ReportContent::Color::LMCache:
            return PolicyColors::lmcacheColor();
        case ReportContent::Color::Occupancy:
            return PolicyColors::occupancyColor();
        case ReportContent::Color::Call:
            return CallColors::color(s.call);
        case ReportContent::Color::Neutral:
            break;
    }
    return QColor(0x50, 0x50, 0x50);
}

constexpr double kLogBase = 0.5;  // where bars stand on a log count axis

/** The tick labels of `ticks` on `axis` (a figure's x or y). */
void setTicks(QCPAxis *axis, ReportContent::Ticks ticks, bool log,
              const std::vector<std::pair<double, QString>> &labels) {
    switch (ticks) {
        case ReportContent::Ticks::Labels: {
            auto ticker = QSharedPointer<QCPAxisTickerText>::create();
            for (const auto &[x, label] : labels) {
                ticker->addTick(x, label);
            }
            axis->setTicker(ticker);
            break;
        }
        case ReportContent::Ticks::Chunks:
            axis->setTicker(QSharedPointer<DecadeTicker>::create());
            break;
        case ReportContent::Ticks::Seconds:
            // (a linear axis of seconds keeps its numbers: t_mono, the label says the unit)
            if (log) {
                axis->setTicker(QSharedPointer<DurationLogTicker>::create());
            }
            break;
        case ReportContent::Ticks::Auto:
            if (log) {
                axis->setTicker(QSharedPointer<DecadeTicker>::create());
            }
            break;
    }
}

}  // namespace

QCustomPlot *FigurePlot::create(const ReportContent::Figure &figure, QWidget *parent) {
    auto *p = new QCustomPlot(parent);
    p->resize(figure.width, figure.height);
    p->setBackground(Qt::white);
    p->plotLayout()->insertRow(0);
    QFont titleFont = p->font();
    titleFont.setBold(true);
    p->plotLayout()->addElement(0, 0, new QCPTextElement(p, figure.title, titleFont));
    // x is the key axis (bottom, or left in a horizontal figure), y the value axis
    QCPAxis *keyAxis = figure.horizontal ? p->yAxis : p->xAxis;
    QCPAxis *valueAxis = figure.horizontal ? p->xAxis : p->yAxis;
    keyAxis->setLabel(figure.xLabel);
    valueAxis->setLabel(figure.yLabel);
    valueAxis->setNumberFormat(QStringLiteral("gb"));
    if (figure.logX) {
        keyAxis->setScaleType(QCPAxis::stLogarithmic);
    }
    if (figure.logY) {
        valueAxis->setScaleType(QCPAxis::stLogarithmic);
    }
    setTicks(keyAxis, figure.ticks, figure.logX, figure.tickLabels);
    setTicks(valueAxis, figure.yTicks, figure.logY, {});
    if (figure.horizontal) {
        keyAxis->setRangeReversed(true);  // the first row on top
        keyAxis->grid()->setVisible(false);
        keyAxis->setTicks(figure.ticks == ReportContent::Ticks::Labels);
        keyAxis->setSubTicks(false);
    }
    int barSeries = 0;
    for (const ReportContent::Series &s : figure.series) {
        barSeries += s.style == ReportContent::Style::Bars && !s.name.isEmpty();
    }
    double top = 1, least = std::numeric_limits<double>::infinity();
    for (const ReportContent::Series &s : figure.series) {
        for (double v : s.y) {
            if (std::isfinite(v)) {
                top = std::max(top, v);
                if (v > 0) {
                    least = std::min(least, v);
                }
            }
        }
    }
    if (!std::isfinite(least)) {
        least = kLogBase;
    }
    // where bars stand on a log axis: below the least value (counts: at ½)
    const double logBase = figure.yTicks == ReportContent::Ticks::Seconds
                               ? std::pow(10.0, std::floor(std::log10(least)))
                               : kLogBase;
    bool labelled = false;
    for (const ReportContent::Series &s : figure.series) {
        const QColor c = colorOf(s);
        if (s.style == ReportContent::Style::Bars) {
            auto *bars = new QCPBars(keyAxis, valueAxis);
            bars->setName(s.name);
            if (s.name.isEmpty()) {
                bars->removeFromLegend();
            }
            bars->setWidth(barSeries > 1 ? 0.4 : 0.85);
            bars->setPen(barSeries > 1 ? QPen(c.darker(120)) : QPen(Qt::NoPen));
            QColor fill = c;
            fill.setAlpha(200);
            bars->setBrush(fill);
            if (figure.logY) {
                bars->setBaseValue(logBase);
            }
            for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
                bars->addData(s.x[i], s.y[i]);
            }
        } else {
            QCPGraph *g = p->addGraph(keyAxis, valueAxis);
            g->setName(s.name);
            if (s.name.isEmpty()) {
                g->removeFromLegend();
            }
            if (s.style == ReportContent::Style::Points) {
                g->setLineStyle(QCPGraph::lsNone);
                g->setPen(QPen(c, 1.6));
                g->setScatterStyle(s.hollow ? QCPScatterStyle(QCPScatterStyle::ssCircle,
                                                              QPen(c, 1.6), QBrush(Qt::white), 7)
                                            : QCPScatterStyle(QCPScatterStyle::ssDisc, c, 7));
            } else {
                const bool dashed = s.style == ReportContent::Style::Dashed;
                g->setPen(QPen(c, dashed ? 1.6 : 2.0, dashed ? Qt::DashLine : Qt::SolidLine));
                g->setLineStyle(QCPGraph::lsLine);
                if (s.points) {
                    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
                }
            }
            for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
                g->addData(s.x[i], s.y[i]);
            }
        }
        for (size_t i = 0; i < s.labels.size() && i < s.x.size() && i < s.y.size(); ++i) {
            if (s.labels[i].isEmpty() || !std::isfinite(s.y[i])) {
                continue;
            }
            // beyond the bar's end (or above the point), in the axes' text colour
            auto *text = new QCPItemText(p);
            text->setClipToAxisRect(false);
            text->position->setAxes(p->xAxis, p->yAxis);
            if (figure.horizontal) {
                text->position->setCoords(s.y[i], s.x[i]);
                text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            } else {
                text->position->setCoords(s.x[i], s.y[i]);
                text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            }
            text->setPadding(QMargins(4, 0, 4, 1));
            text->setText(s.labels[i]);
            text->setColor(QColor(0x30, 0x30, 0x30));
            labelled = true;
        }
    }
    p->rescaleAxes();
    const QCPRange xr = keyAxis->range();
    keyAxis->setRange(std::isfinite(figure.xMin) ? figure.xMin : xr.lower,
                      std::isfinite(figure.xMax) ? figure.xMax : xr.upper);
    // room for the texts beyond the longest bar
    const double headroom = labelled ? (figure.horizontal ? 1.35 : 1.2) : 1.12;
    if (figure.logY) {
        const double low = std::isfinite(figure.yMin) ? figure.yMin : logBase;
        const double high =
            std::isfinite(figure.yMax) ? figure.yMax : std::max(low * 10, top * 1.6 * headroom);
        valueAxis->setRange(low, high);
    } else {
        valueAxis->setRange(std::isfinite(figure.yMin) ? figure.yMin : 0.0,
                            std::isfinite(figure.yMax) ? figure.yMax : top * headroom);
    }
    const QCPRange fr = p->xAxis->range();
    for (const ReportContent::Marker &m : figure.markers) {
        auto *line = new QCPItemStraightLine(p);
        line->setPen(QPen(QColor(0x30, 0x30, 0x30), 1.5, Qt::DashDotLine));
        line->point1->setTypeY(QCPItemPosition::ptAxisRectRatio);
        line->point2->setTypeY(QCPItemPosition::ptAxisRectRatio);
        line->point1->setCoords(m.x, 0);
        line->point2->setCoords(m.x, 1);
        auto *tag = new QCPItemText(p);
        tag->position->setTypeX(QCPItemPosition::ptPlotCoords);
        tag->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        tag->position->setCoords(m.x, 0.03 + 0.08 * double(&m - figure.markers.data()));
        // beside the line, on the side with room
        const bool right = figure.logX && fr.lower > 0
                               ? std::log(m.x / fr.lower) > std::log(fr.upper / fr.lower) / 2
                               : m.x > (fr.lower + fr.upper) / 2;
        tag->setPositionAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
        tag->setPadding(QMargins(4, 1, 4, 1));
        tag->setText(m.label);
        tag->setColor(QColor(0x30, 0x30, 0x30));
        tag->setBrush(QColor(255, 255, 255, 230));
    }
    const int named = int(std::count_if(figure.series.begin(), figure.series.end(),
                                        [](const auto &s) { return !s.name.isEmpty(); }));
    QFont lf = p->font();
    lf.setPointSizeF(std::max(6.0, lf.pointSizeF() - 1.0));
    p->legend->setFont(lf);
    if (named > 3 || (named > 1 && figure.horizontal)) {
        // (across, the rows fill the plot: any corner hid one)
        // rows of entries under the plot: inside, a dozen of them hid the curves
        p->legend->setVisible(true);
        LegendPlacement::putUnder(p);
    } else if (named > 1) {
        // a few entries: in a corner where they hide no data, over a light ground; under the
        // plot when every corner has some
        p->legend->setVisible(true);
        p->legend->setBrush(QColor(255, 255, 255, 220));
        p->legend->setBorderPen(QPen(QColor(0xb0, 0xb0, 0xb0), 0.6));
        LegendPlacement::place(p);
    }
    p->replot(QCustomPlot::rpImmediateRefresh);
    return p;
}

PlotExportSpec FigurePlot::spec(QCustomPlot *plot, const ReportContent::Figure &figure) {
    PlotExportSpec s;
    s.plot = plot;
    s.title = figure.name.isEmpty() ? figure.title : figure.name;
    s.fileSuffix = QLatin1Char('-') + figure.id;
    const QString caption = figure.caption;
    s.caption = [caption] { return caption; };
    return s;
}

}  // namespace lmct
