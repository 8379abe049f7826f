#include "timeline/timelineinteraction.h"

#include "codec/objectkey.h"
#include "codec/qualname.h"
#include "codec/recordsummary.h"
#include "common/callcolors.h"
#include "timeline/timeaxisticker.h"
#include "timeline/timelineoverlay.h"
#include "timeline/timelineoverview.h"
#include "timeline/timelinerateplot.h"
#include "timeline/timelineviewport.h"
#include "util/timeformat.h"

#include <qcustomplot.h>

#include <QCursor>
#include <QKeyEvent>
#include <QLocale>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

/**
 * `n` in the locale with its digit groups joined by no-break spaces: the rich text of a tooltip
 * turns other spaces (U+202F of French, thin spaces) into ordinary ones and may wrap there.
 */
QString unbrokenNumber(qint64 n) {
    QString s = QLocale().toString(n);
    for (QChar &c : s) {
        if (c.isSpace()) {
            c = QChar(QChar::Nbsp);
        }
    }
    return s;
}

}  // namespace

TimelineInteraction::TimelineInteraction(const Parts &parts, QObject *parent)
    : QObject(parent),
      m_plot(parts.plot),
      m_lanesRect(parts.lanesRect),
      m_rateRect(parts.rateRect),
      m_lanes(parts.lanes),
      m_overlay(parts.overlay),
      m_viewport(parts.viewport),
      m_ticker(parts.ticker),
      m_ratePlot(parts.ratePlot),
      m_overview(parts.overview) {
    connect(m_plot, &QCustomPlot::mousePress, this, &TimelineInteraction::onPress);
    connect(m_plot, &QCustomPlot::mouseMove, this, &TimelineInteraction::onMove);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &TimelineInteraction::onRelease);
    connect(m_plot, &QCustomPlot::mouseWheel, this, &TimelineInteraction::onWheel);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, &TimelineInteraction::onDoubleClick);
    m_plot->setMouseTracking(true);
    m_plot->installEventFilter(this);
}

void TimelineInteraction::setData(std::shared_ptr<const TraceDocument> doc,
                                  std::shared_ptr<const TimelineIndex> index,
                                  std::vector<std::shared_ptr<const ContextPairs>> pairs) {
    m_doc = std::move(doc);
    m_index = std::move(index);
    m_pairs = std::move(pairs);
}

QCPAxis *TimelineInteraction::timeAxis() const {
    return m_lanesRect->axis(QCPAxis::atTop);
}

QCPRange TimelineInteraction::visibleRange() const {
    const TimelineViewport::Range w = m_viewport->window();
    return QCPRange(w.lower, w.upper);
}

bool TimelineInteraction::isDragging() const {
    return m_drag != Drag::None || m_overview->isDragging();
}

void TimelineInteraction::cancelDrag() {
    m_drag = Drag::None;
    m_overview->cancelDrag();
    m_overlay->hideBand();
}

void TimelineInteraction::refreshHover() {
    // what is under a still mouse changed (keys, wheel, a growing trace): the hover and its
    // tooltip follow, or hide
    if (m_lastMouse.x() >= 0 && !isDragging() &&
        (m_overlay->hoverVisible() || m_hoverRecord != -2)) {
        showHover(m_lastMouse, m_plot->mapToGlobal(m_lastMouse));
    }
}

bool TimelineInteraction::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_plot && event->type() == QEvent::Leave) {
        m_lastMouse = QPoint(-1, -1);
        hideHover();
    }
    // Esc during a drag cancels the drag, before any window shortcut on Esc sees it
    if (watched == m_plot && event->type() == QEvent::ShortcutOverride &&
        static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape && isDragging()) {
        event->accept();
        return true;
    }
    return QObject::eventFilter(watched, event);
}

double TimelineInteraction::timeAt(double x) const {
    return timeAxis()->pixelToCoord(x);
}

bool TimelineInteraction::inData(const QPoint &pos) const {
    return m_lanesRect->rect().contains(pos) ||
           (m_ratePlot->isShown() && m_rateRect->rect().contains(pos));
}

void TimelineInteraction::placeOverlay() {
    // the time tags end above the time axis' tick labels
    QCPAxis *axis = timeAxis();
    const int labelsTop = m_lanesRect->top() - axis->offset() - axis->tickLengthOut() -
                          axis->tickLabelPadding() - QFontMetrics(axis->tickLabelFont()).height();
    m_overlay->setAreas(m_lanesRect->rect(), m_ratePlot->isShown() ? m_rateRect->rect() : QRect(),
                        std::max(0, labelsTop - 1));
}

double TimelineInteraction::anchorTime() const {
    const QPoint p = m_plot->mapFromGlobal(QCursor::pos());
    if (m_plot->rect().contains(p) && inData(p)) {
        return timeAt(p.x());
    }
    const QCPRange r = visibleRange();
    return (r.lower + r.upper) / 2;
}

void TimelineInteraction::onPress(QMouseEvent *e) {
    m_plot->setFocus(Qt::MouseFocusReason);
    m_pressPos = e->pos();
    m_moved = false;
    m_pressRange = visibleRange();
    m_pressTime = timeAt(e->pos().x());
    m_drag = Drag::None;
    if (!inData(e->pos()) || !m_index) {
        return;
    }
    if (e->button() == Qt::LeftButton) {
        if (e->modifiers() & Qt::ShiftModifier) {
            m_drag = Drag::Range;
        } else if (e->modifiers() & Qt::ControlModifier) {
            m_drag = Drag::Zoom;
        } else {
            m_drag = Drag::Pan;
        }
    } else if (e->button() == Qt::MiddleButton) {
        m_drag = Drag::Pan;
    }
}

void TimelineInteraction::onMove(QMouseEvent *e) {
    m_lastMouse = e->pos();
    if (m_drag == Drag::None) {
        showHover(e->pos(), e->globalPosition().toPoint());
        return;
    }
    if (!m_moved && (e->pos() - m_pressPos).manhattanLength() < 4) {
        return;
    }
    if (!m_moved) {
        m_moved = true;
        hideHover();
        if (m_drag == Drag::Pan) {
            m_plot->setCursor(Qt::ClosedHandCursor);
            m_viewport->beginNavigation();
        }
    }
    if (m_drag == Drag::Pan) {
        const double secPerPx = m_pressRange.size() / std::max(1, m_lanesRect->width());
        const double dt = (e->pos().x() - m_pressPos.x()) * secPerPx;
        m_viewport->continueNavigation();
        m_viewport->setWindow(m_pressRange.lower - dt, m_pressRange.upper - dt);
        return;
    }
    const double t = timeAt(e->pos().x());
    const double lo = std::min(t, m_pressTime), hi = std::max(t, m_pressTime);
    m_overlay->showBand(
        timeAxis()->coordToPixel(lo), timeAxis()->coordToPixel(hi),
        m_drag == Drag::Range ? TimelineOverlay::BandKind::Range : TimelineOverlay::BandKind::Zoom,
        (m_drag == Drag::Range ? tr("range %1") : tr("zoom to %1"))
            .arg(TimeFormat::duration(hi - lo)));
}

void TimelineInteraction::onRelease(QMouseEvent *e) {
    const Drag d = m_drag;
    m_drag = Drag::None;
    m_plot->unsetCursor();
    m_overlay->hideBand();
    const double t = timeAt(e->pos().x());
    const double lo = std::min(t, m_pressTime), hi = std::max(t, m_pressTime);
    if (d == Drag::Pan && !m_moved && e->button() == Qt::LeftButton) {
        if (m_lanesRect->rect().contains(e->pos()) && m_state) {
            const TimelineLanes::Hit hit = m_lanes->hitTest(e->pos(), 5);
            m_state->setSelectedRecord(hit.record);
        }
    } else if (d == Drag::Zoom && m_moved && hi > lo) {
        m_viewport->noteJump();
        m_viewport->setWindow(lo, hi);
    } else if (d == Drag::Range && m_moved && hi > lo && m_state) {
        m_state->setTimeRange(ViewState::TimeRange{lo, hi});
    }
    if (inData(e->pos())) {
        showHover(e->pos(), e->globalPosition().toPoint());
    }
}

void TimelineInteraction::onDoubleClick(QMouseEvent *e) {
    if (!m_lanesRect->rect().contains(e->pos()) || !m_index) {
        return;
    }
    const TimelineLanes::Hit hit = m_lanes->hitTest(e->pos(), 5);
    if (hit.span >= 0 && hit.row >= 0) {
        const auto &row = m_lanes->rows()[hit.row];
        const ContextPairs::Span &s = m_pairs[size_t(row.family)]->spans()[size_t(hit.span)];
        const double w = std::max(s.duration(), 1e-6);
        m_viewport->beginNavigation();
        m_viewport->setWindow(s.start - 0.25 * w, s.end + 0.25 * w);
    } else {
        m_viewport->zoomBy(0.25, timeAt(e->pos().x()));
    }
}

void TimelineInteraction::onWheel(QWheelEvent *e) {
    e->accept();
    if (!m_index) {
        return;
    }
    const QPoint ad = e->angleDelta();
    if (std::abs(ad.x()) > std::abs(ad.y())) {
        m_viewport->panBy(-ad.x() / 120.0 * 0.1);
    } else if (e->modifiers() & Qt::ShiftModifier) {
        m_viewport->panBy(-ad.y() / 120.0 * 0.1);
    } else if (ad.y() != 0) {
        const double x = e->position().x();
        const double anchor = inData(e->position().toPoint())
                                  ? timeAt(x)
                                  : (visibleRange().lower + visibleRange().upper) / 2;
        m_viewport->zoomBy(std::pow(0.8, ad.y() / 120.0), anchor);
    }
}

void TimelineInteraction::showHover(const QPoint &pos, const QPoint &globalPos) {
    if (!m_index || !inData(pos)) {
        hideHover();
        return;
    }
    const double t = timeAt(pos.x());
    m_overlay->showHover(pos.x(), timeTag(t));
    m_ownHover = true;
    emit hoverTimeChanged(t);
    TimelineLanes::Hit hit;
    if (m_lanesRect->rect().contains(pos)) {
        hit = m_lanes->hitTest(pos, 5);
    }
    if (hit.record >= 0 || hit.count > 0) {
        // Compared as text: after a zoom or pan under a still mouse the record can be the same
        // while the pixel's count and width are not (the tooltip would go stale).
        const QString tip = tooltipFor(hit);
        if (hit.record != m_hoverRecord || tip != m_hoverTip || !QToolTip::isVisible()) {
            m_hoverRecord = hit.record;
            m_hoverTip = tip;
            QToolTip::showText(globalPos + QPoint(14, 10), tip, m_plot);
        }
    } else if (m_hoverRecord != -2) {
        m_hoverRecord = -2;
        m_hoverTip.clear();
        QToolTip::hideText();
    }
}

void TimelineInteraction::hideHover() {
    m_overlay->hideHover();
    if (m_hoverRecord != -2) {
        QToolTip::hideText();
        m_hoverRecord = -2;
        m_hoverTip.clear();
    }
    if (m_ownHover) {
        m_ownHover = false;
        emit hoverTimeChanged(qQNaN());
        refreshGuide();
    }
}

QString TimelineInteraction::timeTag(double t) const {
    const QCPRange r = visibleRange();
    const double secPerPx = r.size() / std::max(1, m_lanesRect->width());
    const int decimals = std::clamp(int(std::ceil(-std::log10(secPerPx))), 0, 9);
    // in the axis' display (h:mm:ss when its ticks are)
    return m_ticker->cursorLabel(t, r, decimals);
}

void TimelineInteraction::showGuide(double t) {
    m_guide = t;
    refreshGuide();
}

void TimelineInteraction::refreshGuide() {
    if (m_ownHover) {
        return;  // the mouse's own hover line is shown
    }
    const double x = std::isnan(m_guide) ? qQNaN() : timeAxis()->coordToPixel(m_guide);
    if (!m_index || std::isnan(x) || x < m_lanesRect->left() || x > m_lanesRect->right()) {
        m_overlay->hideHover();
        return;
    }
    m_overlay->showHover(x, timeTag(m_guide));
}

QString TimelineInteraction::tooltipFor(const TimelineLanes::Hit &hit) const {
    if (!m_doc || hit.record < 0 || hit.record >= m_doc->records().size()) {
        return QString();
    }
    const RecordStore &rs = m_doc->records();
    const bool utc = m_ticker->utc();
    auto recordLines = [&](int rec) {
        const QString q = rs.qualname(rec);
        const QColor c = CallColors::forQualname(q);
        QString s = QStringLiteral("<span style='color:%1'>&#9632;</span> <b>%2</b>")
                        .arg(c.name(), Qualname::displayName(q).toHtmlEscaped());
        s += QStringLiteral("<br>t_mono %1 s<br>t_wall %2")
                 .arg(TimeFormat::mono(rs.tMono(rec)), TimeFormat::wall(rs.tWall(rec), utc));
        const auto args = m_doc->args(rec);
        const int keys = ObjectKey::count(args->value);
        const QString req = RecordSummary::requestId(args->value);
        s += keys == 1 ? tr("<br>1 key") : tr("<br>%1 keys").arg(unbrokenNumber(keys));
        if (!req.isEmpty()) {
            s += tr(" · request %1").arg(req.toHtmlEscaped());
        }
        s += tr("<br><span style='color:gray'>record #%1</span>").arg(unbrokenNumber(rec));
        return s;
    };
    // Sections separated by rules, each its own non-wrapping block: a rule ends the block, and
    // text after it wrapped again (e.g. between the digit groups of "1 234 calls").
    QStringList sections;
    if (hit.span >= 0 && hit.row >= 0) {
        const auto &row = m_lanes->rows()[hit.row];
        const ContextPairs::Span &s = m_pairs[size_t(row.family)]->spans()[size_t(hit.span)];
        sections << tr("<b>%1</b> · %2<br>__enter__ #%3 → __exit__ #%4")
                        .arg(row.label.toHtmlEscaped(), TimeFormat::duration(s.duration()),
                             unbrokenNumber(s.enter), unbrokenNumber(s.exit));
        sections << recordLines(s.enter);
    } else {
        if (hit.unmatched) {
            sections << tr(
                "<b style='color:#d03030'>Unmatched</b>: no partner with the same "
                "keys in the trace");
        }
        sections << recordLines(hit.record);
    }
    if (hit.count > 1) {
        sections << tr("%1 calls in this pixel (%2): zoom in to separate them")
                        .arg(unbrokenNumber(hit.count), TimeFormat::duration(hit.to - hit.from));
    }
    QString out;
    for (const QString &section : std::as_const(sections)) {
        if (!out.isEmpty()) {
            out += QStringLiteral("<hr>");
        }
        out +=
            QStringLiteral("<div style='white-space:nowrap'>") + section + QStringLiteral("</div>");
    }
    return out;
}

}  // namespace lmct
