#include "timeline/timelinelanes.h"

#include "codec/qualname.h"
#include "common/callcolors.h"
#include "timeline/timelinecallspass.h"
#include "timeline/timelineframe.h"
#include "timeline/timelineselectionpass.h"
#include "timeline/timelinespanspass.h"
#include "util/timeformat.h"

#include <QPainter>
#include <algorithm>
#include <cmath>
#include <cstring>

namespace lmct {

TimelineLanes::TimelineLanes(QCPAxis *keyAxis, QCPAxis *valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis),
      m_callsPass(std::make_unique<TimelineCallsPass>()),
      m_spansPass(std::make_unique<TimelineSpansPass>()) {
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
    m_spansPass->clear();
    updateRows();
}

void TimelineLanes::setFilter(std::shared_ptr<const TimelineIndex> matching,
                              std::shared_ptr<const std::vector<int>> records, FilterMode mode) {
    m_matching = std::move(matching);
    m_matchingRecords = m_matching ? std::move(records) : nullptr;
    m_filterMode = mode;
    m_spansPass->clear();
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
    m_baseRows = rows;
    m_merge.clear();
    updateRows();
}

bool TimelineLanes::setMerge(const QVector<LaneMerge::Row> &merge) {
    // a merge of every lane alone is none
    const QVector<LaneMerge::Row> m =
        LaneMerge::anyMerged(merge) ? merge : QVector<LaneMerge::Row>();
    const auto same = [](const LaneMerge::Row &a, const LaneMerge::Row &b) {
        return a.lanes == b.lanes && a.label == b.label;
    };
    if (std::equal(m.cbegin(), m.cend(), m_merge.cbegin(), m_merge.cend(), same)) {
        return false;
    }
    m_merge = m;
    updateRows();
    return true;
}

QVector<LaneMerge::Lane> TimelineLanes::mergeLanes() const {
    QVector<LaneMerge::Lane> lanes;
    for (const Row &r : m_baseRows) {
        lanes.append(LaneMerge::Lane{LaneLayout::nameOf(r.key), std::max(0.1, r.weight)});
    }
    return lanes;
}

void TimelineLanes::updateRows() {
    if (m_merge.isEmpty()) {
        m_rows = m_baseRows;
    } else {
        m_rows.clear();
        const RecordStore *rs = m_doc ? &m_doc->records() : nullptr;
        for (const LaneMerge::Row &mr : std::as_const(m_merge)) {
            if (!mr.merged()) {
                if (!mr.lanes.isEmpty() && mr.lanes.first() < m_baseRows.size()) {
                    m_rows.append(m_baseRows[mr.lanes.first()]);
                }
                continue;
            }
            // one calls row of every record of its rows: a spans row by its enter and exit calls
            QVector<int> ids;
            for (int i : mr.lanes) {
                if (i >= m_baseRows.size()) {
                    continue;
                }
                const Row &b = m_baseRows[i];
                if (b.kind == Row::Kind::Calls) {
                    ids.append(b.lane);
                } else if (rs) {
                    const QString family = LaneLayout::nameOf(b.key);
                    ids.append(rs->qualnameIdOf(family + QStringLiteral(".__enter__")));
                    ids.append(rs->qualnameIdOf(family + QStringLiteral(".__exit__")));
                }
            }
            std::sort(ids.begin(), ids.end());
            ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
            ids.removeAll(-1);
            Row row;
            row.kind = Row::Kind::Calls;
            row.key = QStringLiteral("merged:") + mr.label;
            row.label = mr.label;
            row.color = QColor(0x8796a5);  // a slate grey: no call's colour
            row.lane = ids.isEmpty() ? -1 : ids.first();
            row.more = ids.mid(1);
            m_rows.append(row);
        }
    }
    m_rowStart.assign(size_t(m_rows.size()) + 1, 0.0);
    for (int r = 0; r < m_rows.size(); ++r) {
        m_rowStart[size_t(r) + 1] = m_rowStart[size_t(r)] + std::max(0.1, m_rows[r].weight);
    }
    m_rowOfLane.assign(m_index ? size_t(m_index->laneCount()) : 0, -1);
    for (int r = 0; r < m_rows.size(); ++r) {
        const Row &row = m_rows[r];
        if (row.kind != Row::Kind::Calls) {
            continue;
        }
        for (int lane : QVector<int>{row.lane} + row.more) {
            if (lane >= 0 && size_t(lane) < m_rowOfLane.size()) {
                m_rowOfLane[size_t(lane)] = r;
            }
        }
    }
}

void TimelineLanes::labelAxis() const {
    QCPAxis *axis = mValueAxis.data();
    auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker) {
        return;
    }
    ticker->clear();
    // The label column is as wide as the widest label, up to kMaxLabelPx: a long qualname
    // (displayName() keeps up to 120 characters) left the plot 50 px, or none.
    const QFont font = axis->tickLabelFont();
    for (int r = 0; r < m_rows.size(); ++r) {
        ticker->addTick(rowCenter(r), elidedLabel(m_rows[r].label, font));
    }
    axis->setRange(0.0, std::max(1.0, totalWeight()));
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

TimelineLanes::~TimelineLanes() = default;

void TimelineLanes::draw(QCPPainter *p) {
    if (!m_index || m_rows.isEmpty()) {
        return;
    }
    TimelineFrame f;
    f.columns = columns();
    if (f.columns.count <= 0) {
        return;
    }
    f.painter = p;
    f.lanes = this;
    f.keyAxis = mKeyAxis;
    f.axisRect = mKeyAxis->axisRect()->rect();
    f.range = mKeyAxis->range();
    f.detailed = m_style == Style::Detailed;
    f.index = m_index.get();
    f.strong = strongIndex();
    f.filtered = m_matching != nullptr;
    f.filterMode = m_filterMode;
    f.selected = m_selected;
    f.spansPending = m_spansPending;
    f.zebra = m_zebra;
    f.text = m_text;
    f.highlight = m_highlight;
    f.base = m_base;
    f.error = m_error;
    p->setAntialiasing(false);
    p->setPen(Qt::NoPen);
    const QRect clip = clipRect();
    for (int r = 0; r < m_rows.size(); ++r) {
        const QRectF rr = rowRect(r);
        if (!rr.intersects(clip)) {
            continue;
        }
        if (m_rows[r].kind == Row::Kind::Calls) {
            m_callsPass->draw(f, m_rows[r], r, rr);  // paints its own background
            continue;
        }
        p->fillRect(rr, f.detailed && r % 2 == 1 ? m_zebra : m_base);
        if (f.detailed) {
            p->fillRect(QRectF(rr.left(), rr.top() + 1, 3, rr.height() - 2), m_rows[r].color);
        }
        m_spansPass->draw(f, m_rows[r], rr);
    }
    TimelineSelectionPass::draw(f);
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
        // (a merged row: the nearest of its lanes' records, the count of them all)
        double best = 1e300;
        for (int lane : QVector<int>{row.lane} + row.more) {
            if (lane < 0 || lane >= idx->laneCount()) {
                continue;
            }
            const int pos = idx->nearestPosition(lane, t, tol);
            if (pos >= 0) {
                const double d = std::abs(idx->lane(lane).times.at(pos) - t);
                if (d < best) {
                    best = d;
                    hit.record = idx->lane(lane).records()[size_t(pos)];
                }
                hit.count += idx->countIn(lane, hit.from, hit.to);
            }
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
    const int subRows = std::clamp(cp.depthCount(), 1, TimelineSpansPass::kMaxSubRows);
    const double pad = std::min(3.0, rr.height() * 0.12);  // as TimelineSpansPass lays them out
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
