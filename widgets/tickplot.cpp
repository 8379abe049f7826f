#include "tickplot.h"

#include "callcolors.h"
#include "qualname.h"

#include <QHash>
#include <cmath>

namespace lmct {

TickPlot::TickPlot(QWidget *parent) : QCustomPlot(parent) {
    plotLayout()->insertRow(0);
    m_caption = new QCPTextElement(this, QString(), QFont(font().family(), 10));
    plotLayout()->addElement(0, 0, m_caption);
    xAxis->setLabel(QStringLiteral("t_mono (s)"));
    yAxis->setTickLength(0, 0);
    yAxis->setSubTicks(false);
    yAxis->grid()->setVisible(false);
    setBackground(Qt::white);
}

void TickPlot::setCaption(const QString &caption) {
    m_caption->setText(caption);
}

void TickPlot::setRecords(const std::shared_ptr<const TraceDocument> &doc,
                          const std::vector<int> &rows, const TMonoRange &range) {
    clearGraphs();
    m_lanes.clear();
    const RecordStore &rs = doc->records();
    QHash<QString, int> laneOf;
    QList<QString> qualnames;
    QList<QVector<double>> xs;
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (int r : rows) {
        const QString q = rs.qualname(r);
        auto it = laneOf.find(q);
        if (it == laneOf.end()) {
            it = laneOf.insert(q, int(qualnames.size()));
            qualnames.append(q);
            xs.append(QVector<double>());
        }
        const double t = rs.tMono(r);
        xs[it.value()].append(t);
        lo = std::min(lo, t);
        hi = std::max(hi, t);
    }
    const int n = int(qualnames.size());
    QPainterPath tick;
    tick.moveTo(0, -7);
    tick.lineTo(0, 7);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int lane = 0; lane < n; ++lane) {
        const QString name = Qualname::shortName(qualnames[lane]);
        m_lanes.append(name);
        const double y = n - 1 - lane;  // first lane on top
        QCPGraph *g = addGraph();
        g->setName(name);
        g->setLineStyle(QCPGraph::lsNone);
        const QColor c = CallColors::forQualname(qualnames[lane]);
        g->setScatterStyle(QCPScatterStyle(tick, QPen(c, 1.2), Qt::NoBrush, 14));
        g->setAdaptiveSampling(true);
        QVector<double> ys(xs[lane].size(), y);
        g->setData(xs[lane], ys);
        ticker->addTick(y, name);
    }
    yAxis->setTicker(ticker);
    yAxis->setRange(-0.7, std::max(0, n - 1) + 0.7);
    if (std::isfinite(range.from) && std::isfinite(range.to)) {
        xAxis->setRange(range.from, range.to);
    } else if (lo <= hi) {
        const double from = std::isfinite(range.from) ? range.from : lo;
        const double to = std::isfinite(range.to) ? range.to : hi;
        const double pad = std::max(1e-6, (to - from) * 0.02);
        xAxis->setRange(from - pad, to + pad);
    } else {
        xAxis->setRange(0, 1);
    }
}

}  // namespace lmct
