#include "common/whatifcurveplot.h"

#include "common/capacityticker.h"
#include "common/plottheme.h"
#include "common/policycolors.h"

#include <QFontMetrics>
#include <QStringList>
#include <algorithm>

namespace lmct {

namespace {

const QColor kMarkerRed(0xd6, 0x27, 0x28);
const char *const kPolicyProperty = "lmctPolicy";
const char *const kInLegendProperty = "lmctInLegend";

}  // namespace

WhatIfCurvePlot::WhatIfCurvePlot(Legend place, QWidget *parent)
    : QCustomPlot(parent), m_capacityName(tr("capacity")) {
    setMinimumSize(240, 140);
    plotLayout()->insertRow(0);
    QFont titleFont = font();
    titleFont.setBold(true);
    m_title = new QCPTextElement(this, QString(), titleFont);
    plotLayout()->addElement(0, 0, m_title);
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    yAxis->setLabel(tr("prefetched keys hit (%)"));
    yAxis->setRange(0, 100);
    yAxis->setNumberFormat(QStringLiteral("gb"));
    setUnit(Unit::Chunks);

    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() - 1.0));
    legend->setVisible(false);  // (until a curve is in it)
    legend->setFont(small);
    legend->setRowSpacing(0);
    if (place == Legend::Below) {
        // under the plot in rows of three: a dozen entries inside hid the curves
        axisRect()->insetLayout()->take(legend);
        plotLayout()->addElement(2, 0, legend);
        plotLayout()->setRowStretchFactor(2, 0.001);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        legend->setWrap(3);
        legend->setBorderPen(Qt::NoPen);
        legend->setBrush(Qt::NoBrush);
    } else {
        legend->setBrush(QColor(255, 255, 255, 220));
        axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    }

    m_configuredLine = new QCPItemStraightLine(this);
    m_configuredLine->setPen(QPen(QColor(0x30, 0x30, 0x30), 1.5, Qt::DashDotLine));
    m_configuredLine->setSelectable(false);
    m_configuredLine->setVisible(false);
    m_configuredTag = new QCPItemText(this);
    m_configuredTag->position->setTypeX(QCPItemPosition::ptPlotCoords);
    m_configuredTag->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_configuredTag->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    m_configuredTag->setPadding(QMargins(3, 1, 4, 1));
    m_configuredTag->setFont(small);
    m_configuredTag->setColor(QColor(0x30, 0x30, 0x30));
    m_configuredTag->setBrush(QColor(255, 255, 255, 220));
    m_configuredTag->setSelectable(false);
    m_configuredTag->setVisible(false);
    m_configuredTag->setPen(QPen(QColor(0x30, 0x30, 0x30), 1));
    // the side of the line with room follows the axis (a rescale, a zoom)
    connect(this, &QCustomPlot::afterLayout, this, &WhatIfCurvePlot::placeConfiguredTag);
    m_capacityLine = new QCPItemStraightLine(this);
    m_capacityLine->setPen(QPen(kMarkerRed, 1, Qt::DashLine));
    m_capacityLine->setSelectable(false);
    m_capacityLine->setVisible(false);
    for (CachePolicy::Kind kind : CachePolicy::all()) {
        auto *t = new QCPItemTracer(this);
        t->setStyle(QCPItemTracer::tsCircle);
        t->setSize(6);
        t->setPen(PolicyColors::pen(kind, 1.5));
        t->setBrush(QColor(255, 255, 255, 220));
        t->setClipToAxisRect(false);
        t->setSelectable(false);
        t->setVisible(false);
        m_tracers[size_t(kind)] = t;
    }
    // the point read at C (made last: drawn over the others), whole even on the axes
    m_capacityMarker = new QCPItemTracer(this);
    m_capacityMarker->setStyle(QCPItemTracer::tsCircle);
    m_capacityMarker->setSize(9);
    m_capacityMarker->setPen(QPen(kMarkerRed, 2));
    m_capacityMarker->setBrush(QColor(255, 255, 255, 220));
    m_capacityMarker->setClipToAxisRect(false);
    m_capacityMarker->setSelectable(false);
    m_capacityMarker->setVisible(false);

    m_messageItem = new QCPItemText(this);
    m_messageItem->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_messageItem->position->setCoords(0.5, 0.5);
    m_messageItem->setPositionAlignment(Qt::AlignCenter);
    m_messageItem->setTextAlignment(Qt::AlignCenter);
    m_messageItem->setPadding(QMargins(8, 6, 8, 6));
    m_messageItem->setColor(QColor(0x30, 0x30, 0x30));
    m_messageItem->setBrush(QColor(255, 255, 255, 235));
    m_messageItem->setPen(QPen(QColor(0xb0, 0xb0, 0xb0)));
    m_messageItem->setSelectable(false);
    m_messageItem->setClipToAxisRect(false);
    m_messageItem->setVisible(false);
    // the message follows the width of the curves' area
    connect(this, &QCustomPlot::afterLayout, this, &WhatIfCurvePlot::wrapMessage);
    PlotTheme::follow(this);
}

void WhatIfCurvePlot::setUnit(Unit unit) {
    m_unit = unit;
    const auto *ticker = dynamic_cast<const CapacityTicker *>(xAxis->ticker().data());
    if (!ticker || ticker->unit() != unit) {
        xAxis->setTicker(QSharedPointer<CapacityTicker>::create(unit));
    }
    xAxis->setLabel(unit == Unit::Bytes ? tr("%1 (bytes)").arg(m_capacityName)
                                        : tr("%1 (chunks)").arg(m_capacityName));
}

void WhatIfCurvePlot::setCapacityName(const QString &name) {
    m_capacityName = name;
    setUnit(m_unit);
}

void WhatIfCurvePlot::setTitle(const QString &title) {
    m_title->setText(title);
}

QString WhatIfCurvePlot::title() const {
    return m_title->text();
}

QCPGraph *WhatIfCurvePlot::addCurve(CachePolicy::Kind kind, const QVector<double> &capacities,
                                    const QVector<double> &percents, const Style &style,
                                    bool inLegend) {
    QCPGraph *g = addGraph();
    g->setName(CachePolicy::label(kind));
    g->setSelectable(QCP::stNone);
    g->setProperty(kPolicyProperty, int(kind));
    g->setProperty(kInLegendProperty, inLegend);
    setCurve(g, capacities, percents, style);
    orderLegend();
    return g;
}

void WhatIfCurvePlot::setCurve(QCPGraph *graph, const QVector<double> &capacities,
                               const QVector<double> &percents, const Style &style) {
    const auto kind = CachePolicy::Kind(graph->property(kPolicyProperty).toInt());
    QPen pen = PolicyColors::pen(kind, style.width);
    pen.setStyle(style.pen);
    graph->setPen(pen);
    graph->setLineStyle(style.stepped ? QCPGraph::lsStepLeft : QCPGraph::lsLine);
    graph->setScatterStyle(style.stepped ? QCPScatterStyle()
                                         : QCPScatterStyle(QCPScatterStyle::ssDisc, 4.0));
    graph->setData(capacities, percents, true);
}

void WhatIfCurvePlot::removeCurve(QCPGraph *graph) {
    removeGraph(graph);
    orderLegend();
}

void WhatIfCurvePlot::clearCurves() {
    clearGraphs();
    orderLegend();
}

void WhatIfCurvePlot::orderLegend() {
    legend->clearItems();
    for (CachePolicy::Kind kind : CachePolicy::all()) {
        for (int i = 0; i < graphCount(); ++i) {
            QCPGraph *g = graph(i);
            if (g->property(kPolicyProperty).toInt() == int(kind) &&
                g->property(kInLegendProperty).toBool()) {
                g->addToLegend();
            }
        }
    }
    legend->setVisible(legend->itemCount() > 0);
}

void WhatIfCurvePlot::setMessage(const QString &message) {
    m_message = message;
    wrapMessage();
    m_messageItem->setVisible(!message.isEmpty());
}

void WhatIfCurvePlot::wrapMessage() {
    // words in lines as wide as the curves' area holds (its whole width before a layout)
    const int room = std::max(120, (axisRect()->width() > 0 ? axisRect()->width() : width()) - 40);
    const QFontMetrics fm(m_messageItem->font());
    QStringList lines;
    for (const QString &paragraph : m_message.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString &word : paragraph.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && fm.horizontalAdvance(longer) > room) {
                lines << line;
                line = word;
            } else {
                line = longer;
            }
        }
        lines << line;
    }
    m_messageItem->setText(lines.join(QLatin1Char('\n')));
}

void WhatIfCurvePlot::showCapacity(
    double c, const std::array<std::optional<double>, CachePolicy::kKindCount> &percents) {
    QCPItemTracer *red = nullptr;  // the first policy read
    for (CachePolicy::Kind kind : CachePolicy::all()) {
        QCPItemTracer *t = m_tracers[size_t(kind)];
        const std::optional<double> &p = percents[size_t(kind)];
        t->setVisible(p.has_value());
        if (p) {
            t->position->setCoords(c, *p);
            red = red ? red : t;
        }
    }
    m_capacityMarker->setVisible(red != nullptr);
    if (red) {
        m_capacityMarker->position->setCoords(red->position->coords());
    }
    m_capacityLine->setVisible(true);
    m_capacityLine->point1->setCoords(c, 0);
    m_capacityLine->point2->setCoords(c, 100);
}

void WhatIfCurvePlot::hideCapacity() {
    m_capacityLine->setVisible(false);
    m_capacityMarker->setVisible(false);
    for (QCPItemTracer *t : m_tracers) {
        t->setVisible(false);
    }
}

void WhatIfCurvePlot::showConfigured(double c, const QString &tag) {
    const bool on = c > 0;
    m_configuredLine->setVisible(on);
    m_configuredTag->setVisible(on);
    if (!on) {
        return;
    }
    m_configuredLine->point1->setCoords(c, 0);
    m_configuredLine->point2->setCoords(c, 1);
    m_configuredText = tag;
    m_configuredTag->position->setCoords(c, 0.97);
    placeConfiguredTag();
}

void WhatIfCurvePlot::placeConfiguredTag() {
    if (!m_configuredTag->visible()) {
        return;
    }
    // Beside the line, on the side with room, pointing at it: a tag standing free between the
    // configured line and the capacity line read as the capacity line's.
    const double c = m_configuredTag->position->coords().x();
    const bool left = xAxis->coordToPixel(c) > axisRect()->left() + axisRect()->width() / 2;
    m_configuredTag->setPositionAlignment((left ? Qt::AlignRight : Qt::AlignLeft) |
                                          Qt::AlignBottom);
    m_configuredTag->setText(left ? m_configuredText + QStringLiteral(" ▸")
                                  : QStringLiteral("◂ ") + m_configuredText);
}

}  // namespace lmct
