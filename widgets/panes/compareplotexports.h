#pragma once

namespace lmct {

class ComparePane;

/**
 * The exports of the Compare pane's plots (the latency distributions, the what-if curves and the
 * reuse-distance histograms of A and B): PlotContextMenu on each, captioned with both files,
 * what is plotted (the latency or reuse distance chosen) and, for the what-if curves, each
 * trace's configured L1 capacity and policy. The comparison covers both traces whole.
 *
 * Thread-safety: GUI thread.
 */
class ComparePlotExports {
public:
    /** Installs the menus on `pane`'s plots (their captions read the pane when exported). */
    static void install(ComparePane *pane);
};

}  // namespace lmct
