#include "timeline/timelinelanes.h"

#include "codec/qualname.h"
#include "common/callcolors.h"
#include "util/timeformat.h"

#include <QPainter>
#include <algorithm>
#include <cmath>
#include <cstring>

namespace lmct {

namespace {

constexpr int kMaxSubRows = 4;
constexpr double kSnap = 0.25;  // column edges may move by up to an eighth of a device pixel

QColor withAlpha(QColor c, double a) {
    c.setAlphaF(float(std::clamp(a, 0.0, 1.0)));
    return c;
}

/** Black or white, whichever reads better on `bg`. */
QColor textOn(const QColor &bg) {
    const double l = 0.2126 * bg.redF() + 0.7152 * bg.greenF() + 0.0722 * bg.blueF();
    return l > 0.55 ? QColor(20, 20, 20) : QColor(250, 250, 250);
}

}  // namespace

TimelineLanes::TimelineLanes(QCPAxis *keyAxis, QCPAxis *valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis) {
    setAntialiased(false);
    setAntialiasedFill(false);
    setSelectable(QCP::stNone);
    setColors(QPalette());
}

void TimelineLanes::setData(std::shared_ptr<const TraceDocument> doc,
                            std::shared_ptr<const TimelineIndex> index,
                            std::vector<std::shared_ptr<const ContextPairs>> pairs) {
    m_doc = std::move(doc);
    m_index = std::move(index);
    m_pairs = std::move(pairs);
    m_spanMatch.clear();
    setRows(m_rows);
}

void TimelineLanes::setFilter(std::shared_ptr<const TimelineIndex> matching,
                              std::shared_ptr<const std::vector<int>> records, FilterMode mode) {
    m_matching = std::move(matching);
    m_matchingRecords = m_matching ? std::move(records) : nullptr;
    m_filterMode = mode;
    m_spanMatch.clear();
}

const std::vector<char> &TimelineLanes::matchingSpans(
    const std::shared_ptr<const ContextPairs> &cp) {
    for (const SpanMatch &m : m_spanMatch) {
        if (m.pairs.lock() == cp) {
            return m.flags;
        }
    }
    const auto &spans = cp->spans();
    std::vector<char> flags(spans.size(), 0);
    if (m_matchingRecords && !m_matchingRecords->empty()) {
        // a bit per record up to the largest matching one, then one look per span
        const std::vector<int> &recs = *m_matchingRecords;
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

void TimelineLanes::matchingOverlapCounts(const ContextPairs &cp, const std::vector<char> &match,
                                          const Columns &c, int *counts) {
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

bool TimelineLanes::spanMatches(int enter, int exit) const {
    if (!m_matching || !m_matchingRecords) {
        return true;
    }
    const auto &v = *m_matchingRecords;
    return std::binary_search(v.begin(), v.end(), enter) ||
           std::binary_search(v.begin(), v.end(), exit);
}

QString TimelineLanes::elidedLabel(const QString &label, const QFont &font) {
    const QFontMetricsF fm(font);
    // A name Qualname::capped() shortened ends "… (N characters)": its start is elided, that
    // tail kept (eliding the middle gave two ellipses and cut the count).
    const qsizetype cut = label.lastIndexOf(QChar(0x2026));
    if (cut > 0 && fm.horizontalAdvance(label) > kMaxLabelPx) {
        const QString tail = label.mid(cut);
        const qreal room = kMaxLabelPx - fm.horizontalAdvance(tail);
        if (room > fm.horizontalAdvance(QStringLiteral("MMMM"))) {
            QString head = fm.elidedText(label.left(cut) + QChar(0x2026), Qt::ElideRight, room);
            if (head.endsWith(QChar(0x2026))) {
                head.chop(1);  // the tail brings its own
            }
            return head + tail;
        }
    }
    return fm.elidedText(label, Qt::ElideMiddle, kMaxLabelPx);
}

void TimelineLanes::setUpAxes(QCPAxisRect *rect, const QSharedPointer<QCPAxisTicker> &timeTicker) {
    QCPAxis *top = rect->axis(QCPAxis::atTop);
    QCPAxis *left = rect->axis(QCPAxis::atLeft);
    rect->axis(QCPAxis::atBottom)->setVisible(false);
    rect->axis(QCPAxis::atRight)->setVisible(false);
    top->setVisible(true);
    top->setTicker(timeTicker);
    top->setSubTicks(true);
    top->setTickLengthIn(0);
    top->setTickLengthOut(4);
    top->setSubTickLengthIn(0);
    top->setSubTickLengthOut(2);
    top->grid()->setVisible(true);
    left->setRangeReversed(true);
    left->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    left->setTickLength(0, 0);
    left->setSubTicks(false);
    left->grid()->setVisible(false);
    left->setTickLabelPadding(8);
}

QPointF TimelineLanes::tickPosition(int record) const {
    if (!m_doc || !m_index || record < 0 || record >= m_doc->records().size()) {
        return QPointF();
    }
    const RecordStore &rs = m_doc->records();
    const int row = rowOfLane(int(rs.qualnameId(record)));
    if (row < 0) {
        return QPointF();
    }
    QCPAxisRect *rect = keyAxis()->axisRect();
    const double x = keyAxis()->coordToPixel(rs.tMono(record));
    if (x < rect->left() || x > rect->right()) {
        return QPointF();
    }
    return QPointF(x, rowRect(row).center().y());
}

QVector<TimelineLanes::Row> TimelineLanes::rowsFor(
    const LaneLayout &layout, const TraceDocument *doc,
    const std::vector<std::shared_ptr<const ContextPairs>> &pairs) {
    QVector<Row> rows;
    for (const LaneLayout::Row &lr : layout.rows()) {
        const QString &k = lr.key;
        Row row;
        row.key = k;
        if (lr.kind == LaneLayout::Row::Kind::Spans) {
            const QString &f = lr.name;
            row.kind = Row::Kind::Spans;
            row.family = lr.family;
            row.label = Qualname::displayName(f);
            row.color = CallColors::forQualname(f + QStringLiteral(".__enter__"));
            // taller when spans overlap, so that stacked spans stay readable
            const int depth = row.family >= 0 ? pairs[size_t(row.family)]->depthCount() : 1;
            row.weight = 1.0 + 0.35 * (std::clamp(depth, 1, 4) - 1);
        } else {
            row.kind = Row::Kind::Calls;
            row.lane = doc ? doc->records().qualnameIdOf(k) : -1;
            row.label = Qualname::displayName(k);
            row.color = CallColors::forQualname(k);
        }
        rows.append(row);
    }
    return rows;
}

void TimelineLanes::setRows(const QVector<Row> &rows) {
    m_rows = rows;
    m_rowStart.assign(size_t(m_rows.size()) + 1, 0.0);
    for (int r = 0; r < m_rows.size(); ++r) {
        m_rowStart[size_t(r) + 1] = m_rowStart[size_t(r)] + std::max(0.1, m_rows[r].weight);
    }
    m_rowOfLane.assign(m_index ? size_t(m_index->laneCount()) : 0, -1);
    for (int r = 0; r < m_rows.size(); ++r) {
        const Row &row = m_rows[r];
        if (row.kind == Row::Kind::Calls && row.lane >= 0 &&
            size_t(row.lane) < m_rowOfLane.size()) {
            m_rowOfLane[size_t(row.lane)] = r;
        }
    }
}

int TimelineLanes::rowOfLane(int lane) const {
    return lane >= 0 && size_t(lane) < m_rowOfLane.size() ? m_rowOfLane[size_t(lane)] : -1;
}

void TimelineLanes::setColors(const QPalette &pal) {
    m_base = pal.color(QPalette::Base);
    m_zebra = pal.color(QPalette::AlternateBase);
    if (m_zebra == m_base) {
        m_zebra = m_base.lightness() > 128 ? m_base.darker(104) : m_base.lighter(115);
    }
    m_text = pal.color(QPalette::Text);
    m_highlight = pal.color(QPalette::Highlight);
    m_error = m_base.lightness() > 128 ? QColor(205, 30, 40) : QColor(255, 95, 95);
}

QCPRange TimelineLanes::getKeyRange(bool &found, QCP::SignDomain) const {
    found = m_index && m_index->recordCount() > 0;
    return found ? QCPRange(m_index->minTime(), m_index->maxTime()) : QCPRange();
}

QCPRange TimelineLanes::getValueRange(bool &found, QCP::SignDomain, const QCPRange &) const {
    found = !m_rows.isEmpty();
    return QCPRange(0.0, totalWeight());
}

double TimelineLanes::rowCenter(int r) const {
    return (m_rowStart[size_t(r)] + m_rowStart[size_t(r) + 1]) / 2;
}

QRectF TimelineLanes::rowRect(int r) const {
    if (r < 0 || r >= m_rows.size()) {
        return QRectF();
    }
    const QRect ar = mKeyAxis->axisRect()->rect();
    const double y0 = mValueAxis->coordToPixel(m_rowStart[size_t(r)]);
    const double y1 = mValueAxis->coordToPixel(m_rowStart[size_t(r) + 1]);
    return QRectF(ar.left(), std::min(y0, y1), ar.width(), std::abs(y1 - y0));
}

int TimelineLanes::rowAt(double y) const {
    const double v = mValueAxis->pixelToCoord(y);
    if (m_rows.isEmpty() || !(v >= 0.0) || v >= m_rowStart.back()) {
        return -1;
    }
    const auto it = std::upper_bound(m_rowStart.begin(), m_rowStart.end(), v);
    return int(it - m_rowStart.begin()) - 1;
}

TimelineLanes::Columns TimelineLanes::columns() const {
    const QRect ar = mKeyAxis->axisRect()->rect();
    const QCPRange range = mKeyAxis->range();
    return TimelineColumns::of(range.lower, range.upper, ar.left(), ar.width(),
                               mParentPlot ? double(mParentPlot->bufferDevicePixelRatio()) : 1.0);
}

void TimelineLanes::draw(QCPPainter *p) {
    if (!m_index || m_rows.isEmpty()) {
        return;
    }
    const Columns c = columns();
    if (c.count <= 0) {
        return;
    }
    m_counts.resize(size_t(c.count));
    p->setAntialiasing(false);
    p->setPen(Qt::NoPen);
    const QRect clip = clipRect();
    for (int r = 0; r < m_rows.size(); ++r) {
        const QRectF rr = rowRect(r);
        if (!rr.intersects(clip)) {
            continue;
        }
        if (m_rows[r].kind == Row::Kind::Calls) {
            drawCalls(p, r, rr, c);  // paints its own background
            continue;
        }
        p->fillRect(rr, m_style == Style::Detailed && r % 2 == 1 ? m_zebra : m_base);
        if (m_style == Style::Detailed) {
            p->fillRect(QRectF(rr.left(), rr.top() + 1, 3, rr.height() - 2), m_rows[r].color);
        }
        drawSpans(p, m_rows[r], rr, c);
    }
    drawSelection(p, c);
}

void TimelineLanes::drawCalls(QCPPainter *p, int rowIndex, const QRectF &rr, const Columns &c) {
    const Row &row = m_rows[rowIndex];
    const bool detailed = m_style == Style::Detailed;
    const QRect ar = mKeyAxis->axisRect()->rect();
    const int devLeft = int(std::lround(ar.left() * c.dpr));
    const int devTop = int(std::lround(rr.top() * c.dpr));
    const int W = int(std::lround(ar.width() * c.dpr));
    const int H = int(std::lround(rr.bottom() * c.dpr)) - devTop;
    if (W <= 0 || H <= 0) {
        return;
    }
    const QRgb bg = (detailed && rowIndex % 2 == 1 ? m_zebra : m_base).rgb() | 0xff000000u;
    // strong: the records drawn at full strength (all, or the filter's); weak: every record,
    // drawn faintly under them (Dim mode only)
    const TimelineIndex *strong = strongIndex();
    const bool dim = m_matching && m_filterMode == FilterMode::Dim;
    int *counts = m_counts.data();
    int maxC = 0;
    if (row.lane >= 0 && row.lane < strong->laneCount()) {
        strong->columnCounts(row.lane, c.origin, c.width, c.count, counts, kSnap);
        maxC = *std::max_element(counts, counts + c.count);
    } else {
        std::fill(counts, counts + c.count, 0);
    }
    int *all = nullptr;
    if (dim) {
        m_allCounts.resize(size_t(c.count));
        all = m_allCounts.data();
        if (row.lane >= 0 && row.lane < m_index->laneCount()) {
            m_index->columnCounts(row.lane, c.origin, c.width, c.count, all, kSnap);
        } else {
            std::fill(all, all + c.count, 0);
        }
        maxC = std::max(maxC, *std::max_element(all, all + c.count));  // one scale for both
    }
    // Rendered into an opaque image at device resolution, one pixel column per count, then
    // copied: O(width · height) memory writes and one blit, never a shape per record.
    //
    // Where no column holds more than one record, every record is an exact full-height tick
    // (with a head when isolated). Otherwise the row is a histogram of the counts per column
    // (height ∝ √(count / busiest column in view), at least 15%), and columns that merge
    // several records carry a darker strip along the bottom.
    const int pad = detailed ? std::clamp(int(H * 0.15), 1, int(std::lround(3 * c.dpr))) : 0;
    const int bodyTop = pad, bodyBottom = H - pad;  // body rows [bodyTop, bodyBottom)
    const int bodyH = std::max(1, bodyBottom - bodyTop);
    const int markH = detailed && maxC > 1 ? std::max(2, int(std::lround(1.5 * c.dpr))) : 0;
    QImage &img = m_rowImage;
    if (img.width() != W || img.height() != H) {
        img = QImage(W, H, QImage::Format_RGB32);
    }
    m_colHeight.assign(size_t(W), 0);
    m_colMerged.assign(size_t(W), 0);
    m_allHeight.assign(dim ? size_t(W) : 0, 0);
    const int shift = int(std::lround(c.x0)) - devLeft;  // image x of column 0
    const int gap = int(std::lround(6 * c.dpr));         // free columns around a headed tick
    const int minH = std::max(1, int(std::lround(bodyH * 0.15)));
    auto heightOf = [&](int n) {
        return maxC == 1 ? bodyH
                         : std::max(minH, int(std::lround(bodyH * std::sqrt(double(n) / maxC))));
    };
    m_heads.clear();
    int prevNonEmpty = -1000000;
    for (int k = 0; k < c.count && maxC > 0; ++k) {
        const int n = counts[k];
        const int x = k + shift;
        if (x < 0 || x >= W) {
            continue;
        }
        if (all && all[k] > 0) {
            m_allHeight[size_t(x)] = heightOf(all[k]);
        }
        if (n == 0) {
            continue;
        }
        m_colHeight[size_t(x)] = heightOf(n);
        if (maxC == 1) {
            if (detailed && k - prevNonEmpty >= gap) {
                int next = k + 1;
                while (next < c.count && next - k < gap && counts[next] == 0) {
                    ++next;
                }
                if (next - k >= gap || next >= c.count) {
                    m_heads.push_back(x);
                }
            }
        } else {
            m_colMerged[size_t(x)] = n > 1;
        }
        prevNonEmpty = k;
    }
    const QRgb lane = row.color.rgb() | 0xff000000u;
    auto blend = [](QRgb a, QRgb b, int t) {  // a + (b − a)·t/255, opaque
        return qRgb(qRed(a) + (qRed(b) - qRed(a)) * t / 255,
                    qGreen(a) + (qGreen(b) - qGreen(a)) * t / 255,
                    qBlue(a) + (qBlue(b) - qBlue(a)) * t / 255);
    };
    const QRgb mark = blend(lane, m_text.rgb(), 150);
    const QRgb laneSoft = detailed ? lane : blend(bg, lane, 200);
    const QRgb faint = blend(bg, lane, detailed ? 64 : 56);  // Dim: records not matching
    const int *hgt = m_colHeight.data();
    const char *merged = m_colMerged.data();
    const int *allH = dim ? m_allHeight.data() : nullptr;
    for (int y = 0; y < H; ++y) {
        auto *line = reinterpret_cast<QRgb *>(img.scanLine(y));
        if (y < bodyTop || y >= bodyBottom) {
            std::fill(line, line + W, bg);
            continue;
        }
        const int level = bodyBottom - y;  // 1 at the bottom row of the body
        const bool markRow = y >= bodyBottom - markH;
        if (allH) {
            for (int x = 0; x < W; ++x) {
                line[x] = hgt[x] >= level    ? (markRow && merged[x] ? mark : laneSoft)
                          : allH[x] >= level ? faint
                                             : bg;
            }
        } else if (markRow) {
            for (int x = 0; x < W; ++x) {
                line[x] = hgt[x] >= level ? (merged[x] ? mark : laneSoft) : bg;
            }
        } else {
            for (int x = 0; x < W; ++x) {
                line[x] = hgt[x] >= level ? laneSoft : bg;
            }
        }
    }
    // heads: a small antialiased triangle sprite, blended in
    if (!m_heads.empty() && bodyH >= int(10 * c.dpr)) {
        const QImage &sprite = headSprite(row.color, c.dpr, bodyH);
        const int sw = sprite.width(), sh = sprite.height();
        for (int x : m_heads) {
            const int x0 = x - sw / 2;
            for (int sy = 0; sy < sh && bodyTop + sy < H; ++sy) {
                auto *line = reinterpret_cast<QRgb *>(img.scanLine(bodyTop + sy));
                const auto *src = reinterpret_cast<const QRgb *>(sprite.constScanLine(sy));
                for (int sx = 0; sx < sw; ++sx) {
                    const int dx = x0 + sx;
                    if (dx >= 0 && dx < W && qAlpha(src[sx]) > 0) {
                        // premultiplied source over an opaque destination
                        const QRgb s = src[sx], d = line[dx];
                        const int ia = 255 - qAlpha(s);
                        line[dx] =
                            qRgb(qRed(s) + qRed(d) * ia / 255, qGreen(s) + qGreen(d) * ia / 255,
                                 qBlue(s) + qBlue(d) * ia / 255);
                    }
                }
            }
        }
    }
    if (detailed) {
        // the call's colour as a stripe along the row's left edge
        const int stripe = std::min(W, int(std::lround(3 * c.dpr)));
        for (int y = std::min(1, H); y < H - 1; ++y) {
            auto *line = reinterpret_cast<QRgb *>(img.scanLine(y));
            std::fill(line, line + stripe, lane);
        }
    }
    // One image pixel per device pixel, at a device-pixel aligned position: a plain copy.
    img.setDevicePixelRatio(c.dpr);
    p->drawImage(QPointF(devLeft / c.dpr, devTop / c.dpr), img);
}

const QImage &TimelineLanes::headSprite(const QColor &color, double dpr, int bodyPx) {
    const int half = std::clamp(int(std::lround(std::min(4.0 * dpr, bodyPx * 0.22))), 2, 12);
    const quint64 key = (quint64(color.rgb()) << 24) | (quint64(half) << 8) | quint64(dpr * 4);
    auto it = m_sprites.find(key);
    if (it != m_sprites.end()) {
        return it.value();
    }
    QImage sprite(2 * half + 1, int(half * 1.4) + 1, QImage::Format_ARGB32_Premultiplied);
    sprite.fill(Qt::transparent);
    {
        QPainter sp(&sprite);
        sp.setRenderHint(QPainter::Antialiasing);
        sp.setPen(Qt::NoPen);
        sp.setBrush(color);
        const double cx = half + 0.5;
        sp.drawPolygon(QPolygonF{QPointF(cx - half - 0.5, 0), QPointF(cx + half + 0.5, 0),
                                 QPointF(cx, half * 1.4 + 0.5)});
    }
    return m_sprites.insert(key, sprite).value();
}

void TimelineLanes::drawSpans(QCPPainter *p, const Row &row, const QRectF &rr, const Columns &c) {
    if (row.family < 0 || size_t(row.family) >= m_pairs.size() || !m_pairs[size_t(row.family)]) {
        return;
    }
    const ContextPairs &cp = *m_pairs[size_t(row.family)];
    const bool detailed = m_style == Style::Detailed;
    if (m_spansPending && cp.spans().empty() && cp.unmatchedEnters().empty() &&
        cp.unmatchedExits().empty()) {
        if (detailed) {
            p->setPen(withAlpha(m_text, 0.55));
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
    const QCPRange range = mKeyAxis->range();
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
            double x0 = mKeyAxis->coordToPixel(s.start);
            double x1 = mKeyAxis->coordToPixel(s.end);
            x0 = std::max(x0, rr.left() - 2);
            x1 = std::min(x1, rr.right() + 2);
            x0 = std::floor(x0 * c.dpr) * px;
            x1 = std::max(x0 + px, std::ceil(x1 * c.dpr) * px);
            const int d = std::min(s.depth, subRows - 1);
            const QRectF b(x0, top + d * subH, x1 - x0, subH - gapY);
            if (!spanMatches(s.enter, s.exit)) {
                if (m_filterMode == FilterMode::Dim) {
                    faintBars.append(b);
                }
                continue;
            }
            bars.append(b);
            if (s.enter == m_selected || s.exit == m_selected) {
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
            p->setBrush(withAlpha(row.color, 0.22));
            p->drawRects(faintBars.constData(), int(faintBars.size()));
        }
        p->setBrush(withAlpha(row.color, 0.8));
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
            p->setPen(textOn(row.color));
            for (const Label &l : labels) {
                p->drawText(l.rect, Qt::AlignCenter, l.text);
            }
            p->setPen(Qt::NoPen);
        }
        if (!selected.isEmpty()) {
            p->setBrush(Qt::NoBrush);
            p->setPen(QPen(m_highlight, 2));
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
        const QColor strong = withAlpha(row.color, detailed ? 0.75 : 0.6);
        int *counts = m_counts.data();
        if (!m_matching || !m_matchingRecords) {
            cp.overlapCounts(c.origin, c.width, c.count, counts, kSnap);
            drawCounts(counts, std::max(1, *std::max_element(counts, counts + c.count)), strong);
        } else {
            const std::shared_ptr<const ContextPairs> &shared = m_pairs[size_t(row.family)];
            m_allCounts.resize(size_t(c.count));
            int maxC = 1;
            if (m_filterMode == FilterMode::Dim) {
                cp.overlapCounts(c.origin, c.width, c.count, m_allCounts.data(), kSnap);
                maxC = std::max(maxC, *std::max_element(m_allCounts.begin(), m_allCounts.end()));
                drawCounts(m_allCounts.data(), maxC, withAlpha(row.color, 0.22));
            }
            matchingOverlapCounts(cp, matchingSpans(shared), c, counts);
            if (m_filterMode == FilterMode::Hide) {
                maxC = std::max(1, *std::max_element(counts, counts + c.count));
            }
            drawCounts(counts, maxC, strong);
        }
    }
    if (detailed) {
        drawUnmatched(p, cp, QRectF(rr.left(), top, rr.width(), h), c);
    }
}

void TimelineLanes::drawUnmatched(QCPPainter *p, const ContextPairs &cp, const QRectF &r,
                                  const Columns &c) {
    const QCPRange range = mKeyAxis->range();
    const double secPerPx = range.size() / std::max(1.0, r.width());
    const double slack = 8 * secPerPx;
    const double traceEnd = m_index->maxTime();
    const double mid = r.center().y();
    QPen dashed(m_error, 1.5, Qt::DashLine);
    p->setAntialiasing(true);
    auto cap = [&](double x, bool enter) {
        p->setPen(Qt::NoPen);
        p->setBrush(m_error);
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
        const double x0 = e0 > 0 ? r.left() : mKeyAxis->coordToPixel(en.at(e0));
        const double xe = std::min(r.right(), mKeyAxis->coordToPixel(traceEnd));
        if (xe > x0) {
            p->setPen(dashed);
            p->drawLine(QPointF(x0, mid), QPointF(xe, mid));
        }
    }
    const SortedTimes &ex = cp.unmatchedExitTimes();
    const int x0i = ex.rankBelow(range.lower - slack), x1i = ex.rankAtOrBelow(range.upper + slack);
    if (e1 - e0 + x1i - x0i <= 2000) {
        for (int i = e0; i < e1; ++i) {
            cap(mKeyAxis->coordToPixel(en.at(i)), true);
        }
        for (int i = x0i; i < x1i; ++i) {
            const double x = mKeyAxis->coordToPixel(ex.at(i));
            p->setPen(dashed);
            p->drawLine(QPointF(std::max(r.left(), x - 14), mid), QPointF(x, mid));
            cap(x, false);
        }
    } else {
        // very many: one red mark per column holding any
        std::vector<int> a(size_t(c.count)), b(size_t(c.count));
        en.columnCounts(c.origin, c.width, c.count, a.data(), kSnap);
        ex.columnCounts(c.origin, c.width, c.count, b.data(), kSnap);
        QVector<QRectF> marks;
        for (int k = 0; k < c.count; ++k) {
            if (a[size_t(k)] + b[size_t(k)] > 0) {
                marks.append(QRectF((c.x0 + k) / c.dpr, r.top(), 1.0 / c.dpr, r.height()));
            }
        }
        p->setAntialiasing(false);
        p->setPen(Qt::NoPen);
        p->setBrush(m_error);
        p->drawRects(marks.constData(), int(marks.size()));
    }
    p->setAntialiasing(false);
    p->setPen(Qt::NoPen);
}

void TimelineLanes::drawSelection(QCPPainter *p, const Columns &c) {
    if (m_selected < 0 || !m_doc || m_selected >= m_doc->records().size()) {
        return;
    }
    const RecordStore &rs = m_doc->records();
    const double t = rs.tMono(m_selected);
    const QRect ar = mKeyAxis->axisRect()->rect();
    const double x = std::floor(mKeyAxis->coordToPixel(t) * c.dpr) / c.dpr + 0.5 / c.dpr;
    if (!std::isfinite(x) || x < ar.left() - 1 || x > ar.right() + 1) {
        return;
    }
    p->setBrush(Qt::NoBrush);
    QPen line(m_highlight, 1);
    line.setCosmetic(true);
    p->setPen(line);
    p->drawLine(QPointF(x, ar.top()), QPointF(x, ar.bottom() + 1));
    const int r = rowOfLane(int(rs.qualnameId(m_selected)));
    if (r >= 0 && m_style == Style::Detailed) {
        const QRectF rr = rowRect(r);
        p->setAntialiasing(true);
        p->setPen(QPen(m_highlight, 2));
        p->drawRoundedRect(QRectF(x - 5, rr.top() + 1.5, 10, rr.height() - 3), 2, 2);
        p->setAntialiasing(false);
    }
    p->setPen(Qt::NoPen);
}

TimelineLanes::Hit TimelineLanes::hitTest(const QPointF &pixel, double tolerancePx) const {
    Hit hit;
    if (!m_index) {
        return hit;
    }
    const QRect ar = mKeyAxis->axisRect()->rect();
    if (!ar.contains(pixel.toPoint())) {
        return hit;
    }
    hit.row = rowAt(pixel.y());
    if (hit.row < 0) {
        return hit;
    }
    const Row &row = m_rows[hit.row];
    const double t = mKeyAxis->pixelToCoord(pixel.x());
    const double secPerPx = mKeyAxis->range().size() / std::max(1, ar.width());
    const double tol = tolerancePx * secPerPx;
    hit.from = t - secPerPx / 2;
    hit.to = t + secPerPx / 2;
    if (row.kind == Row::Kind::Calls) {
        // what is drawn: in Hide mode the matching records only
        const TimelineIndex *idx =
            m_matching && m_filterMode == FilterMode::Hide ? m_matching.get() : m_index.get();
        if (row.lane < 0 || row.lane >= idx->laneCount()) {
            return hit;
        }
        const int pos = idx->nearestPosition(row.lane, t, tol);
        if (pos >= 0) {
            hit.record = idx->lane(row.lane).records()[size_t(pos)];
            hit.count = idx->countIn(row.lane, hit.from, hit.to);
        }
        return hit;
    }
    if (row.family < 0 || size_t(row.family) >= m_pairs.size() || !m_pairs[size_t(row.family)]) {
        return hit;
    }
    const ContextPairs &cp = *m_pairs[size_t(row.family)];
    // unmatched caps are drawn on top: they win
    for (int pass = 0; pass < 2; ++pass) {
        const SortedTimes &ts = pass == 0 ? cp.unmatchedEnterTimes() : cp.unmatchedExitTimes();
        const int i = ts.rankBelow(t - tol);
        if (i < ts.size() && ts.at(i) <= t + tol) {
            hit.record = (pass == 0 ? cp.unmatchedEnters() : cp.unmatchedExits())[size_t(i)];
            hit.unmatched = true;
            return hit;
        }
    }
    std::vector<int> near;
    if (!cp.spansIn(t - tol, t + tol, 4096, &near) || near.empty()) {
        return hit;
    }
    const QRectF rr = rowRect(hit.row);
    const int subRows = std::clamp(cp.depthCount(), 1, kMaxSubRows);
    const double pad = std::min(3.0, rr.height() * 0.12);  // as drawSpans() lays them out
    const double subH = std::max(1.0, rr.height() - 2 * pad) / subRows;
    const int sub = std::clamp(int((pixel.y() - rr.top() - pad) / subH), 0, subRows - 1);
    double best = 1e300;
    for (int k : near) {
        const ContextPairs::Span &s = cp.spans()[size_t(k)];
        if (m_filterMode == FilterMode::Hide && !spanMatches(s.enter, s.exit)) {
            continue;  // not drawn
        }
        const double dist = t < s.start ? s.start - t : (t > s.end ? t - s.end : 0.0);
        const double penalty = std::min(s.depth, subRows - 1) == sub ? 0.0 : tol;
        if (dist + penalty < best) {
            best = dist + penalty;
            hit.span = k;
        }
    }
    if (hit.span >= 0) {
        hit.record = cp.spans()[size_t(hit.span)].enter;
    }
    return hit;
}

}  // namespace lmct
