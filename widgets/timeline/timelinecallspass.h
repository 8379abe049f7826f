#pragma once

#include "timeline/timelinelanes.h"

#include <QHash>
#include <QImage>
#include <vector>

namespace lmct {

struct TimelineFrame;

/**
 * The drawing pass of TimelineLanes' call rows: per row, the records per device-pixel column of
 * the visible range (TimelineIndex counts, O(columns)) rendered into an opaque image at device
 * resolution and copied in one blit. Where no column holds more than one record every record is
 * an exact full-height tick (with a head when isolated); otherwise the row is a histogram of the
 * counts (height ∝ √(count / busiest column in view), at least 15 %) with a darker strip under
 * the columns that merge several records. With a Dim filter every record is drawn faintly under
 * the matching ones, on the same scale.
 *
 * Ownership: owns its scratch buffers and head sprites (reused between frames). Thread-safety:
 * GUI thread.
 */
class TimelineCallsPass {
public:
    /** Draws call row `row` (row number `rowIndex`, for the zebra) into `rr`; paints its own
     *  background. */
    void draw(const TimelineFrame &f, const TimelineLanes::Row &row, int rowIndex,
              const QRectF &rr);

private:
    /** A tick head (downward triangle) in `color`, premultiplied, cached. */
    const QImage &headSprite(const QColor &color, double dpr, int bodyPx);

    std::vector<int> m_counts;     // one per column
    std::vector<int> m_allCounts;  // Dim: every record's counts
    std::vector<int> m_allHeight;
    std::vector<int> m_colHeight;
    std::vector<char> m_colMerged;
    std::vector<int> m_heads;
    QImage m_rowImage;
    QHash<quint64, QImage> m_sprites;
};

}  // namespace lmct
