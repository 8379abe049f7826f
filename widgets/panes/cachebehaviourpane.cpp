#include "panes/cachebehaviourpane.h"

#include "common/jobpool.h"
#include "common/stablelabel.h"
#include "panes/cacheplotexports.h"
#include "viewstate.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>
#include <initializer_list>

namespace lmct {

CacheBehaviourPane::CacheBehaviourPane(QWidget *parent)
    : QWidget(parent),
      m_summary(new QLabel(this)),
      m_progress(new QProgressBar(this)),
      m_again(new QPushButton(tr("Analyse again"), this)),
      m_tabs(new QTabWidget(this)) {
    m_pool.setMaxThreadCount(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(2);
    auto *top = new QHBoxLayout;
    top->setContentsMargins(6, 0, 6, 0);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The long summary must not set the pane's minimum width (its growth widened the dock and
    // the window while a followed trace grew): where there is no room it wraps to more lines
    // (it was cut, e.g. at 1600 px with the anomaly counts), and it is whole in its tooltip.
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_summary->setWordWrap(true);
    top->addWidget(m_summary, 1);
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(180);
    m_progress->setTextVisible(true);
    m_progress->setFormat(tr("Analysing %p%"));
    m_progress->hide();
    top->addWidget(m_progress);
    // its count grows while a followed trace grows: a stable width, so that it does not jump
    m_stale = new StableLabel(this);
    m_stale->setObjectName(QStringLiteral("cacheStale"));
    m_stale->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_stale->setWidthTemplate(
        tr("%1 new records since analysis — Analyse again").arg(QLocale().toString(10000)));
    m_stale->setStyleSheet(
        QStringLiteral("QLabel { color: palette(highlight); font-weight: bold; }"));
    m_stale->hide();
    top->addWidget(m_stale);
    connect(m_again, &QPushButton::clicked, this, &CacheBehaviourPane::analyse);
    top->addWidget(m_again);
    layout->addLayout(top);

    m_tabs->setDocumentMode(true);
    // (made here, after the widgets above: the focus moves through them in this order)
    m_keysTab = new CacheKeysTab(this);
    m_requestsTab = new CacheRequestsTab(this);
    m_anomaliesTab = new CacheAnomaliesTab(this);
    m_whatIfTab = new CacheWhatIfTab(this);
    m_tabs->addTab(m_keysTab, tr("Keys"));
    m_tabs->addTab(m_requestsTab, tr("Requests"));
    m_tabs->addTab(m_anomaliesTab, tr("Anomalies"));
    m_tabs->addTab(m_whatIfTab, tr("What-if"));
    // the what-if chosen, and its hit ratio over time, for the timeline
    connect(m_whatIfTab, &CacheWhatIfTab::whatIfChosen, this,
            [this](const ViewState::WhatIfChoice &choice) {
                if (m_state) {
                    m_state->setWhatIfChoice(choice);
                }
            });
    connect(m_whatIfTab, &CacheWhatIfTab::hitOverTimeReady, this,
            [this](std::shared_ptr<const HitOverTime> result) {
                if (m_state) {
                    m_state->setHitOverTime(std::move(result));
                }
            });
    connect(m_keysTab, &CacheKeysTab::keyActivated, this, &CacheBehaviourPane::followKey);
    for (CacheTab *tab :
         std::initializer_list<CacheTab *>{m_keysTab, m_requestsTab, m_anomaliesTab, m_whatIfTab}) {
        connect(tab, &CacheTab::recordActivated, this, &CacheBehaviourPane::selectRecord);
    }
    layout->addWidget(m_tabs, 1);
    CachePlotExports::install(this);
    onDocumentChanged();
}

CacheBehaviourPane::~CacheBehaviourPane() {
    cancelRunning();
    m_pool.waitForDone();
}

QSize CacheBehaviourPane::sizeHint() const {
    return QSize(900, 540);  // room for a dozen keys and eight lifecycle events
}

void CacheBehaviourPane::setViewState(ViewState *state) {
    if (!rebind(m_state, state, this)) {
        return;
    }
    if (m_state) {
        connect(m_state, &ViewState::documentChanged, this, &CacheBehaviourPane::onDocumentChanged);
        connect(m_state, &ViewState::documentGrew, this, [this] {
            if (m_waitingForLoad) {
                if (isOnScreen()) {
                    analyse();  // (waits again while the file is still being read)
                }
                return;
            }
            updateStale();
        });
    }
    onDocumentChanged();
}

void CacheBehaviourPane::onDocumentChanged() {
    if (isOnScreen()) {
        analyse();
        return;
    }
    // Hidden (e.g. a dock tabbed behind another): analyse when shown.
    cancelRunning();
    ++m_generation;
    showResults(nullptr);
    m_progress->hide();
    m_dirty = true;
    m_summary->setText(m_state && m_state->document() ? tr("Not analysed yet") : tr("No trace"));
}

void CacheBehaviourPane::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    if (m_dirty && isOnScreen()) {
        analyse();
    }
}

void CacheBehaviourPane::setShown(bool shown) {
    m_shown = shown;
    if (m_dirty && isOnScreen()) {
        analyse();
    }
}

void CacheBehaviourPane::cancelRunning() {
    if (m_cancel) {
        m_cancel->store(true);
        m_cancel.reset();
    }
    m_running = false;
}

void CacheBehaviourPane::analyse() {
    m_dirty = false;
    cancelRunning();
    const quint64 generation = ++m_generation;
    const auto doc = m_state ? m_state->document() : nullptr;
    showResults(nullptr);
    if (!doc) {
        m_summary->setText(m_state ? tr("Loading…") : tr("No trace"));
        m_progress->hide();
        return;
    }
    if (doc->isLoading() && !doc->isReadToEnd()) {
        // Still reading the file the first time (isReadToEnd()): an analysis now would
        // cover a fraction of it (e.g. 45 k of 924 k keys on a 1.4 GB trace).
        m_waitingForLoad = true;
        m_dirty = true;
        m_summary->setText(tr("Waiting for the trace to finish loading…"));
        m_progress->hide();
        return;
    }
    m_waitingForLoad = false;
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_cancel = cancel;
    m_running = true;
    m_summary->setText(tr("Analysing keys, requests and anomalies…"));
    m_progress->setValue(0);
    m_progress->show();
    // The destructor cancels and waits for the pool: `this` outlives the task.
    (void)JobPool::run(&m_pool, [this, doc, cancel, generation] {
        int last = -1;
        auto progress = [&](int p) {
            if (p != last) {
                last = p;
                QMetaObject::invokeMethod(
                    this, [this, generation, p] { onProgress(generation, p); },
                    Qt::QueuedConnection);
            }
        };
        std::shared_ptr<const CacheAnalysis> result =
            CacheAnalysis::run(*doc, progress, cancel.get());
        QMetaObject::invokeMethod(
            this, [this, generation, result] { onFinished(generation, result); },
            Qt::QueuedConnection);
    });
}

void CacheBehaviourPane::onProgress(quint64 generation, int percent) {
    if (generation == m_generation && m_running) {
        m_progress->setValue(percent);
    }
}

void CacheBehaviourPane::onFinished(quint64 generation,
                                    std::shared_ptr<const CacheAnalysis> result) {
    if (generation != m_generation || !m_running) {
        return;  // a newer analysis started, or this one was cancelled
    }
    m_running = false;
    m_cancel.reset();
    m_progress->hide();
    showResults(std::move(result));
    emit analysisFinished();
}

void CacheBehaviourPane::showResults(std::shared_ptr<const CacheAnalysis> result) {
    m_analysis = std::move(result);
    updateStale();
    m_whatIfTab->setDocument(m_analysis && m_state ? m_state->document() : nullptr);
    for (CacheTab *tab :
         std::initializer_list<CacheTab *>{m_keysTab, m_requestsTab, m_anomaliesTab, m_whatIfTab}) {
        tab->setAnalysis(m_analysis);
    }
    const CacheAnalysis *a = m_analysis.get();
    if (!a) {
        return;
    }
    const auto states = a->keys->stateCounts();
    m_summary->setText(
        tr("%1 (%2 written then read, %3 written, %4 aborted, %5 reserved only, %6 never "
           "written here) · %7 · %8")
            .arg(CacheTab::counted(a->keys->keyCount(), tr("key"), tr("keys")),
                 CacheTab::count(states[0]), CacheTab::count(states[1]), CacheTab::count(states[2]),
                 CacheTab::count(states[3]), CacheTab::count(states[4]),
                 CacheTab::counted(a->requests->count(), tr("request"), tr("requests")),
                 CacheTab::counted(a->anomalies->totalCount(), tr("anomaly"), tr("anomalies"))));
    const RequestAnalysis &rq = *a->requests;
    if (rq.cancelledCount() + rq.releasedCount() > 0) {
        m_summary->setText(
            m_summary->text() +
            tr(" · requests: %1 cancelled, %2 released, LMCache's L1 hit agrees on %3, "
               "disagrees on %4")
                .arg(CacheTab::count(rq.cancelledCount()), CacheTab::count(rq.releasedCount()),
                     CacheTab::count(rq.agreeCount()), CacheTab::count(rq.disagreeCount())));
    }
    if (a->keys->alreadyStoredCount() > 0) {
        m_summary->setText(
            m_summary->text() +
            tr(" · %1 already stored (reserved again, skipped)")
                .arg(CacheTab::counted(a->keys->alreadyStoredCount(), tr("key"), tr("keys"))));
    }
    // What the figures lack (after the file was cut short they looked whole).
    QStringList lacks;
    if (a->keys->saltMissing()) {
        lacks << KeyAnalysis::saltMissingNote();
    }
    if (const qint64 damaged = a->keys->damagedRecords(); damaged > 0) {
        lacks << tr("the arguments of %1 could not be read whole (damaged, or past the end of a "
                    "file cut short): their keys after that point are not counted")
                     .arg(CacheTab::counted(damaged, tr("record"), tr("records")));
    }
    if (const int lost = a->keys->lostRecords(); lost > 0) {
        const auto doc = m_state ? m_state->document() : nullptr;
        lacks << tr("the file shrank to %1 bytes while open: %2 after that offset are no longer "
                    "readable and are left out")
                     .arg(QLocale().toString(doc ? doc->shrunkTo() : -1),
                          CacheTab::counted(lost, tr("record"), tr("records")));
    }
    if (!lacks.isEmpty()) {
        m_summary->setText(m_summary->text() + QStringLiteral(" · ") +
                           lacks.join(QStringLiteral(" · ")));
    }
    m_summary->setToolTip(m_summary->text());  // (cut when the pane is narrow)
}

void CacheBehaviourPane::updateStale() {
    const auto doc = m_state ? m_state->document() : nullptr;
    const KeyAnalysis *ka = m_analysis ? m_analysis->keys.get() : nullptr;
    const qint64 fresh =
        doc && ka && !m_running ? qint64(doc->records().size()) - ka->recordCount() : 0;
    // "Analyse again" only when it can give another result: the trace grew since the analysis
    // shown (a followed trace), or nothing is shown yet. Over the same records the analysis is
    // the same; the disabled button says why.
    if (!doc) {
        m_again->setEnabled(false);
        m_again->setToolTip(tr("No trace to analyse"));
    } else if (!ka) {
        m_again->setEnabled(true);
        m_again->setToolTip(tr("Analyse the trace"));
    } else if (fresh <= 0) {
        m_again->setEnabled(false);
        m_again->setToolTip(
            doc->isLoading()
                ? tr("The analysis covers every record read so far: analysing again would give "
                     "the same result until the followed trace grows")
                : tr("The analysis covers every record of the trace: analysing again would give "
                     "the same result"));
    } else {
        m_again->setEnabled(true);
        m_again->setToolTip(fresh == 1 ? tr("Analyse the trace again, with its new record")
                                       : tr("Analyse the trace again, with its %1 new records")
                                             .arg(CacheTab::count(fresh)));
    }
    if (fresh <= 0) {
        m_stale->clear();
        m_stale->hide();
        return;
    }
    m_stale->setText(
        fresh == 1
            ? tr("1 new record since analysis — Analyse again")
            : tr("%1 new records since analysis — Analyse again").arg(CacheTab::count(fresh)));
    m_stale->show();
}

QString CacheBehaviourPane::staleText() const {
    return m_stale->text();
}

bool CacheBehaviourPane::followKey(int key) {
    const KeyAnalysis *ka = m_analysis ? m_analysis->keys.get() : nullptr;
    if (!m_state || !ka || key < 0 || key >= ka->keyCount()) {
        return false;
    }
    const QString e = ka->followExpression(key);
    if (m_state->followedKey() != e) {
        m_state->setFollowedKey(e);
    }
    return true;
}

bool CacheBehaviourPane::selectRecord(int record) {
    return m_state && m_state->revealRecord(record);
}

QString CacheBehaviourPane::summaryText() const {
    return m_summary->text();
}

}  // namespace lmct
