#include "common/plotcaption.h"

#include <qcustomplot.h>

namespace lmct {

QCPItemText *PlotCaption::create(QCustomPlot *plot, QCPAxisRect *rect) {
    auto *caption = new QCPItemText(plot);
    caption->setLayer(QStringLiteral("legend"));
    caption->setClipAxisRect(rect);
    caption->position->setType(QCPItemPosition::ptAxisRectRatio);
    caption->position->setAxisRect(rect);
    caption->position->setCoords(0, 0);
    caption->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    caption->setPadding(QMargins(6, 2, 4, 2));
    caption->setSelectable(false);
    caption->setText(QString());  // (not QCPItemText's default "text")
    caption->setVisible(false);
    return caption;
}

}  // namespace lmct
