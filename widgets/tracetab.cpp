#include "tracetab.h"

#include "recordtableview.h"
#include "timeformat.h"
#include "traceloadjob.h"
#include "viewstate.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace lmct {

TraceTab::TraceTab(QWidget *parent)
    : QWidget(parent),
      m_state(new ViewState(this)),
      m_job(new TraceLoadJob(this)),
      m_stack(new QStackedWidget(this)) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    // Loading page: centred title, progress bar, counts and Cancel.
    auto *loadingPage = new QWidget(m_stack);
    auto *outer = new QVBoxLayout(loadingPage);
    m_loadingBox = new QWidget(loadingPage);
    m_loadingBox->setMaximumWidth(520);
    auto *box = new QVBoxLayout(m_loadingBox);
    m_loadingTitle = new QLabel(m_loadingBox);
    m_loadingTitle->setWordWrap(true);
    m_progress = new QProgressBar(m_loadingBox);
    m_progress->setRange(0, 0);
    m_progress->setTextVisible(false);
    m_progressText = new QLabel(m_loadingBox);
    m_progressText->setForegroundRole(QPalette::PlaceholderText);
    m_cancel = new QPushButton(tr("Cancel"), m_loadingBox);
    m_cancel->setToolTip(tr("Stop reading; the records read so far stay open (partial)"));
    auto *row = new QHBoxLayout;
    row->addWidget(m_progressText, 1);
    row->addWidget(m_cancel);
    box->addWidget(m_loadingTitle);
    box->addWidget(m_progress);
    box->addLayout(row);
    outer->addStretch(1);
    outer->addWidget(m_loadingBox, 0, Qt::AlignHCenter);
    outer->addStretch(2);
    m_loadingBox->hide();  // shown after a moment, so fast loads do not flicker
    m_stack->addWidget(loadingPage);

    // Content page: the time range bar and the record table.
    auto *content = new QWidget(m_stack);
    auto *cl = new QVBoxLayout(content);
    cl->setContentsMargins(0, 0, 0, 0);
    cl->setSpacing(0);
    m_rangeBar = new QWidget(content);
    m_rangeBar->setAutoFillBackground(true);
    m_rangeBar->setBackgroundRole(QPalette::ToolTipBase);
    m_rangeBar->setForegroundRole(QPalette::ToolTipText);
    auto *rl = new QHBoxLayout(m_rangeBar);
    rl->setContentsMargins(8, 3, 4, 3);
    m_rangeText = new QLabel(m_rangeBar);
    m_rangeText->setForegroundRole(QPalette::ToolTipText);
    auto *showAll = new QToolButton(m_rangeBar);
    showAll->setText(tr("Show All (Esc)"));
    showAll->setAutoRaise(true);
    connect(showAll, &QToolButton::clicked, this, [this] { m_state->setTimeRange(std::nullopt); });
    rl->addWidget(m_rangeText, 1);
    rl->addWidget(showAll);
    m_rangeBar->hide();
    cl->addWidget(m_rangeBar);
    m_table = new RecordTableView(content);
    m_table->setFrameShape(QFrame::NoFrame);
    m_table->setViewState(m_state);
    cl->addWidget(m_table, 1);
    m_stack->addWidget(content);

    connect(m_cancel, &QPushButton::clicked, this, &TraceTab::cancelLoad);
    connect(m_job, &TraceLoadJob::progress, this, &TraceTab::onProgress);
    connect(m_job, &TraceLoadJob::finished, this, &TraceTab::onFinished);
    connect(m_state, &ViewState::timeRangeChanged, this, &TraceTab::updateRangeBar);
    connect(m_table, &RecordTableView::subsetApplied, this, &TraceTab::updateRangeBar);
}

TraceTab::~TraceTab() = default;

QString TraceTab::fileName() const {
    return QFileInfo(m_path).fileName();
}

std::shared_ptr<const TraceDocument> TraceTab::document() const {
    return m_state->document();
}

void TraceTab::load(const QString &path) {
    m_path = path;
    startJob();
    m_job->start(path);
}

void TraceTab::loadBytes(const QByteArray &bytes, const QString &name) {
    m_path = name;
    startJob();
    m_job->startBytes(bytes, name);
}

void TraceTab::startJob() {
    m_loading = true;
    m_clock.start();
    m_loadingTitle->setText(tr("Reading %1…").arg(fileName()));
    m_loadingTitle->setToolTip(m_path);
    m_progressText->setText(tr("Opening…"));
    m_stack->setCurrentIndex(0);
    QTimer::singleShot(150, m_loadingBox, [this] { m_loadingBox->setVisible(m_loading); });
}

void TraceTab::cancelLoad() {
    if (!m_loading) {
        return;
    }
    m_job->cancel();
    m_cancel->setEnabled(false);
    m_progressText->setText(tr("Cancelling…"));
}

void TraceTab::onProgress(qint64 done, qint64 total, qint64 records) {
    if (!m_loading) {
        return;
    }
    if (total > 0) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(int(double(done) / double(total) * 1000.0));
    }
    const QLocale loc;
    m_progressText->setText(
        tr("%1 of %2 · %3 records")
            .arg(loc.formattedDataSize(done), loc.formattedDataSize(total), loc.toString(records)));
    emit loadProgress(done, total, records);
}

void TraceTab::onFinished(std::shared_ptr<const TraceDocument> doc, const QString &error) {
    m_loading = false;
    m_loadMs = m_clock.elapsed();
    m_loadingBox->hide();
    if (!doc) {
        emit loadFailed(error);
        return;
    }
    m_state->setDocument(std::move(doc));
    m_stack->setCurrentIndex(1);
    m_table->setFocus();
    emit loaded();
}

void TraceTab::updateRangeBar() {
    const auto range = m_state->timeRange();
    const auto doc = m_state->document();
    if (!range || !doc) {
        m_rangeBar->hide();
        return;
    }
    const QLocale loc;
    const int shown = m_table->model()->rowCount();
    m_rangeText->setText(tr("Showing %1 of %2 records with t_mono in [%3 s, %4 s] (%5)")
                             .arg(loc.toString(shown), loc.toString(doc->records().size()),
                                  TimeFormat::mono(range->from), TimeFormat::mono(range->to),
                                  TimeFormat::duration(range->to - range->from)));
    m_rangeBar->show();
}

}  // namespace lmct
