#pragma once

#include "common/plotexportactions.h"

namespace lmct {

class TimelineWidget;

/**
 * The timeline's export actions: PlotExportActions on TimelineExport::spec() ("Export Timeline
 * as PNG…", "…as SVG…", "…as PDF…", "Copy Image" and the "Export Size" submenu; object names
 * "timelineExportPng", …, "timelineExportSize"), enabled when the timeline shows an indexed
 * document. Lanes, rate plot and legend are laid out for the export's size (TimelineExport), as
 * the headless `lmct-viewer --export-* OUT --size (W/n)x(H/n) --scale n` writes (n =
 * PlotExport::pixelScale of a chosen size).
 *
 * The same QAction objects and submenu are in the timeline's context menu and in File > Export,
 * so both run one code path. The choice is remembered in QSettings ("timeline/exportSize").
 *
 * Ownership: a child of the timeline (the submenu too). Thread-safety: GUI thread.
 */
class TimelineExportActions : public PlotExportActions {
    Q_OBJECT
public:
    explicit TimelineExportActions(TimelineWidget *timeline);
};

}  // namespace lmct
