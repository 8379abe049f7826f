#pragma once

#include "timeline/contextpairs.h"
#include "timeline/lanelayout.h"
#include "timeline/lanemerge.h"
#include "timeline/timelinecolumns.h"
#include "timeline/timelineindex.h"
#include "trace/tracedocument.h"

#include <qcustomplot.h>

#include <QColor>
#include <QPalette>
#include <QVector>
#include <memory>
#include <vector>

namespace lmct {

class TimelineCallsPass;
class TimelineSpansPass;

/**
 * The timeline's lanes as one custom QCustomPlot plottable: one row per call (qualname) with a
 * tick per record, plus span rows for context managers (ContextPairs).
 *
 * Coordinates: keys are t_mono seconds on the key axis; rows are stacked on the value axis from
 * 0 to totalWeight(), row r occupying [start of r, start of r + weight] (the owner reverses the
 * axis so that row 0 is on top; rowCenter() gives label positions).
 *
 * Level of detail. draw() never iterates records: per row it asks the TimelineIndex for the
 * number of records in each device-pixel column of the visible range (count pyramid, O(columns))
 * and renders the row into an image at device resolution. Where every record has a pixel
 * column of its own, each is an exact full-height tick (with a head when isolated). Otherwise
 * the row is a histogram of counts per column (height ∝ √(count / busiest column in view)), and
 * columns merging several records are marked by a darker strip along the row's bottom edge. Span
 * rows draw each span (stacked by ContextPairs::Span depth) when at most about one span per pixel
 * is in view, otherwise the number of open spans per column; unmatched enters/exits are red caps
 * (an enter's dashed tail runs to the end of the trace). The selected record is ringed, with a line
 * across all rows. Cost is O(rows · width), whatever the number of records in view.
 *
 * Style::Overview draws every row as a thin heat strip (the overview above the timeline).
 *
 * Merged rows (setMerge(), a small export): rows given by LaneMerge drawn as one calls row of
 * all their records (a spans row counts its __enter__ and __exit__ calls), in a neutral grey;
 * rows() are then the merged rows, baseRows() the rows given to setRows().
 *
 * Filter (setFilter()): a second TimelineIndex over the records matching the view's filter.
 * FilterMode::Dim draws every record faintly and the matching ones at full strength on the same
 * scale; FilterMode::Hide draws the matching records only (a lane with none is empty). Spans are
 * dimmed or left out by their enter/exit record where they are drawn one by one; counted span
 * rows and unmatched caps are not filtered. Hit tests in Hide mode find matching records and
 * spans only.
 * The cost stays O(rows · width): two count queries per row instead of one.
 *
 * Drawing: draw() gathers a TimelineFrame (painter, columns, filter, selection, colours) once per
 * frame and runs the passes over it: TimelineCallsPass per call row, TimelineSpansPass per span
 * row, then TimelineSelectionPass.
 *
 * Ownership: holds shared pointers to the immutable index, pairs and document; owns its passes.
 * Thread-safety: GUI thread (a QCustomPlot layerable).
 */
class TimelineLanes : public QCPAbstractPlottable {
    Q_OBJECT
public:
    struct Row {
        enum class Kind { Calls, Spans };
        Kind kind = Kind::Calls;
        int lane = -1;    ///< Calls: qualname id (TimelineIndex lane)
        int family = -1;  ///< Spans: index into the pairs given to setData()
        QString key;      ///< stable identity: the qualname, or "spans:" + family qualname
        QString label;    ///< text shown for the row
        QColor color;
        double weight = 1.0;  ///< height relative to a calls row
        QVector<int> more;    ///< Calls, a merged row (setMerge()): the other qualname ids in it
    };
    enum class Style { Detailed, Overview };
    /** How records that do not match the filter are drawn. */
    enum class FilterMode { Dim, Hide };

    /** What lies under a point (hitTest()). */
    struct Hit {
        int row = -1;
        int record = -1;  ///< nearest record (Calls) or the span's enter / the unmatched call
        int span = -1;    ///< index into ContextPairs::spans() (Spans rows)
        bool unmatched = false;
        int count = 0;  ///< records within the pixel column under the point (Calls rows)
        double from = 0.0, to = 0.0;  ///< t_mono range of that column
    };

    TimelineLanes(QCPAxis *keyAxis, QCPAxis *valueAxis);
    ~TimelineLanes() override;

    void setData(std::shared_ptr<const TraceDocument> doc,
                 std::shared_ptr<const TimelineIndex> index,
                 std::vector<std::shared_ptr<const ContextPairs>> pairs);
    std::shared_ptr<const TimelineIndex> index() const { return m_index; }
    const TraceDocument *document() const { return m_doc.get(); }
    const std::vector<std::shared_ptr<const ContextPairs>> &pairs() const { return m_pairs; }

    /**
     * Draws the records of `matching` (an index over the filter's records, same store) at full
     * strength and the others per `mode`; `records` are the matching record indices (ascending,
     * for span rows). Null `matching`: no filter.
     */
    void setFilter(std::shared_ptr<const TimelineIndex> matching,
                   std::shared_ptr<const std::vector<int>> records, FilterMode mode);
    std::shared_ptr<const TimelineIndex> filterIndex() const { return m_matching; }
    /** The filter's matching record indices (ascending); nullptr without a filter. */
    const std::vector<int> *filterRecords() const { return m_matchingRecords.get(); }
    /** Whether a span (by its enter and exit record) matches the filter; true without one. */
    bool spanMatches(int enter, int exit) const;
    FilterMode filterMode() const { return m_filterMode; }
    /** The index whose records are drawn at full strength: the filter's, else index(). */
    const TimelineIndex *strongIndex() const {
        return m_matching ? m_matching.get() : m_index.get();
    }

    /**
     * Sets up `rect`'s axes for lanes: the top one is the time axis (on `timeTicker`, outward
     * ticks, its grid), the left one the rows (reversed, a text ticker for the labels, no ticks
     * or grid); bottom and right hidden.
     */
    static void setUpAxes(QCPAxisRect *rect, const QSharedPointer<QCPAxisTicker> &timeTicker);
    /** Lane labels wider (px) are elided (elidedLabel()). */
    static constexpr int kMaxLabelPx = 320;
    /** `label` elided to kMaxLabelPx in `font`: in the middle, or, for a capped qualname, before
     *  its "… (N characters)" tail. */
    static QString elidedLabel(const QString &label, const QFont &font);
    /** Where `record`'s tick is drawn (plot pixels); null when its row or time is off view. */
    QPointF tickPosition(int record) const;
    /**
     * The rows of `layout` in its order: a call row per qualname (its lane in `doc`, -1 without
     * one), a span row per context-manager family, taller the deeper its spans (of `pairs`)
     * overlap; labels are display names, colours the calls' (a span row: its __enter__'s).
     */
    static QVector<Row> rowsFor(const LaneLayout &layout, const TraceDocument *doc,
                                const std::vector<std::shared_ptr<const ContextPairs>> &pairs);
    /** Sets the rows (and leaves any merge). */
    void setRows(const QVector<Row> &rows);
    /** The rows drawn: baseRows(), or merged ones (setMerge()). */
    const QVector<Row> &rows() const { return m_rows; }
    /** The rows given to setRows(). */
    const QVector<Row> &baseRows() const { return m_baseRows; }
    /**
     * Draws `merge`'s rows (indices into baseRows()) instead of baseRows(): a row LaneMerge
     * leaves alone as it is, a merged row as one calls row labelled as `merge` says. Empty:
     * baseRows() again. False when the rows drawn did not change.
     */
    bool setMerge(const QVector<LaneMerge::Row> &merge);
    bool isMerged() const { return !m_merge.isEmpty(); }
    /** The rows' names and weights as LaneMerge takes them (baseRows()). */
    QVector<LaneMerge::Lane> mergeLanes() const;
    /**
     * Labels the value axis (a QCPAxisTickerText, see setUpAxes()) with rows(), elided in its
     * tick label font, and sets its range to [0, totalWeight()].
     */
    void labelAxis() const;
    /** Row showing the calls of qualname id `lane`; -1 when hidden. */
    int rowOfLane(int lane) const;

    void setStyle(Style s) { m_style = s; }
    void setColors(const QPalette &palette);

    /**
     * Whether the span rows wait for their spans (paired once the file has been read; see
     * TimelineWidget): an empty span row then says so instead of looking like one without spans.
     */
    void setSpansPending(bool pending) { m_spansPending = pending; }
    bool spansPending() const { return m_spansPending; }

    void setSelectedRecord(int record) { m_selected = record; }
    int selectedRecord() const { return m_selected; }

    /** Sum of the row weights: the value axis range is [0, totalWeight()]. */
    double totalWeight() const { return m_rowStart.empty() ? 0.0 : m_rowStart.back(); }
    /** Value-axis coordinate of row r's middle. */
    double rowCenter(int r) const;
    /** Row index at pixel `y`, or -1. */
    int rowAt(double y) const;
    /** Pixel rows: top and height of row r. */
    QRectF rowRect(int r) const;
    /** What is under `pixel`, looking `tolerancePx` left and right. */
    Hit hitTest(const QPointF &pixel, double tolerancePx) const;

    double selectTest(const QPointF &, bool, QVariant * = nullptr) const override { return -1; }
    QCPRange getKeyRange(bool &foundRange, QCP::SignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool &foundRange, QCP::SignDomain = QCP::sdBoth,
                           const QCPRange & = QCPRange()) const override;

protected:
    void draw(QCPPainter *painter) override;
    void drawLegendIcon(QCPPainter *, const QRectF &) const override {}

private:
    using Columns = TimelineColumns;
    /** The columns of the key axis' range over the axis rect at the plot's buffer DPR. */
    Columns columns() const;

    std::shared_ptr<const TraceDocument> m_doc;
    std::shared_ptr<const TimelineIndex> m_index;
    std::vector<std::shared_ptr<const ContextPairs>> m_pairs;
    std::shared_ptr<const TimelineIndex> m_matching;
    std::shared_ptr<const std::vector<int>> m_matchingRecords;
    FilterMode m_filterMode = FilterMode::Dim;
    /** rows() from m_baseRows and m_merge, with their starts and the lanes' rows. */
    void updateRows();

    QVector<Row> m_baseRows;
    QVector<LaneMerge::Row> m_merge;  // empty: none
    QVector<Row> m_rows;
    std::vector<double> m_rowStart;  // value-axis start of each row, plus the total
    std::vector<int> m_rowOfLane;
    Style m_style = Style::Detailed;
    int m_selected = -1;
    bool m_spansPending = false;
    QColor m_zebra, m_text, m_highlight, m_base, m_error;
    std::unique_ptr<TimelineCallsPass> m_callsPass;
    std::unique_ptr<TimelineSpansPass> m_spansPass;
};

}  // namespace lmct
