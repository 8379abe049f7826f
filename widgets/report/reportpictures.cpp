#include "report/reportpictures.h"

#include "common/figureplot.h"
#include "report/reporttimeline.h"

#include <qcustomplot.h>

namespace lmct {

ReportPictures::ReportPictures(const ReportContent &content,
                               std::vector<ReportTimeline *> timelines)
    : m_timelines(std::move(timelines)) {
    // a comparison's A and B: their rates on one scale, as the pages paint them
    std::vector<ReportTimeline *> shared;
    for (ReportTimeline *t : m_timelines) {
        if (t && t->source().sharedRateScale) {
            shared.push_back(t);
        }
    }
    ReportTimeline::shareRateScale(shared, kTimelineSize);
    for (const ReportContent::Section &s : content.sections) {
        for (const ReportContent::Block &b : s.blocks) {
            if (b.kind == ReportContent::Block::Kind::Figure) {
                auto plot = std::unique_ptr<QCustomPlot>(FigurePlot::create(b.figure));
                plot->setAttribute(Qt::WA_DontShowOnScreen);  // painted on pages only
                m_plots.emplace_back(b.figure.id, std::move(plot));
                m_figures.push_back(b.figure);
            }
        }
    }
}

ReportPictures::~ReportPictures() = default;

bool ReportPictures::has(const ReportContent::Block &block) const {
    if (block.kind == ReportContent::Block::Kind::Timeline) {
        return block.timeline >= 0 && size_t(block.timeline) < m_timelines.size() &&
               m_timelines[size_t(block.timeline)] &&
               m_timelines[size_t(block.timeline)]->isReady();
    }
    if (block.kind == ReportContent::Block::Kind::Figure) {
        for (const auto &[id, plot] : m_plots) {
            if (id == block.figure.id) {
                return true;
            }
        }
    }
    return false;
}

PlotExportSpec ReportPictures::spec(const ReportContent::Block &block) const {
    if (block.kind == ReportContent::Block::Kind::Timeline) {
        return m_timelines[size_t(block.timeline)]->spec();
    }
    for (size_t i = 0; i < m_plots.size(); ++i) {
        if (m_plots[i].first == block.figure.id) {
            return FigurePlot::spec(m_plots[i].second.get(), m_figures[i]);
        }
    }
    return {};
}

QSize ReportPictures::size(const ReportContent::Block &block) const {
    if (block.kind == ReportContent::Block::Kind::Timeline) {
        return kTimelineSize;
    }
    return QSize(block.figure.width, block.figure.height);
}

}  // namespace lmct
