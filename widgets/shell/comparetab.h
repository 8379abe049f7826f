#pragma once

#include "compare/tracecomparison.h"
#include "comparealignmentoptions.h"
#include "trace/tracedocument.h"

#include <QFutureWatcher>
#include <QWidget>
#include <atomic>
#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;

namespace lmct {

class ComparePane;
class ComparisonLink;
class FilterBar;
class TimelineAlignment;
class TimelineWidget;
class TraceLoadJob;
class ViewState;

/**
 * A comparison of two traces in the main window's tab bar: both timelines on one time axis
 * (A above B, each a TimelineWidget on its own ViewState, the same call colours), kept linked
 * by a ComparisonLink (filter, time range, selection and visible window mapped through the
 * alignment and B's offset), and the Compare pane (ComparePane) beside them.
 *
 * The timelines get the height that shows every lane of both at readable rows
 * (TimelineWidget::readableHeight()), the pane below keeping at least kPaneLeastShare of the
 * tab's height; with less room, rows shrink to the font's line + 1 px and then each timeline
 * scrolls (lanes never overlap). Once the splitter between them is moved by hand, it stays
 * where it was put.
 *
 * Both plot areas start and end at the same x (TimelineAlignment: the lane label column as wide
 * as the wider of the two), so one time of the common axis is one x in both; hovering either
 * timeline draws a guide line with its time tag at the same time in the other (mapped), so the
 * time under the mouse reads in both.
 *
 * The bar on top chooses the alignment (from each trace's start, or by `t_wall`) and B's manual
 * offset in seconds (lineUp() sets both, as `--align` and `--offset` do): a spin box, or dragging
 * the "⇔ drag B" handle sideways (the drag moves B by as many seconds as the pixels moved span in
 * B's visible window, so B follows the mouse). Each trace's header row says "A"/"B", its file name
 * and its offset, and has a filter line (the filter typed in either applies to both). Once both
 * timelines are built, the window spans both traces on the common axis.
 *
 * compareFiles() loads both files off the GUI thread (TraceLoadJob) and compareDocuments()
 * starts the comparison (TraceComparison::run on JobPool, progress and Cancel in the bar); the
 * pane shows the result when it is ready (compared()). A file that cannot be read ends it with
 * failed().
 *
 * Ownership: owns both ViewStates, the link, the loads and the running comparison (cancelled and
 * waited for on destruction); the documents are shared. Thread-safety: GUI thread only.
 */
class CompareTab : public QWidget {
    Q_OBJECT
public:
    /** The least share of the height the Compare pane keeps under the timelines. */
    static constexpr double kPaneLeastShare = 1.0 / 3.0;

    explicit CompareTab(QWidget *parent = nullptr);
    ~CompareTab() override;

    /** Loads `a` and `b`, then compares them. Call one of the compare functions once. */
    void compareFiles(const QString &a, const QString &b);
    /** Compares two loaded documents (e.g. of two open tabs). */
    void compareDocuments(std::shared_ptr<const TraceDocument> a,
                          std::shared_ptr<const TraceDocument> b);
    /**
     * Lines B up with A as the bar would: the alignment and B's offset (e.g. `--align` and
     * `--offset` of `lmct-viewer --compare`). By t_wall asked of traces without `t_wall` falls
     * back to from each trace's start once both are read, and the bar says why.
     */
    void lineUp(const CompareAlignmentOptions &options);
    /** Stops a running load or comparison (the pane then says it was cancelled). */
    void cancel();

    /** "A ⇄ B" of the file names, for the tab's label. */
    QString title() const;
    QString filePathA() const { return m_pathA; }
    QString filePathB() const { return m_pathB; }
    bool isBusy() const;

    ViewState *stateA() const { return m_stateA; }
    ViewState *stateB() const { return m_stateB; }
    ComparisonLink *link() const { return m_link; }
    TimelineWidget *timelineA() const { return m_timelineA; }
    TimelineWidget *timelineB() const { return m_timelineB; }
    TimelineAlignment *plotAlignment() const { return m_alignmentOfPlots; }
    FilterBar *filterBarA() const { return m_filterA; }
    FilterBar *filterBarB() const { return m_filterB; }
    ComparePane *pane() const { return m_pane; }
    QDoubleSpinBox *offsetBox() const { return m_offset; }
    QComboBox *alignmentBox() const { return m_alignment; }
    QLabel *dragHandle() const { return m_handle; }
    QLabel *statusLabel() const { return m_status; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *headerLabel(bool b) const { return b ? m_headerB : m_headerA; }
    /** The splitter of the timelines (first) and the pane; of A's and B's timelines. */
    QSplitter *splitter() const { return m_split; }
    QSplitter *timelineSplitter() const { return m_timelines; }

signals:
    /** The comparison is shown in the pane. */
    void compared();
    /** A file could not be read (`error`: the loader's reason), or the comparison was
     *  cancelled. */
    void failed(const QString &error);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QWidget *buildSide(bool b);
    void onLoaded(bool b, std::shared_ptr<const TraceDocument> doc, const QString &error);
    void startComparison();
    void onComparisonDone();
    void updateHeaders();
    /** Once both traces are read: by t_wall without a t_wall falls back, with a note. */
    void checkWallAlignment();
    /** Shows both traces whole: A's window spans both on the common axis, B's follows. */
    void showBoth();
    /** Gives the timelines the height their lanes need, as far as the pane leaves it (until
     *  a splitter is moved by hand). */
    void fitTimelines();

    QString m_pathA, m_pathB;
    std::shared_ptr<const TraceDocument> m_docA, m_docB;
    ViewState *m_stateA = nullptr;
    ViewState *m_stateB = nullptr;
    ComparisonLink *m_link = nullptr;
    TimelineAlignment *m_alignmentOfPlots = nullptr;  // both plot areas at the same x
    TimelineWidget *m_timelineA = nullptr;
    TimelineWidget *m_timelineB = nullptr;
    FilterBar *m_filterA = nullptr;
    FilterBar *m_filterB = nullptr;
    QLabel *m_headerA = nullptr;
    QLabel *m_headerB = nullptr;
    ComparePane *m_pane = nullptr;
    QSplitter *m_split = nullptr;      // the timelines above the pane
    QSplitter *m_timelines = nullptr;  // A above B
    QWidget *m_sides[2] = {};          // A's and B's header row and timeline
    bool m_sizedByHand = false;        // a splitter was moved: fitTimelines() leaves it
    QComboBox *m_alignment = nullptr;
    QDoubleSpinBox *m_offset = nullptr;
    QLabel *m_handle = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancel = nullptr;
    QLabel *m_status = nullptr;
    TraceLoadJob *m_jobA = nullptr;
    TraceLoadJob *m_jobB = nullptr;
    QFutureWatcher<std::shared_ptr<const TraceComparison>> m_watcher;
    std::shared_ptr<std::atomic_bool> m_cancelFlag;
    QString m_note;  // shown in the bar once the comparison is done
    bool m_dragging = false;
    int m_dragX = 0;
    bool m_aligned = false;  // B's window was mapped from A's once both timelines were built
};

}  // namespace lmct
