#include "report/reporttimeline.h"

#include "common/captionedexport.h"
#include "timeline/timelineexport.h"
#include "timeline/timelinerateplot.h"
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
    if (!m_source.label.isEmpty() || !m_source.captionNote.isEmpty() || !m_rateNote.isEmpty()) {
        s.caption = [this] {
            QString caption = TimelineExport::caption(*m_timeline);
            if (!m_source.label.isEmpty()) {
                caption = QStringLiteral("%1: %2").arg(m_source.label, caption);
            }
            // (said while the rate plot is drawn: a small picture may leave it out)
            if (!m_rateNote.isEmpty() && m_timeline->ratePlot()->isPlaced()) {
                caption += TimelineExport::captionSeparator() + m_rateNote;
            }
            if (!m_source.captionNote.isEmpty()) {
                caption += TimelineExport::captionSeparator() + m_source.captionNote;
            }
            return caption;
        };
    }
    return s;
}

double ReportTimeline::sharedRateUpper() const {
    const double upper = m_timeline->ratePlot()->leastUpper();
    return !m_rateNote.isEmpty() && std::isfinite(upper) ? upper : qQNaN();
}

void ReportTimeline::shareRateScale(const std::vector<ReportTimeline *> &timelines, QSize size) {
    std::vector<ReportTimeline *> group;
    QStringList labels;
    for (ReportTimeline *t : timelines) {
        if (t && t->isReady() && t->m_timeline->isRatePlotVisible()) {
            group.push_back(t);
            labels << t->m_source.label;
        }
    }
    if (group.size() < 2) {
        return;
    }
    // "for A and B" (a comparison's), else "for these N timelines"
    const QString last = labels.takeLast();
    const QString note =
        labels.contains(QString()) || last.isEmpty()
            ? QObject::tr("one calls/s scale for these %1 timelines").arg(group.size())
            : QObject::tr("one calls/s scale for %1 and %2")
                  .arg(labels.join(QStringLiteral(", ")), last);
    // The words first: they are part of the caption, whose lines take height from the plots
    // (and the rate plot's headroom for its own caption depends on its height).
    for (ReportTimeline *t : group) {
        t->m_rateNote = note;
        t->m_timeline->ratePlot()->setLeastUpper(qQNaN());
    }
    double upper = 0.0;
    std::vector<ReportTimeline *> placed;
    for (ReportTimeline *t : group) {
        double own = qQNaN();
        {
            // laid out as the page paints it: its rate plot's own upper end at that size (read
            // before the scope ends and lays it out for its widget again)
            const CaptionedExport scope(t->spec(), size);
            if (t->m_timeline->ratePlot()->isPlaced()) {
                own = t->m_timeline->ratePlot()->naturalUpper();
            }
        }
        if (std::isfinite(own)) {
            upper = std::max(upper, own);
            placed.push_back(t);
        }
    }
    for (ReportTimeline *t : group) {
        const bool shared =
            placed.size() >= 2 && std::find(placed.begin(), placed.end(), t) != placed.end();
        if (!shared) {
            t->m_rateNote.clear();
            continue;
        }
        t->m_timeline->ratePlot()->setLeastUpper(upper);
        t->m_timeline->ratePlot()->update();
    }
}

}  // namespace lmct
