#include "report/reporttimeline.h"

#include "common/captionedexport.h"
#include "timeline/timelineexport.h"
#include "timeline/timelineviewport.h"
#include "timeline/timelinewidget.h"
#include "viewstate.h"

#include <qcustomplot.h>

#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <algorithm>
#include <cmath>

namespace lmct {

ReportTimeline::ReportTimeline(const ReportContent::TimelineSource &source, QSize layoutSize,
                               QObject *parent)
    : QObject(parent),
      m_source(source),
      m_state(std::make_unique<ViewState>()),
      m_timeline(std::make_unique<TimelineWidget>()) {
    m_state->setDocument(m_source.doc);
    if (m_source.filterRecords) {
        m_state->setFilterText(m_source.filterText);
        m_state->setFilterResult(m_source.filterText, m_source.filterRecords);
    }
    m_timeline->setAttribute(Qt::WA_DontShowOnScreen);
    m_timeline->setViewState(m_state.get());
    // the picture shows what the filter selects (not the user's Dim preference)
    m_timeline->setFilterMode(TimelineWidget::FilterMode::Hide);
    m_timeline->resize(layoutSize.width(), layoutSize.height() + 100);  // (toolbar, overview)
    m_timeline->show();
    connect(m_timeline.get(), &TimelineWidget::indexReady, this, [this] {
        if (!m_timeline->isIndexing()) {
            finish();
        }
    });
    // (an index built before the connection, e.g. for an empty trace)
    QTimer::singleShot(0, this, [this] {
        if (!m_ready && !m_timeline->isIndexing()) {
            finish();
        }
    });
}

ReportTimeline::~ReportTimeline() {
    m_timeline.reset();  // before the state it observes
}

void ReportTimeline::finish() {
    if (m_ready) {
        return;
    }
    const TMonoRange &range = m_source.range;
    const double axisFrom = m_source.axisFrom, axisTo = m_source.axisTo;
    if (std::isfinite(axisFrom) && std::isfinite(axisTo) && axisTo > axisFrom) {
        // a fixed axis, past the trace's ends too (a comparison's common axis): not clamped
        m_timeline->viewport()->showWindow(axisFrom, axisTo);
    } else if (!range.isAll() && m_source.doc && m_source.doc->records().size() > 0) {
        // cut to the first and last record, as --export-png's --range is
        if (const auto window = m_timeline->viewport()->windowFor(range.from, range.to)) {
            m_timeline->setVisibleRange(window->lower, window->upper);
        }
    }
    m_timeline->setAxisNote(m_source.axisNote);
    m_timeline->plot()->replot(QCustomPlot::rpImmediateRefresh);
    m_ready = true;
    emit ready();
}

bool ReportTimeline::waitReady(int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (!m_ready && clock.elapsed() < timeoutMs) {
        QEventLoop loop;
        QTimer::singleShot(20, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return m_ready;
}

PlotExportSpec ReportTimeline::spec() const {
    PlotExportSpec s = TimelineExport::spec(m_timeline.get());
    if (!m_source.label.isEmpty() || !m_source.captionNote.isEmpty()) {
        TimelineWidget *timeline = m_timeline.get();
        const QString label = m_source.label, note = m_source.captionNote;
        s.caption = [timeline, label, note] {
            QString caption = TimelineExport::caption(*timeline);
            if (!label.isEmpty()) {
                caption = QStringLiteral("%1: %2").arg(label, caption);
            }
            if (!note.isEmpty()) {
                caption += TimelineExport::captionSeparator() + note;
            }
            return caption;
        };
    }
    return s;
}

}  // namespace lmct
