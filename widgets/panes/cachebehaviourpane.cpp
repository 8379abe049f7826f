#include "panes/cachebehaviourpane.h"

#include "common/jobpool.h"

#include "cache/keylifecycle.h"
#include "common/stablelabel.h"
#include "itemmodels/anomalytablemodel.h"
#include "itemmodels/keytablemodel.h"
#include "itemmodels/requesttablemodel.h"
#include "util/timeformat.h"
#include "viewstate.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

constexpr int kSliderSteps = 1000;
constexpr double kLogBase = 0.5;  // where the bars of the log-scale count histogram stand
// Rows of the key lifecycle table always shown (a key's reserve, finish, prefetch and read
// fit), and of the key table; at the pane's size hint the lifecycle gets about eight. More as a
// minimum would make the dock (tabbed with the timeline) the tallest, and the window with it.
constexpr int kLifecycleRows = 6;
constexpr int kKeyRows = 2;

QString count(qint64 n) {
    return QLocale().toString(n);
}

/** "1 key", "2 keys", "11,906 keys": a count and its noun, singular for exactly one. */
QString counted(qint64 n, const QString &one, const QString &many) {
    return count(n) + QLatin1Char(' ') + (n == 1 ? one : many);
}

/** 0, 1, 2, 4, ... 512, 1k, 2k, ... 1M: a bucket's lower bound, short enough for a tick. */
QString shortCount(quint64 v) {
    if (v >= (quint64(1) << 30)) {
        return QString::number(v >> 30) + QLatin1Char('G');
    }
    if (v >= (quint64(1) << 20)) {
        return QString::number(v >> 20) + QLatin1Char('M');
    }
    if (v >= 1024) {
        return QString::number(v >> 10) + QLatin1Char('k');
    }
    return QString::number(v);
}

/** 1µs, 2µs, ... 512µs, 1ms, ... 1s, ...: a bucket's lower bound in microseconds, for a tick. */
QString shortMicros(quint64 us) {
    auto sig = [](double v) {  // 2 significant digits, whole numbers from 100 on, no exponent
        return v >= 100 ? QString::number(qRound64(v)) : QString::number(v, 'g', 2);
    };
    if (us >= 60000000) {
        return sig(double(us) / 60e6) + QStringLiteral("min");
    }
    if (us >= 1000000) {
        return sig(double(us) / 1e6) + QStringLiteral("s");
    }
    if (us >= 1000) {
        return sig(double(us) / 1e3) + QStringLiteral("ms");
    }
    return us == 0 ? QStringLiteral("0") : QString::number(us) + QStringLiteral("µs");
}

/** 1, 10, 100, 1k, 10k, ... 1M, ...: a power of ten, short enough for a tick. */
QString decade(int exponent) {
    static const char *const kSuffix[] = {"", "k", "M", "G", "T"};
    const int group = std::clamp(exponent / 3, 0, 4);
    return QString::number(qint64(std::llround(std::pow(10.0, exponent - 3 * group)))) +
           QLatin1String(kSuffix[group]);
}

QString percent(double f) {
    return QLocale().toString(100.0 * f, 'f', 1) + QLatin1Char('%');
}

}  // namespace

CacheBehaviourPane::CacheBehaviourPane(QWidget *parent)
    : QWidget(parent),
      m_summary(new QLabel(this)),
      m_progress(new QProgressBar(this)),
      m_again(new QPushButton(tr("Analyse again"), this)),
      m_tabs(new QTabWidget(this)),
      m_keyModel(new KeyTableModel(this)),
      m_requestModel(new RequestTableModel(this)),
      m_anomalyModel(new AnomalyTableModel(this)) {
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
    m_tabs->addTab(createKeysTab(), tr("Keys"));
    m_tabs->addTab(createRequestsTab(), tr("Requests"));
    m_tabs->addTab(createAnomaliesTab(), tr("Anomalies"));
    m_tabs->addTab(createReuseTab(), tr("Reuse"));
    layout->addWidget(m_tabs, 1);
    onDocumentChanged();
}

CacheBehaviourPane::~CacheBehaviourPane() {
    cancelRunning();
    m_pool.waitForDone();
}

QSize CacheBehaviourPane::sizeHint() const {
    return QSize(900, 540);  // room for a dozen keys and eight lifecycle events
}

QTableView *CacheBehaviourPane::createTable(QAbstractItemModel *model) {
    auto *t = new QTableView;
    t->setModel(model);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setAlternatingRowColors(true);
    t->setShowGrid(false);
    t->setWordWrap(false);
    t->setFrameShape(QFrame::NoFrame);
    t->verticalHeader()->hide();
    t->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    t->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    t->horizontalHeader()->setHighlightSections(false);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

QWidget *CacheBehaviourPane::createKeysTab() {
    auto *w = new QWidget;
    auto *v = new QVBoxLayout(w);
    v->setContentsMargins(0, 2, 0, 0);
    m_prefix = new QLineEdit;
    m_prefix->setPlaceholderText(tr("Filter by chunk hash prefix (hex)…"));
    m_prefix->setClearButtonEnabled(true);
    connect(m_prefix, &QLineEdit::textChanged, m_keyModel, &KeyTableModel::setHashPrefix);
    v->addWidget(m_prefix);
    auto *split = new QSplitter(Qt::Vertical);
    m_keyView = createTable(m_keyModel);
    // No sort at first: keys in order of first appearance (enabling sorting sorts by the
    // indicator, so clear it first).
    m_keyView->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_keyView->setSortingEnabled(true);
    const QFontMetrics fm(font());
    m_keyView->setColumnWidth(KeyTableModel::HashColumn,
                              fm.horizontalAdvance(QStringLiteral("0123456789abcdef01234")));
    m_keyView->setColumnWidth(KeyTableModel::ModelColumn,
                              fm.horizontalAdvance(QStringLiteral("meta-llama/Llama-3.1-8B")));
    for (int c = KeyTableModel::RankColumn; c < KeyTableModel::ColumnCount; ++c) {
        m_keyView->setColumnWidth(c, fm.horizontalAdvance(QStringLiteral("Prefetch")) + 18);
    }
    m_keyView->setColumnWidth(KeyTableModel::FirstColumn,
                              fm.horizontalAdvance(QStringLiteral("00:00.000000")) + 12);
    m_keyView->setColumnWidth(KeyTableModel::LastColumn,
                              fm.horizontalAdvance(QStringLiteral("00:00.000000")) + 12);
    m_keyView->setColumnWidth(KeyTableModel::StateColumn,
                              fm.horizontalAdvance(QStringLiteral("written then read")) + 12);
    m_keyView->setColumnWidth(KeyTableModel::WriteLatencyColumn,
                              fm.horizontalAdvance(QStringLiteral("Write latency")) + 18);
    auto activateKey = [this](const QModelIndex &i) {
        if (!i.isValid()) {
            return;
        }
        const int key = i.data(KeyTableModel::KeyRole).toInt();
        showLifecycle(key);
        followKey(key);
        selectRecord(i.data(KeyTableModel::RecordRole).toInt());
    };
    connect(m_keyView, &QTableView::clicked, this, activateKey);
    connect(m_keyView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            activateKey);
    split->addWidget(m_keyView);

    auto *life = new QWidget;
    auto *lv = new QVBoxLayout(life);
    lv->setContentsMargins(0, 0, 0, 0);
    lv->setSpacing(2);
    m_lifecycleTitle = new QLabel(tr("Select a key to see its lifecycle."));
    m_lifecycleTitle->setContentsMargins(6, 2, 6, 0);
    m_lifecycleTitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lv->addWidget(m_lifecycleTitle);
    m_lifecycle = new QTableWidget(0, 5);
    m_lifecycle->setHorizontalHeaderLabels(
        {tr("Record"), tr("Call"), tr("t_mono"), tr("Since previous"), tr("Write latency")});
    m_lifecycle->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_lifecycle->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_lifecycle->setSelectionMode(QAbstractItemView::SingleSelection);
    m_lifecycle->verticalHeader()->hide();
    m_lifecycle->verticalHeader()->setDefaultSectionSize(fm.height() + 6);
    m_lifecycle->setShowGrid(false);
    m_lifecycle->setFrameShape(QFrame::NoFrame);
    m_lifecycle->horizontalHeader()->setStretchLastSection(true);
    m_lifecycle->setColumnWidth(
        1, fm.horizontalAdvance(QStringLiteral("read_prefetched_results.__enter__")) + 12);
    connect(m_lifecycle, &QTableWidget::cellClicked, this, [this](int row, int) {
        selectRecord(m_lifecycle->item(row, 0)->data(Qt::UserRole).toInt());
    });
    // room for several events under its header (it was two rows tall); neither side of the
    // splitter can be collapsed out of sight
    m_lifecycle->setMinimumHeight(m_lifecycle->horizontalHeader()->sizeHint().height() +
                                  kLifecycleRows * (fm.height() + 6) +
                                  2 * m_lifecycle->frameWidth());
    m_keyView->setMinimumHeight(m_keyView->horizontalHeader()->sizeHint().height() +
                                kKeyRows * (fm.height() + 6));
    lv->addWidget(m_lifecycle, 1);
    split->addWidget(life);
    split->setChildrenCollapsible(false);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    v->addWidget(split, 1);
    return w;
}

QWidget *CacheBehaviourPane::createRequestsTab() {
    m_requestView = createTable(m_requestModel);
    m_requestView->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_requestView->setSortingEnabled(true);
    m_requestView->setColumnWidth(
        RequestTableModel::RequestIdColumn,
        fontMetrics().horizontalAdvance(QStringLiteral("chatcmpl-0123456789abcdef-01234567")));
    auto activate = [this](const QModelIndex &i) {
        if (i.isValid()) {
            selectRecord(i.data(RequestTableModel::RecordRole).toInt());
        }
    };
    connect(m_requestView, &QTableView::clicked, this, activate);
    connect(m_requestView->selectionModel(), &QItemSelectionModel::currentChanged, this, activate);
    m_requestView->setToolTip(
        tr("Click a read column to go to the read, a write column to the writes, any other to "
           "the submit_prefetch_task"));
    return m_requestView;
}

QWidget *CacheBehaviourPane::createAnomaliesTab() {
    auto *w = new QWidget;
    auto *v = new QVBoxLayout(w);
    v->setContentsMargins(0, 2, 0, 0);
    auto *row = new QHBoxLayout;
    row->setContentsMargins(6, 0, 6, 0);
    m_kind = new QComboBox;
    m_kind->addItem(tr("All kinds"), -1);
    for (int k = 0; k < AnomalyReport::kKindCount; ++k) {
        m_kind->addItem(AnomalyReport::kindName(AnomalyReport::Kind(k)), k);
        m_kind->setItemData(k + 1, AnomalyReport::kindDescription(AnomalyReport::Kind(k)),
                            Qt::ToolTipRole);
    }
    connect(m_kind, &QComboBox::currentIndexChanged, this,
            [this] { m_anomalyModel->setKindFilter(m_kind->currentData().toInt()); });
    row->addWidget(m_kind);
    m_anomalyCounts = new QLabel;
    m_anomalyCounts->setWordWrap(true);
    row->addWidget(m_anomalyCounts, 1);
    v->addLayout(row);
    m_anomalyView = createTable(m_anomalyModel);
    const QFontMetrics fm(font());
    m_anomalyView->setColumnWidth(
        AnomalyTableModel::KindColumn,
        fm.horizontalAdvance(QStringLiteral("finish_without_reserve")) + 16);
    m_anomalyView->setColumnWidth(AnomalyTableModel::RecordsColumn,
                                  fm.horizontalAdvance(QStringLiteral("#0000000, #0000000")) + 12);
    m_anomalyView->setColumnWidth(AnomalyTableModel::TimeColumn,
                                  fm.horizontalAdvance(QStringLiteral("00:00.000000")) + 16);
    auto activate = [this](const QModelIndex &i) {
        if (i.isValid()) {
            selectRecord(i.data(AnomalyTableModel::RecordRole).toInt());
        }
    };
    connect(m_anomalyView, &QTableView::clicked, this, activate);
    connect(m_anomalyView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            activate);
    v->addWidget(m_anomalyView, 1);
    return w;
}

QWidget *CacheBehaviourPane::createReuseTab() {
    auto *w = new QWidget;
    auto *v = new QVBoxLayout(w);
    v->setContentsMargins(4, 2, 4, 2);
    auto *pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Reuse of the keys of:")));
    m_reuseModel = new QComboBox;
    m_reuseModel->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_reuseModel->setToolTip(tr("Reuse distributions of the keys of one model, or of all"));
    connect(m_reuseModel, &QComboBox::currentIndexChanged, this, [this] {
        m_reuseModelChoice = m_reuseModel->currentText();  // kept across analyses
        updateHistograms();
    });
    pick->addWidget(m_reuseModel);
    pick->addStretch(1);
    v->addLayout(pick);
    auto *grid = new QGridLayout;
    grid->setSpacing(2);

    m_hitPlot = new QCustomPlot;
    m_hitPlot->setMinimumSize(240, 150);
    m_hitPlot->plotLayout()->insertRow(0);
    m_hitPlot->plotLayout()->addElement(
        0, 0,
        new QCPTextElement(m_hitPlot, tr("Would have hit: LRU cache of C chunks (all models)")));
    m_hitPlot->addGraph();
    m_hitPlot->graph(0)->setPen(QPen(QColor(0x1f, 0x77, 0xb4), 2));
    m_hitPlot->graph(0)->setLineStyle(QCPGraph::lsStepLeft);
    m_hitPlot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_hitPlot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    m_hitPlot->xAxis->setLabel(tr("capacity C (chunks)"));
    m_hitPlot->yAxis->setLabel(tr("prefetched keys hit (%)"));
    m_hitPlot->yAxis->setRange(0, 100);
    m_capacityLine = new QCPItemStraightLine(m_hitPlot);
    m_capacityLine->setPen(QPen(QColor(0xd6, 0x27, 0x28), 1, Qt::DashLine));
    // the point read at C: drawn whole even on the axes (C = 1, 0% hit, the largest C)
    m_capacityMarker = new QCPItemTracer(m_hitPlot);
    m_capacityMarker->setStyle(QCPItemTracer::tsCircle);
    m_capacityMarker->setSize(9);
    m_capacityMarker->setPen(QPen(QColor(0xd6, 0x27, 0x28), 2));
    m_capacityMarker->setBrush(QColor(255, 255, 255, 220));
    m_capacityMarker->setClipToAxisRect(false);
    m_capacityMarker->setSelectable(false);
    m_capacityMarker->setVisible(false);
    grid->addWidget(m_hitPlot, 0, 0);

    const QString xLabels[kHistogramCount] = {tr("distinct keys in between (log₂ bins)"),
                                              tr("time since the previous use (log₂ bins)"),
                                              tr("uses after the first, per key (log₂ bins)")};
    const QString yLabels[kHistogramCount] = {tr("reuses"), tr("reuses"), tr("keys")};
    const QColor colors[kHistogramCount] = {QColor(0x2c, 0xa0, 0x2c, 180),
                                            QColor(0xff, 0x7f, 0x0e, 180),
                                            QColor(0x94, 0x67, 0xbd, 180)};
    for (int h = 0; h < kHistogramCount; ++h) {
        auto *p = new QCustomPlot;
        p->setMinimumSize(240, 150);
        p->plotLayout()->insertRow(0);
        QFont titleFont = font();
        titleFont.setPointSizeF(std::max(6.0, titleFont.pointSizeF() - 1.0));
        m_histTitles[h] = new QCPTextElement(p, QString(), titleFont);
        p->plotLayout()->addElement(0, 0, m_histTitles[h]);
        p->xAxis->setLabel(xLabels[h]);
        p->yAxis->setLabel(yLabels[h]);
        p->yAxis->setNumberFormat(QStringLiteral("gb"));
        auto *bars = new QCPBars(p->xAxis, p->yAxis);
        if (h == ReuseCountHistogram) {
            // Counts span orders of magnitude (most keys used once, a few many times): a log
            // axis keeps the small bars visible. Bars stand on kLogBase (empty bins have none).
            p->yAxis->setScaleType(QCPAxis::stLogarithmic);
            p->yAxis->setRange(kLogBase, 10);
            bars->setBaseValue(kLogBase);
            // the decades labelled follow the plot's height
            connect(p, &QCustomPlot::afterLayout, this, [p] {
                const int height = p->yAxis->axisRect()->height();
                if (p->property("lmctTickHeight").toInt() != height) {
                    p->setProperty("lmctTickHeight", height);
                    setLogCountTicks(p->yAxis);
                }
            });
        }
        bars->setWidth(0.85);
        bars->setBrush(colors[h]);
        bars->setPen(Qt::NoPen);
        m_histPlots[h] = p;
    }
    grid->addWidget(m_histPlots[DistanceKeysHistogram], 0, 1);
    grid->addWidget(m_histPlots[DistanceTimeHistogram], 1, 0);
    grid->addWidget(m_histPlots[ReuseCountHistogram], 1, 1);
    v->addLayout(grid, 1);

    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Capacity:")));
    m_capacity = new QSlider(Qt::Horizontal);
    m_capacity->setRange(0, kSliderSteps);
    m_capacity->setValue(kSliderSteps / 2);
    m_capacity->setToolTip(tr("Cache capacity in chunks (log scale)"));
    connect(m_capacity, &QSlider::valueChanged, this, &CacheBehaviourPane::updateCapacity);
    row->addWidget(m_capacity, 1);
    m_capacityLabel = new QLabel;
    m_capacityLabel->setMinimumWidth(fontMetrics().horizontalAdvance(
        QStringLiteral("C = 1,000,000 chunks: 100.0% of 10,000,000 prefetched keys hit")));
    row->addWidget(m_capacityLabel);
    v->addLayout(row);
    return w;
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
    const CacheAnalysis *a = m_analysis.get();
    m_keyModel->setAnalysis(a ? a->keys : nullptr);
    m_requestModel->setAnalysis(a ? a->requests : nullptr);
    m_anomalyModel->setReport(a ? a->anomalies : nullptr);
    showLifecycle(-1);
    if (!a) {
        m_anomalyCounts->clear();
        m_hitPlot->graph(0)->data()->clear();
        m_hitPlot->replot();
        {
            const QSignalBlocker block(m_reuseModel);
            m_reuseModel->clear();
        }
        updateHistograms();
        updateCapacity();
        return;
    }
    const auto states = a->keys->stateCounts();
    m_summary->setText(
        tr("%1 (%2 written then read, %3 written, %4 aborted, %5 reserved only, %6 never "
           "written here) · %7 · %8")
            .arg(counted(a->keys->keyCount(), tr("key"), tr("keys")), count(states[0]),
                 count(states[1]), count(states[2]), count(states[3]), count(states[4]),
                 counted(a->requests->count(), tr("request"), tr("requests")),
                 counted(a->anomalies->totalCount(), tr("anomaly"), tr("anomalies"))));
    const RequestAnalysis &rq = *a->requests;
    if (rq.cancelledCount() + rq.releasedCount() > 0) {
        m_summary->setText(
            m_summary->text() +
            tr(" · requests: %1 cancelled, %2 released, LMCache's L1 hit agrees on %3, "
               "disagrees on %4")
                .arg(count(rq.cancelledCount()), count(rq.releasedCount()), count(rq.agreeCount()),
                     count(rq.disagreeCount())));
    }
    if (a->keys->alreadyStoredCount() > 0) {
        m_summary->setText(m_summary->text() +
                           tr(" · %1 already stored (reserved again, skipped)")
                               .arg(counted(a->keys->alreadyStoredCount(), tr("key"), tr("keys"))));
    }
    // What the figures lack (after the file was cut short they looked whole).
    QStringList lacks;
    if (a->keys->saltMissing()) {
        lacks << KeyAnalysis::saltMissingNote();
    }
    if (const qint64 damaged = a->keys->damagedRecords(); damaged > 0) {
        lacks << tr("the arguments of %1 could not be read whole (damaged, or past the end of a "
                    "file cut short): their keys after that point are not counted")
                     .arg(counted(damaged, tr("record"), tr("records")));
    }
    if (const int lost = a->keys->lostRecords(); lost > 0) {
        const auto doc = m_state ? m_state->document() : nullptr;
        lacks << tr("the file shrank to %1 bytes while open: %2 after that offset are no longer "
                    "readable and are left out")
                     .arg(QLocale().toString(doc ? doc->shrunkTo() : -1),
                          counted(lost, tr("record"), tr("records")));
    }
    if (!lacks.isEmpty()) {
        m_summary->setText(m_summary->text() + QStringLiteral(" · ") +
                           lacks.join(QStringLiteral(" · ")));
    }
    m_summary->setToolTip(m_summary->text());  // (cut when the pane is narrow)
    QStringList parts;
    for (int k = 0; k < AnomalyReport::kKindCount; ++k) {
        const auto kind = AnomalyReport::Kind(k);
        parts.append(QStringLiteral("%1 %2").arg(count(a->anomalies->count(kind)),
                                                 AnomalyReport::kindName(kind)));
        m_kind->setItemText(k + 1, QStringLiteral("%1 (%2)").arg(AnomalyReport::kindName(kind),
                                                                 count(a->anomalies->count(kind))));
    }
    m_anomalyCounts->setText(parts.join(QStringLiteral(" · ")));

    // Hit curve.
    const ReuseAnalysis &r = *a->reuse;
    QVector<double> xs, ys;
    for (const auto &[c, ratio] : r.curve(400)) {
        xs.append(double(c));
        ys.append(100.0 * ratio);
    }
    m_hitPlot->graph(0)->setData(xs, ys, true);
    // Room on both sides of the slider's capacities (1 to the key count), so that the line
    // and the marker at C stay inside the plot at either end of the slider.
    const double keys = a->keys ? double(std::max(1, a->keys->keyCount())) : 1.0;
    const double top = std::max({10.0, xs.isEmpty() ? 10.0 : xs.back() * 2.0, keys * 1.5});
    m_hitPlot->xAxis->setRange(0.7, top);
    // Zoom on what can be reached (the label says the best ratio), in steps of 10%.
    const double best = 100.0 * r.hitRatio(r.saturationCapacity());
    m_hitPlot->yAxis->setRange(0, std::min(100.0, 10.0 * std::ceil(best * 1.15 / 10.0 + 1e-9)));
    // Histograms: the model selector lists the models (the selection kept when it still exists).
    {
        const QSignalBlocker block(m_reuseModel);
        m_reuseModel->clear();
        m_reuseModel->addItem(tr("All models"), -1);
        for (int m = 0; m < int(r.models().size()); ++m) {
            m_reuseModel->addItem(r.models()[size_t(m)].model, m);
        }
        m_reuseModel->setCurrentIndex(std::max(0, m_reuseModel->findText(m_reuseModelChoice)));
    }
    updateHistograms();
    updateCapacity();
}

void CacheBehaviourPane::updateHistograms() {
    const ReuseAnalysis *r = m_analysis ? m_analysis->reuse.get() : nullptr;
    const int m = m_reuseModel->currentData().isValid() ? m_reuseModel->currentData().toInt() : -1;
    const ReuseAnalysis::Stats *st =
        !r ? nullptr
           : (m >= 0 && m < int(r->models().size()) ? &r->models()[size_t(m)] : &r->total());
    const QString names[kHistogramCount] = {tr("Reuse distance (keys)"),
                                            tr("Reuse distance (time)"), tr("Reuse count")};
    for (int h = 0; h < kHistogramCount; ++h) {
        QCustomPlot *p = m_histPlots[h];
        auto *bars = qobject_cast<QCPBars *>(p->plottable(0));
        bars->data()->clear();
        if (!st) {
            m_histTitles[h]->setText(names[h]);
            p->replot(QCustomPlot::rpQueuedReplot);
            continue;
        }
        const std::vector<qint64> &hist = h == DistanceKeysHistogram   ? st->distanceKeys
                                          : h == DistanceTimeHistogram ? st->distanceTime
                                                                       : st->reuseCount;
        const ReuseAnalysis::Figures &f = h == DistanceKeysHistogram   ? st->distanceKeysFigures
                                          : h == DistanceTimeHistogram ? st->distanceTimeFigures
                                                                       : st->reuseCountFigures;
        auto label = [h](quint64 floor) {
            return h == DistanceTimeHistogram ? shortMicros(floor) : shortCount(floor);
        };
        int first = ReuseAnalysis::kBuckets, last = 0;
        double maxCount = 1;
        for (int b = 0; b < ReuseAnalysis::kBuckets; ++b) {
            if (hist[size_t(b)] > 0) {
                first = std::min(first, b);
                last = b;
                maxCount = std::max(maxCount, double(hist[size_t(b)]));
                bars->addData(b, double(hist[size_t(b)]));
            }
        }
        if (first > last) {
            first = last = 0;
        }
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        const int span = last - first + 1;
        const int step = span <= 8 ? 1 : (span + 6) / 7;
        for (int b = first; b <= last; b += step) {
            ticker->addTick(b, label(ReuseAnalysis::bucketFloor(b)));
        }
        p->xAxis->setTicker(ticker);
        p->xAxis->setRange(first - 0.6, last + 0.6);
        if (h == ReuseCountHistogram) {
            setLogCountAxis(p->yAxis, maxCount);
        } else {
            p->yAxis->setRange(0, maxCount * 1.1);
        }
        const bool ofKeys = h == ReuseCountHistogram;  // the others count reuses
        QString figures = tr("no data");
        if (f.n > 0) {
            const QString med = h == DistanceTimeHistogram ? TimeFormat::duration(f.median)
                                                           : count(qint64(f.median));
            const QString p95 =
                h == DistanceTimeHistogram ? TimeFormat::duration(f.p95) : count(qint64(f.p95));
            figures = tr("median %1 · p95 %2 · %3")
                          .arg(med, p95,
                               ofKeys ? counted(f.n, tr("key"), tr("keys"))
                                      : counted(f.n, tr("reuse"), tr("reuses")));
        }
        m_histTitles[h]->setText(QStringLiteral("%1 — %2").arg(names[h], figures));
        p->replot(QCustomPlot::rpQueuedReplot);
    }
}

void CacheBehaviourPane::setLogCountAxis(QCPAxis *axis, double maxCount) {
    // from the bars' base to a bit above the tallest
    axis->setRange(kLogBase, std::max(10.0, maxCount * 1.6));
    setLogCountTicks(axis);
}

void CacheBehaviourPane::setLogCountTicks(QCPAxis *axis) {
    // Ticks at powers of ten labelled 1, 10, 100, 1k, ...; every other (or third...) decade
    // when the plot is too short for all of them to be read.
    const double top = axis->range().upper;
    const int decades = int(std::floor(std::log10(std::max(10.0, top)))) + 1;  // 10^0 ...
    const int labelPx = QFontMetrics(axis->tickLabelFont()).height();
    const int height = axis->axisRect()->height();
    const int room = height > 0 ? std::max(1, height / (labelPx * 3 / 2)) : decades;
    const int step = std::max(1, (decades + room - 1) / room);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int e = 0; e < decades; e += step) {
        ticker->addTick(std::pow(10.0, e), decade(e));
    }
    ticker->setSubTickCount(0);
    axis->setTicker(ticker);
}

QString CacheBehaviourPane::histogramTitle(Histogram h) const {
    return m_histTitles[h]->text();
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
        m_again->setToolTip(
            fresh == 1 ? tr("Analyse the trace again, with its new record")
                       : tr("Analyse the trace again, with its %1 new records").arg(count(fresh)));
    }
    if (fresh <= 0) {
        m_stale->clear();
        m_stale->hide();
        return;
    }
    m_stale->setText(fresh == 1
                         ? tr("1 new record since analysis — Analyse again")
                         : tr("%1 new records since analysis — Analyse again").arg(count(fresh)));
    m_stale->show();
}

QString CacheBehaviourPane::staleText() const {
    return m_stale->text();
}

qint64 CacheBehaviourPane::capacity() const {
    const ReuseAnalysis *r = m_analysis ? m_analysis->reuse.get() : nullptr;
    const qint64 keys = r && m_analysis->keys ? std::max(1, m_analysis->keys->keyCount()) : 1;
    const double f = double(m_capacity->value()) / kSliderSteps;
    return std::max<qint64>(1, qint64(std::llround(std::pow(double(keys), f))));
}

QString CacheBehaviourPane::capacityText() const {
    return m_capacityLabel->text();
}

void CacheBehaviourPane::updateCapacity() {
    const ReuseAnalysis *r = m_analysis ? m_analysis->reuse.get() : nullptr;
    if (!r) {
        m_capacityLabel->setText(tr("No reuse data"));
        m_capacityLine->setVisible(false);
        m_capacityMarker->setVisible(false);
        m_hitPlot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const qint64 c = capacity();
    m_capacityLabel->setText(
        tr("C = %1: %2 of %3 hit (%4 at best)")
            .arg(counted(c, tr("chunk"), tr("chunks")), percent(r->hitRatio(c)),
                 counted(r->total().prefetches, tr("prefetched key"), tr("prefetched keys")),
                 percent(r->hitRatio(r->saturationCapacity()))));
    m_capacityLine->setVisible(true);
    m_capacityLine->point1->setCoords(double(c), 0);
    m_capacityLine->point2->setCoords(double(c), 100);
    m_capacityMarker->position->setCoords(double(c), 100.0 * r->hitRatio(c));
    m_capacityMarker->setVisible(true);
    m_hitPlot->replot(QCustomPlot::rpQueuedReplot);
}

void CacheBehaviourPane::showLifecycle(int key) {
    m_lifecycle->setRowCount(0);
    const KeyAnalysis *ka = m_analysis ? m_analysis->keys.get() : nullptr;
    if (!ka || key < 0 || key >= ka->keyCount()) {
        m_lifecycleTitle->setText(tr("Select a key to see its lifecycle."));
        return;
    }
    const KeyLifecycle lc = KeyLifecycle::build(*ka, key, 10000);
    const ObjectKey o = ka->objectKey(key);
    auto dur = [](double v) { return std::isnan(v) ? tr("–") : TimeFormat::duration(v); };
    m_lifecycleTitle->setText(tr("Key %1 · %2 · %3 — %4 · write latency %5 · first reuse %6%7")
                                  .arg(o.shortHash(16), o.modelName, o.rank().toString(),
                                       KeyAnalysis::stateLabel(ka->key(key).state),
                                       dur(lc.writeLatency()), dur(lc.timeToFirstReuse()),
                                       lc.truncated() ? tr(" (first 10,000 events)") : QString()));
    m_lifecycle->setRowCount(int(lc.events().size()));
    for (int i = 0; i < int(lc.events().size()); ++i) {
        const KeyLifecycle::Event &e = lc.events()[size_t(i)];
        auto *rec = new QTableWidgetItem(QStringLiteral("#%1").arg(e.record));
        rec->setData(Qt::UserRole, e.record);
        m_lifecycle->setItem(i, 0, rec);
        // A finish_read_prefetched that is no read of its own says what it belongs to.
        const QString call =
            e.partOf < 0 ? KeyAnalysis::callName(e.call)
            : ka->callAt(ka->keyRecordOf(e.partOf)) == KeyAnalysis::Call::Release
                ? tr("%1 (of the release #%2)").arg(KeyAnalysis::callName(e.call)).arg(e.partOf)
                : tr("%1 (of the read #%2)").arg(KeyAnalysis::callName(e.call)).arg(e.partOf);
        m_lifecycle->setItem(i, 1, new QTableWidgetItem(call));
        m_lifecycle->setItem(i, 2, new QTableWidgetItem(TimeFormat::mono(e.t)));
        m_lifecycle->setItem(
            i, 3, new QTableWidgetItem(i == 0 ? QString() : TimeFormat::delta(e.sincePrevious)));
        m_lifecycle->setItem(i, 4,
                             new QTableWidgetItem(std::isnan(e.writeLatency)
                                                      ? QString()
                                                      : TimeFormat::duration(e.writeLatency)));
    }
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
