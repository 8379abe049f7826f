#include "timeline/timelineoverlay.h"

#include <QPaintEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace lmct {

TimelineOverlay::TimelineOverlay(QWidget *plot) : QWidget(plot) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
    setGeometry(plot->rect());
    plot->installEventFilter(this);
}

void TimelineOverlay::setAreas(const QRect &lanes, const QRect &rate, int tagBottom) {
    if (lanes == m_lanes && rate == m_rate && tagBottom == m_tagBottom) {
        return;
    }
    m_lanes = lanes;
    m_rate = rate;
    m_tagBottom = tagBottom;
    if (parentWidget() && geometry() != parentWidget()->rect()) {
        setGeometry(parentWidget()->rect());
    }
    update();
}

QRect TimelineOverlay::tagRect(double x, const QString &text) const {
    const QFontMetrics fm(font());
    const int w = fm.horizontalAdvance(text) + 10;
    const int h = fm.height() + 2;
    int left = int(std::lround(x)) - w / 2;
    left = std::clamp(left, 0, std::max(0, width() - w));
    // Above the tick labels (it hid the one under it), in the axis title's row; where the
    // plot leaves no room above them, at its top edge.
    const int bottom = m_tagBottom >= 0 ? m_tagBottom : m_lanes.top() - 1;
    return QRect(left, std::max(0, bottom - h), w, h);
}

QRect TimelineOverlay::hoverRect() const {
    if (!m_hover) {
        return QRect();
    }
    const int x = int(std::floor(m_x));
    QRect r(x - 1, m_lanes.top(), 3, m_lanes.height());
    if (!m_rate.isEmpty()) {
        r = r.united(QRect(x - 1, m_rate.top(), 3, m_rate.height()));
    }
    return r.united(tagRect(m_x, m_tag));
}

QRect TimelineOverlay::bandRect() const {
    if (!m_band) {
        return QRect();
    }
    const int a = int(std::floor(std::min(m_b0, m_b1))) - 1;
    const int b = int(std::ceil(std::max(m_b0, m_b1))) + 1;
    const QRect r(a, m_lanes.top(), b - a + 1, m_lanes.height());
    return r.united(tagRect((m_b0 + m_b1) / 2, m_label));
}

void TimelineOverlay::showHover(double x, const QString &tag) {
    const QRect before = hoverRect();
    m_hover = true;
    m_x = x;
    m_tag = tag;
    update(before.united(hoverRect()).adjusted(-1, -1, 1, 1));
}

void TimelineOverlay::hideHover() {
    if (!m_hover) {
        return;
    }
    const QRect before = hoverRect();
    m_hover = false;
    update(before.adjusted(-1, -1, 1, 1));
}

void TimelineOverlay::showBand(double x0, double x1, BandKind kind, const QString &label) {
    const QRect before = bandRect();
    m_band = true;
    m_b0 = x0;
    m_b1 = x1;
    m_kind = kind;
    m_label = label;
    update(before.united(bandRect()).adjusted(-1, -1, 1, 1));
}

void TimelineOverlay::hideBand() {
    if (!m_band) {
        return;
    }
    const QRect before = bandRect();
    m_band = false;
    update(before.adjusted(-1, -1, 1, 1));
}

bool TimelineOverlay::eventFilter(QObject *watched, QEvent *event) {
    if (watched == parentWidget() && event->type() == QEvent::Resize) {
        setGeometry(parentWidget()->rect());
    }
    return QWidget::eventFilter(watched, event);
}

void TimelineOverlay::paintEvent(QPaintEvent *) {
    QPainter p(this);
    const QPalette pal = palette();
    const QColor hl = pal.color(QPalette::Highlight);
    const QColor text = pal.color(QPalette::Text);
    auto tag = [&](double x, const QString &s) {
        const QRect r = tagRect(x, s);
        p.setPen(Qt::NoPen);
        p.setBrush(hl);
        p.drawRoundedRect(r, 3, 3);
        p.setPen(pal.color(QPalette::HighlightedText));
        p.drawText(r, Qt::AlignCenter, s);
    };
    if (m_band) {
        const double a = std::min(m_b0, m_b1), b = std::max(m_b0, m_b1);
        QColor fill = hl;
        fill.setAlpha(m_kind == BandKind::Range ? 60 : 28);
        const QRectF r(a, m_lanes.top(), b - a, m_lanes.height());
        p.fillRect(r, fill);
        p.setPen(QPen(hl, 1, m_kind == BandKind::Range ? Qt::SolidLine : Qt::DashLine));
        p.drawLine(QPointF(a, r.top()), QPointF(a, r.bottom()));
        p.drawLine(QPointF(b, r.top()), QPointF(b, r.bottom()));
        tag((a + b) / 2, m_label);
    }
    if (m_hover) {
        QColor c = text;
        c.setAlpha(140);
        QPen pen(c, 1, Qt::DashLine);
        p.setPen(pen);
        const double x = std::floor(m_x) + 0.5;
        p.drawLine(QPointF(x, m_lanes.top()), QPointF(x, m_lanes.bottom() + 1));
        if (!m_rate.isEmpty()) {
            p.drawLine(QPointF(x, m_rate.top()), QPointF(x, m_rate.bottom() + 1));
        }
        if (!m_band) {
            tag(m_x, m_tag);
        }
    }
}

}  // namespace lmct
