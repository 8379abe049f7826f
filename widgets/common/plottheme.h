#pragma once

class QCustomPlot;
class QPalette;

namespace lmct {

/**
 * Styles a QCustomPlot from its palette, so that the viewer's charts (What-if curves, reuse
 * histograms, the Compare pane's plots, the Statistics charts) follow a dark theme as the
 * timeline does (TimelineMainPlot::applyPalette).
 *
 * - The frame of the plot takes palette roles: background and axis rects Base, axes and ticks
 *   Mid-toned Text, tick labels and axis labels Text, grids faint Text, legends Base with Text,
 *   titles (QCPTextElement) Text.
 * - Colours that carry data (a policy's, a call's, side A's blue) stay. Neutral colours
 *   (greys: markers, their tags, a neutral series) are light-theme colours; in a dark palette
 *   (Base darker than mid-grey) each is inverted channel by channel, and inverted back when the
 *   palette turns light again.
 *
 * follow() applies it now and on every PaletteChange of the plot (the application's or a
 * parent's palette reaching it, or an export's print palette: CaptionedExport uses a plot that
 * follows() as its own palette widget, so dark themes export light).
 *
 * Ownership: follow() parents a small event filter to the plot. Thread-safety: GUI thread.
 */
class PlotTheme {
public:
    /** Styles `plot` from its palette, now and whenever that palette changes. */
    static void follow(QCustomPlot *plot);
    /** Whether follow() was called for `plot`. */
    static bool follows(const QCustomPlot *plot);
    /** Styles `plot` from `pal` once (see the class comment). */
    static void apply(QCustomPlot *plot, const QPalette &pal);
};

}  // namespace lmct
