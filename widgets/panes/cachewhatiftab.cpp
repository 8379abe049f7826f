#include "panes/cachewhatiftab.h"

#include "common/jobpool.h"
#include "common/statuscolors.h"
#include "trace/damagesummary.h"

#include <qcustomplot.h>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

constexpr int kSliderSteps = 1000;
constexpr int kLruPoints = 300;  // LRU's exact curve, log-spaced
constexpr int kHitOverTimeDelayMs = 250;

QString percent(double f) {
    return ConfiguredRun::percentText(f);
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

    m_damageLabel = new QLabel;
    m_damageLabel->setObjectName(QStringLiteral("whatIfDamage"));
    m_damageLabel->setWordWrap(true);
    m_damageLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_damageLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_damageLabel->setToolTip(tr("The Diagnostics dock says where and how the file is damaged."));
    m_damageLabel->hide();

    m_plot = new WhatIfCurvePlot(WhatIfCurvePlot::Legend::Inside);
    m_plot->setMinimumSize(240, 170);
    m_plot->setCapacityName(tr("capacity C"));
    m_controls = new WhatIfControls;
    connect(m_controls, &WhatIfControls::scopeChanged, this, [this] {
        updateHistograms();
        onScopeChanged();
    });
    connect(m_controls, &WhatIfControls::unitChanged, this, &CacheWhatIfTab::onUnitChanged);
    connect(m_controls, &WhatIfControls::policyToggled, this, &CacheWhatIfTab::onPolicyToggled);
    connect(m_controls, &WhatIfControls::runClicked, this, [this] {
        if (m_running) {
            cancelRun();
            m_cancelled = true;
            updateRunButton();
        } else {
            startRun();
        }
    });
    auto *curves = new QHBoxLayout;
    curves->setSpacing(4);
    curves->addWidget(m_plot, 1);
    curves->addWidget(m_controls);
    m_histograms = new ReuseHistograms;

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
    // the warning and the readings first: in view even in a short dock (the plots scroll)
    v->addWidget(m_damageLabel);
    v->addLayout(row);
    v->addWidget(m_configuredLabel);
    v->addLayout(curves, 3);
    v->addWidget(m_histograms, 2);

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

ViewState::WhatIfChoice CacheWhatIfTab::choice() const {
    ViewState::WhatIfChoice c;
    if (m_analysis) {
        c.capacity = quint64(capacity());
        c.inBytes = m_unit == Unit::Bytes;
        c.policies = checkedPolicies();
        c.bytesPerChunk = m_facts.chunkSize.meanBytes();
    }
    return c;
}

bool CacheWhatIfTab::reuseApplies() const {
    const UseSequence::Scope s = scope();
    return m_analysis && m_analysis->reuse && m_unit == Unit::Chunks &&
           s.model == UseSequence::kAll && s.salt == UseSequence::kAll;
}

WhatIfScope CacheWhatIfTab::scopeFacts() const {
    return WhatIfScope(m_analysis.get(), scope(), m_uses.get(), m_facts.countedPrefetches);
}

qint64 CacheWhatIfTab::scopeKeys() const {
    return scopeFacts().keys();
}

QString CacheWhatIfTab::emptyReason() const {
    return scopeFacts().emptyReason(m_controls->scopeText());
}

QString CacheWhatIfTab::damageText() const {
    return m_damageLabel->isHidden() ? QString() : m_damageLabel->text();
}

qint64 CacheWhatIfTab::scopePrefetches() const {
    return scopeFacts().prefetches();
}

qint64 CacheWhatIfTab::capacity() const {
    const double f = double(m_capacity->value()) / kSliderSteps;
    if (m_unit == Unit::Bytes) {
        if (!m_uses || !m_uses->hasSizes()) {
            return 1;
        }
        const double lo = double(std::max<quint64>(1, m_facts.chunkSize.smallest()));
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

void CacheWhatIfTab::showAnalysis() {
    cancelRun();
    m_cancelled = false;
    m_uses.reset();
    m_facts = {};
    m_configured = m_doc ? ConfiguredRun::fromConfig(m_doc->header().smConfig())
                         : std::optional<ConfiguredRun>();
    // A damaged trace: the figures cover the records read (as the Compare pane says).
    const QString damage =
        m_doc && m_analysis
            ? DamageSummary::of(*m_doc,
                                m_analysis->keys ? m_analysis->keys->readableRecordCount() : -1)
                  .sentence(m_doc->fileName())
            : QString();
    m_damageLabel->setText(QStringLiteral("⚠ ") + damage);
    m_damageLabel->setStyleSheet(QStringLiteral("QLabel#whatIfDamage { color: %1; }")
                                     .arg(StatusColors::warning(palette()).name()));
    m_damageLabel->setVisible(!damage.isEmpty());
    m_controls->setScopes(m_analysis.get());
    updateHistograms();
    clearCurves();
    updateUnitSwitch();
    setupAxes();
    updateConfigured();
    updateCapacity();
    if (m_analysis) {
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
    const Unit unit = m_controls->unit();
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
    m_controls->setProgress(-1);
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
    m_controls->setProgress(0);
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
                facts.chunkSize = ChunkSize::of(*facts.uses);
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
                const ChunkSize size = ChunkSize::of(*facts.uses);
                if (const quint64 c = configured->capacityIn(unit, size); c > 0) {
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
        m_controls->setProgress(percent);
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
    m_controls->setProgress(-1);
    if (result && result->curve(CachePolicy::Kind::Lru)) {
        m_lruResult = std::move(result);
        showCurve(CachePolicy::Kind::Lru);  // exact at every capacity
    }
    updateRunButton();
    updateConfigured();
    updateCapacity();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    emit curvesFinished();
}

void CacheWhatIfTab::clearCurves() {
    m_curves.clear();
    m_lruResult.reset();
    for (CachePolicy::Kind kind : CachePolicy::all()) {
        if (QCPGraph *&g = m_graphs[size_t(kind)]) {
            m_plot->removeCurve(g);
            g = nullptr;
        }
        m_plot->policyMarker(kind)->setVisible(false);
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
    if (policyBox(kind)->isChecked() && m_analysis && emptyReason().isEmpty()) {
        const auto it = m_curves.find(int(kind));
        if (kind == CachePolicy::Kind::Lru && reuseApplies()) {
            for (const auto &[c, ratio] : m_analysis->reuse->curve(400)) {
                xs.append(double(c));
                ys.append(100.0 * ratio);
            }
            exact = true;
        } else if (kind == CachePolicy::Kind::Lru && m_lruResult && scopePrefetches() > 0) {
            const double lo = m_unit == Unit::Bytes
                                  ? double(std::max<quint64>(1, m_facts.chunkSize.smallest()))
                                  : 1.0;
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
            m_plot->removeCurve(g);
            g = nullptr;
        }
        m_plot->policyMarker(kind)->setVisible(false);
        return;
    }
    // past the last point every key fits: the curve stays level to the axis' end
    const double end = m_plot->xAxis->range().upper;
    if (xs.back() < end) {
        xs.append(end);
        ys.append(ys.back());
    }
    WhatIfCurvePlot::Style style;
    style.width = kind == CachePolicy::Kind::Opt ? 2.5 : 2.0;
    style.stepped = exact;
    if (g) {
        m_plot->setCurve(g, xs, ys, style);
    } else {
        g = m_plot->addCurve(kind, xs, ys, style);
    }
}

void CacheWhatIfTab::setupAxes() {
    const bool bytes = m_unit == Unit::Bytes;
    m_plot->setUnit(m_unit);
    // Room on both sides of the slider's capacities, so that the line and the marker at C stay
    // inside the plot at either end of the slider; the configured capacity is always in view.
    double lo = 1.0;
    double top = double(scopeKeys());
    if (bytes) {
        lo = double(std::max<quint64>(1, m_facts.chunkSize.smallest()));
        top = m_uses ? double(m_uses->totalBytes()) : lo;
    }
    for (const auto &[kind, curve] : m_curves) {
        if (!curve.capacities.empty()) {
            top = std::max(top, double(curve.capacities.back()));
        }
    }
    if (m_configured) {
        top = std::max(top, double(m_configured->capacityIn(m_unit, m_facts.chunkSize)));
    }
    m_plot->xAxis->setRange(lo * 0.7, std::max(lo * 10.0, top * 1.5));
    // Zoom on what can be reached (the label says the best ratio), in steps of 10%; a scope
    // with nothing to plot says why in the curves' place.
    const QString empty = emptyReason();
    const double best = 100.0 * bestRatio();
    m_plot->yAxis->setRange(
        0, empty.isEmpty() ? std::min(100.0, 10.0 * std::ceil(best * 1.15 / 10.0 + 1e-9)) : 100.0);
    m_plot->setMessage(empty);
    const QString scopeText = m_controls->scopeText();
    m_plot->setTitle(
        bytes ? tr("What-if: prefetched keys hit by a cache of C bytes (%1)").arg(scopeText)
              : tr("What-if: prefetched keys hit by a cache of C chunks (%1)").arg(scopeText));
    for (CachePolicy::Kind kind : CachePolicy::all()) {
        showCurve(kind);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

double CacheWhatIfTab::bestRatio() const {
    return scopeFacts().bestRatio();
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
    return it == m_curves.end() ? std::nullopt : WhatIfAnalysis::ratioAt(it->second, c, exact);
}

QString CacheWhatIfTab::capacityWords(quint64 c) const {
    const ChunkSize &size = m_facts.chunkSize;
    if (m_unit == Unit::Bytes) {
        const QString b = ConfiguredRun::bytesText(double(c));
        const std::optional<quint64> chunks = size.chunksFor(c);
        return chunks ? tr("%1 (≈ %2)").arg(b, ConfiguredRun::chunksText(*chunks)) : b;
    }
    const QString n = ConfiguredRun::chunksText(c);
    const std::optional<quint64> bytes = size.bytesFor(c);
    return bytes ? tr("%1 (≈ %2)").arg(n, ConfiguredRun::bytesText(double(*bytes))) : n;
}

void CacheWhatIfTab::updateCapacity() {
    const QString empty = emptyReason();
    m_capacity->setEnabled(empty.isEmpty());  // (nothing to read at any C)
    if (!m_analysis || !m_analysis->reuse || !empty.isEmpty()) {
        m_capacityLabel->setText(!m_analysis || !m_analysis->reuse
                                     ? tr("No reuse data")
                                     : empty.section(QLatin1Char('\n'), 0, 0));
        m_plot->hideCapacity();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const auto c = quint64(capacity());
    QStringList readings;
    std::array<std::optional<double>, CachePolicy::kKindCount> at{};
    for (CachePolicy::Kind kind : CachePolicy::all()) {
        bool exact = false;
        const std::optional<double> r =
            m_graphs[size_t(kind)] ? ratioAt(kind, c, &exact) : std::optional<double>();
        if (!r) {
            continue;
        }
        at[size_t(kind)] = 100.0 * *r;
        readings << tr("%1 %2%3").arg(CachePolicy::label(kind),
                                      exact ? QString() : QStringLiteral("≈ "), percent(*r));
    }
    m_plot->showCapacity(double(c), at);
    const QString read =
        readings.isEmpty()
            ? (checkedPolicies().empty() ? tr("no policy chosen") : tr("working out the curves…"))
            : readings.join(QStringLiteral(" · "));
    m_capacityLabel->setText(
        tr("C = %1: %2 of %3 hit (%4 at best)")
            .arg(capacityWords(c), read,
                 counted(scopePrefetches(), tr("prefetched key"), tr("prefetched keys")),
                 percent(bestRatio())));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void CacheWhatIfTab::updateConfigured() {
    if (!m_configured || !m_analysis) {
        m_plot->showConfigured(0, QString());
        m_configuredLabel->clear();
        m_configuredLabel->hide();
        return;
    }
    const quint64 c = m_configured->capacityIn(m_unit, m_facts.chunkSize);
    const QString policy = m_configured->policyText().isEmpty()
                               ? QString()
                               : QStringLiteral(" · ") + m_configured->policyText();
    const QString l1 = ConfiguredRun::bytesText(double(m_configured->l1Bytes()));
    m_plot->showConfigured(double(c), tr("configured L1 %1%2").arg(l1, policy));
    QString text;
    if (!m_uses) {
        text = tr("Configured: L1 %1%2 — reading the scope's uses…").arg(l1, policy);
    } else {
        std::vector<WhatIfAnalysis::Curve> curves;
        for (const auto &[kind, curve] : m_curves) {
            curves.push_back(curve);
        }
        std::function<quint64(qint64)> lruFor;
        if (m_lruResult) {
            lruFor = [r = m_lruResult](qint64 hits) { return r->lruCapacityFor(hits); };
        }
        text = m_configured->sentence(m_unit, {m_facts.chunkSize, m_uses->prefetchOccurrences()},
                                      curves, lruFor);
    }
    m_configuredLabel->setText(text);
    m_configuredLabel->setToolTip(text);
    m_configuredLabel->show();
}

void CacheWhatIfTab::updateUnitSwitch() {
    const bool sizes = m_uses && m_uses->hasSizes();
    m_controls->setBytesAvailable(
        sizes,
        sizes ? tr("Capacities in bytes: each key takes its model's bytes per object (from the "
                   "memory layouts of its reserve_write records)")
        : !m_analysis ? tr("No trace analysed")
        : !m_uses     ? tr("Reading the keys' sizes…")
                      : tr("Capacities in bytes need the keys' sizes: the reserve_write records of "
                               "this scope's models carry no memory layout"));
    if (!sizes && m_uses && m_unit == Unit::Bytes) {
        m_controls->chooseChunks();  // (onUnitChanged)
    }
}

void CacheWhatIfTab::updateRunButton() {
    if (m_running) {
        m_controls->setRunButton(WhatIfControls::RunButton::Cancel);
        return;
    }
    bool missing = false;
    for (CachePolicy::Kind kind : checkedPolicies()) {
        missing = missing || !m_curves.count(int(kind));
    }
    const bool possible = m_analysis && (m_unit == Unit::Chunks || !m_uses || m_uses->hasSizes());
    m_controls->setRunButton(possible && missing && m_cancelled
                                 ? WhatIfControls::RunButton::Run
                                 : WhatIfControls::RunButton::Hidden);
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
    if (policies.empty() || (inBytes && !m_uses->hasSizes()) || !emptyReason().isEmpty()) {
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
    const int m = scope().model;
    m_histograms->setStats(
        !r ? nullptr
           : (m >= 0 && m < int(r->models().size()) ? &r->models()[size_t(m)] : &r->total()));
}

}  // namespace lmct
