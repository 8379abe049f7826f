#pragma once

#include "common/plotexportspec.h"
#include "report/reportcontent.h"

#include <QObject>
#include <memory>
#include <vector>

namespace lmct {

class TimelineWidget;
class ViewState;

/**
 * The timeline picture of a report (ReportContent::TimelineSource): the viewer's own
 * TimelineWidget on a ViewState of its own, never shown (Qt::WA_DontShowOnScreen, fine on the
 * offscreen platform), with the document, the filter's records handed over (others hidden, as
 * `lmct-viewer --export-*` does) and, once its index is built, the view on the source's fixed
 * axis (axisFrom … axisTo, as it is: a comparison's common axis) or else on its range (open
 * ends: the trace's extent; cut to the trace); the source's axisNote on the time axis. spec() is
 * TimelineExport's, with "A: " or "B: " before the caption of a comparison's trace and the
 * source's captionNote as the caption's last part.
 *
 * shareRateScale() gives several pictures one calls/s scale (the sources' sharedRateScale: a
 * comparison's A and B): each rate plot's value axis then runs to the largest of their own
 * upper ends at the picture's size, and the caption says so before the captionNote.
 *
 * ready() is emitted once the timeline is built and the range applied (isReady()).
 *
 * Ownership: owns its ViewState and widget. Thread-safety: GUI thread.
 */
class ReportTimeline : public QObject {
    Q_OBJECT
public:
    /** Starts building; `layoutSize` is about the picture's size (logical pixels). */
    ReportTimeline(const ReportContent::TimelineSource &source, QSize layoutSize,
                   QObject *parent = nullptr);
    ~ReportTimeline() override;

    bool isReady() const { return m_ready; }
    /** Runs the event loop until ready or `timeoutMs`; returns isReady(). */
    bool waitReady(int timeoutMs);
    TimelineWidget *timeline() const { return m_timeline.get(); }
    const ReportContent::TimelineSource &source() const { return m_source; }
    PlotExportSpec spec() const;

    /**
     * Gives the rate plots of `timelines` (ready) one value range, as they are painted at `size`
     * (logical pixels): each is laid out as CaptionedExport lays it out, with the caption's
     * words on the shared scale, for the upper end its own rates need; the largest becomes every
     * one's least upper end (TimelineRatePlot::setLeastUpper()). Pictures without a rate plot
     * at that size are left out. Fewer than two: nothing changes.
     */
    static void shareRateScale(const std::vector<ReportTimeline *> &timelines, QSize size);
    /** The shared calls/s upper end; NaN when the scale is the picture's own. */
    double sharedRateUpper() const;

signals:
    void ready();

private:
    void finish();

    ReportContent::TimelineSource m_source;
    std::unique_ptr<ViewState> m_state;
    std::unique_ptr<TimelineWidget> m_timeline;
    bool m_ready = false;
    QString m_rateNote;  // the caption's words on a shared rate scale; empty: its own scale
};

}  // namespace lmct
