#include "panes/cachewhatiftab.h"

#include "common/jobpool.h"
#include "common/policycolors.h"
#include "trace/storagemanagerconfig.h"
#include "util/timeformat.h"

#include <qcustomplot.h>
#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPixmap>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

constexpr int kSliderSteps = 1000;
constexpr double kLogBase = 0.5;  // where the bars of the log-scale count histogram stand
constexpr int kLruPoints = 300;   // LRU's exact curve, log-spaced
constexpr int kHitOverTimeDelayMs = 250;
const QColor kMarkerRed(0xd6, 0x27, 0x28);

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
    return ConfiguredRun::percentText(f);
}

/** Capacity ticks in bytes at powers of two: "1 KiB", "32 KiB", "1 MiB". */
class BytesTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override {
        return ConfiguredRun::bytesText(tick);
    }
};

/** Capacity ticks in chunks at powers of ten: "1", "10", "100", "1k". */
class ChunksTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override {
        return tick < 1 ? QString::number(tick, 'g', 2)
                        : decade(int(std::lround(std::log10(std::max(1.0, tick)))));
    }
};

QIcon swatch(const QColor &c) {
    QPixmap p(12, 12);
    p.fill(c);
    return QIcon(p);
}

bool sameScope(const UseSequence::Scope &a, const UseSequence::Scope &b) {
    return a.model == b.model && a.salt == b.salt;
}

}  // namespace

CacheWhatIfTab::CacheWhatIfTab(QWidget *parent) : CacheTab(parent) {
    m_pool.setMaxThreadCount(2);  // the curves, and the hit ratio over time beside them
    auto *v = new QVBoxLayout(this);
    v->setContentsMargins(4, 2, 4, 2);
    v->setSpacing(2);

    // Scope, unit, policies, progress.
    auto *pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Keys of:")));
    m_reuseModel = new QComboBox;
    // (as narrow as a short name: the pane must fit a narrow dock)
    m_reuseModel->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_reuseModel->setMinimumContentsLength(14);
    m_reuseModel->setToolTip(
        tr("The what-if and the reuse distributions of the keys of one "
           "model, or of all"));
    connect(m_reuseModel, &QComboBox::currentIndexChanged, this, [this] {
        m_reuseModelChoice = m_reuseModel->currentText();  // kept across analyses
        updateHistograms();
        onScopeChanged();
    });
    pick->addWidget(m_reuseModel);
    m_tenantLabel = new QLabel(tr("tenant:"));
    pick->addWidget(m_tenantLabel);
    m_tenant = new QComboBox;
    m_tenant->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_tenant->setMinimumContentsLength(10);
    m_tenant->setToolTip(tr("The what-if of the keys of one tenant (cache_salt), or of all"));
    connect(m_tenant, &QComboBox::currentIndexChanged, this, [this] {
        m_tenantChoice = m_tenant->currentText();
        m_tenant->setToolTip(m_tenant->currentText());
        onScopeChanged();
    });
    pick->addWidget(m_tenant);
    m_tenantLabel->hide();
    m_tenant->hide();
    // Beside the curves: the unit, and the policies (their colours, as in the legend).
    auto *side = new QVBoxLayout;
    side->setSpacing(1);
    side->addWidget(new QLabel(tr("Capacity in:")));
    m_chunks = new QRadioButton(tr("chunks"));
    m_bytes = new QRadioButton(tr("bytes"));
    m_chunks->setChecked(true);
    m_chunks->setToolTip(tr("Capacities in chunks: every key takes one"));
    auto *units = new QButtonGroup(this);
    units->addButton(m_chunks);
    units->addButton(m_bytes);
    connect(m_bytes, &QRadioButton::toggled, this, [this] { onUnitChanged(); });
    side->addWidget(m_chunks);
    side->addWidget(m_bytes);
    side->addSpacing(8);
    side->addWidget(new QLabel(tr("Policies:")));
    for (CachePolicy::Kind kind : CachePolicy::all()) {
        auto *box = new QCheckBox(CachePolicy::label(kind));
        box->setIcon(swatch(PolicyColors::color(kind)));
        box->setChecked(true);
        box->setToolTip(tr("Show the curve of %1").arg(CachePolicy::label(kind)));
        connect(box, &QCheckBox::toggled, this,
                [this, kind](bool on) { onPolicyToggled(kind, on); });
        m_policyBoxes[size_t(kind)] = box;
        side->addWidget(box);
    }
    side->addStretch(1);
    pick->addStretch(1);
    m_progress = new QProgressBar;
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(160);
    m_progress->setFormat(tr("What-if %p%"));
    m_progress->hide();
    pick->addWidget(m_progress);
    m_runButton = new QPushButton(tr("Cancel"));
    m_runButton->hide();
    connect(m_runButton, &QPushButton::clicked, this, [this] {
        if (m_running) {
            cancelRun();
            m_cancelled = true;
            updateRunButton();
        } else {
            startRun();
        }
    });
    pick->addWidget(m_runButton);
    v->addLayout(pick);

    auto *grid = new QGridLayout;
    grid->setSpacing(2);
    m_hitPlot = new QCustomPlot;
    m_hitPlot->setMinimumSize(240, 170);
    m_hitPlot->plotLayout()->insertRow(0);
    m_hitTitle = new QCPTextElement(m_hitPlot, QString());
    m_hitPlot->plotLayout()->addElement(0, 0, m_hitTitle);
    m_hitPlot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_hitPlot->yAxis->setLabel(tr("prefetched keys hit (%)"));
    m_hitPlot->yAxis->setRange(0, 100);
    m_hitPlot->legend->setVisible(true);
    QFont legendFont = font();
    legendFont.setPointSizeF(std::max(6.0, legendFont.pointSizeF() - 1.0));
    m_hitPlot->legend->setFont(legendFont);
    m_hitPlot->legend->setBrush(QColor(255, 255, 255, 220));
    m_hitPlot->legend->setRowSpacing(0);
    m_hitPlot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    m_configuredLine = new QCPItemStraightLine(m_hitPlot);
    m_configuredLine->setPen(QPen(QColor(0x30, 0x30, 0x30), 1.5, Qt::DashDotLine));
    m_configuredLine->setVisible(false);
    m_configuredTag = new QCPItemText(m_hitPlot);
    m_configuredTag->position->setTypeX(QCPItemPosition::ptPlotCoords);
    m_configuredTag->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_configuredTag->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    m_configuredTag->setPadding(QMargins(3, 1, 4, 1));
    m_configuredTag->setFont(legendFont);
    m_configuredTag->setColor(QColor(0x30, 0x30, 0x30));
    m_configuredTag->setBrush(QColor(255, 255, 255, 220));
    m_configuredTag->setSelectable(false);
    m_configuredTag->setVisible(false);
    m_capacityLine = new QCPItemStraightLine(m_hitPlot);
    m_capacityLine->setPen(QPen(kMarkerRed, 1, Qt::DashLine));
    for (CachePolicy::Kind kind : CachePolicy::all()) {
        auto *t = new QCPItemTracer(m_hitPlot);
        t->setStyle(QCPItemTracer::tsCircle);
        t->setSize(6);
        t->setPen(PolicyColors::pen(kind, 1.5));
        t->setBrush(QColor(255, 255, 255, 220));
        t->setClipToAxisRect(false);
        t->setSelectable(false);
        t->setVisible(false);
        m_tracers[size_t(kind)] = t;
    }
    // the point read at C (made last: drawn over the others), whole even on the axes
    m_capacityMarker = new QCPItemTracer(m_hitPlot);
    m_capacityMarker->setStyle(QCPItemTracer::tsCircle);
    m_capacityMarker->setSize(9);
    m_capacityMarker->setPen(QPen(kMarkerRed, 2));
    m_capacityMarker->setBrush(QColor(255, 255, 255, 220));
    m_capacityMarker->setClipToAxisRect(false);
    m_capacityMarker->setSelectable(false);
    m_capacityMarker->setVisible(false);
    auto *curves = new QHBoxLayout;
    curves->setSpacing(4);
    curves->addWidget(m_hitPlot, 1);
    curves->addLayout(side);
    grid->addLayout(curves, 0, 0, 1, kHistogramCount);

    const QString xLabels[kHistogramCount] = {tr("distinct keys in between (log₂ bins)"),
                                              tr("time since the previous use (log₂ bins)"),
                                              tr("uses after the first, per key (log₂ bins)")};
    const QString yLabels[kHistogramCount] = {tr("reuses"), tr("reuses"), tr("keys")};
    const QColor colors[kHistogramCount] = {QColor(0x2c, 0xa0, 0x2c, 180),
                                            QColor(0xff, 0x7f, 0x0e, 180),
                                            QColor(0x94, 0x67, 0xbd, 180)};
    for (int h = 0; h < kHistogramCount; ++h) {
        auto *p = new QCustomPlot;
        p->setMinimumSize(150, 140);
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
        grid->addWidget(p, 1, h);
    }
    grid->setRowStretch(0, 3);
    grid->setRowStretch(1, 2);

    m_configuredLabel = new QLabel;
    m_configuredLabel->setObjectName(QStringLiteral("whatIfConfigured"));
    m_configuredLabel->setWordWrap(true);
    m_configuredLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_configuredLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_configuredLabel->hide();

    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Capacity:")));
    m_capacity = new QSlider(Qt::Horizontal);
    m_capacity->setRange(0, kSliderSteps);
    m_capacity->setValue(kSliderSteps / 2);
    m_capacity->setToolTip(tr("Cache capacity C (log scale)"));
    m_capacity->setMinimumWidth(160);
    connect(m_capacity, &QSlider::valueChanged, this, [this] {
        updateCapacity();
        scheduleHitOverTime();
    });
    row->addWidget(m_capacity, 1);
    m_capacityLabel = new QLabel;
    m_capacityLabel->setWordWrap(true);
    m_capacityLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_capacityLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    row->addWidget(m_capacityLabel, 3);
    // the readings first: in view even in a short dock (the plots scroll)
    v->addLayout(row);
    v->addWidget(m_configuredLabel);
    v->addLayout(grid, 1);

    m_hotTimer = new QTimer(this);
    m_hotTimer->setSingleShot(true);
    m_hotTimer->setInterval(kHitOverTimeDelayMs);
    connect(m_hotTimer, &QTimer::timeout, this, &CacheWhatIfTab::startHitOverTime);
    setupAxes();
    updateUnitSwitch();
}

CacheWhatIfTab::~CacheWhatIfTab() {
    cancelRun();
    if (m_hotCancel) {
        m_hotCancel->store(true);
    }
    m_pool.waitForDone();
}

void CacheWhatIfTab::setDocument(std::shared_ptr<const TraceDocument> doc) {
    m_doc = std::move(doc);
}

UseSequence::Scope CacheWhatIfTab::scope() const {
    UseSequence::Scope s;
    const QVariant m = m_reuseModel->currentData();
    s.model = m.isValid() ? m.toInt() : UseSequence::kAll;
    const QVariant t = m_tenant->currentData();
    s.salt = m_tenant->count() > 0 && t.isValid() ? t.toInt() : UseSequence::kAll;
    return s;
}

std::vector<CachePolicy::Kind> CacheWhatIfTab::checkedPolicies() const {
    std::vector<CachePolicy::Kind> out;
    for (CachePolicy::Kind kind : CachePolicy::all()) {
        if (m_policyBoxes[size_t(kind)]->isChecked()) {
            out.push_back(kind);
        }
    }
    return out;
}

ViewState::WhatIfChoice CacheWhatIfTab::choice() const {
    ViewState::WhatIfChoice c;
    if (m_analysis) {
        c.capacity = quint64(capacity());
        c.inBytes = m_unit == Unit::Bytes;
        c.policies = checkedPolicies();
        c.bytesPerChunk = bytesPerChunk();
    }
    return c;
}

bool CacheWhatIfTab::reuseApplies() const {
    const UseSequence::Scope s = scope();
    return m_analysis && m_analysis->reuse && m_unit == Unit::Chunks &&
           s.model == UseSequence::kAll && s.salt == UseSequence::kAll;
}

qint64 CacheWhatIfTab::scopeKeys() const {
    const KeyAnalysis *ka = m_analysis ? m_analysis->keys.get() : nullptr;
    if (!ka) {
        return 1;
    }
    const UseSequence::Scope s = scope();
    if (s.model == UseSequence::kAll && s.salt == UseSequence::kAll) {
        return std::max(1, ka->keyCount());
    }
    qint64 n = 0;
    for (int k = 0; k < ka->keyCount(); ++k) {
        const KeyAnalysis::Key &key = ka->key(k);
        const bool model = s.model == UseSequence::kAll || int(key.model) == s.model;
        const bool salt = s.salt == UseSequence::kAll ||
                          (s.salt == UseSequence::kNoSalt ? key.salt < 0 : key.salt == s.salt);
        n += model && salt;
    }
    return std::max<qint64>(1, n);
}

qint64 CacheWhatIfTab::scopePrefetches() const {
    if (m_uses) {
        return m_uses->prefetchOccurrences();
    }
    const ReuseAnalysis *r = m_analysis ? m_analysis->reuse.get() : nullptr;
    if (!r) {
        return 0;
    }
    const UseSequence::Scope s = scope();
    if (s.salt != UseSequence::kAll) {
        return 0;  // (not known before the uses are)
    }
    return s.model >= 0 && s.model < int(r->models().size())
               ? r->models()[size_t(s.model)].prefetches
               : r->total().prefetches;
}

qint64 CacheWhatIfTab::capacity() const {
    const double f = double(m_capacity->value()) / kSliderSteps;
    if (m_unit == Unit::Bytes) {
        if (!m_uses || !m_uses->hasSizes()) {
            return 1;
        }
        const double lo = double(std::max<quint64>(1, m_facts.minSize));
        const double hi = std::max(lo, double(m_uses->totalBytes()));
        return std::max<qint64>(1, qint64(std::llround(lo * std::pow(hi / lo, f))));
    }
    if (!m_analysis || !m_analysis->keys) {
        return 1;
    }
    return std::max<qint64>(1, qint64(std::llround(std::pow(double(scopeKeys()), f))));
}

QString CacheWhatIfTab::capacityText() const {
    return m_capacityLabel->text();
}

QString CacheWhatIfTab::configuredText() const {
    return m_configuredLabel->isHidden() ? QString() : m_configuredLabel->text();
}

quint64 CacheWhatIfTab::bytesPerChunk() const {
    return m_uses && m_uses->hasSizes() && m_uses->keyCount() > 0
               ? m_uses->totalBytes() / m_uses->keyCount()
               : 0;
}

void CacheWhatIfTab::showAnalysis() {
    cancelRun();
    m_cancelled = false;
    m_uses.reset();
    m_facts = {};
    m_configured = m_doc ? ConfiguredRun::fromConfig(m_doc->header().smConfig())
                         : std::optional<ConfiguredRun>();
    const CacheAnalysis *a = m_analysis.get();
    {
        const QSignalBlocker blockModel(m_reuseModel);
        const QSignalBlocker blockTenant(m_tenant);
        m_reuseModel->clear();
        m_tenant->clear();
        if (a && a->reuse) {
            // the model selector lists the models (the selection kept when it still exists)
            const ReuseAnalysis &r = *a->reuse;
            m_reuseModel->addItem(tr("All models"), UseSequence::kAll);
            for (int m = 0; m < int(r.models().size()); ++m) {
                m_reuseModel->addItem(r.models()[size_t(m)].model, m);
            }
            m_reuseModel->setCurrentIndex(std::max(0, m_reuseModel->findText(m_reuseModelChoice)));
        }
        // Tenants (cache_salt): a choice only when there are two or more to tell apart.
        const KeyAnalysis *ka = a ? a->keys.get() : nullptr;
        bool unsalted = false;
        for (int k = 0; ka && !ka->salts().isEmpty() && k < ka->keyCount() && !unsalted; ++k) {
            unsalted = ka->key(k).salt < 0;
        }
        const bool salted = ka && ka->salts().size() + (unsalted ? 1 : 0) >= 2;
        if (salted) {
            m_tenant->addItem(tr("All tenants"), UseSequence::kAll);
            if (unsalted) {
                m_tenant->addItem(tr("No cache_salt"), UseSequence::kNoSalt);
            }
            for (int s = 0; s < ka->salts().size(); ++s) {
                const QString &salt = ka->salts()[s];
                m_tenant->addItem(salt.isEmpty() ? tr("(empty cache_salt)") : salt, s);
            }
            m_tenant->setCurrentIndex(std::max(0, m_tenant->findText(m_tenantChoice)));
            m_tenant->setToolTip(m_tenant->currentText());
        }
        m_tenant->setVisible(salted);
        m_tenantLabel->setVisible(salted);
    }
    updateHistograms();
    clearCurves();
    updateUnitSwitch();
    setupAxes();
    updateConfigured();
    updateCapacity();
    if (a) {
        startRun();
    } else {
        updateRunButton();
    }
}

void CacheWhatIfTab::onScopeChanged() {
    if (!m_analysis) {
        return;
    }
    cancelRun();
    m_uses.reset();
    m_facts = {};
    clearCurves();
    updateUnitSwitch();
    setupAxes();
    updateConfigured();
    updateCapacity();
    startRun();
    scheduleHitOverTime();  // (says the choice; the build waits for the uses)
}

void CacheWhatIfTab::onUnitChanged() {
    const Unit unit = m_bytes->isChecked() ? Unit::Bytes : Unit::Chunks;
    if (unit == m_unit) {
        return;
    }
    m_unit = unit;
    m_capacity->setToolTip(unit == Unit::Bytes ? tr("Cache capacity C in bytes (log scale)")
                                               : tr("Cache capacity C in chunks (log scale)"));
    if (!m_analysis) {
        setupAxes();
        return;
    }
    cancelRun();
    clearCurves();
    setupAxes();
    updateConfigured();
    updateCapacity();
    startRun();
    scheduleHitOverTime();
}

void CacheWhatIfTab::onPolicyToggled(CachePolicy::Kind kind, bool on) {
    showCurve(kind);
    if (on && m_analysis && !m_curves.count(int(kind))) {
        startRun();  // (keeps the curves already made)
    }
    updateRunButton();
    updateConfigured();
    updateCapacity();
    scheduleHitOverTime();
}

void CacheWhatIfTab::cancelRun() {
    if (m_runCancel) {
        m_runCancel->store(true);
        m_runCancel.reset();
    }
    m_running = false;
    m_progress->hide();
}

void CacheWhatIfTab::showEvent(QShowEvent *event) {
    CacheTab::showEvent(event);
    if (m_runPending) {
        startRun();
    }
}

void CacheWhatIfTab::startRun() {
    cancelRun();
    const quint64 generation = ++m_runGeneration;
    m_cancelled = false;
    // Only for a tab on screen: the curves cost replays nobody may look at.
    m_runPending = !isVisible();
    if (m_runPending) {
        updateRunButton();
        return;
    }
    const auto doc = m_doc;
    const auto keys = m_analysis ? m_analysis->keys : nullptr;
    if (!doc || !keys) {
        updateRunButton();
        return;
    }
    const UseSequence::Scope scope = this->scope();
    const std::shared_ptr<const UseSequence> uses =
        m_uses && sameScope(m_usesScope, scope) ? m_uses : nullptr;
    std::vector<CachePolicy::Kind> missing;
    for (CachePolicy::Kind kind : checkedPolicies()) {
        if (!m_curves.count(int(kind))) {
            missing.push_back(kind);
        }
    }
    if (uses && (missing.empty() || (m_unit == Unit::Bytes && !uses->hasSizes()))) {
        updateRunButton();
        emit curvesFinished();
        return;
    }
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_runCancel = cancel;
    m_running = true;
    m_progress->setValue(0);
    m_progress->show();
    updateRunButton();
    const Unit unit = m_unit;
    const std::optional<ConfiguredRun> configured = m_configured;
    // The destructor cancels and waits for the pool: `this` outlives the job.
    (void)JobPool::run(
        &m_pool, [this, generation, doc, keys, scope, uses, missing, unit, configured, cancel] {
            auto last = std::make_shared<std::atomic_int>(-1);
            // (WhatIfAnalysis reports from its workers: any thread)
            auto report = [this, generation, last](int p) {
                if (last->exchange(p) != p) {
                    QMetaObject::invokeMethod(
                        this, [this, generation, p] { onRunProgress(generation, p); },
                        Qt::QueuedConnection);
                }
            };
            UsesFacts facts;
            facts.uses = uses;
            const int base = uses || missing.empty() ? 0 : 25;  // the uses' share of the progress
            if (!facts.uses) {
                const int share = missing.empty() ? 100 : base;
                facts.uses = UseSequence::build(
                    *doc, keys, scope, [&](int p) { report(p * share / 100); }, cancel.get());
                if (!facts.uses || cancel->load()) {
                    return;
                }
                for (quint32 i = 0; i < facts.uses->size(); ++i) {
                    facts.countedPrefetches += facts.uses->isCounted(i);
                }
                if (facts.uses->hasSizes()) {
                    facts.minSize = ~quint64(0);
                    for (quint32 k = 0; k < facts.uses->keyCount(); ++k) {
                        const quint64 s = facts.uses->sizeOf(k);
                        if (s > 0) {
                            facts.minSize = std::min(facts.minSize, s);
                            facts.maxSize = std::max(facts.maxSize, s);
                        }
                    }
                    if (facts.maxSize == 0) {
                        facts.minSize = 0;
                    }
                }
                QMetaObject::invokeMethod(
                    this, [this, generation, facts] { onUses(generation, facts); },
                    Qt::QueuedConnection);
            }
            if (missing.empty() || (unit == Unit::Bytes && !facts.uses->hasSizes())) {
                QMetaObject::invokeMethod(
                    this, [this, generation] { onRunFinished(generation, nullptr); },
                    Qt::QueuedConnection);
                return;
            }
            WhatIfAnalysis::Options options;
            options.policies = missing;
            options.unit = unit;
            options.capacities = WhatIfAnalysis::defaultCapacities(*facts.uses, unit);
            if (configured) {
                // the configured capacity is one of the points: its figures are exact
                const quint64 bpc = facts.uses->hasSizes() && facts.uses->keyCount() > 0
                                        ? facts.uses->totalBytes() / facts.uses->keyCount()
                                        : 0;
                if (const quint64 c = configured->capacityIn(unit, bpc); c > 0) {
                    auto &caps = options.capacities;
                    caps.insert(std::lower_bound(caps.begin(), caps.end(), c), c);
                    caps.erase(std::unique(caps.begin(), caps.end()), caps.end());
                }
            }
            std::shared_ptr<const WhatIfAnalysis> result = WhatIfAnalysis::run(
                facts.uses, options, [&](int p) { report(base + p * (100 - base) / 100); },
                [this, generation](const WhatIfAnalysis::Curve &curve) {
                    QMetaObject::invokeMethod(
                        this, [this, generation, curve] { onCurve(generation, curve); },
                        Qt::QueuedConnection);
                },
                cancel.get());
            QMetaObject::invokeMethod(
                this, [this, generation, result] { onRunFinished(generation, result); },
                Qt::QueuedConnection);
        });
}

void CacheWhatIfTab::onRunProgress(quint64 generation, int percent) {
    if (generation == m_runGeneration && m_running) {
        m_progress->setValue(percent);
    }
}

void CacheWhatIfTab::onUses(quint64 generation, const UsesFacts &facts) {
    if (generation != m_runGeneration) {
        return;
    }
    m_facts = facts;
    m_uses = facts.uses;
    m_usesScope = scope();
    updateUnitSwitch();
    setupAxes();
    updateConfigured();
    updateCapacity();
    scheduleHitOverTime();
}

void CacheWhatIfTab::onCurve(quint64 generation, const WhatIfAnalysis::Curve &curve) {
    if (generation != m_runGeneration) {
        return;
    }
    m_curves[int(curve.policy)] = curve;
    setupAxes();  // (draws the curves)
    updateConfigured();
    updateCapacity();
}

void CacheWhatIfTab::onRunFinished(quint64 generation,
                                   std::shared_ptr<const WhatIfAnalysis> result) {
    if (generation != m_runGeneration || !m_running) {
        return;  // a newer run started, or this one was cancelled
    }
    m_running = false;
    m_runCancel.reset();
    m_progress->hide();
    if (result && result->curve(CachePolicy::Kind::Lru)) {
        m_lruResult = std::move(result);
        showCurve(CachePolicy::Kind::Lru);  // exact at every capacity
    }
    updateRunButton();
    updateConfigured();
    updateCapacity();
    m_hitPlot->replot(QCustomPlot::rpQueuedReplot);
    emit curvesFinished();
}

void CacheWhatIfTab::clearCurves() {
    m_curves.clear();
    m_lruResult.reset();
    for (CachePolicy::Kind kind : CachePolicy::all()) {
        if (QCPGraph *&g = m_graphs[size_t(kind)]) {
            m_hitPlot->removeGraph(g);
            g = nullptr;
        }
        m_tracers[size_t(kind)]->setVisible(false);
    }
    m_hotTimer->stop();
    if (m_hotCancel) {
        m_hotCancel->store(true);
        m_hotCancel.reset();
    }
    ++m_hotGeneration;
    if (m_hot) {
        m_hot.reset();
        emit hitOverTimeReady(nullptr);
    }
}

void CacheWhatIfTab::showCurve(CachePolicy::Kind kind) {
    QCPGraph *&g = m_graphs[size_t(kind)];
    QVector<double> xs, ys;
    bool exact = false;  // a fine, exact curve (LRU); else the policy's samples
    if (m_policyBoxes[size_t(kind)]->isChecked() && m_analysis) {
        const auto it = m_curves.find(int(kind));
        if (kind == CachePolicy::Kind::Lru && reuseApplies()) {
            for (const auto &[c, ratio] : m_analysis->reuse->curve(400)) {
                xs.append(double(c));
                ys.append(100.0 * ratio);
            }
            exact = true;
        } else if (kind == CachePolicy::Kind::Lru && m_lruResult && scopePrefetches() > 0) {
            const double lo =
                m_unit == Unit::Bytes ? double(std::max<quint64>(1, m_facts.minSize)) : 1.0;
            const double hi = std::max(
                lo * 2, m_unit == Unit::Bytes ? double(m_uses->totalBytes()) : double(scopeKeys()));
            const double p = double(scopePrefetches());
            quint64 previous = 0;
            for (int i = 0; i <= kLruPoints; ++i) {
                const auto c =
                    quint64(std::llround(lo * std::pow(hi / lo, double(i) / kLruPoints)));
                if (c == previous) {
                    continue;
                }
                previous = c;
                xs.append(double(c));
                ys.append(100.0 * double(m_lruResult->lruPrefetchHits(c)) / p);
            }
            exact = true;
        } else if (it != m_curves.end()) {
            const WhatIfAnalysis::Curve &curve = it->second;
            for (size_t i = 0; i < curve.capacities.size() && i < curve.prefetchHitRatio.size();
                 ++i) {
                xs.append(double(curve.capacities[i]));
                ys.append(100.0 * curve.prefetchHitRatio[i]);
            }
        }
    }
    if (xs.isEmpty()) {
        if (g) {
            m_hitPlot->removeGraph(g);
            g = nullptr;
        }
        m_tracers[size_t(kind)]->setVisible(false);
        return;
    }
    // past the last point every key fits: the curve stays level to the axis' end
    const double end = m_hitPlot->xAxis->range().upper;
    if (xs.back() < end) {
        xs.append(end);
        ys.append(ys.back());
    }
    if (!g) {
        g = m_hitPlot->addGraph();
        g->setName(CachePolicy::label(kind));
        g->setPen(PolicyColors::pen(kind, kind == CachePolicy::Kind::Opt ? 2.5 : 2.0));
        g->setSelectable(QCP::stNone);
        // the legend in policy order
        m_hitPlot->legend->clearItems();
        for (CachePolicy::Kind k : CachePolicy::all()) {
            if (m_graphs[size_t(k)]) {
                m_graphs[size_t(k)]->addToLegend();
            }
        }
    }
    g->setLineStyle(exact ? QCPGraph::lsStepLeft : QCPGraph::lsLine);
    g->setScatterStyle(exact ? QCPScatterStyle() : QCPScatterStyle(QCPScatterStyle::ssDisc, 4.0));
    g->setData(xs, ys, true);
}

void CacheWhatIfTab::setupAxes() {
    const bool bytes = m_unit == Unit::Bytes;
    QCPAxis *x = m_hitPlot->xAxis;
    x->setLabel(bytes ? tr("capacity C (bytes)") : tr("capacity C (chunks)"));
    const bool hasBytesTicker = dynamic_cast<BytesTicker *>(x->ticker().data()) != nullptr;
    const bool hasChunksTicker = dynamic_cast<ChunksTicker *>(x->ticker().data()) != nullptr;
    if (bytes ? !hasBytesTicker : !hasChunksTicker) {
        QSharedPointer<QCPAxisTickerLog> ticker;
        if (bytes) {
            ticker = QSharedPointer<BytesTicker>::create();
            ticker->setLogBase(2);
            ticker->setSubTickCount(0);
        } else {
            ticker = QSharedPointer<ChunksTicker>::create();
        }
        x->setTicker(ticker);
    }
    // Room on both sides of the slider's capacities, so that the line and the marker at C stay
    // inside the plot at either end of the slider; the configured capacity is always in view.
    double lo = 1.0;
    double top = double(scopeKeys());
    if (bytes) {
        lo = double(std::max<quint64>(1, m_facts.minSize));
        top = m_uses ? double(m_uses->totalBytes()) : lo;
    }
    for (const auto &[kind, curve] : m_curves) {
        if (!curve.capacities.empty()) {
            top = std::max(top, double(curve.capacities.back()));
        }
    }
    if (m_configured) {
        top = std::max(top, double(m_configured->capacityIn(m_unit, bytesPerChunk())));
    }
    x->setRange(lo * 0.7, std::max(lo * 10.0, top * 1.5));
    // Zoom on what can be reached (the label says the best ratio), in steps of 10%.
    const double best = 100.0 * bestRatio();
    m_hitPlot->yAxis->setRange(0, std::min(100.0, 10.0 * std::ceil(best * 1.15 / 10.0 + 1e-9)));
    // the title names the scope
    QString scopeText =
        m_reuseModel->currentIndex() > 0 ? m_reuseModel->currentText() : tr("all models");
    if (m_tenant->isVisibleTo(this) && m_tenant->currentIndex() > 0) {
        scopeText += tr(", tenant %1").arg(m_tenant->currentText());
    }
    m_hitTitle->setText(
        bytes ? tr("What-if: prefetched keys hit by a cache of C bytes (%1)").arg(scopeText)
              : tr("What-if: prefetched keys hit by a cache of C chunks (%1)").arg(scopeText));
    for (CachePolicy::Kind kind : CachePolicy::all()) {
        showCurve(kind);
    }
    m_hitPlot->replot(QCustomPlot::rpQueuedReplot);
}

double CacheWhatIfTab::bestRatio() const {
    if (m_uses) {
        return m_uses->prefetchOccurrences() > 0
                   ? double(m_facts.countedPrefetches) / double(m_uses->prefetchOccurrences())
                   : 0.0;
    }
    const ReuseAnalysis *r = m_analysis ? m_analysis->reuse.get() : nullptr;
    if (!r) {
        return 0.0;
    }
    const UseSequence::Scope s = scope();
    const ReuseAnalysis::Stats &st = s.model >= 0 && s.model < int(r->models().size())
                                         ? r->models()[size_t(s.model)]
                                         : r->total();
    return st.prefetches > 0 ? double(st.prefetchHits) / double(st.prefetches) : 0.0;
}

std::optional<double> CacheWhatIfTab::ratioAt(CachePolicy::Kind kind, quint64 c,
                                              bool *exact) const {
    *exact = false;
    const qint64 prefetches = scopePrefetches();
    if (m_hot && m_hot->capacity() == c && m_hot->inBytes() == (m_unit == Unit::Bytes)) {
        for (const HitOverTime::Series &s : m_hot->series()) {
            if (s.policy == kind && !s.cumHits.empty()) {
                *exact = true;
                const size_t n = m_hot->prefetchTimes().size();
                return n > 0 ? double(s.cumHits.back()) / double(n) : 0.0;
            }
        }
    }
    if (kind == CachePolicy::Kind::Lru && reuseApplies()) {
        *exact = true;
        return m_analysis->reuse->hitRatio(qint64(c));
    }
    if (kind == CachePolicy::Kind::Lru && m_lruResult) {
        *exact = true;
        return prefetches > 0 ? double(m_lruResult->lruPrefetchHits(c)) / double(prefetches) : 0.0;
    }
    const auto it = m_curves.find(int(kind));
    if (it == m_curves.end() || it->second.capacities.empty()) {
        return std::nullopt;
    }
    const std::vector<quint64> &caps = it->second.capacities;
    const std::vector<double> &ratios = it->second.prefetchHitRatio;
    if (ratios.size() != caps.size()) {
        return std::nullopt;
    }
    if (c <= caps.front()) {
        *exact = c == caps.front();
        return ratios.front();
    }
    if (c >= caps.back()) {
        *exact = c == caps.back();
        return ratios.back();
    }
    const size_t i = size_t(std::upper_bound(caps.begin(), caps.end(), c) - caps.begin()) - 1;
    if (caps[i] == c) {
        *exact = true;
        return ratios[i];
    }
    // between two samples: linear in log C
    const double f = (std::log(double(c)) - std::log(double(caps[i]))) /
                     (std::log(double(caps[i + 1])) - std::log(double(caps[i])));
    return ratios[i] + f * (ratios[i + 1] - ratios[i]);
}

QString CacheWhatIfTab::capacityWords(quint64 c) const {
    const quint64 bpc = bytesPerChunk();
    if (m_unit == Unit::Bytes) {
        const QString b = ConfiguredRun::bytesText(double(c));
        return bpc > 0 ? tr("%1 (≈ %2)")
                             .arg(b, counted(qint64(std::max<quint64>(1, c / bpc)), tr("chunk"),
                                             tr("chunks")))
                       : b;
    }
    const QString n = counted(qint64(c), tr("chunk"), tr("chunks"));
    return bpc > 0 ? tr("%1 (≈ %2)").arg(n, ConfiguredRun::bytesText(double(c) * double(bpc))) : n;
}

void CacheWhatIfTab::updateCapacity() {
    if (!m_analysis || !m_analysis->reuse) {
        m_capacityLabel->setText(tr("No reuse data"));
        m_capacityLine->setVisible(false);
        m_capacityMarker->setVisible(false);
        for (QCPItemTracer *t : m_tracers) {
            t->setVisible(false);
        }
        m_hitPlot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const auto c = quint64(capacity());
    QStringList readings;
    QCPItemTracer *red = nullptr;  // where the red marker goes: LRU, else the first shown
    for (CachePolicy::Kind kind : CachePolicy::all()) {
        QCPItemTracer *t = m_tracers[size_t(kind)];
        bool exact = false;
        const std::optional<double> r =
            m_graphs[size_t(kind)] ? ratioAt(kind, c, &exact) : std::optional<double>();
        t->setVisible(r.has_value());
        if (!r) {
            continue;
        }
        t->position->setCoords(double(c), 100.0 * *r);
        if (!red) {
            red = t;
        }
        readings << tr("%1 %2%3").arg(CachePolicy::label(kind),
                                      exact ? QString() : QStringLiteral("≈ "), percent(*r));
    }
    m_capacityMarker->setVisible(red != nullptr);
    if (red) {
        m_capacityMarker->position->setCoords(red->position->coords());
    }
    m_capacityLine->setVisible(true);
    m_capacityLine->point1->setCoords(double(c), 0);
    m_capacityLine->point2->setCoords(double(c), 100);
    const QString read =
        readings.isEmpty()
            ? (checkedPolicies().empty() ? tr("no policy chosen") : tr("working out the curves…"))
            : readings.join(QStringLiteral(" · "));
    m_capacityLabel->setText(
        tr("C = %1: %2 of %3 hit (%4 at best)")
            .arg(capacityWords(c), read,
                 counted(scopePrefetches(), tr("prefetched key"), tr("prefetched keys")),
                 percent(bestRatio())));
    m_hitPlot->replot(QCustomPlot::rpQueuedReplot);
}

void CacheWhatIfTab::updateConfigured() {
    if (!m_configured || !m_analysis) {
        m_configuredLine->setVisible(false);
        m_configuredTag->setVisible(false);
        m_configuredLabel->clear();
        m_configuredLabel->hide();
        return;
    }
    const quint64 bpc = bytesPerChunk();
    const quint64 c = m_configured->capacityIn(m_unit, bpc);
    const QString policy = m_configured->policyText().isEmpty()
                               ? QString()
                               : QStringLiteral(" · ") + m_configured->policyText();
    m_configuredLine->setVisible(c > 0);
    m_configuredTag->setVisible(c > 0);
    if (c > 0) {
        m_configuredLine->point1->setCoords(double(c), 0);
        m_configuredLine->point2->setCoords(double(c), 1);
        m_configuredTag->setText(
            tr("configured L1 %1%2")
                .arg(ConfiguredRun::bytesText(double(m_configured->l1Bytes())), policy));
        // beside the line, on the side with room
        QCPAxis *x = m_hitPlot->xAxis;
        const bool right =
            x->coordToPixel(double(c)) > x->axisRect()->left() + x->axisRect()->width() / 2;
        m_configuredTag->setPositionAlignment((right ? Qt::AlignRight : Qt::AlignLeft) |
                                              Qt::AlignBottom);
        m_configuredTag->position->setCoords(double(c), 0.97);
    }
    QString text;
    if (!m_uses) {
        text = tr("Configured: L1 %1%2 — reading the scope's uses…")
                   .arg(ConfiguredRun::bytesText(double(m_configured->l1Bytes())), policy);
    } else {
        std::vector<WhatIfAnalysis::Curve> curves;
        for (const auto &[kind, curve] : m_curves) {
            curves.push_back(curve);
        }
        std::function<quint64(qint64)> lruFor;
        if (m_lruResult) {
            lruFor = [r = m_lruResult](qint64 hits) { return r->lruCapacityFor(hits); };
        }
        text = m_configured->sentence(m_unit, {bpc, m_uses->prefetchOccurrences()}, curves, lruFor);
    }
    m_configuredLabel->setText(text);
    m_configuredLabel->setToolTip(text);
    m_configuredLabel->show();
}

void CacheWhatIfTab::updateUnitSwitch() {
    const bool sizes = m_uses && m_uses->hasSizes();
    m_bytes->setEnabled(sizes);
    m_bytes->setToolTip(
        sizes ? tr("Capacities in bytes: each key takes its model's bytes per object (from the "
                   "memory layouts of its reserve_write records)")
        : !m_analysis ? tr("No trace analysed")
        : !m_uses     ? tr("Reading the keys' sizes…")
                      : tr("Capacities in bytes need the keys' sizes: the reserve_write records of "
                               "this scope's models carry no memory layout"));
    if (!sizes && m_uses && m_unit == Unit::Bytes) {
        m_chunks->setChecked(true);  // (onUnitChanged)
    }
}

void CacheWhatIfTab::updateRunButton() {
    if (m_running) {
        m_runButton->setText(tr("Cancel"));
        m_runButton->setToolTip(tr("Stop working out the curves (those done stay)"));
        m_runButton->show();
        return;
    }
    bool missing = false;
    for (CachePolicy::Kind kind : checkedPolicies()) {
        missing = missing || !m_curves.count(int(kind));
    }
    const bool possible = m_analysis && (m_unit == Unit::Chunks || !m_uses || m_uses->hasSizes());
    m_runButton->setText(tr("Run"));
    m_runButton->setToolTip(tr("Work out the curves not yet shown"));
    m_runButton->setVisible(possible && missing && m_cancelled);
}

void CacheWhatIfTab::scheduleHitOverTime() {
    emit whatIfChosen(choice());
    if (m_hotCancel) {
        m_hotCancel->store(true);  // (a newer one is due)
        m_hotCancel.reset();
    }
    if (m_uses) {
        m_hotTimer->start();
    }
}

void CacheWhatIfTab::startHitOverTime() {
    if (!m_analysis || !m_uses || !sameScope(m_usesScope, scope())) {
        return;
    }
    const std::vector<CachePolicy::Kind> policies = checkedPolicies();
    const bool inBytes = m_unit == Unit::Bytes;
    const quint64 generation = ++m_hotGeneration;
    if (policies.empty() || (inBytes && !m_uses->hasSizes())) {
        if (m_hot) {
            m_hot.reset();
            emit hitOverTimeReady(nullptr);
        }
        return;
    }
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_hotCancel = cancel;
    const auto uses = m_uses;
    const auto c = quint64(capacity());
    (void)JobPool::run(&m_pool, [this, generation, uses, policies, c, inBytes, cancel] {
        std::shared_ptr<const HitOverTime> result =
            HitOverTime::build(uses, policies, c, inBytes, {}, cancel.get());
        if (!result || cancel->load()) {
            return;
        }
        QMetaObject::invokeMethod(
            this, [this, generation, result] { onHitOverTime(generation, result); },
            Qt::QueuedConnection);
    });
}

void CacheWhatIfTab::onHitOverTime(quint64 generation, std::shared_ptr<const HitOverTime> result) {
    if (generation != m_hotGeneration) {
        return;
    }
    m_hotCancel.reset();
    m_hot = std::move(result);
    updateCapacity();
    emit hitOverTimeReady(m_hot);
}

void CacheWhatIfTab::updateHistograms() {
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
        // two lines: three plots side by side leave each a third of the width
        m_histTitles[h]->setText(QStringLiteral("%1\n%2").arg(names[h], figures));
        p->replot(QCustomPlot::rpQueuedReplot);
    }
}

void CacheWhatIfTab::setLogCountAxis(QCPAxis *axis, double maxCount) {
    // from the bars' base to a bit above the tallest
    axis->setRange(kLogBase, std::max(10.0, maxCount * 1.6));
    setLogCountTicks(axis);
}

void CacheWhatIfTab::setLogCountTicks(QCPAxis *axis) {
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

QString CacheWhatIfTab::histogramTitle(Histogram h) const {
    return m_histTitles[h]->text();
}

}  // namespace lmct
