#include "common/plotcontextmenu.h"

#include "common/plotexportactions.h"

#include <qcustomplot.h>

#include <QMenu>

namespace lmct {

namespace {

const QString kActionsName = QStringLiteral("plotExportActions");

}  // namespace

PlotExportActions *PlotContextMenu::install(const PlotExportSpec &spec) {
    QCustomPlot *plot = spec.plot;
    if (PlotExportActions *old = actionsOf(plot)) {
        old->setObjectName(QString());
        old->deleteLater();
        QObject::disconnect(plot, &QWidget::customContextMenuRequested, nullptr, nullptr);
    }
    auto *actions = new PlotExportActions(plot, spec, PlotExportActions::Names());
    actions->setObjectName(kActionsName);
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(plot, &QWidget::customContextMenuRequested, actions,
                     [plot, actions](const QPoint &pos) {
                         QMenu menu(plot);
                         actions->reloadSize();  // (another plot's menu may have changed it)
                         actions->addTo(&menu);
                         menu.exec(plot->mapToGlobal(pos));
                     });
    return actions;
}

PlotExportActions *PlotContextMenu::actionsOf(const QCustomPlot *plot) {
    return plot ? plot->findChild<PlotExportActions *>(kActionsName, Qt::FindDirectChildrenOnly)
                : nullptr;
}

}  // namespace lmct
