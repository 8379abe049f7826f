#pragma once

#include <QRect>
#include <QString>
#include <QWidget>

namespace lmct {

/**
 * A transparent child widget over the timeline's plot that draws what follows the mouse: the
 * hover line with its time tag on the time axis, and the band of a rubber-band zoom or a time
 * range being dragged.
 *
 * Kept out of the QCustomPlot on purpose: moving the mouse repaints only the few pixels that
 * changed (Qt composes them over the plot's cached pixmap), instead of replotting, and the plot
 * keeps a single paint buffer, which makes every replot cheaper.
 *
 * Coordinates are the plot widget's (logical pixels). Mouse events pass through.
 * Thread-safety: GUI thread only.
 */
class TimelineOverlay : public QWidget {
    Q_OBJECT
public:
    explicit TimelineOverlay(QWidget *plot);

    /**
     * The data areas the hover line spans (lanes, rate plot; an empty rect is skipped), and
     * the y the time tags end above: the top of the time axis' tick labels, which they must
     * not hide (by default just above the lanes).
     */
    void setAreas(const QRect &lanes, const QRect &rate, int tagBottom = -1);
    /** Shows the hover line at `x` with `tag` above the time axis' tick labels. */
    void showHover(double x, const QString &tag);
    void hideHover();
    bool hoverVisible() const { return m_hover; }
    /** The hover line's tag and where it is drawn (tests). */
    QString hoverTag() const { return m_hover ? m_tag : QString(); }
    QRect hoverTagRect() const { return m_hover ? tagRect(m_x, m_tag) : QRect(); }

    enum class BandKind { Zoom, Range };
    /** Shows a dragged band between x0 and x1 with `label`. */
    void showBand(double x0, double x1, BandKind kind, const QString &label);
    void hideBand();
    bool bandVisible() const { return m_band; }

protected:
    void paintEvent(QPaintEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QRect hoverRect() const;
    QRect bandRect() const;
    QRect tagRect(double x, const QString &text) const;

    QRect m_lanes, m_rate;
    int m_tagBottom = -1;  // -1: just above the lanes
    bool m_hover = false;
    double m_x = 0.0;
    QString m_tag;
    bool m_band = false;
    double m_b0 = 0.0, m_b1 = 0.0;
    BandKind m_kind = BandKind::Zoom;
    QString m_label;
};

}  // namespace lmct
