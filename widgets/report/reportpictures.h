#pragma once

#include "common/plotexportspec.h"
#include "report/reportcontent.h"

#include <QSize>
#include <memory>
#include <vector>

class QCustomPlot;

namespace lmct {

class ReportTimeline;

/**
 * The pictures of a report's figure and timeline blocks, ready to paint: a FigurePlot
 * per figure (made here, owned) and the ReportTimelines of the content's timelines (not owned;
 * built and ready). spec() gives what CaptionedExport paints for a block, size() its layout in
 * logical pixels (figures: their own; timelines: kTimelineSize). The timelines whose sources
 * share a rate scale get it here (ReportTimeline::shareRateScale()).
 *
 * Ownership: owns the figure plots; the timelines must outlive it. Thread-safety: GUI thread.
 */
class ReportPictures {
public:
    static constexpr QSize kTimelineSize = QSize(960, 560);

    ReportPictures(const ReportContent &content, std::vector<ReportTimeline *> timelines);
    ~ReportPictures();
    ReportPictures(const ReportPictures &) = delete;
    ReportPictures &operator=(const ReportPictures &) = delete;

    /** Whether `block` has a picture (a figure, or a timeline that is ready). */
    bool has(const ReportContent::Block &block) const;
    PlotExportSpec spec(const ReportContent::Block &block) const;
    QSize size(const ReportContent::Block &block) const;

private:
    std::vector<std::pair<QString, std::unique_ptr<QCustomPlot>>> m_plots;  // by figure id
    std::vector<ReportContent::Figure> m_figures;
    std::vector<ReportTimeline *> m_timelines;
};

}  // namespace lmct
