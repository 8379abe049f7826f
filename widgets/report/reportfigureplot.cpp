#include "report/reportfigureplot.h"

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
        case ReportContent::Color::Neutral:
            break;
    }
    return QColor(0x50, 0x50, 0x50);
}

constexpr double kLogBase = 0.5;  // where bars stand on a log count axis

}  // namespace

QCustomPlot *ReportFigurePlot::create(const ReportContent::Figure &figure, QWidget *parent) {
    auto *p = new QCustomPlot(parent);
    p->setAttribute(Qt::WA_DontShowOnScreen);
    p->resize(figure.width, figure.height);
    p->setBackground(Qt::white);
    p->plotLayout()->insertRow(0);
    QFont titleFont = p->font();
    titleFont.setBold(true);
    p->plotLayout()->addElement(0, 0, new QCPTextElement(p, figure.title, titleFont));
    p->xAxis->setLabel(figure.xLabel);
    p->yAxis->setLabel(figure.yLabel);
    p->yAxis->setNumberFormat(QStringLiteral("gb"));
    if (figure.logX) {
        p->xAxis->setScaleType(QCPAxis::stLogarithmic);
    }
    if (figure.logY) {
        p->yAxis->setScaleType(QCPAxis::stLogarithmic);
        p->yAxis->setTicker(QSharedPointer<DecadeTicker>::create());
    }
    switch (figure.ticks) {
        case ReportContent::Ticks::Labels: {
            auto ticker = QSharedPointer<QCPAxisTickerText>::create();
            for (const auto &[x, label] : figure.tickLabels) {
                ticker->addTick(x, label);
            }
            p->xAxis->setTicker(ticker);
            break;
        }
        case ReportContent::Ticks::Chunks:
            p->xAxis->setTicker(QSharedPointer<DecadeTicker>::create());
            break;
        case ReportContent::Ticks::Seconds:
        case ReportContent::Ticks::Auto:
            break;
    }
    int barSeries = 0;
    for (const ReportContent::Series &s : figure.series) {
        barSeries += s.style == ReportContent::Style::Bars;
    }
    double top = 1;
    for (const ReportContent::Series &s : figure.series) {
        const QColor c = colorOf(s);
        for (double v : s.y) {
            if (std::isfinite(v)) {
                top = std::max(top, v);
            }
        }
        if (s.style == ReportContent::Style::Bars) {
            auto *bars = new QCPBars(p->xAxis, p->yAxis);
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
                bars->setBaseValue(kLogBase);
            }
            for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
                bars->addData(s.x[i], s.y[i]);
            }
            continue;
        }
        QCPGraph *g = p->addGraph();
        g->setName(s.name);
        if (s.name.isEmpty()) {
            g->removeFromLegend();
        }
        g->setPen(QPen(c, s.style == ReportContent::Style::Dashed ? 1.6 : 2.0,
                       s.style == ReportContent::Style::Dashed ? Qt::DashLine : Qt::SolidLine));
        g->setLineStyle(QCPGraph::lsLine);
        if (s.points) {
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
        }
        for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            g->addData(s.x[i], s.y[i]);
        }
    }
    p->rescaleAxes();
    const QCPRange xr = p->xAxis->range();
    p->xAxis->setRange(std::isfinite(figure.xMin) ? figure.xMin : xr.lower,
                       std::isfinite(figure.xMax) ? figure.xMax : xr.upper);
    if (figure.logY) {
        p->yAxis->setRange(kLogBase, std::max(10.0, top * 1.6));
    } else {
        p->yAxis->setRange(std::isfinite(figure.yMin) ? figure.yMin : 0.0,
                           std::isfinite(figure.yMax) ? figure.yMax : top * 1.12);
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
    if (named > 3) {
        // rows of entries under the plot: inside, a dozen of them hid the curves
        p->legend->setVisible(true);
        p->axisRect()->insetLayout()->take(p->legend);
        p->plotLayout()->addElement(2, 0, p->legend);
        p->plotLayout()->setRowStretchFactor(2, 0.001);
        p->legend->setWrap(6);
        p->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
        p->legend->setBorderPen(Qt::NoPen);
        p->legend->setBrush(Qt::NoBrush);
    } else if (named > 1) {
        // a few entries: in the top-right corner, over a light ground
        p->legend->setVisible(true);
        p->legend->setBrush(QColor(255, 255, 255, 220));
        p->legend->setBorderPen(QPen(QColor(0xb0, 0xb0, 0xb0), 0.6));
        p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    }
    p->replot(QCustomPlot::rpImmediateRefresh);
    return p;
}

PlotExportSpec ReportFigurePlot::spec(QCustomPlot *plot, const ReportContent::Figure &figure) {
    PlotExportSpec s;
    s.plot = plot;
    s.title = figure.title;
    s.fileSuffix = QLatin1Char('-') + figure.id;
    const QString caption = figure.caption;
    s.caption = [caption] { return caption; };
    return s;
}

}  // namespace lmct
