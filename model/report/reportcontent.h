#pragma once

#include "filter/tmonorange.h"
#include "trace/tracedocument.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

class QAbstractItemModel;

namespace lmct {

/**
 * What a trace report says, gathered from the existing passes and free of any widget: a title,
 * sections of paragraphs, tables and figures (the data of each plot: series, axes, markers), and
 * where the timeline pictures go. TraceReport builds one for a trace, ComparisonReport for two;
 * widgets/report renders it as a paginated PDF or one self-contained XHTML file, the same
 * content in both.
 *
 * Figures carry data, not pictures: series of (x, y) points (NaN y: a gap), their colour as a
 * role (a policy, side A or B, a histogram, a call) the renderer maps to the viewer's palettes,
 * axis labels, log scales, tick labels for bucket bars or named rows, texts beside points (a
 * bar's value) and vertical markers (the configured capacity). A horizontal figure lays x
 * down the left side (its rows top to bottom) and y along the bottom: bars of named rows. Each
 * figure has the caption line of the viewer's plot exports (file, range or "whole trace", scope,
 * capacity and policy) and an alternative text.
 *
 * The timeline pictures are made by the renderer (the viewer's own TimelineWidget): a Timeline
 * block names one of `timelines`, each a document with the filter and range to show (or the fixed
 * time axis of a comparison's common axis).
 *
 * Units: as the analyses' (t_mono seconds, capacities in chunks, ratios in percent on plots).
 * Ownership: holds the documents of the timelines (shared). Thread-safety: a value; built on a
 * worker, then read on the GUI thread.
 */
class ReportContent {
public:
    static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

    /** A series' colour, as the viewer draws it (PolicyColors, ComparePane::sideColor...). */
    enum class Color : quint8 {
        Policy,
        SideA,
        SideB,
        Histogram,
        LMCache,
        Occupancy,
        Neutral,
        Call
    };
    /** How a series is drawn: a line, a dashed line, bars, or dots only. */
    enum class Style : quint8 { Line, Dashed, Bars, Points };

    struct Series {
        QString name;  ///< its legend entry; empty: none
        Color color = Color::Neutral;
        int colorIndex = 0;  ///< the CachePolicy::Kind (Policy) or the histogram (Histogram)
        Style style = Style::Line;
        bool points = false;  ///< a dot at each point
        bool hollow = false;  ///< Style::Points: open circles instead of discs
        QString call;         ///< Color::Call: the call's short name (the viewer's call colour)
        std::vector<double> x, y;
        std::vector<QString> labels;  ///< a text beside each point (empty: none)
    };

    /** A vertical line across the plot with a label beside it. */
    struct Marker {
        double x = 0.0;
        QString label;
    };

    /** Tick labels of an axis: numbers, `tickLabels`, chunk decades, or durations ("10 ms"). */
    enum class Ticks : quint8 { Auto, Labels, Chunks, Seconds };

    struct Figure {
        QString id;       ///< unique in the report (HTML anchors)
        QString title;    ///< on top of the plot
        QString name;     ///< what it is in menus ("Calls Chart"); empty: the title
        QString caption;  ///< the export caption line (parts joined by "  —  ")
        QString xLabel, yLabel;
        bool logX = false, logY = false;
        double xMin = kNaN, xMax = kNaN, yMin = kNaN, yMax = kNaN;  ///< NaN: fitted
        Ticks ticks = Ticks::Auto;                                  ///< of the x axis
        Ticks yTicks = Ticks::Auto;                          ///< of the y axis: Auto or Seconds
        std::vector<std::pair<double, QString>> tickLabels;  ///< Ticks::Labels
        bool horizontal = false;  ///< x down the left side (top to bottom), y along the bottom
        std::vector<Series> series;
        std::vector<Marker> markers;
        QString alt;  ///< what the figure shows, in words (HTML alternative text)
        /** The figure's size in logical pixels, as laid out (its aspect on the page). */
        int width = 760, height = 340;
        bool hasData() const;
    };

    struct Table {
        QString title;
        /** Empty: a facts table without a header (name, value), or a list (one column). */
        QStringList header;
        QList<QStringList> rows;
        QList<bool> numeric;    ///< per column: right-aligned
        QList<int> strongRows;  ///< rows drawn bold (totals)
        QString note;           ///< under the table
        /**
         * The display texts of `model` (Qt::DisplayRole; the header's, horizontal) in
         * `columns` (all when empty), right-aligning the columns whose Qt::TextAlignmentRole
         * says so in the first row; whole numbers of those columns in the locale's grouped
         * digits ("1365" as "1,365"), as the report's text writes every count; rows whose
         * `strongRole` is true are strong; with `keepRole`, only the rows whose `keepRole` (first
         * column) is true.
         */
        static Table fromModel(const QAbstractItemModel &model, const QList<int> &columns = {},
                               int strongRole = -1, int keepRole = -1);
    };

    struct Block {
        enum class Kind : quint8 { Paragraph, Note, Table, Figure, Timeline };
        Kind kind = Kind::Paragraph;
        QString text;  ///< Paragraph, Note
        Table table;
        Figure figure;
        int timeline = 0;  ///< Timeline: index into timelines
    };

    struct Section {
        QString id;  ///< e.g. "file", "diagnostics", "calls", "timeline", "cache", "anomalies"
        QString title;
        std::vector<Block> blocks;
        void paragraph(const QString &text);
        void note(const QString &text);
        void table(Table table);
        void figure(Figure figure);
        void timeline(int index);
    };

    /** A timeline picture: `doc` with `filterRecords` (the filter's result, null: none)
     *  hidden-others and the view on `range` (open ends: the trace's extent), or on the fixed
     *  axis [axisFrom, axisTo]. */
    struct TimelineSource {
        std::shared_ptr<const TraceDocument> doc;
        QString label;  ///< "A", "B" or empty
        QString filterText;
        std::shared_ptr<const std::vector<int>> filterRecords;
        TMonoRange range;
        /**
         * The picture's time axis in `doc`'s `t_mono` seconds, shown as it is, past the trace's
         * ends too: a comparison's two pictures span the same stretch of their common axis
         * (ComparisonReport). NaN: `range`, cut to the trace.
         */
        double axisFrom = kNaN, axisTo = kNaN;
        QString axisNote;     ///< on the time axis after its unit (the alignment); empty: none
        QString captionNote;  ///< the caption's last part (the alignment); empty: none
        /** The rate plot on one calls/s scale with the other sources that have it (a
         *  comparison's A and B: their rates compared by eye); false: its own scale. */
        bool sharedRateScale = false;
    };

    QString title;         ///< "Trace report: FILE"
    QStringList subtitle;  ///< lines under the title (the selection, when it was made)
    QString runningTitle;  ///< the pages' footer ("FILE — trace report")
    std::vector<Section> sections;
    std::vector<TimelineSource> timelines;

    /** The section of `id`, or nullptr. */
    const Section *section(const QString &id) const;
    /**
     * Replaces every control and bidi character in the texts a reader sees (titles, paragraphs,
     * table cells, figure labels and legends) by its visible escape (TerminalText::escapedLines,
     * line breaks kept): a trace's strings are whatever its writer put there, and a qualname with
     * U+202E reversed the rest of its table row. Series::call stays as recorded (it picks the
     * call's colour). TraceReport and ComparisonReport call it last.
     */
    void escapeControls();
};

}  // namespace lmct
