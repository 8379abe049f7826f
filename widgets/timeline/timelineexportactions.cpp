#include "timeline/timelineexportactions.h"

#include "timeline/timelineexport.h"
#include "timeline/timelinewidget.h"

namespace lmct {

namespace {

PlotExportActions::Names timelineNames() {
    PlotExportActions::Names n;
    n.objectPrefix = QStringLiteral("timeline");
    n.settingsKey = QStringLiteral("timeline/exportSize");
    return n;
}

}  // namespace

TimelineExportActions::TimelineExportActions(TimelineWidget *timeline)
    : PlotExportActions(timeline, TimelineExport::spec(timeline), timelineNames()) {
    connect(timeline, &TimelineWidget::indexReady, this, &TimelineExportActions::updateEnabled);
}

}  // namespace lmct
