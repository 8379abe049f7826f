#include "timeline/timelinehitplot.h"

#include "common/dockroom.h"
#include "common/legendwrap.h"
#include "common/plotcaption.h"
#include "common/plotpens.h"
#include "common/policycolors.h"
#include "timeline/timelineviewport.h"
#include "timeline/timelineviewwatch.h"
#include "util/timeformat.h"
#include "whatif/configuredrun.h"

#include <qcustomplot.h>

#include <QLocale>
#include <QTimer>
#include <algorithm>
#include <cmath>

namespace lmct {

using namespace PlotPens;

TimelineHitPlot::TimelineHitPlot(QCustomPlot *plot, QCPAxisRect *rect, QCPLegend *legend,
                                 QSharedPointer<QCPAxisTicker> ticker,
                                 const TimelineViewport *viewport, QWidget *timeline)
    : QObject(timeline),
      m_plot(plot),
      m_rect(rect),
      m_legend(legend),
      m_viewport(viewport),
      m_timeline(timeline) {
    // A legend takes its plot when first laid out: in and out of the layout, so that graphs
    // can be added to it before place() shows it.
    QCPLayoutGrid *grid = m_plot->plotLayout();
    grid->addElement(grid->rowCount(), 0, m_legend);
    grid->take(m_legend);
    grid->simplify();
    m_legend->setLayer(QStringLiteral("legend"));
    m_legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_legend->setMargins(QMargins(4, 2, 4, 4));
    m_legend->setRowSpacing(0);
    m_legend->setColumnSpacing(16);
    m_legend->setIconSize(16, 8);
    m_legend->setIconTextPadding(5);
    m_legend->setMinimumSize(1, 0);  // (its columns follow the width: wrapLegend)
    QCPAxis *key = m_rect->axis(QCPAxis::atBottom);
    QCPAxis *value = m_rect->axis(QCPAxis::atLeft);
    QCPAxis *occupancy = m_rect->axis(QCPAxis::atRight);
    key->setTicker(ticker);
    key->setTickLabels(false);
    key->setTickLengthIn(0);
    key->setTickLengthOut(3);
    key->setSubTickLengthIn(0);
    key->setSubTickLengthOut(0);
    for (QCPAxis *a : {value, occupancy}) {
        a->setTickLengthIn(0);
        a->setTickLengthOut(3);
        a->setSubTickLengthIn(0);
        a->setSubTickLengthOut(0);
    }
    // 0, 25, ... 100 % (50 or 100 apart when short: fitTicks), never above 100 % (the headroom
    // above it is the caption's); the occupancy at the same heights: 0, ¼, ... the capacity
    value->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    value->setRange(0, 100);
    value->setLabel(tr("hit %"));
    occupancy->setVisible(true);
    occupancy->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    occupancy->grid()->setVisible(false);
    // labels inside the plot: a right margin would narrow the lanes above (one margin group)
    occupancy->setTickLabelSide(QCPAxis::lsInside);
    occupancy->setTickLengthOut(0);
    occupancy->setTickLengthIn(3);
    // below, room for the lower half of the "0" label and the time ticks only (no time labels):
    // the least height is the plot's own
    m_rect->setAutoMargins(QCP::msLeft | QCP::msRight);
    m_rect->setMargins(QMargins(0, 4, 0, 7));
    m_rect->setMinimumSize(0, kLeastPlotPx);
    m_rect->setVisible(false);
    m_legend->setVisible(false);
    // the heights follow the height in view (the dock's), also when the timeline is taller
    auto *watch = new TimelineViewWatch(timeline);
    connect(watch, &TimelineViewWatch::heightChanged, this, &TimelineHitPlot::layoutNeeded);
}

void TimelineHitPlot::createCaption() {
    m_caption = PlotCaption::create(m_plot, m_rect);
}

bool TimelineHitPlot::isWanted() const {
    return m_shown && m_result && !m_result->series().empty();
}

bool TimelineHitPlot::isPlaced() const {
    return isWanted() && !m_plotLeftOut;
}

bool TimelineHitPlot::setLeftOut(bool plot, bool legend) {
    if (plot == m_plotLeftOut && legend == m_legendLeftOut) {
        return false;
    }
    m_plotLeftOut = plot;
    m_legendLeftOut = legend;
    return true;
}

void TimelineHitPlot::setResult(std::shared_ptr<const HitOverTime> result,
                                const ViewState::WhatIfChoice &choice) {
    const bool was = isPlaced();
    m_result = std::move(result);
    m_choice = choice;
    rebuildGraphs();
    place();
    update();
    emit layoutNeeded();
    if (!was && isPlaced() && !m_grown) {
        // The first time it shows, the dock makes room for it (once laid out): the lanes and
        // the rate plot keep their heights instead of being scrolled out of view.
        QTimer::singleShot(0, this, [this] {
            if (isPlaced() && !m_grown) {
                wrapLegend(m_plot->width());
                const QMargins m = m_rect->margins();
                const int own = kLeastPlotPx + m.top() + m.bottom() +
                                int(m_legend->minimumOuterSizeHint().height());
                m_grown = DockRoom::growHeight(m_timeline,
                                               std::max(own, DockRoom::shortfall(m_timeline))) > 0;
            }
        });
    }
}

void TimelineHitPlot::rebuildGraphs() {
    for (QCPGraph *g : std::as_const(m_graphs)) {
        m_plot->removePlottable(g);
    }
    m_graphs.clear();
    for (QCPGraph *g : {m_lmcache, m_occupancy}) {
        if (g) {
            m_plot->removePlottable(g);
        }
    }
    m_lmcache = m_occupancy = nullptr;
    m_legend->clearItems();
    if (!m_result) {
        return;
    }
    QCPAxis *key = m_rect->axis(QCPAxis::atBottom);
    QCPAxis *value = m_rect->axis(QCPAxis::atLeft);
    QCPAxis *right = m_rect->axis(QCPAxis::atRight);
    // the occupancy first: drawn under the ratios
    if (!m_result->series().empty()) {
        const HitOverTime::Series &first = m_result->series().front();
        m_occupancy = new QCPGraph(key, right);
        m_occupancy->setName(tr("resident (%1, right axis)").arg(CachePolicy::label(first.policy)));
        m_occupancy->setLineStyle(QCPGraph::lsStepLeft);
        m_occupancy->setPen(hairline(PolicyColors::occupancyColor()));
        m_occupancy->setBrush(alpha(PolicyColors::occupancyColor(), 30));
        m_occupancy->setSelectable(QCP::stNone);
        m_occupancy->setAntialiased(false);
        QVector<double> t(first.occupancyT.begin(), first.occupancyT.end());
        QVector<double> b(first.occupancyBytes.begin(), first.occupancyBytes.end());
        m_occupancy->setData(t, b, true);
    }
    for (const HitOverTime::Series &s : m_result->series()) {
        auto *g = new QCPGraph(key, value);
        g->setName(CachePolicy::label(s.policy));
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setPen(QPen(PolicyColors::color(s.policy), 1.5));
        g->setSelectable(QCP::stNone);
        g->setAntialiased(false);
        m_graphs.append(g);
        g->addToLegend(m_legend);
    }
    if (m_result->hasLmcacheAccount()) {
        m_lmcache = new QCPGraph(key, value);
        m_lmcache->setName(tr("LMCache's own L1 prefix hits"));
        m_lmcache->setLineStyle(QCPGraph::lsStepLeft);
        m_lmcache->setPen(QPen(PolicyColors::lmcacheColor(), 1.5, Qt::DashLine));
        m_lmcache->setSelectable(QCP::stNone);
        m_lmcache->setAntialiased(false);
        m_lmcache->addToLegend(m_legend);
    }
    if (m_occupancy) {
        m_occupancy->addToLegend(m_legend);
    }
    for (int i = 0; i < m_legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = m_legend->item(i)) {
            item->setMargins(QMargins(4, 1, 4, 3));
        }
    }
}

void TimelineHitPlot::stretchRows(QCPLayoutGrid *grid) {
    QList<double> stretch;
    for (int row = 0; row < grid->rowCount(); ++row) {
        bool area = false;
        for (int col = 0; col < grid->columnCount(); ++col) {
            area = area || qobject_cast<QCPAxisRect *>(grid->element(row, col)) != nullptr;
        }
        stretch.append(row > 0 && area ? 1.0 : 0.001);
    }
    grid->setRowStretchFactors(stretch);
}

void TimelineHitPlot::place() {
    QCPLayoutGrid *grid = m_plot->plotLayout();
    for (QCPLayoutElement *e :
         {static_cast<QCPLayoutElement *>(m_rect), static_cast<QCPLayoutElement *>(m_legend)}) {
        for (int i = 0; i < grid->elementCount(); ++i) {
            if (grid->elementAt(i) == e) {
                grid->take(e);
                break;
            }
        }
    }
    grid->simplify();
    const bool on = isPlaced();
    if (on) {
        // right under the lanes (row 0), above the rate plot
        grid->insertRow(1);
        grid->addElement(1, 0, m_rect);
        if (m_legend->itemCount() > 0 && !m_legendLeftOut) {
            grid->insertRow(2);
            grid->addElement(2, 0, m_legend);
        }
    }
    stretchRows(grid);
    m_rect->setVisible(on);
    m_legend->setVisible(on && m_legend->itemCount() > 0 && !m_legendLeftOut);
    if (m_caption) {
        m_caption->setVisible(on && !m_caption->text().isEmpty());
    }
}

void TimelineHitPlot::applyPalette(const QPalette &pal, const QFont &small) {
    const QColor base = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    m_rect->axis(QCPAxis::atBottom)->grid()->setSubGridVisible(false);
    m_rect->axis(QCPAxis::atLeft)->grid()->setPen(hairline(alpha(text, 20)));
    QCPAxis *right = m_rect->axis(QCPAxis::atRight);
    const QCPAxis *left = m_rect->axis(QCPAxis::atLeft);
    // the right axis as the left one (the timeline styles the axes it knows)
    right->setBasePen(left->basePen());
    right->setTickPen(left->tickPen());
    right->setTickLabelColor(left->tickLabelColor());
    right->setTickLabelFont(left->tickLabelFont());
    right->setLabelColor(left->labelColor());
    right->setLabelFont(left->labelFont());
    m_legend->setBrush(pal.color(QPalette::Window));
    m_legend->setBorderPen(Qt::NoPen);
    m_legend->setFont(small);
    m_legend->setTextColor(text);
    for (int i = 0; i < m_legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = m_legend->item(i)) {
            item->setFont(small);
            item->setTextColor(text);
        }
    }
    if (m_caption) {
        m_caption->setFont(small);
        m_caption->setColor(alpha(text, 150));
        m_caption->setBrush(alpha(base, 235));
    }
}

void TimelineHitPlot::wrapLegend(int width) {
    LegendWrap::wrap(m_legend, width);
}

bool TimelineHitPlot::fitTicks() {
    if (!isPlaced()) {
        return false;
    }
    // only as many ticks as the height up to 100 % holds readably, at least 0 and 100 %
    const int labelPx = QFontMetrics(m_rect->axis(QCPAxis::atLeft)->tickLabelFont()).height();
    const QCPAxis *value = m_rect->axis(QCPAxis::atLeft);
    const double span = std::abs(value->coordToPixel(0) - value->coordToPixel(100));
    const int fitting = std::clamp(int(span / (labelPx * 2)) + 1, 2, 5);
    const int step = fitting >= 5 ? 25 : fitting >= 3 ? 50 : 100;
    if (step == m_percentStep) {
        return false;
    }
    m_percentStep = step;
    applyTicks();
    return true;
}

void TimelineHitPlot::applyTicks() {
    // the percent ticks and, at the same heights, the occupancy's: the capacity's share
    auto *left = dynamic_cast<QCPAxisTickerText *>(m_rect->axis(QCPAxis::atLeft)->ticker().data());
    auto *right =
        dynamic_cast<QCPAxisTickerText *>(m_rect->axis(QCPAxis::atRight)->ticker().data());
    if (!left || !right) {
        return;
    }
    left->clear();
    right->clear();
    for (int p = 0; p <= 100; p += m_percentStep) {
        left->addTick(p, QString::number(p));
        const double v = m_occupancyTop * p / 100.0;
        // (no label at 0: inside the plot it would stand half below it; the left axis says 0)
        right->addTick(v, p == 0               ? QString()
                          : m_occupancyInBytes ? ConfiguredRun::bytesText(v)
                                               : QLocale().toString(qint64(std::llround(v))));
    }
}

bool TimelineHitPlot::followWidth() {
    if (!isPlaced() || m_rect->width() <= 10 ||
        m_windows == std::max(1, m_rect->width() / kWindowPx)) {
        return false;
    }
    update();
    return true;
}

void TimelineHitPlot::update() {
    m_windows = 0;
    if (!isPlaced()) {
        return;
    }
    const TimelineViewport::Range w = m_viewport->window();
    const double t0 = w.lower, t1 = w.upper;
    if (!(t1 > t0)) {
        return;
    }
    const int px = m_rect->width() > 10 ? m_rect->width() : std::max(50, m_timeline->width() - 250);
    const int columns = std::max(1, px / kWindowPx);
    m_windows = columns;
    const double step = (t1 - t0) / columns;
    auto fill = [&](QCPGraph *g, const std::vector<double> &ratios) {
        QVector<double> keys(columns + 1), values(columns + 1);
        for (int c = 0; c < columns; ++c) {
            keys[c] = t0 + c * step;
            values[c] = 100.0 * ratios[size_t(c)];  // NaN: no prefetch in the window, a gap
        }
        keys[columns] = t1;
        values[columns] = values[columns - 1];
        g->setData(keys, values, true);
    };
    for (int s = 0; s < m_graphs.size(); ++s) {
        fill(m_graphs[s], m_result->windowed(s, t0, t1, columns));
    }
    if (m_lmcache) {
        fill(m_lmcache, m_result->lmcacheWindowed(t0, t1, columns));
    }
    // the occupancy axis: up to the capacity (what it fills to), in bytes when known
    const bool bytes = m_result->inBytes() || m_choice.bytesPerChunk > 0;
    const double capacity =
        m_result->inBytes()
            ? double(m_result->capacity())
            : double(m_result->capacity()) * double(std::max<quint64>(1, m_choice.bytesPerChunk));
    double top = capacity;
    if (m_occupancy) {
        for (auto it = m_occupancy->data()->constBegin(); it != m_occupancy->data()->constEnd();
             ++it) {
            top = std::max(top, it->value);
        }
    }
    m_occupancyTop = std::max(1.0, top);
    m_occupancyInBytes = bytes;
    if (m_occupancy && !m_result->series().empty()) {
        const QString policy = CachePolicy::label(m_result->series().front().policy);
        m_occupancy->setName(bytes ? tr("resident (%1, right axis)").arg(policy)
                                   : tr("resident chunks (%1, right axis)").arg(policy));
    }
    // the caption: the capacity and the window width
    const quint64 c = m_result->capacity();
    QString at =
        m_result->inBytes() ? ConfiguredRun::bytesText(double(c)) : ConfiguredRun::chunksText(c);
    if (!m_result->inBytes() && m_choice.bytesPerChunk > 0) {
        at += tr(" (≈ %1)").arg(ConfiguredRun::bytesText(double(c) * m_choice.bytesPerChunk));
    }
    m_caption->setText(
        tr("prefetch hit ratio at C = %1, per %2").arg(at, TimeFormat::duration(step)));
    // Headroom above 100 % for the caption in the top-left corner, so that no line runs under
    // it (no tick above 100 %); a plot too short for it shows none (its box would hide the
    // lines). The occupancy's axis has the same headroom: the capacity at the 100 % line.
    const double captionPx = QFontMetricsF(m_caption->font()).height() + 6;
    const double clear = m_rect->height() > 0 ? captionPx / m_rect->height() : 0.0;
    const bool fits = clear <= 0.45;
    m_caption->setVisible(fits);
    const double top100 = fits ? 100.0 / (1.0 - clear) : 100.0;
    m_rect->axis(QCPAxis::atLeft)->setRange(0, top100);
    m_rect->axis(QCPAxis::atRight)->setRange(0, m_occupancyTop * top100 / 100.0);
    applyTicks();
}

}  // namespace lmct
