#pragma once

#include "filter/tmonorange.h"
#include "stats/tracestatistics.h"

#include <QList>
#include <QScrollArea>
#include <QString>
#include <memory>

class QCustomPlot;
class QVBoxLayout;

namespace lmct {

/**
 * The Statistics pane's Charts tab: the charts of StatisticsFigures (calls and their rates, the
 * time between successive calls), drawn by FigurePlot one under the other in a scroll area,
 * each as tall as its rows need and as wide as the pane. Each chart has the context menu of
 * every plot (PlotContextMenu: Export as PNG/SVG/PDF, Copy Image, Export Size) with the export
 * caption of StatisticsFigures::caption (file, range, filter, records); the trace's file is
 * never written over.
 *
 * setStatistics() replaces the charts (the old plots are deleted); null statistics leave a
 * line saying there is nothing to chart.
 *
 * Ownership: owns its plots. Thread-safety: GUI thread.
 */
class StatisticsCharts : public QScrollArea {
    Q_OBJECT
public:
    explicit StatisticsCharts(QWidget *parent = nullptr);

    /** What the charts show: `stats` of `file` (shown by name; `filePath` is never written
     *  over) restricted by `filterText` and `range`. */
    void setStatistics(std::shared_ptr<const TraceStatistics> stats, const QString &file,
                       const QString &filePath, const QString &filterText, const TMonoRange &range);

    /** The charts shown, top to bottom (object names "statisticsChart-ID"). */
    QList<QCustomPlot *> charts() const { return m_charts; }

private:
    QWidget *m_body = nullptr;
    QVBoxLayout *m_layout = nullptr;
    QList<QCustomPlot *> m_charts;
    QWidget *m_empty = nullptr;
};

}  // namespace lmct
