#pragma once

#include "cache/followedtrail.h"

#include <qcustomplot.h>

#include <QColor>
#include <QPalette>
#include <QRectF>
#include <QString>
#include <QVector>
#include <memory>

namespace lmct {

class TimelineLanes;

/**
 * The followed key on the timeline (ViewState::followedKey): a QCustomPlot layerable drawn over
 * a TimelineLanes. Every followed record in view gets a marker in its lane — a ring in the lane's
 * colour with a halo of the background around it, so that it shows even where the lane is
 * aggregated into a histogram — successive records are joined by a line, and each gap is
 * labelled with its duration and meaning (FollowedTrail::gapLabel) where the label fits between
 * its two markers without covering another label.
 *
 * Style::Overview (the overview strip) draws a small triangle on the top edge per followed
 * record, one per pixel column.
 *
 * Cost: O(followed records in view) per draw (a binary search finds them; a record within a
 * marker's width of the previous marker in its row joins it), never the trace's record count.
 * Connectors and labels are left out when more than maxJoined() followed records are in view.
 *
 * Coordinates: the lanes' axes (t_mono on the key axis, rows from TimelineLanes::rowRect).
 * Ownership: created with `new` on a QCustomPlot, which owns it; holds the trail by value and no
 * ownership of the lanes (which must outlive it: both belong to the same plot).
 * Thread-safety: GUI thread only.
 */
class TimelineFollowLayer : public QCPLayerable {
    Q_OBJECT
public:
    enum class Style { Detailed, Overview };

    /** Draws over `lanes` on `layer` of the lanes' plot. */
    TimelineFollowLayer(TimelineLanes *lanes, const QString &layer, Style style);

    void setTrail(std::shared_ptr<const FollowedTrail> trail);
    std::shared_ptr<const FollowedTrail> trail() const { return m_trail; }
    void setColors(const QPalette &palette);

    static int maxJoined() { return 400; }

    /** What the last draw() showed (for tests). */
    struct Drawn {
        QVector<int> records;  ///< records with a marker, in time order
        QVector<QPointF> markers;
        QStringList labels;  ///< gap labels shown
        QVector<QRectF> labelRects;
        int joined = 0;  ///< connector segments drawn
    };
    const Drawn &drawn() const { return m_drawn; }

protected:
    void applyDefaultAntialiasingHint(QCPPainter *painter) const override;
    void draw(QCPPainter *painter) override;
    QRect clipRect() const override;

private:
    void drawOverview(QCPPainter *p);

    TimelineLanes *m_lanes = nullptr;
    Style m_style = Style::Detailed;
    std::shared_ptr<const FollowedTrail> m_trail;
    QColor m_base, m_text, m_highlight;
    Drawn m_drawn;
};

}  // namespace lmct
