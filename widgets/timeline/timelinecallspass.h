#pragma once

#include "timeline/timelinelanes.h"

#include <QHash>
#include <QImage>
#include <QPointF>
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
 * the matching ones, on the same scale. A vectorized painter (QCPPainter::pmVectorized: PDF, SVG,
 * reports) gets the same columns as rects and triangles instead of the image. A merged row
 * (TimelineLanes::setMerge()) counts the records of all its lanes together.
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
    /** A row's geometry in device pixels of its raster (see draw()), for drawVector(). */
    struct VectorRow {
        QPointF origin;  ///< logical position of device pixel (0, 0)
        double dpr = 1.0;
        int W = 0, H = 0, bodyTop = 0, bodyBottom = 0, markH = 0;
        int heads = 0;   ///< half width of a head in device pixels; 0: no heads
        int stripe = 0;  ///< width of the call's stripe; 0: none
    };
    struct Colors {
        QRgb background, lane, mark, faint, stripe;
    };
    /** The row as rects and triangles instead of an image, for vectorized painters (PDF, SVG):
     *  the same columns, colours and heads as the raster. */
    void drawVector(QCPPainter *p, const VectorRow &v, const Colors &colors, const int *hgt,
                    const char *merged, const int *allH) const;
    /** A tick head (downward triangle) in `color`, premultiplied, cached. */
    const QImage &headSprite(const QColor &color, double dpr, int bodyPx);

    std::vector<int> m_counts;      // one per column
    std::vector<int> m_allCounts;   // Dim: every record's counts
    std::vector<int> m_laneCounts;  // a merged row: one more lane's counts
    std::vector<int> m_allHeight;
    std::vector<int> m_colHeight;
    std::vector<char> m_colMerged;
    std::vector<int> m_heads;
    QImage m_rowImage;
    QHash<quint64, QImage> m_sprites;
};

}  // namespace lmct
