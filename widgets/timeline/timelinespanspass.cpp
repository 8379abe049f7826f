#include "timeline/timelinespanspass.h"

#include "timeline/timelineframe.h"
#include "util/timeformat.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace lmct {

void TimelineSpansPass::draw(const TimelineFrame &f, const TimelineLanes::Row &row,
                             const QRectF &rr) {
    const auto &pairs = f.lanes->pairs();
    if (row.family < 0 || size_t(row.family) >= pairs.size() || !pairs[size_t(row.family)]) {
        return;
    }
    QCPPainter *p = f.painter;
    const TimelineColumns &c = f.columns;
    const ContextPairs &cp = *pairs[size_t(row.family)];
    const bool detailed = f.detailed;
    if (f.spansPending && cp.spans().empty() && cp.unmatchedEnters().empty() &&
        cp.unmatchedExits().empty()) {
        if (detailed) {
            p->setPen(TimelineFrame::withAlpha(f.text, 0.55));
            p->drawText(rr.adjusted(10, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter,
                        QObject::tr("spans are paired once the file has been read…"));
            p->setPen(Qt::NoPen);
        }
        return;
    }
    const double pad = detailed ? std::min(3.0, rr.height() * 0.12) : 0.0;
    const double top = rr.top() + pad;
    const double h = std::max(1.0, rr.height() - 2 * pad);
    const double px = 1.0 / c.dpr;
    const QCPRange range = f.range;
    const double logicalWidth = rr.width();
    const auto &spans = cp.spans();
    if (detailed && cp.spansIn(range.lower, range.upper, int(logicalWidth), &m_spanScratch)) {
        const int subRows = std::clamp(cp.depthCount(), 1, kMaxSubRows);
        const double subH = h / subRows;
        const double gapY = subH >= 6 ? 1.0 : 0.0;
        QVector<QRectF> bars, faintBars;
        bars.reserve(int(m_spanScratch.size()));
        struct Label {
            QRectF rect;
            QString text;
        };
        QVector<Label> labels;
        QVector<QRectF> selected;
        const QFontMetricsF fm(p->font());
        for (int k : m_spanScratch) {
            const ContextPairs::Span &s = spans[size_t(k)];
            double x0 = f.keyAxis->coordToPixel(s.start);
            double x1 = f.keyAxis->coordToPixel(s.end);
            x0 = std::max(x0, rr.left() - 2);
            x1 = std::min(x1, rr.right() + 2);
            x0 = std::floor(x0 * c.dpr) * px;
            x1 = std::max(x0 + px, std::ceil(x1 * c.dpr) * px);
            const int d = std::min(s.depth, subRows - 1);
            const QRectF b(x0, top + d * subH, x1 - x0, subH - gapY);
            if (!f.lanes->spanMatches(s.enter, s.exit)) {
                if (f.dim()) {
                    faintBars.append(b);
                }
                continue;
            }
            bars.append(b);
            if (s.enter == f.selected || s.exit == f.selected) {
                selected.append(b);
            }
            if (b.width() > 48 && subH >= fm.height() - 2) {
                const QString text = TimeFormat::duration(s.end - s.start);
                if (fm.horizontalAdvance(text) + 8 < b.width()) {
                    labels.append({b, text});
                }
            }
        }
        // fill, then an outline on the bars wide enough for one to read as an edge
        if (!faintBars.isEmpty()) {
            p->setBrush(TimelineFrame::withAlpha(row.color, 0.22));
            p->drawRects(faintBars.constData(), int(faintBars.size()));
        }
        p->setBrush(TimelineFrame::withAlpha(row.color, 0.8));
        p->drawRects(bars.constData(), int(bars.size()));
        QVector<QRectF> wide;
        for (const QRectF &b : std::as_const(bars)) {
            if (b.width() >= 6) {
                wide.append(b.adjusted(0, 0, -px, -px));
            }
        }
        if (!wide.isEmpty()) {
            p->setBrush(Qt::NoBrush);
            p->setPen(QPen(row.color.darker(150), 0));
            p->drawRects(wide.constData(), int(wide.size()));
            p->setPen(Qt::NoPen);
        }
        if (!labels.isEmpty()) {
            p->setPen(TimelineFrame::textOn(row.color));
            for (const Label &l : labels) {
                p->drawText(l.rect, Qt::AlignCenter, l.text);
            }
            p->setPen(Qt::NoPen);
        }
        if (!selected.isEmpty()) {
            p->setBrush(Qt::NoBrush);
            p->setPen(QPen(f.highlight, 2));
            for (const QRectF &b : selected) {
                p->drawRect(b.adjusted(-1, -1, 1, 1));
            }
            p->setPen(Qt::NoPen);
        }
    } else if (!spans.empty()) {
        // too many spans to tell apart: how many are open in each column (with a filter, of
        // the matching spans; Dim draws all of them faintly under those, on the same scale)
        auto drawCounts = [&](const int *counts, int maxC, const QColor &colour) {
            QVector<QRectF> bars;
            for (int k = 0; k < c.count;) {
                if (counts[k] == 0) {
                    ++k;
                    continue;
                }
                int e = k + 1;
                while (e < c.count && counts[e] == counts[k]) {
                    ++e;
                }
                const double bh = std::max(px, h * double(counts[k]) / maxC);
                bars.append(QRectF((c.x0 + k) * px, top + h - bh, (e - k) * px, bh));
                k = e;
            }
            p->setBrush(colour);
            p->drawRects(bars.constData(), int(bars.size()));
        };
        const QColor strong = TimelineFrame::withAlpha(row.color, detailed ? 0.75 : 0.6);
        m_counts.resize(size_t(c.count));
        int *counts = m_counts.data();
        const std::vector<int> *matching = f.lanes->filterRecords();
        if (!f.filtered || !matching) {
            cp.overlapCounts(c.origin, c.width, c.count, counts, TimelineFrame::kSnap);
            drawCounts(counts, std::max(1, *std::max_element(counts, counts + c.count)), strong);
        } else {
            const std::shared_ptr<const ContextPairs> &shared = pairs[size_t(row.family)];
            m_allCounts.resize(size_t(c.count));
            int maxC = 1;
            if (f.dim()) {
                cp.overlapCounts(c.origin, c.width, c.count, m_allCounts.data(),
                                 TimelineFrame::kSnap);
                maxC = std::max(maxC, *std::max_element(m_allCounts.begin(), m_allCounts.end()));
                drawCounts(m_allCounts.data(), maxC, TimelineFrame::withAlpha(row.color, 0.22));
            }
            matchingOverlapCounts(cp, matchingSpans(shared, matching), c, counts);
            if (f.filterMode == TimelineLanes::FilterMode::Hide) {
                maxC = std::max(1, *std::max_element(counts, counts + c.count));
            }
            drawCounts(counts, maxC, strong);
        }
    }
    if (detailed) {
        drawUnmatched(f, cp, QRectF(rr.left(), top, rr.width(), h));
    }
}

void TimelineSpansPass::drawUnmatched(const TimelineFrame &f, const ContextPairs &cp,
                                      const QRectF &r) {
    QCPPainter *p = f.painter;
    const TimelineColumns &c = f.columns;
    const QCPRange range = f.range;
    const double secPerPx = range.size() / std::max(1.0, r.width());
    const double slack = 8 * secPerPx;
    const double traceEnd = f.index->maxTime();
    const double mid = r.center().y();
    QPen dashed(f.error, 1.5, Qt::DashLine);
    p->setAntialiasing(true);
    auto cap = [&](double x, bool enter) {
        p->setPen(Qt::NoPen);
        p->setBrush(f.error);
        p->drawRect(QRectF(x - 1, r.top(), 2.5, r.height()));
        QPolygonF tri;
        const double w = std::min(6.0, r.height() * 0.45);
        if (enter) {
            tri << QPointF(x + 1.5, r.top()) << QPointF(x + 1.5 + w, r.top())
                << QPointF(x + 1.5, r.top() + w);
        } else {
            tri << QPointF(x - 1, r.top()) << QPointF(x - 1 - w, r.top())
                << QPointF(x - 1, r.top() + w);
        }
        p->drawPolygon(tri);
    };
    // Unmatched enters: the span never closed, so a dashed tail runs to the end of the trace.
    const SortedTimes &en = cp.unmatchedEnterTimes();
    const int e0 = en.rankBelow(range.lower - slack), e1 = en.rankAtOrBelow(range.upper + slack);
    if (e0 > 0 || e1 > e0) {
        const double x0 = e0 > 0 ? r.left() : f.keyAxis->coordToPixel(en.at(e0));
        const double xe = std::min(r.right(), f.keyAxis->coordToPixel(traceEnd));
        if (xe > x0) {
            p->setPen(dashed);
            p->drawLine(QPointF(x0, mid), QPointF(xe, mid));
        }
    }
    const SortedTimes &ex = cp.unmatchedExitTimes();
    const int x0i = ex.rankBelow(range.lower - slack), x1i = ex.rankAtOrBelow(range.upper + slack);
    if (e1 - e0 + x1i - x0i <= 2000) {
        for (int i = e0; i < e1; ++i) {
            cap(f.keyAxis->coordToPixel(en.at(i)), true);
        }
        for (int i = x0i; i < x1i; ++i) {
            const double x = f.keyAxis->coordToPixel(ex.at(i));
            p->setPen(dashed);
            p->drawLine(QPointF(std::max(r.left(), x - 14), mid), QPointF(x, mid));
            cap(x, false);
        }
    } else {
        // very many: one red mark per column holding any
        std::vector<int> a(size_t(c.count)), b(size_t(c.count));
        en.columnCounts(c.origin, c.width, c.count, a.data(), TimelineFrame::kSnap);
        ex.columnCounts(c.origin, c.width, c.count, b.data(), TimelineFrame::kSnap);
        QVector<QRectF> marks;
        for (int k = 0; k < c.count; ++k) {
            if (a[size_t(k)] + b[size_t(k)] > 0) {
                marks.append(QRectF((c.x0 + k) / c.dpr, r.top(), 1.0 / c.dpr, r.height()));
            }
        }
        p->setAntialiasing(false);
        p->setPen(Qt::NoPen);
        p->setBrush(f.error);
        p->drawRects(marks.constData(), int(marks.size()));
    }
    p->setAntialiasing(false);
    p->setPen(Qt::NoPen);
}

const std::vector<char> &TimelineSpansPass::matchingSpans(
    const std::shared_ptr<const ContextPairs> &cp, const std::vector<int> *matchingRecords) {
    for (const SpanMatch &m : m_spanMatch) {
        if (m.pairs.lock() == cp) {
            return m.flags;
        }
    }
    const auto &spans = cp->spans();
    std::vector<char> flags(spans.size(), 0);
    if (matchingRecords && !matchingRecords->empty()) {
        // a bit per record up to the largest matching one, then one look per span
        const std::vector<int> &recs = *matchingRecords;
        std::vector<bool> isMatch(size_t(std::max(0, recs.back())) + 1, false);
        for (int r : recs) {
            if (r >= 0) {
                isMatch[size_t(r)] = true;
            }
        }
        auto matches = [&isMatch](int r) {
            return r >= 0 && size_t(r) < isMatch.size() && isMatch[size_t(r)];
        };
        for (size_t k = 0; k < spans.size(); ++k) {
            flags[k] = matches(spans[k].enter) || matches(spans[k].exit);
        }
    }
    m_spanMatch.push_back({cp, std::move(flags)});
    return m_spanMatch.back().flags;
}

void TimelineSpansPass::matchingOverlapCounts(const ContextPairs &cp,
                                              const std::vector<char> &match,
                                              const TimelineColumns &c, int *counts) {
    if (c.count <= 0 || !(c.width > 0)) {
        return;
    }
    // Difference array over the columns: +1 at a span's first column, -1 after its last.
    std::vector<int> diff(size_t(c.count) + 1, 0);
    const auto &spans = cp.spans();
    const double from = c.origin, to = c.origin + c.count * c.width;
    // Spans are in start order; those starting before from - maxDuration end before it.
    const auto first =
        std::lower_bound(spans.begin(), spans.end(), from - cp.maxDuration(),
                         [](const ContextPairs::Span &s, double t) { return s.start < t; });
    for (auto it = first; it != spans.end() && it->start < to; ++it) {
        if (!match[size_t(it - spans.begin())] || it->end < from) {
            continue;
        }
        const double a = c.columnOf(it->start);
        const double b = c.columnOf(it->end);
        const int k0 = int(std::clamp(a, 0.0, double(c.count - 1)));
        const int k1 = int(std::clamp(b, 0.0, double(c.count - 1)));
        ++diff[size_t(k0)];
        --diff[size_t(k1) + 1];
    }
    int run = 0;
    for (int k = 0; k < c.count; ++k) {
        run += diff[size_t(k)];
        counts[k] = run;
    }
}

}  // namespace lmct
