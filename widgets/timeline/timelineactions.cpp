#include "timeline/timelineactions.h"

#include "codec/qualname.h"
#include "common/stablelabel.h"
#include "timeline/lanelayout.h"
#include "timeline/timelineindex.h"
#include "timeline/timelineviewport.h"
#include "trace/tracedocument.h"
#include "util/timeformat.h"

#include <QAction>
#include <QActionGroup>
#include <QLocale>
#include <QMenu>
#include <QToolBar>
#include <QToolButton>

namespace lmct {

TimelineActions::TimelineActions(QWidget *timeline) : QObject(timeline) {
    m_toolbar = new QToolBar(timeline);
    m_toolbar->setIconSize(QSize(16, 16));
    m_toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto *modes = new QActionGroup(this);
    m_relative = m_toolbar->addAction(tr("Relative time (t_mono)"));
    m_relative->setIconText(tr("Relative"));
    m_relative->setToolTip(tr("Time axis: t_mono, seconds since the trace started"));
    m_wall = m_toolbar->addAction(tr("Wall clock"));
    m_wall->setToolTip(tr("Time axis: wall clock (t_wall)"));
    for (QAction *a : {m_relative, m_wall}) {
        a->setCheckable(true);
        modes->addAction(a);
    }
    m_relative->setChecked(true);
    m_utc = m_toolbar->addAction(tr("UTC"));
    m_utc->setCheckable(true);
    m_utc->setToolTip(tr("Show wall-clock times in UTC instead of local time"));
    m_toolbar->addSeparator();
    m_fit = m_toolbar->addAction(tr("Fit"));
    m_fit->setIconText(tr("Fit"));
    m_fit->setToolTip(tr("Fit the time range or the selected record; again: everything (F)"));
    m_back = m_toolbar->addAction(tr("Previous view"));
    m_back->setIconText(tr("Back"));
    m_back->setToolTip(tr("Previous view (Backspace)"));
    m_back->setEnabled(false);
    m_toolbar->addSeparator();
    auto *lanesButton = new QToolButton(m_toolbar);
    lanesButton->setText(tr("Lanes"));
    lanesButton->setToolTip(tr("Show, hide and reorder lanes"));
    lanesButton->setPopupMode(QToolButton::InstantPopup);
    m_lanesMenu = new QMenu(lanesButton);
    connect(m_lanesMenu, &QMenu::aboutToShow, this,
            [this] { emit lanesMenuAboutToShow(m_lanesMenu); });
    lanesButton->setMenu(m_lanesMenu);
    m_toolbar->addWidget(lanesButton);
    m_rate = m_toolbar->addAction(tr("Rate"));
    m_rate->setCheckable(true);
    m_rate->setChecked(true);
    m_rate->setToolTip(tr("Show the calls-per-second plot"));
    // (in the menus only: the toolbar has no room left at a default window's width)
    m_hitRatio = new QAction(tr("Hit ratio"), this);
    m_hitRatio->setCheckable(true);
    m_hitRatio->setChecked(true);
    m_hitRatio->setEnabled(false);  // (until the What-if tab has a hit ratio over time)
    m_hitRatio->setToolTip(
        tr("Show the prefetch hit ratio over time of the policies and the "
           "capacity chosen in the Cache Behaviour pane's What-if tab"));
    m_hideFiltered = m_toolbar->addAction(tr("Hide filtered out"));
    m_hideFiltered->setCheckable(true);
    m_hideFiltered->setToolTip(
        tr("Records the filter does not match: hidden when on, dimmed when off"));
    m_keepNewest = m_toolbar->addAction(tr("Keep newest in view"));
    m_keepNewest->setCheckable(true);
    m_keepNewest->setToolTip(
        tr("While the trace grows, keep the newest record at the right edge (End)"));
    auto *spacer = new QWidget(m_toolbar);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_toolbar->addWidget(spacer);
    // Both change their text while a trace loads or grows: stable widths, so that they do not
    // push each other (or the toolbar) around.
    m_busy = new StableLabel(m_toolbar);
    m_busy->setObjectName(QStringLiteral("timelineBusy"));
    m_busy->setWidthTemplate(tr("Pairing spans…"));
    m_busyAction = m_toolbar->addWidget(m_busy);  // (its visibility goes through the action)
    m_busyAction->setVisible(false);
    m_info = new StableLabel(m_toolbar);
    m_info->setObjectName(QStringLiteral("timelineInfo"));
    m_info->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_info->setContentsMargins(8, 0, 6, 0);
    // (a modest reserve: a wide one pushed the label into the toolbar's overflow menu in the
    // default window)
    m_info->setWidthTemplate(
        tr("%1 visible · %2 calls").arg(QStringLiteral("0.000 s"), QLocale().toString(1000)));
    m_toolbar->addWidget(m_info);

    // not on the toolbar: the context menu and the keyboard
    m_fitAll = new QAction(tr("Fit everything"), this);
    // (Esc: see the class comment; the text names it)
    m_clearRange = new QAction(tr("Clear the time range\tEsc"), this);
    for (QAction *a : {m_fit, m_fitAll, m_back, m_keepNewest}) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        timeline->addAction(a);
    }
    setShortcutsEnabled(false);
}

void TimelineActions::setShortcutsEnabled(bool on) {
    m_fit->setShortcut(on ? QKeySequence(Qt::Key_F) : QKeySequence());
    m_fitAll->setShortcut(on ? QKeySequence(Qt::Key_Home) : QKeySequence());
    m_back->setShortcut(on ? QKeySequence(Qt::Key_Backspace) : QKeySequence());
    m_keepNewest->setShortcut(on ? QKeySequence(Qt::Key_End) : QKeySequence());
}

void TimelineActions::setBusy(const QString &text, const QString &tip) {
    if (!text.isEmpty()) {
        m_busy->setText(text);
    }
    m_busy->setToolTip(tip);
    m_info->setToolTip(tip);
    m_busyAction->setVisible(!text.isEmpty());
}

void TimelineActions::showInfo(const TimelineIndex *index, const TimelineIndex *filterIndex,
                               bool filtering, const QVector<TimelineLanes::Row> &rows, double from,
                               double to) {
    if (!index) {
        m_info->setText(QString());
        return;
    }
    qint64 n = 0, matching = 0;
    for (const TimelineLanes::Row &row : rows) {
        if (row.kind == TimelineLanes::Row::Kind::Calls && row.lane >= 0) {
            n += index->countIn(row.lane, from, to);
            if (filterIndex && row.lane < filterIndex->laneCount()) {
                matching += filterIndex->countIn(row.lane, from, to);
            }
        }
    }
    QString text =
        tr("%1 visible · %2 calls").arg(TimeFormat::duration(to - from), QLocale().toString(n));
    if (filterIndex) {
        text += tr(" · %1 matching").arg(QLocale().toString(matching));
    }
    if (filtering) {
        text += tr(" · filtering…");
    }
    m_info->setText(text);
}

void TimelineActions::showProgress(const TraceDocument *doc, const TimelineIndex *index,
                                   const QString &stage) {
    // While a trace loads (or grows) the index lags behind what was read: the counts of the
    // info label are of what is drawn, and this says how much that is.
    const qint64 drawn = index ? index->recordCount() : 0;
    // (records without a finite t_mono are indexed but never drawn: e.g. "Indexing…"
    // shown for good on a trace with one NaN t_mono)
    const qint64 indexed = index ? drawn + index->untimedCount() : 0;
    const qint64 read = doc ? doc->records().size() : 0;
    // Short texts (within the label's reserve, so that nothing moves), the counts in the tooltip.
    QString text = stage;
    QString tip;
    if (doc && index && indexed < read) {
        text = doc->isLoading() ? tr("Loading…") : tr("Indexing…");
        tip = tr("%1 records read, %2 drawn: the timeline catches up as it reads")
                  .arg(QLocale().toString(read), QLocale().toString(drawn));
    }
    setBusy(text, tip);
}

bool TimelineActions::navigate(int key, TimelineViewport *viewport,
                               const std::function<double()> &anchor) {
    switch (key) {
        case Qt::Key_W:
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            viewport->zoomBy(0.8, anchor());
            return true;
        case Qt::Key_S:
        case Qt::Key_Minus:
            viewport->zoomBy(1.25, anchor());
            return true;
        case Qt::Key_A:
        case Qt::Key_Left:
            viewport->panBy(-0.15);
            return true;
        case Qt::Key_D:
        case Qt::Key_Right:
            viewport->panBy(0.15);
            return true;
        default:
            return false;
    }
}

void TimelineActions::fillLanesMenu(QMenu *menu, const LaneLayout &layout, QObject *context,
                                    const std::function<void(const QString &, bool)> &setHidden,
                                    const std::function<void()> &reset) {
    menu->clear();
    for (const QString &k : layout.order()) {
        const QString label =
            LaneLayout::isSpanKey(k)
                ? tr("%1 (spans)").arg(Qualname::displayName(LaneLayout::nameOf(k)))
                : Qualname::displayName(k);
        QAction *a = menu->addAction(label);
        a->setCheckable(true);
        a->setChecked(!layout.isHidden(k));
        connect(a, &QAction::toggled, context, [setHidden, k](bool on) { setHidden(k, !on); });
    }
    menu->addSeparator();
    menu->addAction(tr("Show all lanes in call-flow order"), context, reset);
}

void TimelineActions::addLaneActions(QMenu *menu, const QString &name, int row, int rowCount,
                                     QObject *context, const std::function<void()> &hide,
                                     const std::function<void(int)> &move) {
    menu->addAction(tr("Hide “%1”").arg(name), context, hide);
    QAction *up = menu->addAction(tr("Move up"), context, [move] { move(-1); });
    up->setEnabled(row > 0);
    QAction *down = menu->addAction(tr("Move down"), context, [move] { move(1); });
    down->setEnabled(row < rowCount - 1);
    menu->addAction(tr("Move to top"), context, [move] { move(-100000); })->setEnabled(row > 0);
    menu->addAction(tr("Move to bottom"), context, [move] { move(100000); })
        ->setEnabled(row < rowCount - 1);
    menu->addSeparator();
}

void TimelineActions::setTimeAxis(bool wall) {
    m_relative->setChecked(!wall);
    m_wall->setChecked(wall);
}

void TimelineActions::addViewActions(QMenu *menu, bool hasRecord, bool hasRange) {
    menu->addAction(m_relative);
    menu->addAction(m_wall);
    menu->addAction(m_utc);
    menu->addSeparator();
    menu->addAction(m_fitAll);
    if (hasRange || hasRecord) {
        m_fit->setText(hasRange ? tr("Zoom to the time range") : tr("Zoom to the selected record"));
        menu->addAction(m_fit);
        connect(menu, &QMenu::aboutToHide, m_fit, [this] { m_fit->setText(tr("Fit")); });
    }
    if (hasRange) {
        menu->addAction(m_clearRange);
    }
    menu->addAction(m_back);
    menu->addSeparator();
    menu->addAction(m_rate);
    menu->addAction(m_hitRatio);
}

}  // namespace lmct
