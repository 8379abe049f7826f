#pragma once

#include <QString>
#include <QVector>

namespace lmct {

/**
 * Which timeline rows become one when a picture has room for fewer rows than the timeline shows
 * (a small export): the rows of one stage of LMCache's call flow collapse into one row, as a
 * collapsed track group in Perfetto or Tracy shows its tracks' slices on one row.
 *
 * Stages (Qualname::callFlow()): prefetch (submit_prefetch_task to
 * read_prefetched_results.__exit__, with the read_prefetched_results spans row), write
 * (reserve_write to abort_write) and other (calls outside the flow: events.*, newer calls).
 * Stages collapse one at a time, the one that saves the most height first (ties: flow order),
 * until the rows fit; when even one row per stage does not fit, everything is one row. A
 * collapsed row stands where its stage's first row stood.
 *
 * Units: row weights, as TimelineLanes' (a calls row weighs 1, a spans row more when its spans
 * nest); a collapsed row weighs 1.
 *
 * Thread-safety: stateless; every function is reentrant. Errors: none.
 */
class LaneMerge {
public:
    enum class Stage { Prefetch, Write, Other };

    /** A row as shown: its qualname (calls row) or context-manager family (spans row), its
     *  weight. */
    struct Lane {
        QString name;
        double weight = 1.0;
    };
    /** A row of the result: the lanes it shows (indices into the lanes given, ascending) and
     *  its label; a lane left as it is has one index and an empty label (it keeps its own). */
    struct Row {
        QVector<int> lanes;
        QString label;
        bool merged() const { return !label.isEmpty(); }
    };

    /** The stage of a qualname, or of a family by its __enter__. */
    static Stage stageOf(const QString &name);
    /** "prefetch", "write", "other". */
    static QString stageName(Stage stage);

    /**
     * The rows of `lanes` for a room of `room` weight units (the height the rows have over the
     * least row height): each lane alone when their weights fit; else stages collapsed as
     * above, labelled "prefetch (5 lanes)", or one row "all (9 lanes)". Empty for no lanes.
     */
    static QVector<Row> rows(const QVector<Lane> &lanes, double room);
    /** The weight of `rows` over `lanes` (a merged row weighs 1). */
    static double weightOf(const QVector<Row> &rows, const QVector<Lane> &lanes);
    /** Whether any of `rows` is merged. */
    static bool anyMerged(const QVector<Row> &rows);
};

}  // namespace lmct
