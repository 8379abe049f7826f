#pragma once

#include "tmonorange.h"
#include "tracedocument.h"

#include <qcustomplot.h>

#include <memory>
#include <vector>

namespace lmct {

/**
 * A simple timeline for exports: one lane per call (short qualname), one vertical tick per
 * record at its t_mono, colored with CallColors, and a caption line above the plot.
 *
 * Stand-in for the TimelineWidget in headless exports (`lmct-viewer --export-*`) until the
 * timeline branch lands; it is only used through QCustomPlot, so the timeline's plot can
 * replace it in HeadlessExport without changing the writers (PlotExport).
 *
 * Thread-safety: GUI thread.
 */
class TickPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit TickPlot(QWidget *parent = nullptr);

    /**
     * Shows records `rows` of `doc`; the x axis spans `range` when both ends are finite, else
     * the records' t_mono extent. Lanes are ordered by first appearance.
     */
    void setRecords(const std::shared_ptr<const TraceDocument> &doc, const std::vector<int> &rows,
                    const TMonoRange &range);

    /** The caption line shown above the plot (file name, time range, active filter). */
    void setCaption(const QString &caption);

    /** Lane labels, top to bottom. */
    QStringList laneNames() const { return m_lanes; }

private:
    QCPTextElement *m_caption = nullptr;
    QStringList m_lanes;
};

}  // namespace lmct
