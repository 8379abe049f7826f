#include "timeline/timelinefollowlayer.h"

#include "common/callcolors.h"
#include "timeline/timelinelanes.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace lmct {

TimelineFollowLayer::TimelineFollowLayer(TimelineLanes *lanes, const QString &layer, Style style)
    : QCPLayerable(lanes->parentPlot(), layer), m_lanes(lanes), m_style(style) {
    setColors(QPalette());
}

void TimelineFollowLayer::setTrail(std::shared_ptr<const FollowedTrail> trail) {
    m_trail = std::move(trail);
    m_drawn = Drawn();
}

void TimelineFollowLayer::setColors(const QPalette &pal) {
    m_base = pal.color(QPalette::Base);
    m_text = pal.color(QPalette::Text);
    m_highlight = pal.color(QPalette::Highlight);
}

void TimelineFollowLayer::applyDefaultAntialiasingHint(QCPPainter *painter) const {
    painter->setAntialiasing(true);
}

QRect TimelineFollowLayer::clipRect() const {
    if (m_style == Style::Overview && mParentPlot) {
        return mParentPlot->viewport();  // the marks sit on the strip's top edge
    }
    return m_lanes->keyAxis() ? m_lanes->keyAxis()->axisRect()->rect() : QRect();
}

void TimelineFollowLayer::draw(QCPPainter *p) {
    m_drawn = Drawn();
    if (!m_trail || m_trail->isEmpty() || !m_lanes->keyAxis() || m_lanes->rows().isEmpty()) {
        return;
    }
    if (m_style == Style::Overview) {
        drawOverview(p);
        return;
    }
    QCPAxis *key = m_lanes->keyAxis();
    const QRect ar = key->axisRect()->rect();
    const QCPRange range = key->range();
    const double secPerPx = range.size() / std::max(1, ar.width());
    // one event beyond each edge, so that connectors leave the view towards them
    const auto &ev = m_trail->events();
    int from = std::max(0, m_trail->lowerBound(range.lower - 8 * secPerPx) - 1);
    int to = std::min(m_trail->size(), m_trail->lowerBound(range.upper + 8 * secPerPx) + 1);
    const bool join = to - from <= maxJoined();

    struct Mark {
        int event;      // the first event the marker stands for
        int lastEvent;  // the last one (records within its width join it)
        QPointF at;
        QRectF row;
        QColor color;
    };
    QVector<Mark> marks;
    marks.reserve(std::min(to - from, 4096));
    // per row, the marker drawn last: a record within a marker's width of it joins it
    std::vector<int> lastOfRow(size_t(m_lanes->rows().size()), -1);
    for (int i = from; i < to; ++i) {
        const FollowedTrail::Event &e = ev[size_t(i)];
        const int row = m_lanes->rowOfLane(int(e.lane));
        if (row < 0) {
            continue;  // its lane is hidden
        }
        const QRectF rr = m_lanes->rowRect(row);
        const double x = key->coordToPixel(e.t);
        const double y = rr.center().y();
        const int last = lastOfRow[size_t(row)];
        if (last >= 0 && std::abs(x - marks[last].at.x()) < 8.0) {
            marks[last].lastEvent = i;
            continue;
        }
        lastOfRow[size_t(row)] = int(marks.size());
        const QString q = m_lanes->index() && e.lane < quint32(m_lanes->index()->laneCount())
                              ? m_lanes->index()->lane(int(e.lane)).qualname
                              : QString();
        marks.append({i, i, QPointF(x, y), rr, CallColors::forQualname(q)});
    }
    p->setAntialiasing(true);
    // connectors: successive followed records, under the markers
    if (join && marks.size() > 1) {
        QPen pen(m_text, 1.2);
        pen.setColor(QColor(m_text.red(), m_text.green(), m_text.blue(), 150));
        p->setPen(pen);
        p->setBrush(Qt::NoBrush);
        for (int k = 1; k < marks.size(); ++k) {
            p->drawLine(marks[k - 1].at, marks[k].at);
            ++m_drawn.joined;
        }
    }
    // markers: a ring in the lane colour with a halo of the background around it
    for (const Mark &m : std::as_const(marks)) {
        const double h = std::clamp(m.row.height() - 4, 8.0, 22.0);
        const QRectF ring(m.at.x() - 5, m.at.y() - h / 2, 10, h);
        if (!ar.adjusted(-6, 0, 6, 0).contains(m.at.toPoint())) {
            continue;
        }
        p->setBrush(Qt::NoBrush);
        p->setPen(QPen(m_base, 5));
        p->drawRoundedRect(ring, 3, 3);
        p->setPen(QPen(m.color.darker(115), 2.4));
        p->drawRoundedRect(ring, 3, 3);
        m_drawn.records.append(ev[size_t(m.event)].record);
        m_drawn.markers.append(m.at);
    }
    // gap labels, where they fit between their markers and clear of the others
    if (join && marks.size() > 1) {
        QFont f = p->font();
        f.setPointSizeF(f.pointSizeF() * 0.85);
        p->setFont(f);
        const QFontMetricsF fm(f);
        for (int k = 1; k < marks.size(); ++k) {
            const Mark &a = marks[k - 1], &b = marks[k];
            if (b.event != a.lastEvent + 1) {
                continue;  // the previous record is elsewhere (another marker, a hidden lane)
            }
            // the full label, else the duration alone, where it fits between the markers
            const double dx = std::abs(b.at.x() - a.at.x());
            QString text = m_trail->gapLabel(b.event);
            double w = fm.horizontalAdvance(text) + 8;
            if (w + 14 > dx) {
                text = m_trail->gapDuration(b.event);
                w = fm.horizontalAdvance(text) + 8;
            }
            if (text.isEmpty() || w + 14 > dx) {
                continue;
            }
            const double h = fm.height() + 2;
            const QPointF mid = (a.at + b.at) / 2;
            // above the connector, inside the lanes
            QRectF box(mid.x() - w / 2, mid.y() - h - 3, w, h);
            if (box.top() < ar.top()) {
                box.moveTop(mid.y() + 3);
            }
            if (!QRectF(ar).contains(box)) {
                continue;
            }
            const bool overlaps =
                std::any_of(m_drawn.labelRects.begin(), m_drawn.labelRects.end(),
                            [&box](const QRectF &r) { return r.intersects(box); });
            if (overlaps) {
                continue;
            }
            const bool meaning = text != m_trail->gapDuration(b.event);
            p->setPen(Qt::NoPen);
            QColor bg = meaning ? m_highlight : m_base;
            bg.setAlpha(225);
            p->setBrush(bg);
            p->drawRoundedRect(box, 3, 3);
            p->setPen(meaning ? QColor(Qt::white) : m_text);
            p->drawText(box, Qt::AlignCenter, text);
            m_drawn.labels.append(text);
            m_drawn.labelRects.append(box);
        }
    }
    p->setPen(Qt::NoPen);
    p->setBrush(Qt::NoBrush);
}

void TimelineFollowLayer::drawOverview(QCPPainter *p) {
    QCPAxis *key = m_lanes->keyAxis();
    const QRect ar = key->axisRect()->rect();
    const QCPRange range = key->range();
    const auto &ev = m_trail->events();
    const int from = m_trail->lowerBound(range.lower);
    const int to = m_trail->lowerBound(range.upper + 1e-12 * std::abs(range.upper));
    p->setAntialiasing(true);
    p->setPen(QPen(m_base, 1));
    p->setBrush(m_highlight);
    int lastX = INT_MIN;
    for (int i = from; i < to; ++i) {
        const int x = int(std::lround(key->coordToPixel(ev[size_t(i)].t)));
        if (x == lastX) {
            continue;
        }
        lastX = x;
        const double top = ar.top() - 3;
        p->drawPolygon(QPolygonF{QPointF(x - 4, top), QPointF(x + 4, top), QPointF(x, top + 7)});
        m_drawn.records.append(ev[size_t(i)].record);
        m_drawn.markers.append(QPointF(x, top));
    }
    p->setPen(Qt::NoPen);
    p->setBrush(Qt::NoBrush);
}

}  // namespace lmct
