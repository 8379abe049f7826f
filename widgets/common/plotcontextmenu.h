#pragma once

#include "common/plotexportspec.h"

class QCustomPlot;

namespace lmct {

class PlotExportActions;

/**
 * Gives a plot the context menu of its exports: a right-click on `spec.plot` opens "Export TITLE
 * as PNG…", "…as SVG…", "…as PDF…", "Copy Image" and "Export Size" (PlotExportActions, with the
 * caption and print palette of CaptionedExport). The one way every plot of the viewer but the
 * timeline (whose menu has more entries and the same actions) gets its exports: one call per
 * plot where the plot is made or bound. The size choice is shared by all these plots (QSettings
 * "plots/exportSize", read again each time a menu opens).
 *
 * Ownership: the actions are a child of the plot (object name "plotExportActions").
 * Thread-safety: GUI thread.
 */
class PlotContextMenu {
public:
    /** Installs the menu on `spec.plot` (once; a second call replaces the spec). */
    static PlotExportActions *install(const PlotExportSpec &spec);
    /** The actions installed on `plot`; nullptr when none. */
    static PlotExportActions *actionsOf(const QCustomPlot *plot);
};

}  // namespace lmct
