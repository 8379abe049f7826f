#pragma once

namespace lmct {

class CacheBehaviourPane;

/**
 * The exports of the Cache Behaviour pane's plots (the What-if tab's curves and its three reuse
 * histograms): PlotContextMenu on each, with captions that say what the plot is of: the file,
 * the records analysed (the cache analyses cover the whole trace, whatever the filter and
 * range), the keys' scope (model, tenant) and, for the curves, the unit, the policies shown at
 * the slider's capacity C and the configured L1 capacity and policy.
 *
 * Thread-safety: GUI thread.
 */
class CachePlotExports {
public:
    /** Installs the menus on `pane`'s plots (their captions read the pane when exported). */
    static void install(CacheBehaviourPane *pane);
};

}  // namespace lmct
