#include "timeline/timelinewidget.h"

#include "timeline/timelineactions.h"
#include "timeline/timelinebandlayer.h"
#include "timeline/timelinecommands.h"
#include "timeline/timelineexportactions.h"
#include "timeline/timelinefollowlayer.h"
#include "timeline/timelinehitplot.h"
#include "timeline/timelineinteraction.h"
#include "timeline/timelinemainplot.h"
#include "timeline/timelinemargingroup.h"
#include "timeline/timelineoverview.h"
#include "timeline/timelineplotlayout.h"
#include "timeline/timelinerateplot.h"

#include <qcustomplot.h>

#include <QKeyEvent>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace lmct {

TimelineWidget::TimelineWidget(QWidget *parent) : QWidget(parent) {
    m_ticker.reset(new TimeAxisTicker);
    m_viewport = new TimelineViewport(this);
    m_builder = new TimelineBuilder(this);
    buildUi();
    m_viewport->showWindow(timeAxis()->range().lower, timeAxis()->range().upper);
    connect(m_viewport, &TimelineViewport::windowChanged, this,
            [this](double from, double to) { timeAxis()->setRange(from, to); });
    connect(m_viewport, &TimelineViewport::historyChanged, m_actions->back(), &QAction::setEnabled);
    connect(m_viewport, &TimelineViewport::keepNewestChanged, this, [this](bool on) {
        const QSignalBlocker block(m_actions->keepNewest());
        m_actions->keepNewest()->setChecked(on);
    });
    connect(m_builder, &TimelineBuilder::built, this, &TimelineWidget::apply);
    connect(m_builder, &TimelineBuilder::stageChanged, this, &TimelineWidget::updateBusy);
    connect(m_builder, &TimelineBuilder::polled, this, &TimelineWidget::updateInfo);
    connect(m_builder, &TimelineBuilder::filteringStarted, this, &TimelineWidget::updateInfo);
    connect(m_builder, &TimelineBuilder::filterIndexChanged, this,
            &TimelineWidget::applyFilterIndex);
    connect(m_builder, &TimelineBuilder::trailReady, this, &TimelineWidget::onTrailReady);
    setFilterMode(TimelineCommands::savedFilterMode());
    applyPalette();
    m_exportActions = new TimelineExportActions(this);
    setViewState(nullptr);
}

TimelineWidget::~TimelineWidget() {
    m_builder->shutdown();
}

// ---------------------------------------------------------------------------------------------
// Construction

void TimelineWidget::buildUi() {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    m_actions = new TimelineActions(this);
    m_commands = new TimelineCommands(this);
    layout->addWidget(m_actions->toolbar());

    // Overview strip: the whole trace, the visible window as a draggable rectangle.
    m_overviewPart = new TimelineOverview(m_viewport, this);
    m_overview = m_overviewPart->plot();
    m_overviewLanes = m_overviewPart->lanes();
    m_ovFollowLayer = m_overviewPart->followLayer();
    layout->addWidget(m_overview);

    // The main plot under the overview (TimelineMainPlot), its height shared by the layout.
    m_main = TimelineMainPlot::create(this, m_ticker, m_viewport, m_builder);
    m_plotLayout = std::make_unique<TimelinePlotLayout>(m_main.layoutParts(this, m_overviewPart));
    connect(m_main.ratePlot, &TimelineRatePlot::restyle, this, &TimelineWidget::applyPalette);
    connect(m_main.ratePlot, &TimelineRatePlot::layoutNeeded, this, &TimelineWidget::updateHeights);
    connect(m_main.hitPlot, &TimelineHitPlot::layoutNeeded, this, [this] {
        applyPalette();  // (its new graphs and legend entries)
        updateHeights();
        replotAll();
    });
    QCPAxis *top = m_main.lanesRect->axis(QCPAxis::atTop);

    connect(top, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
            &TimelineWidget::onRangeChanged);
    m_main.ratePlot->connectLegend();
    m_main.plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_main.plot, &QWidget::customContextMenuRequested, m_commands,
            &TimelineCommands::showContextMenu);
    m_interaction = new TimelineInteraction(
        m_main.interactionParts(m_viewport, m_ticker.data(), m_overviewPart), this);
    connect(m_main.plot, &QCustomPlot::afterReplot, this, [this] {
        // The layout is known only after a replot: when the plot areas changed width, tick
        // count and rate buckets follow.
        if (m_main.lanesRect->width() != m_laidOutWidth) {
            m_laidOutWidth = m_main.lanesRect->width();
            updateAxisCaption();
            m_main.ratePlot->update();
            m_main.hitPlot->update();
            m_main.plot->replot(QCustomPlot::rpQueuedReplot);
        }
        if (m_main.ratePlot->fitTicks() | m_main.hitPlot->fitTicks() |
            m_main.hitPlot->followWidth()) {
            m_main.plot->replot(QCustomPlot::rpQueuedReplot);
        }
        m_interaction->placeOverlay();
        m_interaction->refreshGuide();
        m_overviewPart->alignTo(m_main.lanesRect->margins());
    });
    connect(m_interaction, &TimelineInteraction::hoverTimeChanged, this,
            &TimelineWidget::hoverTimeChanged);
    layout->addWidget(m_main.plot, 1);
    setFocusProxy(m_main.plot);
    m_empty = new QLabel(m_main.plot);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_empty->setVisible(false);
}

// ---------------------------------------------------------------------------------------------
// ViewState

void TimelineWidget::setViewState(ViewState *state) {
    // Always: binding the same state again starts the timeline over.
    rebind(m_state, state, this, Rebind::Always);
    m_interaction->setViewState(m_state);
    if (m_state) {
        connect(m_state, &ViewState::documentChanged, this, &TimelineWidget::onDocumentChanged);
        connect(m_state, &ViewState::selectedRecordChanged, this,
                &TimelineWidget::onSelectedRecordChanged);
        connect(m_state, &ViewState::timeRangeChanged, this, &TimelineWidget::onTimeRangeChanged);
        connect(m_state, &ViewState::wallUtcChanged, this, &TimelineWidget::onWallUtcChanged);
        connect(m_state, &ViewState::filterChanged, this, &TimelineWidget::onFilterChanged);
        connect(m_state, &ViewState::followedKeyChanged, this,
                &TimelineWidget::onFollowedRecordsChanged);
        connect(m_state, &ViewState::hitOverTimeChanged, this,
                &TimelineWidget::onHitOverTimeChanged);
        connect(m_state, &ViewState::followedRecordsChanged, this,
                &TimelineWidget::onFollowedRecordsChanged);
        connect(m_state, &ViewState::documentGrew, this, [this] {
            m_builder->noteGrowth();
            updateInfo();  // more records read than drawn until the index catches up
        });
        connect(m_state, &QObject::destroyed, this, [this] { setViewState(nullptr); });
        onWallUtcChanged(m_state->wallUtc());
    }
    onDocumentChanged();
    onHitOverTimeChanged();  // (the state's, or none)
}

void TimelineWidget::onDocumentChanged() {
    m_interaction->hideHover();
    m_doc = m_state ? m_state->document() : nullptr;
    m_builder->setDocument(m_doc);
    m_index.reset();
    m_main.ratePlot->setIndex(nullptr);
    m_overviewPart->setActive(false);
    m_viewport->setTrace(false, 0.0, 0.0);
    m_actions->setShortcutsEnabled(false);
    m_pairs.clear();
    m_families.clear();
    m_interaction->setData(m_doc, nullptr, {});
    m_main.lanes->setSpansPending(false);
    m_overviewLanes->setSpansPending(false);
    m_viewport->resetHistory();
    m_firstBuild = true;
    m_main.lanes->setData(m_doc, nullptr, {});
    m_overviewLanes->setData(m_doc, nullptr, {});
    m_main.lanes->setSelectedRecord(-1);
    m_overviewLanes->setSelectedRecord(-1);
    m_builder->clearFilter();
    applyFilterIndex();
    onFilterChanged();
    onFollowedRecordsChanged();
    rebuildRows();
    m_main.ratePlot->rebuildGraphs();
    updateBands();
    m_builder->begin();
    updateInfo();
    replotAll();
}

QFont TimelineWidget::laneLabelFont() const {
    return m_plotLayout->laneLabelFont();
}

int TimelineWidget::readableHeight() const {
    int chrome = 0;
    for (const QWidget *w : {static_cast<const QWidget *>(m_actions->toolbar()),
                             static_cast<const QWidget *>(m_overview)}) {
        if (!w->isHidden()) {
            chrome += std::max(w->height(), w->sizeHint().height());
        }
    }
    return chrome + m_plotLayout->readableHeight();
}

QString TimelineWidget::elidedLabel(const QString &label, const QFont &font) {
    return TimelineLanes::elidedLabel(label, font);
}

void TimelineWidget::apply(const TimelineBuilder::Built &b, bool final) {
    const bool first = m_firstBuild;
    m_firstBuild = false;
    m_index = b.index;
    m_main.ratePlot->setIndex(m_index);
    m_overviewPart->setActive(true);
    m_viewport->setTrace(m_index->recordCount() > 0, m_index->minTime(), m_index->maxTime());
    m_actions->setShortcutsEnabled(true);
    if (final) {
        // (until then, spans paired on an earlier snapshot of a growing document stay shown)
        m_pairs = b.pairs;
        m_families.clear();
        for (const auto &cp : m_pairs) {
            m_families.append(cp->family());
        }
        m_main.lanes->setSpansPending(b.pairsDeferred);
        m_overviewLanes->setSpansPending(b.pairsDeferred);
    }
    m_interaction->setData(m_doc, m_index, m_pairs);
    m_ticker->setWallOffset(m_index->wallOffset() + m_wallShift);
    m_main.lanes->setData(m_doc, m_index, m_pairs);
    m_overviewLanes->setData(m_doc, m_index, m_pairs);
    rebuildRows();
    m_main.ratePlot->rebuildGraphs();
    const TimelineViewport::Range d = m_viewport->traceRange();
    const double pad = d.size() * 0.01;
    m_overview->axisRect()->axis(QCPAxis::atBottom)->setRange(d.lower - pad, d.upper + pad);
    if (first || m_viewport->isFitted()) {
        m_viewport->refit();
    } else if (m_viewport->keepNewest()) {
        m_viewport->trackNewest();
    }
    if (m_state) {
        // Re-centring the selection would move the view away from the newest records (and,
        // counted as a move by hand, switch Keep newest off): only its marks then.
        showSelection(m_state->selectedRecord(), !m_viewport->keepNewest());
        onTimeRangeChanged();
    }
    updateInfo();
    replotAll();
    if (final) {
        emit indexReady();
    }
}

void TimelineWidget::setWallShift(double seconds) {
    m_wallShift = seconds;
    m_ticker->setWallOffset((m_index ? m_index->wallOffset() : 0.0) + seconds);
    replotAll();
}

bool TimelineWidget::isIndexing() const {
    // until the final result is shown (the watcher may have finished with its signal queued)
    return m_builder->isBuilding() || (m_doc && !m_index);
}

void TimelineWidget::onSelectedRecordChanged(int record) {
    showSelection(record, true);
}

void TimelineWidget::showSelection(int record, bool centre) {
    m_main.lanes->setSelectedRecord(record);
    m_overviewLanes->setSelectedRecord(record);
    const bool valid = m_doc && record >= 0 && record < m_doc->records().size() && m_index;
    m_overviewPart->setSelection(valid, valid ? m_doc->records().tMono(record) : 0.0);
    if (valid) {
        const double t = m_doc->records().tMono(record);
        if (centre) {
            m_viewport->reveal(t);
        }
    }
    replotAll();
}

void TimelineWidget::onTimeRangeChanged() {
    updateBands();
    replotAll();
}

void TimelineWidget::onWallUtcChanged(bool utc) {
    m_ticker->setUtc(utc);
    const QSignalBlocker block(m_actions->utc());
    m_actions->utc()->setChecked(utc);
    updateAxisCaption();
    m_main.plot->replot(QCustomPlot::rpQueuedReplot);
}

// ---------------------------------------------------------------------------------------------
// Rows and series

QStringList TimelineWidget::laneKeys() const {
    QStringList out;
    for (const TimelineLanes::Row &r : m_main.lanes->baseRows()) {
        out.append(r.key);
    }
    return out;
}

void TimelineWidget::rebuildRows() {
    QStringList qualnames;
    if (m_index) {
        for (int q = 0; q < m_index->laneCount(); ++q) {
            if (m_index->lane(q).times.size() > 0) {
                qualnames.append(m_index->lane(q).qualname);
            }
        }
    }
    m_layout.setLanes(qualnames, m_families);
    QVector<TimelineLanes::Row> rows = TimelineLanes::rowsFor(m_layout, m_doc.get(), m_pairs);
    m_main.lanes->setRows(rows);
    m_main.lanes->labelAxis();
    for (TimelineLanes::Row &row : rows) {
        row.weight = 1.0;  // the overview: rows of equal height
    }
    m_overviewLanes->setRows(rows);
    m_overview->axisRect()
        ->axis(QCPAxis::atLeft)
        ->setRange(0.0, std::max(1.0, m_overviewLanes->totalWeight()));
    updateHeights();
}

void TimelineWidget::setLaneHidden(const QString &key, bool hidden) {
    m_layout.setHidden(key, hidden);
    rebuildRows();
    m_main.ratePlot->rebuildGraphs();
    updateInfo();
    replotAll();
}

void TimelineWidget::moveLane(const QString &key, int delta) {
    if (!m_layout.move(key, delta)) {
        return;
    }
    rebuildRows();
    m_main.ratePlot->rebuildGraphs();
    replotAll();
}

void TimelineWidget::resetLanes() {
    m_layout.reset();
    rebuildRows();
    m_main.ratePlot->rebuildGraphs();
    updateInfo();
    replotAll();
}

void TimelineWidget::setRatePlotVisible(bool visible) {
    if (visible == m_main.ratePlot->isShown()) {
        return;
    }
    m_main.ratePlot->setShown(visible);
    const QSignalBlocker block(m_actions->rate());
    m_actions->rate()->setChecked(visible);
    m_main.ratePlot->place();
    updateHeights();
    m_main.ratePlot->update();
    replotAll();
}

QAction *TimelineWidget::hitRatioAction() const {
    return m_actions->hitRatio();
}

void TimelineWidget::setHitPlotVisible(bool visible) {
    if (visible == m_main.hitPlot->isShown()) {
        return;
    }
    m_main.hitPlot->setShown(visible);
    const QSignalBlocker block(m_actions->hitRatio());
    m_actions->hitRatio()->setChecked(visible);
    m_main.hitPlot->place();
    updateHeights();
    m_main.hitPlot->update();
    replotAll();
}

void TimelineWidget::onHitOverTimeChanged() {
    const auto result = m_state ? m_state->hitOverTime() : nullptr;
    m_actions->hitRatio()->setEnabled(result != nullptr);
    m_main.hitPlot->setResult(result,
                              m_state ? m_state->whatIfChoice() : ViewState::WhatIfChoice());
}

void TimelineWidget::layOutFor(QSize size, int reservedHeight) {
    m_plotLayout->layOutFor(size, reservedHeight);
    updateAxisCaption();
    m_main.ratePlot->update();
    m_main.ratePlot->fitTicks();
    m_main.hitPlot->update();
    m_main.hitPlot->fitTicks();
    if (size.isEmpty()) {
        m_main.plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void TimelineWidget::updateHeights() {
    m_plotLayout->updateHeights();
}

// ---------------------------------------------------------------------------------------------
// Appearance

void TimelineWidget::setTimeMode(TimeMode mode) {
    m_timeMode = mode;
    m_ticker->setMode(mode == TimeMode::Wall ? TimeAxisTicker::Mode::Wall
                                             : TimeAxisTicker::Mode::Relative);
    m_actions->setTimeAxis(mode == TimeMode::Wall);
    updateAxisCaption();
    m_main.plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineWidget::updateAxisCaption() {
    const QCPRange r = visibleRange();
    const int w =
        m_main.lanesRect->width() > 10 ? m_main.lanesRect->width() : std::max(100, width() - 250);
    const int labelPx = fontMetrics().horizontalAdvance(m_timeMode == TimeMode::Wall
                                                            ? QStringLiteral("00-00 00:00:00.000")
                                                            : QStringLiteral("000.000 ms"));
    m_ticker->setTickCount(std::clamp(w / (labelPx + 40), 2, 16));
    m_ticker->setRoom(m_main.lanesRect, labelPx);
    const QString caption = m_ticker->caption(r);
    QStringList parts{m_timeMode == TimeMode::Wall ? tr("wall clock") : tr("t_mono")};
    for (const QString &part : {caption, m_axisNote}) {
        if (!part.isEmpty()) {
            parts << part;
        }
    }
    timeAxis()->setLabel(parts.join(QStringLiteral("  ·  ")));
}

void TimelineWidget::setAxisNote(const QString &note) {
    m_axisNote = note;
    updateAxisCaption();
    m_main.plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineWidget::applyPalette() {
    m_main.applyPalette(palette(), font(), laneLabelFont(), m_overviewPart);
}

void TimelineWidget::updateDevicePixelRatio() {
    const double dpr = devicePixelRatioF();
    for (QCustomPlot *plot : {m_main.plot, m_overview}) {
        if (std::abs(plot->bufferDevicePixelRatio() - dpr) > 1e-6) {
            plot->setBufferDevicePixelRatio(dpr);
            plot->replot(QCustomPlot::rpQueuedReplot);
        }
    }
}

void TimelineWidget::changeEvent(QEvent *event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange ||
        event->type() == QEvent::FontChange) {
        applyPalette();
        updateHeights();
        replotAll();
    }
}

bool TimelineWidget::event(QEvent *event) {
    if (event->type() == QEvent::ScreenChangeInternal || event->type() == QEvent::Show ||
        event->type() == QEvent::WindowChangeInternal) {
        updateDevicePixelRatio();
    }
    return QWidget::event(event);
}

void TimelineWidget::resizeEvent(QResizeEvent *event) {
    QWidget::resizeEvent(event);
    m_empty->setGeometry(m_main.plot->rect());
    layOutFor(QSize());
}

void TimelineWidget::replotAll() {
    m_main.plot->replot(QCustomPlot::rpQueuedReplot);
    m_overview->replot(QCustomPlot::rpQueuedReplot);
}

// ---------------------------------------------------------------------------------------------
// View range

QCPAxis *TimelineWidget::timeAxis() const {
    return m_main.lanesRect->axis(QCPAxis::atTop);
}

QCPRange TimelineWidget::visibleRange() const {
    const TimelineViewport::Range w = m_viewport->window();
    return QCPRange(w.lower, w.upper);
}

void TimelineWidget::setVisibleRange(double from, double to) {
    m_viewport->setWindow(from, to);
}

void TimelineWidget::fitAll() {
    m_viewport->fitAll();
}

bool TimelineWidget::zoomBack() {
    return m_viewport->back();
}

void TimelineWidget::fitSelection() {
    std::optional<TimelineViewport::Range> target;
    if (m_state && m_state->timeRange()) {
        const auto tr = *m_state->timeRange();
        const double pad = std::max(tr.to - tr.from, TimelineViewport::kMinViewSeconds) * 0.05;
        target = TimelineViewport::Range{tr.from - pad, tr.to + pad};
    } else if (m_state && m_index && m_doc && m_state->selectedRecord() >= 0) {
        target =
            TimelineViewport::aroundRecord(*m_index, m_doc->records(), m_state->selectedRecord());
    }
    m_viewport->fitTo(target);
}

void TimelineWidget::onRangeChanged(const QCPRange &range) {
    m_main.rateRect->axis(QCPAxis::atBottom)->setRange(range);
    m_main.hitRect->axis(QCPAxis::atBottom)->setRange(range);
    updateAxisCaption();
    m_main.ratePlot->update();
    m_main.hitPlot->update();
    m_overviewPart->updateWindow();
    updateInfo();
    m_interaction->refreshHover();
    m_main.plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineWidget::updateBands() {
    const bool on = m_state && m_state->timeRange().has_value() && m_index;
    const double from = on ? m_state->timeRange()->from : 0.0;
    const double to = on ? m_state->timeRange()->to : 0.0;
    m_main.bands->show(on, from, to);
    m_overviewPart->setBand(on, from, to);
}

void TimelineWidget::updateInfo() {
    // a message over the plot when there is nothing to draw
    QString empty;
    if (!m_doc) {
        empty = tr("No trace open");
    } else if (m_index && m_index->recordCount() == 0) {
        empty = m_doc->isLoading() ? tr("Waiting for records…")
                                   : tr("This trace has no records with a time.");
    } else if (m_index && m_main.lanes->baseRows().isEmpty()) {
        empty = tr("Every lane is hidden (Lanes menu).");
    }
    m_empty->setText(empty);
    m_empty->setGeometry(m_main.plot->rect());
    m_empty->setVisible(!empty.isEmpty());
    const QCPRange r = visibleRange();
    m_actions->showInfo(m_index.get(), m_builder->filterIndex().get(), m_builder->isFiltering(),
                        m_main.lanes->baseRows(), r.lower, r.upper);
    updateBusy();
}

void TimelineWidget::updateBusy() {
    m_actions->showProgress(m_doc.get(), m_index.get(), m_builder->stage());
}

// ---------------------------------------------------------------------------------------------
// Mouse and keyboard

void TimelineWidget::keyPressEvent(QKeyEvent *event) {
    if (!m_commands->keyPressed(event)) {
        QWidget::keyPressEvent(event);
    }
}

bool TimelineWidget::isRatePlotVisible() const {
    return m_main.ratePlot->isShown();
}

const QVector<QCPGraph *> &TimelineWidget::rateGraphs() const {
    return m_main.ratePlot->graphs();
}

// ---------------------------------------------------------------------------------------------
// Menus

QPointF TimelineWidget::tickPosition(int record) const {
    return m_main.lanes->tickPosition(record);
}

QMargins TimelineWidget::naturalPlotMargins() const {
    return m_main.marginGroup->natural();
}

void TimelineWidget::setPlotMarginFloor(const QMargins &floor) {
    if (m_main.marginGroup->setFloor(floor)) {
        m_main.plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

QMargins TimelineWidget::plotMarginFloor() const {
    return m_main.marginGroup->floor();
}

void TimelineWidget::showTimeGuide(double t) {
    m_interaction->showGuide(t);
}

double TimelineWidget::timeGuide() const {
    return m_interaction->guide();
}

// ---------------------------------------------------------------------------------------------
// Filter, followed key, keep newest

void TimelineWidget::setFilterMode(FilterMode mode) {
    m_filterMode = mode;
    {
        const QSignalBlocker block(m_actions->hideFiltered());
        m_actions->hideFiltered()->setChecked(mode == FilterMode::Hide);
    }
    applyFilterIndex();
}

void TimelineWidget::onFilterChanged() {
    const auto records = m_state && m_doc ? m_state->filterRecords() : nullptr;
    m_builder->setFilter(records, m_state ? m_state->filterAppliedText() : QString());
}

void TimelineWidget::applyFilterIndex() {
    m_main.lanes->setFilter(m_builder->filterIndex(), m_builder->filterRecords(), m_filterMode);
    m_overviewLanes->setFilter(m_builder->filterIndex(), m_builder->filterRecords(), m_filterMode);
    m_main.ratePlot->updateLegend();
    m_main.ratePlot->update();
    updateInfo();
    replotAll();
    emit filterIndexReady();
}

void TimelineWidget::onFollowedRecordsChanged() {
    const auto records = m_state && m_doc && !m_state->followedKey().isEmpty()
                             ? m_state->followedRecords()
                             : nullptr;
    m_builder->setFollowed(records);
}

void TimelineWidget::onTrailReady() {
    m_main.followLayer->setTrail(m_builder->trail());
    m_ovFollowLayer->setTrail(m_builder->trail());
    replotAll();
    emit followedTrailReady();
}

bool TimelineWidget::stepFollowed(int direction) {
    const std::shared_ptr<const FollowedTrail> trail = m_builder->trail();
    if (!trail || !m_doc || !m_state || trail->isEmpty()) {
        return false;
    }
    const int i = trail->step(m_doc->records(), m_state->selectedRecord(), direction);
    if (i < 0) {
        return false;
    }
    const FollowedTrail::Event &e = trail->events()[size_t(i)];
    // centred, keeping the zoom (first, so that the selection does not move the view again)
    m_viewport->centreOn(e.t);
    m_state->setSelectedRecord(e.record);
    return true;
}

void TimelineWidget::setKeepNewest(bool on) {
    m_viewport->setKeepNewest(on);
}

bool TimelineWidget::keepNewest() const {
    return m_viewport->keepNewest();
}

}  // namespace lmct
