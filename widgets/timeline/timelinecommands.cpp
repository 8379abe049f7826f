#include "timeline/timelinecommands.h"

#include "timeline/timelineactions.h"
#include "timeline/timelineexportactions.h"
#include "timeline/timelineinteraction.h"
#include "timeline/timelinewidget.h"

#include <qcustomplot.h>

#include <QKeyEvent>
#include <QMenu>
#include <QSettings>

namespace lmct {

namespace {

const QString kFilterModeKey = QStringLiteral("timeline/filterMode");

}  // namespace

TimelineCommands::TimelineCommands(TimelineWidget *widget) : QObject(widget), m_w(widget) {
    TimelineWidget *w = widget;
    connect(w->m_actions->relative(), &QAction::triggered, w,
            [w] { w->setTimeMode(TimelineWidget::TimeMode::Relative); });
    connect(w->m_actions->wall(), &QAction::triggered, w,
            [w] { w->setTimeMode(TimelineWidget::TimeMode::Wall); });
    connect(w->m_actions->utc(), &QAction::toggled, w, [w](bool on) {
        if (w->m_state) {
            w->m_state->setWallUtc(on);
        }
    });
    connect(w->m_actions->fit(), &QAction::triggered, w, &TimelineWidget::fitSelection);
    connect(w->m_actions->fitAll(), &QAction::triggered, w, &TimelineWidget::fitAll);
    connect(w->m_actions->back(), &QAction::triggered, w, &TimelineWidget::zoomBack);
    connect(w->m_actions, &TimelineActions::lanesMenuAboutToShow, this,
            &TimelineCommands::fillLanesMenu);
    connect(w->m_actions->rate(), &QAction::toggled, w, &TimelineWidget::setRatePlotVisible);
    connect(w->m_actions->hitRatio(), &QAction::toggled, w, &TimelineWidget::setHitPlotVisible);
    connect(w->m_actions->hideFiltered(), &QAction::toggled, w, [w](bool on) {
        w->setFilterMode(on ? TimelineWidget::FilterMode::Hide : TimelineWidget::FilterMode::Dim);
        QSettings().setValue(kFilterModeKey, on ? QStringLiteral("hide") : QStringLiteral("dim"));
    });
    connect(w->m_actions->keepNewest(), &QAction::toggled, w, &TimelineWidget::setKeepNewest);
    connect(w->m_actions->clearRange(), &QAction::triggered, w, [w] {
        if (w->m_state) {
            w->m_state->setTimeRange(std::nullopt);
        }
    });
}

TimelineLanes::FilterMode TimelineCommands::savedFilterMode() {
    return QSettings().value(kFilterModeKey).toString() == QLatin1String("hide")
               ? TimelineLanes::FilterMode::Hide
               : TimelineLanes::FilterMode::Dim;
}

bool TimelineCommands::keyPressed(QKeyEvent *event) {
    if (!m_w->m_index) {
        return false;
    }
    if (TimelineActions::navigate(event->key(), m_w->m_viewport,
                                  [this] { return m_w->m_interaction->anchorTime(); })) {
        event->accept();
        return true;
    }
    switch (event->key()) {
        case Qt::Key_F:
            m_w->fitSelection();
            break;
        case Qt::Key_Home:
            m_w->fitAll();
            break;
        case Qt::Key_End:
            m_w->setKeepNewest(!m_w->keepNewest());
            break;
        case Qt::Key_Period:
        case Qt::Key_Comma:
            if (!m_w->m_builder->trail() || event->modifiers() != Qt::NoModifier) {
                return false;
            }
            m_w->stepFollowed(event->key() == Qt::Key_Period ? 1 : -1);
            break;
        case Qt::Key_Backspace:
            m_w->zoomBack();
            break;
        case Qt::Key_Escape:
            if (m_w->m_interaction->isDragging()) {
                m_w->m_interaction->cancelDrag();
            } else if (m_w->m_state) {
                m_w->m_state->setTimeRange(std::nullopt);
            }
            break;
        default:
            return false;
    }
    event->accept();
    return true;
}

void TimelineCommands::fillLanesMenu(QMenu *menu) {
    TimelineActions::fillLanesMenu(
        menu, m_w->m_layout, m_w,
        [this](const QString &k, bool hidden) { m_w->setLaneHidden(k, hidden); },
        [this] { m_w->resetLanes(); });
    // the plots under the lanes
    menu->addSeparator();
    menu->addAction(m_w->m_actions->rate());
    menu->addAction(m_w->m_actions->hitRatio());
}

void TimelineCommands::showContextMenu(const QPoint &pos) {
    QMenu menu(m_w);
    // a lane row under the cursor (plot area or its label)
    int row = -1;
    const QRect lr = m_w->m_main.lanesRect->rect();
    if (pos.y() >= lr.top() && pos.y() <= lr.bottom() && pos.x() <= lr.right()) {
        row = m_w->m_main.lanes->rowAt(pos.y());
    }
    if (row >= 0) {
        const QString key = m_w->m_main.lanes->rows()[row].key;
        TimelineActions::addLaneActions(
            &menu, m_w->m_main.lanes->rows()[row].label, row, int(m_w->m_main.lanes->rows().size()),
            m_w, [this, key] { m_w->setLaneHidden(key, true); },
            [this, key](int delta) { m_w->moveLane(key, delta); });
    }
    QMenu *lanes = menu.addMenu(tr("Lanes"));
    fillLanesMenu(lanes);
    menu.addSeparator();
    m_w->m_actions->addViewActions(&menu, m_w->m_state && m_w->m_state->selectedRecord() >= 0,
                                   m_w->m_state && m_w->m_state->timeRange());
    menu.addSeparator();
    m_w->m_exportActions->addTo(&menu);
    m_w->m_interaction->hideHover();
    menu.exec(m_w->m_main.plot->mapToGlobal(pos));
}

}  // namespace lmct
