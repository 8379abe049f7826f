#include "common/plottheme.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QPalette>

#include <algorithm>

namespace lmct {

namespace {

const char *const kDarkProperty = "lmctPlotThemeDark";

/** Restyles its plot on every PaletteChange. */
class PaletteFollower : public QObject {
public:
    explicit PaletteFollower(QCustomPlot *plot) : QObject(plot), m_plot(plot) {
        setObjectName(QStringLiteral("lmctPlotTheme"));
        plot->installEventFilter(this);
        // legend entries and items made after a restyle take the palette at the next replot
        connect(plot, &QCustomPlot::beforeReplot, this,
                [this] { PlotTheme::apply(m_plot, m_plot->palette()); });
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override {
        if (watched == m_plot && event->type() == QEvent::PaletteChange) {
            PlotTheme::apply(m_plot, m_plot->palette());
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        }
        return false;
    }

private:
    QCustomPlot *m_plot;
};

QColor withAlpha(QColor c, int a) {
    c.setAlpha(a);
    return c;
}

/** `pen` in colour `c` (width and style kept). */
QPen recolored(QPen pen, const QColor &c) {
    if (pen.style() != Qt::NoPen) {
        pen.setColor(c);
    }
    return pen;
}

/** A grey (channels within a few steps of each other): a theme colour, not a data colour. */
bool isNeutral(const QColor &c) {
    const int hi = std::max({c.red(), c.green(), c.blue()});
    const int lo = std::min({c.red(), c.green(), c.blue()});
    return hi - lo <= 24;  // unchanged by inversion: the test holds both ways
}

QColor flipped(const QColor &c) {
    if (!isNeutral(c)) {
        return c;
    }
    return QColor(255 - c.red(), 255 - c.green(), 255 - c.blue(), c.alpha());
}

QPen flipped(QPen pen) {
    pen.setColor(flipped(pen.color()));
    return pen;
}

QBrush flipped(QBrush brush) {
    if (brush.style() == Qt::SolidPattern) {
        brush.setColor(flipped(brush.color()));
    }
    return brush;
}

/** Inverts the neutral colours of the plot's items and plottables (light ↔ dark). */
void flipNeutrals(QCustomPlot *plot) {
    for (int i = 0; i < plot->itemCount(); ++i) {
        QCPAbstractItem *item = plot->item(i);
        if (auto *t = qobject_cast<QCPItemText *>(item)) {
            t->setColor(flipped(t->color()));
            t->setPen(flipped(t->pen()));
            t->setBrush(flipped(t->brush()));
        } else if (auto *s = qobject_cast<QCPItemStraightLine *>(item)) {
            s->setPen(flipped(s->pen()));
        } else if (auto *l = qobject_cast<QCPItemLine *>(item)) {
            l->setPen(flipped(l->pen()));
        } else if (auto *tr = qobject_cast<QCPItemTracer *>(item)) {
            tr->setPen(flipped(tr->pen()));
            tr->setBrush(flipped(tr->brush()));
        } else if (auto *r = qobject_cast<QCPItemRect *>(item)) {
            r->setPen(flipped(r->pen()));
            r->setBrush(flipped(r->brush()));
        }
    }
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable *p = plot->plottable(i);
        p->setPen(flipped(p->pen()));
        p->setBrush(flipped(p->brush()));
        if (auto *g = qobject_cast<QCPGraph *>(p)) {
            QCPScatterStyle s = g->scatterStyle();
            s.setPen(flipped(s.pen()));
            s.setBrush(flipped(s.brush()));
            g->setScatterStyle(s);
        }
    }
}

void styleLegend(QCPLegend *legend, const QColor &base, const QColor &text, const QColor &mid) {
    if (legend->brush().style() != Qt::NoBrush) {
        legend->setBrush(withAlpha(base, legend->brush().color().alpha()));
    }
    legend->setBorderPen(recolored(legend->borderPen(), mid));
    legend->setTextColor(text);
    for (int i = 0; i < legend->itemCount(); ++i) {
        legend->item(i)->setTextColor(text);
    }
}

}  // namespace

void PlotTheme::follow(QCustomPlot *plot) {
    if (follows(plot)) {
        return;
    }
    new PaletteFollower(plot);
    apply(plot, plot->palette());
}

bool PlotTheme::follows(const QCustomPlot *plot) {
    return plot && plot->findChild<QObject *>(QStringLiteral("lmctPlotTheme"),
                                              Qt::FindDirectChildrenOnly) != nullptr;
}

void PlotTheme::apply(QCustomPlot *plot, const QPalette &pal) {
    const QColor base = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    const QColor axis = withAlpha(text, 150);
    plot->setBackground(base);
    for (QCPAxisRect *rect : plot->axisRects()) {
        rect->setBackground(base);
        for (QCPAxis *a : rect->axes()) {
            a->setBasePen(recolored(a->basePen(), axis));
            a->setTickPen(recolored(a->tickPen(), axis));
            a->setSubTickPen(recolored(a->subTickPen(), axis));
            a->setTickLabelColor(text);
            a->setLabelColor(text);
            a->grid()->setPen(recolored(a->grid()->pen(), withAlpha(text, 45)));
            a->grid()->setSubGridPen(recolored(a->grid()->subGridPen(), withAlpha(text, 20)));
            a->grid()->setZeroLinePen(recolored(a->grid()->zeroLinePen(), withAlpha(text, 70)));
        }
    }
    for (QCPLayoutElement *e : plot->plotLayout()->elements(true)) {
        if (auto *t = qobject_cast<QCPTextElement *>(e)) {
            t->setTextColor(text);
        } else if (auto *l = qobject_cast<QCPLegend *>(e)) {
            styleLegend(l, base, text, axis);
        }
    }
    const bool dark = base.lightness() < 128;
    if (plot->property(kDarkProperty).toBool() != dark) {
        flipNeutrals(plot);
        plot->setProperty(kDarkProperty, dark);
    }
}

}  // namespace lmct
