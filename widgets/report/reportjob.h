#pragma once

#include "report/comparisonreport.h"
#include "report/reportcontent.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace lmct {

class ReportTimeline;

/**
 * Writes a report, start to end: the content (TraceReport, or ComparisonReport for two
 * documents) built off the GUI thread on a pool of its own, with progress() and cancel(); then,
 * on the GUI thread, the timeline pictures (ReportTimeline, awaited), the figures
 * (ReportPictures) and the file: a PDF (ReportPdfWriter) or one XHTML file (ReportHtmlWriter)
 * after the path's suffix (formatFor()), written through ExportFile (QSaveFile: a failure
 * leaves nothing; no open trace is ever written over). finished() says how it ended.
 *
 * The one path of File > Export Report… and of `lmct-viewer --report`.
 *
 * Ownership: owns its pool (the destructor cancels and waits), the content and the timelines.
 * Thread-safety: GUI thread.
 */
class ReportJob : public QObject {
    Q_OBJECT
public:
    enum class Format { Pdf, Html };
    /** .pdf, or .html / .htm / .xhtml; nullopt for anything else. */
    static std::optional<Format> formatFor(const QString &path);
    /** "OUT: expected a report file name ending in .pdf, .html, .htm or .xhtml" when formatFor()
     * has none, "OUT: expected a name before the suffix" for a bare ".pdf"; empty when the path
     * names a report. */
    static QString formatProblem(const QString &path);

    struct Request {
        std::shared_ptr<const TraceDocument> a;
        std::shared_ptr<const TraceDocument> b;  ///< set: a comparison of a and b
        QString output;
        QString filterText;
        TMonoRange range;
        /** A comparison's timelines: how B lines up with A (ComparisonReport::Options). */
        ComparisonReport::Alignment alignment = ComparisonReport::Alignment::Start;
        double bStart = 0.0;
        double offset = 0.0;  ///< the manual part of bStart (ComparisonLink::offset())
        int timelineTimeoutMs = 120000;
    };

    explicit ReportJob(Request request, QObject *parent = nullptr);
    ~ReportJob() override;

    void start();
    void cancel();
    bool isRunning() const { return m_running; }
    /** The content once built (null before, or after a failure). */
    std::shared_ptr<const ReportContent> content() const { return m_content; }

    /**
     * Writes `content` with its pictures to `path` (GUI thread; the timelines ready); `input`
     * and every open trace are refused as `path` (ExportFile).
     */
    static bool write(const ReportContent &content, const std::vector<ReportTimeline *> &timelines,
                      const QString &path, const QString &input, QString *error);

signals:
    void progress(int percent);
    /** `ok`, or `error` (empty when cancelled). */
    void finished(bool ok, const QString &error);

private:
    void onContent(std::shared_ptr<const ReportContent> content, const QString &error);
    void onTimelineReady();
    void end(bool ok, const QString &error);

    Request m_request;
    QThreadPool m_pool;
    std::shared_ptr<std::atomic_bool> m_cancel;
    std::shared_ptr<const ReportContent> m_content;
    std::vector<std::unique_ptr<ReportTimeline>> m_timelines;
    bool m_running = false;
};

}  // namespace lmct
