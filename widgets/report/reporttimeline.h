#pragma once

#include "common/plotexportspec.h"
#include "report/reportcontent.h"

#include <QObject>
#include <memory>

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
    PlotExportSpec spec() const;

signals:
    void ready();

private:
    void finish();

    ReportContent::TimelineSource m_source;
    std::unique_ptr<ViewState> m_state;
    std::unique_ptr<TimelineWidget> m_timeline;
    bool m_ready = false;
};

}  // namespace lmct
