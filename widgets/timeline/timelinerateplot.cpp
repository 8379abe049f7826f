#include "timeline/timelinerateplot.h"

#include "common/plotpens.h"
#include "timeline/rateseries.h"
#include "timeline/timelinebuilder.h"
#include "timeline/timelinehitplot.h"
#include "timeline/timelinelanes.h"
#include "timeline/timelineviewport.h"
#include "timeline/timelinewidget.h"

#include "common/legendwrap.h"
#include "common/plotcaption.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace lmct {

using namespace PlotPens;

namespace {

/** A 1/2/5·10^n duration as people write it: "50 ms", "2 µs", "1 s", "10 min". */
QString niceDuration(double s) {
    struct Unit {
        double scale;
        const char *name;
    };
    static const Unit units[] = {{3600, "h"},  {60, "min"},  {1, "s"},
                                 {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}};
    for (const Unit &u : units) {
        if (s >= u.scale * (1 - 1e-9) && (u.scale < 60 || std::fmod(s, u.scale) < 1e-9)) {
            return QString::number(s / u.scale, 'g', 6) + QLatin1Char(' ') +
                   QString::fromUtf8(u.name);
        }
    }
    return QString::number(s * 1e9, 'g', 3) + QStringLiteral(" ns");
}

}  // namespace

TimelineRatePlot::TimelineRatePlot(QCustomPlot *plot, QCPAxisRect *rect, QCPLegend *legend,
                                   QSharedPointer<QCPAxisTicker> ticker, TimelineLanes *lanes,
                                   const TimelineViewport *viewport, const TimelineBuilder *builder,
                                   QWidget *timeline)
    : QObject(timeline),
      m_plot(plot),
      m_rect(rect),
      m_legend(legend),
      m_lanes(lanes),
      m_viewport(viewport),
      m_builder(builder),
      m_timeline(timeline) {
    m_legend->setLayer(QStringLiteral("legend"));
    m_legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_legend->setMargins(QMargins(4, 3, 4, 6));
    m_legend->setRowSpacing(0);
    m_legend->setColumnSpacing(16);
    m_legend->setIconSize(16, 8);
    m_legend->setIconTextPadding(5);
    // Its columns follow the plot's width (wrapLegend): its width must not be the plot's minimum
    // (a one-row legend kept the plot, and the dock, from getting narrower again). A minimum
    // width set overrides the entries' sum.
    m_legend->setMinimumSize(1, 0);
    QCPAxis *rateKey = m_rect->axis(QCPAxis::atBottom);
    QCPAxis *rateValue = m_rect->axis(QCPAxis::atLeft);
    rateKey->setTicker(ticker);
    rateKey->setTickLabels(false);
    rateKey->setTickLengthIn(0);
    rateKey->setTickLengthOut(3);
    rateKey->setSubTickLengthIn(0);
    rateKey->setSubTickLengthOut(0);
    rateValue->setTickLengthIn(0);
    rateValue->setTickLengthOut(3);
    rateValue->setSubTickLengthIn(0);
    rateValue->setSubTickLengthOut(0);
    rateValue->setRange(0, 1);
    // the tick count is set from the plot's height: meet it (readability steps left a short rate
    // plot with only its 0 label)
    rateValue->ticker()->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
    rateValue->setNumberFormat(QStringLiteral("gb"));
    rateValue->setLabel(tr("calls/s"));
    m_rect->setAutoMargins(QCP::msLeft | QCP::msRight | QCP::msBottom);
    m_rect->setMargins(QMargins(0, 8, 0, 0));
    // (QCPAxisRect's default least plot area is 50 px high)
    m_rect->setMinimumSize(0, kLeastPlotPx);
}

void TimelineRatePlot::createCaption() {
    // the rate plot's bucket width, in its top-left corner
    m_caption = PlotCaption::create(m_plot, m_rect);
}

void TimelineRatePlot::applyPalette(const QPalette &pal, const QFont &small) {
    const QColor base = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    m_rect->axis(QCPAxis::atBottom)->grid()->setSubGridVisible(false);
    m_rect->axis(QCPAxis::atLeft)->grid()->setPen(hairline(alpha(text, 20)));
    m_legend->setBrush(pal.color(QPalette::Window));
    m_legend->setBorderPen(Qt::NoPen);
    m_legend->setFont(small);
    m_legend->setTextColor(text);
    m_caption->setFont(small);
    m_caption->setColor(alpha(text, 150));
    // over the lines when the plot is short: readable on a (nearly opaque) plot background
    m_caption->setBrush(alpha(base, 235));
    for (int i = 0; i < m_legend->itemCount(); ++i) {
        if (auto *pli = qobject_cast<QCPPlottableLegendItem *>(m_legend->item(i))) {
            const bool on = pli->plottable()->visible();
            pli->setTextColor(on ? text : alpha(text, 90));
            pli->setFont(small);
        }
    }
}

void TimelineRatePlot::connectLegend() {
    connect(m_plot, &QCustomPlot::legendClick, this,
            [this](QCPLegend *, QCPAbstractLegendItem *item, QMouseEvent *) {
                auto *pli = qobject_cast<QCPPlottableLegendItem *>(item);
                if (!pli) {
                    return;
                }
                QCPAbstractPlottable *g = pli->plottable();
                const int lane = m_graphs.indexOf(static_cast<QCPGraph *>(g));
                if (lane < 0 || !m_index) {
                    return;
                }
                const QString q = m_index->lane(lane).qualname;
                const bool show = !g->visible();
                g->setVisible(show);
                if (show) {
                    m_hidden.remove(q);
                } else {
                    m_hidden.insert(q);
                }
                emit restyle();  // greys the legend entry
                update();
                m_plot->replot(QCustomPlot::rpQueuedReplot);
            });
}

QCPAxis *TimelineRatePlot::valueAxis() const {
    return m_rect->axis(QCPAxis::atLeft);
}

QCPRange TimelineRatePlot::window() const {
    const TimelineViewport::Range w = m_viewport->window();
    return QCPRange(w.lower, w.upper);
}

void TimelineRatePlot::rebuildGraphs() {
    for (QCPGraph *g : std::as_const(m_graphs)) {
        if (g) {
            m_plot->removePlottable(g);
        }
    }
    m_graphs.clear();
    m_legend->clearItems();
    if (!m_index) {
        place();
        return;
    }
    m_graphs.resize(m_index->laneCount(), nullptr);
    QCPAxis *key = m_rect->axis(QCPAxis::atBottom);
    QCPAxis *value = m_rect->axis(QCPAxis::atLeft);
    for (const TimelineLanes::Row &row : m_lanes->baseRows()) {
        if (row.kind != TimelineLanes::Row::Kind::Calls || row.lane < 0 ||
            row.lane >= m_index->laneCount()) {
            continue;
        }
        auto *g = new QCPGraph(key, value);
        // elided like the lane labels (a long qualname ran off the legend's right edge)
        g->setName(TimelineWidget::elidedLabel(row.label, m_legend->font()));
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setPen(QPen(row.color, 1.0));
        g->setSelectable(QCP::stNone);
        g->setAntialiased(false);
        g->setVisible(!m_hidden.contains(m_index->lane(row.lane).qualname));
        m_graphs[row.lane] = g;
    }
    m_legendLanes.clear();
    updateLegend();
    place();
    emit restyle();
    emit layoutNeeded();  // the legend's columns and height for its new entries
    update();
}

void TimelineRatePlot::place() {
    // The rate plot and its legend are in the layout only when shown: an empty legend would
    // cap the whole column's width at its margins.
    QCPLayoutGrid *grid = m_plot->plotLayout();
    auto inGrid = [grid](QCPLayoutElement *e) {
        for (int i = 0; i < grid->elementCount(); ++i) {
            if (grid->elementAt(i) == e) {
                return true;
            }
        }
        return false;
    };
    const bool rate = isPlaced();
    const bool legend = isLegendPlaced();
    for (QCPLayoutElement *e :
         {static_cast<QCPLayoutElement *>(m_rect), static_cast<QCPLayoutElement *>(m_legend)}) {
        if (inGrid(e)) {
            grid->take(e);
        }
    }
    grid->simplify();
    if (rate) {
        grid->addElement(grid->rowCount(), 0, m_rect);
    }
    if (legend) {
        grid->addElement(grid->rowCount(), 0, m_legend);
    }
    // (the hit-ratio plot's rows may stand between the lanes and these)
    TimelineHitPlot::stretchRows(grid);
    m_rect->setVisible(rate);
    m_legend->setVisible(legend);
    if (!rate && m_caption) {
        m_caption->setVisible(false);  // (update() shows it again)
    }
}

bool TimelineRatePlot::setLeftOut(bool plot, bool legend) {
    if (plot == m_plotLeftOut && legend == m_legendLeftOut) {
        return false;
    }
    m_plotLeftOut = plot;
    m_legendLeftOut = legend;
    return true;
}

bool TimelineRatePlot::isLegendPlaced() const {
    return isPlaced() && !m_legendLeftOut && m_legend->itemCount() > 0;
}

bool TimelineRatePlot::fitTicks() {
    if (!isPlaced()) {
        return false;
    }
    // the rate plot's value axis: only as many ticks as its height holds readably (its default
    // of five crowded the labels of a short rate plot)
    QCPAxis *value = m_rect->axis(QCPAxis::atLeft);
    const int labelPx = QFontMetrics(value->tickLabelFont()).height();
    // at least two labels (0 and a value): a lone "0" gives the plot no scale
    const int fitting = std::clamp(m_rect->height() / (labelPx * 5 / 2), 2, 5);
    if (value->ticker()->tickCount() == fitting) {
        return false;
    }
    value->ticker()->setTickCount(fitting);
    return true;
}

void TimelineRatePlot::wrapLegend(int width) {
    LegendWrap::wrap(m_legend, width);
}

void TimelineRatePlot::updateLegend() {
    // With a filter, only the calls it matches: the others' rates are 0 throughout (an export
    // of `call == finish_write` listed all seven calls).
    const TimelineIndex *counted = m_index ? m_lanes->strongIndex() : nullptr;
    QVector<int> lanes;
    for (const TimelineLanes::Row &row : m_lanes->baseRows()) {
        if (row.kind == TimelineLanes::Row::Kind::Calls && row.lane >= 0 &&
            row.lane < m_graphs.size() && m_graphs[row.lane] &&
            (!m_builder->filterIndex() || !counted || row.lane >= counted->laneCount() ||
             counted->lane(row.lane).times.size() > 0)) {
            lanes.append(row.lane);
        }
    }
    // (std::equal: Qt 6.4's QList == passes a null pointer to memcmp for an empty list, which
    // UBSan reports)
    if (std::equal(lanes.cbegin(), lanes.cend(), m_legendLanes.cbegin(), m_legendLanes.cend()) &&
        m_legend->itemCount() == lanes.size()) {
        return;
    }
    m_legendLanes = lanes;
    m_legend->clearItems();
    for (int lane : std::as_const(lanes)) {
        QCPGraph *g = m_graphs[lane];
        g->addToLegend(m_legend);
        if (QCPAbstractLegendItem *item = m_legend->itemWithPlottable(g)) {
            item->setMargins(QMargins(4, 1, 4, 4));  // room for underscores' descent
        }
    }
    place();
    emit restyle();       // greys the entries of hidden graphs
    emit layoutNeeded();  // the legend's columns and height
}

void TimelineRatePlot::update() {
    if (!m_index || m_index->recordCount() == 0) {
        // nothing to count: no caption (QCPItemText's default text is the word "text")
        m_caption->setText(QString());
        m_caption->setVisible(false);
        return;
    }
    if (!isPlaced()) {
        return;
    }
    m_caption->setVisible(true);
    const QCPRange r = window();
    const int px = m_rect->width() > 10 ? m_rect->width() : std::max(50, m_timeline->width() - 250);
    const double bucket = RateSeries::niceWidth(r.size() / px * 6.0);
    double ymax = 0.0;
    // the records drawn at full strength: the filter's when there is one
    const TimelineIndex &counted = *m_lanes->strongIndex();
    for (int lane = 0; lane < m_graphs.size(); ++lane) {
        QCPGraph *g = m_graphs[lane];
        if (!g) {
            continue;
        }
        const RateSeries s = RateSeries::compute(counted, lane, r.lower, r.upper, bucket, 8192,
                                                 m_index->minTime(), m_index->maxTime());
        QVector<double> keys(s.size() + 1), values(s.size() + 1);
        for (int k = 0; k < s.size(); ++k) {
            keys[k] = s.bucketStart(k);
            values[k] = s.rates[size_t(k)];  // NaN (not covered by the trace): a gap
            if (g->visible() && !std::isnan(values[k])) {
                ymax = std::max(ymax, values[k]);
            }
        }
        keys[s.size()] = s.bucketStart(s.size());
        values[s.size()] = s.size() > 0 ? s.rates.back() : 0.0;
        g->setData(keys, values, true);
    }
    QCPAxis *value = m_rect->axis(QCPAxis::atLeft);
    // Headroom above the highest step for the caption in the top-left corner (at small
    // heights the caption's box hid the steps under it): the caption's height is kept clear.
    const double captionPx = QFontMetricsF(m_caption->font()).height() +
                             m_caption->padding().top() + m_caption->padding().bottom() + 2;
    // A plot too short for that (a sparkline under a small export) shows no caption: its box
    // would cover most of the lines.
    const double clear = m_rect->height() > 0 ? captionPx / m_rect->height() : 0.0;
    const bool captionFits = clear <= 0.45;
    m_caption->setVisible(captionFits);
    m_naturalUpper =
        ymax > 0 ? std::max(ymax * 1.12, captionFits ? ymax / (1.0 - clear) : 0.0) : 1.0;
    // (a shared scale is at least as high: the caption's headroom stays clear)
    value->setRange(0, std::isfinite(m_leastUpper) && m_leastUpper > m_naturalUpper
                           ? m_leastUpper
                           : m_naturalUpper);
    value->setLabel(tr("calls/s"));
    m_caption->setText(m_builder->filterIndex()
                           ? tr("matching calls per %1").arg(niceDuration(bucket))
                           : tr("per %1").arg(niceDuration(bucket)));
}

}  // namespace lmct
