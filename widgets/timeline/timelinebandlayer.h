#pragma once

#include <QObject>

class QCustomPlot;
class QCPAxisRect;
class QCPItemRect;
class QCPItemText;
class QFont;
class QPalette;
class QString;

namespace lmct {

/**
 * The timeline plot's bands: the backdrop (a viewport-sized rectangle on the "background" layer
 * that makes the paint buffer opaque, so that showing it is a copy), the time range's band over
 * the lanes and over the rate plot, and its duration label at the top of the lanes. The bands and
 * the label are on the layer given (above the lanes, under what follows the mouse).
 *
 * Ownership: the items belong to the plot (QCustomPlot deletes them); this is a QObject child
 * of `parent`. Thread-safety: GUI thread only.
 */
class TimelineBandLayer : public QObject {
    Q_OBJECT
public:
    /** Makes the items on `plot`: the lanes' band in `lanesRect` (its top axis is the time
     *  axis), the rate band in `rateRect` (its bottom axis), both on `layer`. */
    TimelineBandLayer(QCustomPlot *plot, QCPAxisRect *lanesRect, QCPAxisRect *rateRect,
                      const QString &layer, QObject *parent);

    /** Shows the time range [from, to] (t_mono, seconds) and its duration, or hides them. */
    void show(bool on, double from, double to);
    /** Colours: the backdrop the window's, the bands and the label the highlight's. */
    void applyPalette(const QPalette &pal, const QFont &small);

    QCPItemRect *band() const { return m_band; }
    QCPItemRect *rateBand() const { return m_rateBand; }

private:
    QCPItemRect *m_band = nullptr;
    QCPItemRect *m_rateBand = nullptr;
    QCPItemRect *m_backdrop = nullptr;
    QCPItemText *m_label = nullptr;  // the time range's duration
};

}  // namespace lmct
