#include "shell/tracetab.h"

#include "common/dockroom.h"
#include "filter/filterexpression.h"
#include "records/filterbar.h"
#include "records/filtermemory.h"
#include "records/findbar.h"
#include "records/recordtableview.h"
#include "shell/traceloadjob.h"
#include "util/terminaltext.h"
#include "util/timeformat.h"
#include "viewstate.h"

#include <QAction>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
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
    // Live bar: the table already shows records while the rest loads, or while following.
    m_liveBar = new QWidget(content);
    auto *ll = new QHBoxLayout(m_liveBar);
    ll->setContentsMargins(8, 2, 4, 2);
    m_liveText = new QLabel(m_liveBar);
    m_liveProgress = new QProgressBar(m_liveBar);
    m_liveProgress->setMaximumWidth(220);
    m_liveProgress->setMaximumHeight(14);
    m_liveProgress->setTextVisible(false);
    m_liveStop = new QPushButton(tr("Cancel"), m_liveBar);
    m_liveStop->setFlat(true);
    ll->addWidget(m_liveText, 1);
    ll->addWidget(m_liveProgress);
    ll->addWidget(m_liveStop);
    m_liveBar->hide();
    connect(m_liveStop, &QPushButton::clicked, this, [this] {
        if (m_following) {
            stopFollowing();
        } else {
            cancelLoad();
        }
    });
    cl->addWidget(m_liveBar);
    m_table = new RecordTableView(content);
    m_table->setFrameShape(QFrame::NoFrame);
    m_filterBar = new FilterBar(content);
    m_findBar = new FindBar(m_table, content);
    m_findBar->hide();
    cl->addWidget(m_filterBar);
    cl->addWidget(m_findBar);
    cl->addWidget(m_rangeBar);
    m_table->setViewState(m_state);
    m_filterBar->setViewState(m_state);
    cl->addWidget(m_table, 1);
    // (the rows a user reads stay when the timeline's dock grows for its hit-ratio plot)
    DockRoom::keepHeight(m_table->viewport(),
                         kKeptTableRows * m_table->verticalHeader()->defaultSectionSize());
    auto *find = new QAction(tr("Find"), this);
    find->setShortcut(QKeySequence::Find);
    find->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(find, &QAction::triggered, m_findBar, &FindBar::activate);
    addAction(find);
    m_stack->addWidget(content);

    connect(m_cancel, &QPushButton::clicked, this, &TraceTab::cancelLoad);
    connect(m_job, &TraceLoadJob::progress, this, &TraceTab::onProgress);
    connect(m_job, &TraceLoadJob::finished, this, &TraceTab::onFinished);
    connect(m_job, &TraceLoadJob::opened, this, &TraceTab::onOpened);
    connect(m_job, &TraceLoadJob::grew, this, [this] {
        m_state->notifyDocumentGrew();
        updateLiveBar();
    });
    m_growTimer = new QTimer(this);
    m_growTimer->setInterval(kGrowMs);
    connect(m_growTimer, &QTimer::timeout, this, &TraceTab::onGrowTimer);
    connect(m_state, &ViewState::timeRangeChanged, this, &TraceTab::updateRangeBar);
    connect(m_table, &RecordTableView::subsetApplied, this, &TraceTab::updateRangeBar);
}

TraceTab::~TraceTab() = default;

QString TraceTab::fileName() const {
    // escaped: a name with U+202E or ESC reversed the tab title
    return TerminalText::escaped(QFileInfo(m_path).fileName());
}

std::shared_ptr<const TraceDocument> TraceTab::document() const {
    return m_state->document();
}

void TraceTab::load(const QString &path) {
    m_path = path;
    m_remembersFilter = true;
    m_onDisk = true;
    startJob();
    m_job->start(path);
}

void TraceTab::follow(const QString &path) {
    m_path = path;
    m_remembersFilter = true;
    m_onDisk = true;
    m_following = true;
    startJob();
    m_job->follow(path);
}

void TraceTab::stopFollowing() {
    if (m_following) {
        m_job->cancel();
    }
}

void TraceTab::onOpened(std::shared_ptr<const TraceDocument> doc) {
    // The header is read: show the table now and let it fill as records are indexed.
    m_loadingBox->hide();
    m_state->setDocument(std::move(doc));
    restoreFilter();
    m_stack->setCurrentIndex(1);
    m_table->setFocus();
    m_growTimer->start(kGrowMs);
    updateLiveBar();
    emit opened();
    if (m_following) {
        emit loaded();
    }
}

void TraceTab::onGrowTimer() {
    if (m_loading || m_following) {
        m_state->notifyDocumentGrew();
        updateLiveBar();
        return;
    }
    // Loaded: the file may still be truncated under us. Check it (one fstat; the document adds
    // its one "shrank" error), and tell the views only when the document found something new
    // (that check, or a read of a record's arguments past the new end).
    const auto doc = m_state->document();
    if (!doc) {
        return;
    }
    const qint64 shrunk = doc->checkShrunk();
    const qint64 seen = doc->diagnosticCount();
    // (the shrink error is added once; a file cut again must still update the size shown)
    if (seen != m_diagnosticsSeen || shrunk != m_shrunkSeen) {
        m_diagnosticsSeen = seen;
        m_shrunkSeen = shrunk;
        m_state->notifyDocumentGrew();
    }
}

void TraceTab::watchLoadedFile() {
    const auto doc = m_state->document();
    if (!m_onDisk || !doc) {
        m_growTimer->stop();
        return;
    }
    m_diagnosticsSeen = doc->diagnosticCount();
    m_shrunkSeen = doc->shrunkTo();
    m_growTimer->start(kWatchMs);
}

void TraceTab::updateLiveBar() {
    const auto doc = m_state->document();
    if (!doc || (!m_loading && !m_following)) {
        m_liveBar->hide();
        return;
    }
    if (m_following && doc->shrunkTo() >= 0) {
        // Truncated under us: what was read is kept (the Diagnostics pane says what was lost),
        // but a file cut short is not followed any further (TraceFile never remaps it).
        stopFollowing();
    }
    const QLocale loc;
    const qint64 total = doc->fileSize();
    if (m_following) {
        m_liveText->setText(tr("Following %1 · %2 records · %3")
                                .arg(fileName(), loc.toString(doc->records().size()),
                                     loc.formattedDataSize(doc->scannedBytes())));
        m_liveProgress->setRange(0, 0);
        m_liveStop->setText(tr("Stop Following"));
    } else if (doc->scannedBytes() >= total) {
        // Indexed; the second pass checks every record's arguments completely.
        m_liveText->setText(tr("%1 · %2 records indexed · checking their arguments…")
                                .arg(fileName(), loc.toString(doc->records().size())));
        m_liveProgress->setRange(0, 0);
        m_liveStop->setText(tr("Cancel"));
    } else {
        m_liveText->setText(tr("Reading %1 · %2 records · %3 of %4")
                                .arg(fileName(), loc.toString(doc->records().size()),
                                     loc.formattedDataSize(doc->scannedBytes()),
                                     loc.formattedDataSize(total)));
        m_liveProgress->setRange(0, 1000);
        m_liveProgress->setValue(total > 0 ? int(double(doc->scannedBytes()) / total * 1000) : 0);
        m_liveStop->setText(tr("Cancel"));
    }
    m_liveBar->show();
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
    const bool wasFollowing = m_following;
    m_loading = false;
    m_following = false;
    m_growTimer->stop();
    m_loadMs = m_clock.elapsed();
    m_loadingBox->hide();
    m_liveBar->hide();
    if (!doc) {
        emit loadFailed(error);
        return;
    }
    const bool shown = m_state->document() == doc;
    if (shown) {
        m_state->notifyDocumentGrew();  // the last records, and the argument check's findings
    } else {
        m_state->setDocument(std::move(doc));
        restoreFilter();
        m_stack->setCurrentIndex(1);
    }
    watchLoadedFile();
    if (!wasFollowing) {
        if (!shown) {
            m_table->setFocus();
        }
        emit loaded();
    } else {
        emit followingEnded();
    }
}

void TraceTab::restoreFilter() {
    if (!m_remembersFilter || m_filterRestored) {
        return;
    }
    m_filterRestored = true;
    const QString remembered = FilterMemory::filterFor(m_path);
    if (!remembered.isEmpty()) {
        if (FilterExpression::parse(remembered).isValid()) {
            m_state->setFilterText(remembered);  // the filter bar evaluates it
            m_filterBar->noteRestored(remembered);
        } else {
            FilterMemory::forget(m_path);  // e.g. written by a version with other fields
        }
    }
    // From now on every applied filter (or its clearing) is this file's last filter.
    connect(m_state, &ViewState::filterTextChanged, this,
            [this](const QString &text) { FilterMemory::remember(m_path, text); });
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
