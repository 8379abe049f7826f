#include "report/reportjob.h"

#include "common/jobpool.h"
#include "export/exportfile.h"
#include "report/comparisonreport.h"
#include "report/reporthtmlwriter.h"
#include "report/reportpdfwriter.h"
#include "report/reportpictures.h"
#include "report/reporttimeline.h"
#include "report/tracereport.h"

#include <QFileInfo>
#include <QTimer>

namespace lmct {

std::optional<ReportJob::Format> ReportJob::formatFor(const QString &path) {
    const QString s = QFileInfo(path).suffix().toLower();
    if (s == QLatin1String("pdf")) {
        return Format::Pdf;
    }
    if (s == QLatin1String("html") || s == QLatin1String("htm") || s == QLatin1String("xhtml")) {
        return Format::Html;
    }
    return std::nullopt;
}

QString ReportJob::formatProblem(const QString &path) {
    if (!formatFor(path)) {
        return QObject::tr("%1: expected a report file name ending in .pdf, .html, .htm or .xhtml")
            .arg(path);
    }
    if (QFileInfo(path).completeBaseName().isEmpty()) {
        // ".pdf" alone is a hidden file of no name, not a PDF named after the trace
        return QObject::tr("%1: expected a name before the suffix, found none").arg(path);
    }
    return QString();
}

ReportJob::ReportJob(Request request, QObject *parent)
    : QObject(parent), m_request(std::move(request)) {
    m_pool.setMaxThreadCount(1);
}

ReportJob::~ReportJob() {
    cancel();
    m_pool.waitForDone();
    m_timelines.clear();
}

void ReportJob::start() {
    if (m_running) {
        return;
    }
    if (const QString why = formatProblem(m_request.output); !why.isEmpty()) {
        QTimer::singleShot(0, this, [this, why] { end(false, why); });
        m_running = true;
        return;
    }
    // (both traces are open: ExportFile refuses either as the target, by file identity)
    QString why;
    if (!ExportFile::checkTarget(m_request.output, &why, m_request.a->filePath())) {
        QTimer::singleShot(0, this, [this, why] { end(false, why); });
        m_running = true;
        return;
    }
    m_running = true;
    m_cancel = std::make_shared<std::atomic_bool>(false);
    const Request r = m_request;
    const auto cancel = m_cancel;
    // The destructor cancels and waits for the pool: `this` outlives the job.
    (void)JobPool::run(&m_pool, [this, r, cancel] {
        auto last = std::make_shared<std::atomic_int>(-1);
        const auto report = [this, last](int p) {
            if (last->exchange(p) != p) {
                QMetaObject::invokeMethod(
                    this, [this, p] { emit progress(p * 9 / 10); }, Qt::QueuedConnection);
            }
        };
        QString error;
        std::shared_ptr<const ReportContent> content;
        if (r.b) {
            ComparisonReport::Options o;
            o.filterText = r.filterText;
            o.range = r.range;
            o.alignment = r.alignment;
            o.bStart = r.bStart;
            o.offset = r.offset;
            content = ComparisonReport::build(r.a, r.b, o, report, cancel.get(), &error);
        } else {
            TraceReport::Options o;
            o.filterText = r.filterText;
            o.range = r.range;
            content = TraceReport::build(r.a, o, report, cancel.get(), &error);
        }
        if (cancel->load()) {
            return;
        }
        QMetaObject::invokeMethod(
            this, [this, content, error] { onContent(content, error); }, Qt::QueuedConnection);
    });
}

void ReportJob::cancel() {
    if (m_cancel) {
        m_cancel->store(true);
    }
    if (m_running) {
        m_running = false;
        m_timelines.clear();
        emit finished(false, QString());
    }
}

void ReportJob::onContent(std::shared_ptr<const ReportContent> content, const QString &error) {
    if (!m_running) {
        return;
    }
    if (!content) {
        end(false, error.isEmpty() ? tr("the report could not be made") : error);
        return;
    }
    m_content = std::move(content);
    for (const ReportContent::TimelineSource &s : m_content->timelines) {
        auto t = std::make_unique<ReportTimeline>(s, ReportPictures::kTimelineSize);
        connect(t.get(), &ReportTimeline::ready, this, &ReportJob::onTimelineReady);
        m_timelines.push_back(std::move(t));
    }
    QTimer::singleShot(m_request.timelineTimeoutMs, this, [this] {
        if (m_running) {
            end(false, tr("the timeline was not ready after %1 s")
                           .arg(m_request.timelineTimeoutMs / 1000));
        }
    });
    onTimelineReady();
}

void ReportJob::onTimelineReady() {
    if (!m_running) {
        return;
    }
    for (const auto &t : m_timelines) {
        if (!t->isReady()) {
            return;
        }
    }
    emit progress(95);
    std::vector<ReportTimeline *> timelines;
    for (const auto &t : m_timelines) {
        timelines.push_back(t.get());
    }
    QString error;
    const bool ok = write(*m_content, timelines, m_request.output, m_request.a->filePath(), &error);
    end(ok, error);
}

void ReportJob::end(bool ok, const QString &error) {
    if (!m_running) {
        return;
    }
    m_running = false;
    if (ok) {
        emit progress(100);
    }
    emit finished(ok, error);
}

bool ReportJob::write(const ReportContent &content, const std::vector<ReportTimeline *> &timelines,
                      const QString &path, const QString &input, QString *error) {
    const auto format = formatFor(path);
    if (!format) {
        *error = formatProblem(path);
        return false;
    }
    const ReportPictures pictures(content, timelines);
    return ExportFile::write(
        path,
        [&](QIODevice *out, QString *e) {
            if (*format == Format::Pdf) {
                return ReportPdfWriter::write(content, pictures, out, e);
            }
            const QByteArray html = ReportHtmlWriter::html(content, pictures);
            if (out->write(html) != html.size()) {
                *e = out->errorString();
                return false;
            }
            return true;
        },
        error, input);
}

}  // namespace lmct
