#include "timeline/timelinecallspass.h"

#include "timeline/timelineframe.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace lmct {

void TimelineCallsPass::draw(const TimelineFrame &f, const TimelineLanes::Row &row, int rowIndex,
                             const QRectF &rr) {
    QCPPainter *p = f.painter;
    const TimelineColumns &c = f.columns;
    const bool detailed = f.detailed;
    const QRect ar = f.axisRect;
    const int devLeft = int(std::lround(ar.left() * c.dpr));
    const int devTop = int(std::lround(rr.top() * c.dpr));
    const int W = int(std::lround(ar.width() * c.dpr));
    const int H = int(std::lround(rr.bottom() * c.dpr)) - devTop;
    if (W <= 0 || H <= 0) {
        return;
    }
    const QRgb bg = (detailed && rowIndex % 2 == 1 ? f.zebra : f.base).rgb() | 0xff000000u;
    // strong: the records drawn at full strength (all, or the filter's); weak: every record,
    // drawn faintly under them (Dim mode only)
    const TimelineIndex *strong = f.strong;
    const bool dim = f.dim();
    // the counts of the row's lane, and of the other lanes of a merged row added to them
    auto countsOf = [&](const TimelineIndex *idx, int *out) {
        std::fill(out, out + c.count, 0);
        bool first = true;
        for (int lane : QVector<int>{row.lane} + row.more) {
            if (lane < 0 || lane >= idx->laneCount()) {
                continue;
            }
            if (first) {
                idx->columnCounts(lane, c.origin, c.width, c.count, out, TimelineFrame::kSnap);
                first = false;
                continue;
            }
            m_laneCounts.resize(size_t(c.count));
            idx->columnCounts(lane, c.origin, c.width, c.count, m_laneCounts.data(),
                              TimelineFrame::kSnap);
            for (int k = 0; k < c.count; ++k) {
                out[k] += m_laneCounts[size_t(k)];
            }
        }
        return *std::max_element(out, out + c.count);
    };
    m_counts.resize(size_t(c.count));
    int *counts = m_counts.data();
    int maxC = countsOf(strong, counts);
    int *all = nullptr;
    if (dim) {
        m_allCounts.resize(size_t(c.count));
        all = m_allCounts.data();
        maxC = std::max(maxC, countsOf(f.index, all));  // one scale for both
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
    const QRgb mark = blend(lane, f.text.rgb(), 150);
    const QRgb laneSoft = detailed ? lane : blend(bg, lane, 200);
    const QRgb faint = blend(bg, lane, detailed ? 64 : 56);  // Dim: records not matching
    const int *hgt = m_colHeight.data();
    const char *merged = m_colMerged.data();
    const int *allH = dim ? m_allHeight.data() : nullptr;
    if (p->modes().testFlag(QCPPainter::pmVectorized)) {
        // PDF, SVG and the report: the same columns as shapes, so the picture stays vector
        VectorRow v;
        v.origin = QPointF(devLeft / c.dpr, devTop / c.dpr);
        v.dpr = c.dpr;
        v.W = W;
        v.H = H;
        v.bodyTop = bodyTop;
        v.bodyBottom = bodyBottom;
        v.markH = markH;
        v.heads = !m_heads.empty() && bodyH >= int(10 * c.dpr)
                      ? std::clamp(int(std::lround(std::min(4.0 * c.dpr, bodyH * 0.22))), 2, 12)
                      : 0;
        v.stripe = detailed ? std::min(W, int(std::lround(3 * c.dpr))) : 0;
        drawVector(p, v, {bg, laneSoft, mark, faint, lane}, hgt, merged, allH);
        return;
    }
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

namespace {

/** Calls `each(x0, x1, v)` for each run [x0, x1) of columns whose `value` is the same v > 0. */
template <class Value, class Each>
void forRuns(int W, Value value, Each each) {
    for (int x = 0; x < W;) {
        const int v = value(x);
        int e = x + 1;
        while (e < W && value(e) == v) {
            ++e;
        }
        if (v > 0) {
            each(x, e, v);
        }
        x = e;
    }
}

}  // namespace

void TimelineCallsPass::drawVector(QCPPainter *p, const VectorRow &v, const Colors &colors,
                                   const int *hgt, const char *merged, const int *allH) const {
    // device pixel (x, y) of the row's raster is logical origin + (x, y) / dpr
    const double d = v.dpr;
    auto rect = [&](int x0, int x1, int y0, int y1) {
        return QRectF(v.origin.x() + x0 / d, v.origin.y() + y0 / d, (x1 - x0) / d, (y1 - y0) / d);
    };
    // one path per colour, so that neighbouring runs of a colour meet without a seam
    auto fillRuns = [&](QRgb color, auto height) {
        QPainterPath path;
        forRuns(v.W, height, [&](int x0, int x1, int h) {
            path.addRect(rect(x0, x1, v.bodyBottom - h, v.bodyBottom));
        });
        if (!path.isEmpty()) {
            p->fillPath(path, QColor(color));
        }
    };
    p->save();
    p->setClipRect(rect(0, v.W, 0, v.H), Qt::IntersectClip);
    p->setPen(Qt::NoPen);
    p->setRenderHint(QPainter::Antialiasing, false);
    p->fillRect(rect(0, v.W, 0, v.H), QColor(colors.background));
    if (allH) {
        fillRuns(colors.faint, [&](int x) { return allH[x]; });
    }
    fillRuns(colors.lane, [&](int x) { return hgt[x]; });
    if (v.markH > 0) {
        fillRuns(colors.mark, [&](int x) { return merged[x] ? std::min(v.markH, hgt[x]) : 0; });
    }
    if (v.heads > 0) {
        // the head sprite's triangle (headSprite()), centred on the tick's column
        const double half = v.heads;
        const QPointF top = v.origin + QPointF(0, v.bodyTop / d);
        QPainterPath heads;
        for (int x : m_heads) {
            const double cx = x + 0.5;
            heads.addPolygon(QPolygonF{top + QPointF((cx - half - 0.5) / d, 0),
                                       top + QPointF((cx + half + 0.5) / d, 0),
                                       top + QPointF(cx / d, (half * 1.4 + 0.5) / d)});
            heads.closeSubpath();
        }
        p->setRenderHint(QPainter::Antialiasing, true);
        p->fillPath(heads, QColor(colors.stripe));
        p->setRenderHint(QPainter::Antialiasing, false);
    }
    if (v.stripe > 0 && v.H > 2) {
        p->fillRect(rect(0, v.stripe, std::min(1, v.H), v.H - 1), QColor(colors.stripe));
    }
    p->restore();
}

const QImage &TimelineCallsPass::headSprite(const QColor &color, double dpr, int bodyPx) {
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

}  // namespace lmct
