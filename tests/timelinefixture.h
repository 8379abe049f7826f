#pragma once

// The set-up the timeline GUI suites share: a TimelineWidget on a ViewState showing a loaded
// trace, shown on screen (offscreen platform) and indexed; or a trace that grows while the
// timeline follows it.

#include "testutil.h"
#include "timeline/timelinewidget.h"
#include "trace/traceloader.h"
#include "viewstate.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
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

    /** A trace written in two halves and followed live (openGrowing(), growRest()). */
    struct Growing {
        QByteArray all;      ///< the whole source trace
        QList<qint64> ends;  ///< where its frames end (frame 0 = the header)
        qint64 half = 0;     ///< the bytes written first: the frames of the first half
        std::unique_ptr<QTemporaryDir> dir;
        std::unique_ptr<QFile> out;  ///< the file being written
        TraceLoader::Options options;
    };
    Growing m_growing;

    /**
     * Writes the first half (whole frames) of the trace `source` to `fileName` in a temporary
     * directory, opens that file followed (m_doc), shows it on the timeline and waits until it is
     * indexed. False (with a warning naming the reason) when any step fails.
     */
    bool openGrowing(const QString &source, const QString &fileName = QStringLiteral("live.lct")) {
        Growing &g = m_growing;
        g.all = readAll(source);
        g.ends = frameEnds(g.all);
        if (g.ends.isEmpty()) {
            qWarning() << "cannot read" << source;
            return false;
        }
        g.dir = std::make_unique<QTemporaryDir>();
        g.out = std::make_unique<QFile>(g.dir->filePath(fileName));
        if (!g.out->open(QIODevice::WriteOnly)) {
            qWarning() << "cannot write" << g.out->fileName();
            return false;
        }
        g.half = g.ends[g.ends.size() / 2];
        g.out->write(g.all.left(g.half));
        g.out->flush();
        g.options = TraceLoader::Options();
        g.options.follow = true;
        QString error;
        auto doc = TraceLoader::open(g.out->fileName(), &error, g.options);
        if (!doc || TraceLoader::refresh(doc.get(), &error, g.options) <= 0) {
            qWarning() << "cannot follow" << g.out->fileName() << error;
            return false;
        }
        m_doc = doc;
        m_state->setDocument(doc);
        if (!waitIndexed()) {
            qWarning() << "the timeline was not indexed in time";
            return false;
        }
        return true;
    }

    /** Appends the rest of the growing trace, reads it and tells the ViewState it grew. */
    bool growRest() {
        Growing &g = m_growing;
        g.out->write(g.all.mid(g.half));
        g.out->flush();
        QString error;
        if (TraceLoader::refresh(m_doc.get(), &error, g.options) <= 0) {
            qWarning() << "no new records" << error;
            return false;
        }
        m_state->notifyDocumentGrew();
        return true;
    }

    void closeTimeline() {
        delete m_w;
        delete m_state;
        m_w = nullptr;
        m_state = nullptr;
        m_doc.reset();
        m_growing = Growing();
    }
};

}  // namespace lmct::test
