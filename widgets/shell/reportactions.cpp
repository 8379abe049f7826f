#include "shell/reportactions.h"

#include "comparisonlink.h"
#include "report/reportjob.h"
#include "shell/comparetab.h"
#include "shell/tracetab.h"
#include "viewstate.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QProgressDialog>

namespace lmct {

ReportActions::ReportActions(QWidget *window, std::function<TraceTab *()> currentTab)
    : QObject(window), m_window(window), m_currentTab(std::move(currentTab)) {
    m_action = new QAction(tr("Export &Report…"), this);
    m_action->setObjectName(QStringLiteral("exportReport"));
    m_action->setStatusTip(
        tr("Write one document about the current trace or comparison: facts, diagnostics, "
           "calls, the timeline, cache behaviour and anomalies (PDF or HTML)"));
    connect(m_action, &QAction::triggered, this, &ReportActions::exportReport);
    m_pathProvider = [this](const QString &title, const QString &suggested, const QString &filter) {
        return QFileDialog::getSaveFileName(m_window, title, suggested, filter);
    };
}

void ReportActions::setCurrentComparison(std::function<CompareTab *()> currentComparison) {
    m_currentComparison = std::move(currentComparison);
}

void ReportActions::setPathProvider(PathProvider provider) {
    m_pathProvider = std::move(provider);
}

void ReportActions::updateEnabled() {
    const TraceTab *tab = m_currentTab ? m_currentTab() : nullptr;
    const CompareTab *cmp = m_currentComparison ? m_currentComparison() : nullptr;
    const bool trace = tab && tab->document();
    const bool comparison = cmp && cmp->stateA()->document() && cmp->stateB()->document();
    m_action->setEnabled(!m_job && (trace || comparison));
}

void ReportActions::exportReport() {
    const TraceTab *tab = m_currentTab ? m_currentTab() : nullptr;
    const CompareTab *cmp = m_currentComparison ? m_currentComparison() : nullptr;
    std::shared_ptr<const TraceDocument> doc = cmp   ? cmp->stateA()->document()
                                               : tab ? tab->document()
                                                     : nullptr;
    if (!doc) {
        return;
    }
    const QFileInfo fi(doc->filePath());
    const QString base =
        cmp && cmp->stateB()->document()
            ? fi.completeBaseName() + QStringLiteral("-vs-") +
                  QFileInfo(cmp->stateB()->document()->filePath()).completeBaseName()
            : fi.completeBaseName();
    QString path =
        m_pathProvider(tr("Export Report"), fi.dir().filePath(base + QStringLiteral("-report.pdf")),
                       tr("PDF document (*.pdf);;HTML file, self-contained (*.html)"));
    if (path.isEmpty()) {
        return;
    }
    if (!ReportJob::formatFor(path)) {
        path += QStringLiteral(".pdf");
    }
    start(path);
}

void ReportActions::cancel() {
    if (m_job) {
        m_job->cancel();
    }
}

bool ReportActions::start(const QString &path) {
    if (m_job) {
        return false;
    }
    const TraceTab *tab = m_currentTab ? m_currentTab() : nullptr;
    const CompareTab *cmp = m_currentComparison ? m_currentComparison() : nullptr;
    ReportJob::Request r;
    const ViewState *state = cmp ? cmp->stateA() : tab ? tab->viewState() : nullptr;
    if (!state || !state->document()) {
        return false;
    }
    r.a = state->document();
    if (cmp) {
        r.b = cmp->stateB()->document();
        if (!r.b) {
            return false;
        }
        // the timelines line up as in the tab: its alignment and B's offset
        const ComparisonLink *link = cmp->link();
        r.alignment = link->alignment() == ComparisonLink::Alignment::Wall
                          ? ComparisonReport::Alignment::Wall
                          : ComparisonReport::Alignment::Start;
        r.bStart = link->base() + link->offset();
        r.offset = link->offset();
    }
    r.output = path;
    r.filterText = state->filterAppliedText();
    if (const auto range = state->timeRange()) {
        r.range.from = range->from;
        r.range.to = range->to;
    }
    m_job = new ReportJob(r, this);
    auto *dialog = new QProgressDialog(tr("Making %1…").arg(QFileInfo(path).fileName()),
                                       tr("Cancel"), 0, 100, m_window);
    dialog->setWindowTitle(tr("Export Report"));
    dialog->setWindowModality(Qt::WindowModal);
    dialog->setAutoClose(false);
    dialog->setAutoReset(false);
    dialog->setMinimumDuration(400);
    dialog->setValue(0);
    ReportJob *job = m_job;
    connect(dialog, &QProgressDialog::canceled, job, &ReportJob::cancel);
    connect(job, &ReportJob::progress, dialog, [dialog](int p) {
        if (!dialog->wasCanceled()) {
            dialog->setValue(p);
        }
    });
    connect(job, &ReportJob::finished, this, [this, job, dialog](bool ok, const QString &error) {
        dialog->hide();
        dialog->deleteLater();
        job->deleteLater();
        m_job = nullptr;
        updateEnabled();
        if (!ok && !error.isEmpty()) {
            QMessageBox::critical(m_window, tr("Export failed"), error);
        }
        emit finished(ok, error);
    });
    updateEnabled();
    job->start();
    return true;
}

}  // namespace lmct
