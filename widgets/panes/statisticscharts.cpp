#include "panes/statisticscharts.h"

#include "common/figureplot.h"
#include "common/plotcontextmenu.h"
#include "common/plottheme.h"
#include "report/statisticsfigures.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QVBoxLayout>

namespace lmct {

StatisticsCharts::StatisticsCharts(QWidget *parent) : QScrollArea(parent) {
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    m_body = new QWidget(this);
    m_layout = new QVBoxLayout(m_body);
    m_layout->setContentsMargins(0, 4, 0, 4);
    m_layout->setSpacing(8);
    auto *empty = new QLabel(tr("No statistics to chart"), m_body);
    empty->setForegroundRole(QPalette::PlaceholderText);
    empty->setAlignment(Qt::AlignCenter);
    m_empty = empty;
    m_layout->addWidget(m_empty);
    m_layout->addStretch(1);
    setWidget(m_body);
}

void StatisticsCharts::setStatistics(std::shared_ptr<const TraceStatistics> stats,
                                     const QString &file, const QString &filePath,
                                     const QString &filterText, const TMonoRange &range) {
    for (QCustomPlot *p : std::as_const(m_charts)) {
        m_layout->removeWidget(p);
        p->hide();
        p->deleteLater();  // (its context menu may be what called us, through a filter)
    }
    m_charts.clear();
    std::vector<ReportContent::Figure> figures;
    if (stats) {
        figures = StatisticsFigures::figures(
            *stats, StatisticsFigures::caption(file, filterText, range, stats->records));
    }
    m_empty->setVisible(figures.empty());
    int at = 0;
    for (const ReportContent::Figure &f : figures) {
        QCustomPlot *plot = FigurePlot::create(f, m_body);
        plot->setObjectName(QStringLiteral("statisticsChart-") + f.id);
        plot->setMinimumHeight(f.height);
        plot->setMaximumHeight(f.height);
        plot->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        m_layout->insertWidget(at++, plot);
        PlotTheme::follow(plot);  // (a report's figures stay light)
        PlotExportSpec spec = FigurePlot::spec(plot, f);
        spec.inputPath = [filePath] { return filePath; };
        PlotContextMenu::install(spec);
        m_charts << plot;
    }
}

}  // namespace lmct
