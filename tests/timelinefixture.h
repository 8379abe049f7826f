#pragma once

// The set-up the timeline GUI suites share: a TimelineWidget on a ViewState showing a loaded
// trace, shown on screen (offscreen platform) and indexed.

#include "timelinewidget.h"
#include "traceloader.h"
#include "viewstate.h"

#include <QSignalSpy>
#include <QTest>
#include <memory>

namespace lmct::test {

/**
 * Owns the widget, the state and the document between openTimeline() and closeTimeline()
 * (call them from a suite's init() and cleanup()). GUI thread only.
 */
class TimelineFixture {
protected:
    ViewState *m_state = nullptr;
    TimelineWidget *m_w = nullptr;
    std::shared_ptr<TraceDocument> m_doc;

    /** Whether the timeline's index is ready, waiting up to 20 s for it. */
    bool waitIndexed() {
        if (!m_w->isIndexing()) {
            return true;
        }
        QSignalSpy spy(m_w, &TimelineWidget::indexReady);
        return spy.wait(20000) || !m_w->isIndexing();
    }

    /**
     * Loads `path`, shows a timeline of `size` (pixels) on it and waits until it is indexed and
     * drawn. False (with a warning naming the reason) when any step fails.
     */
    bool openTimeline(const QString &path, const QSize &size) {
        QString error;
        m_doc = TraceLoader::load(path, &error);
        if (!m_doc) {
            qWarning() << error;
            return false;
        }
        m_state = new ViewState;
        m_w = new TimelineWidget;
        m_w->resize(size);
        m_w->setViewState(m_state);
        m_state->setDocument(m_doc);
        m_w->show();
        if (!QTest::qWaitForWindowExposed(m_w) || !waitIndexed()) {
            qWarning() << "the timeline was not shown or not indexed in time";
            return false;
        }
        m_w->plot()->replot();
        return true;
    }

    void closeTimeline() {
        delete m_w;
        delete m_state;
        m_w = nullptr;
        m_state = nullptr;
        m_doc.reset();
    }
};

}  // namespace lmct::test
