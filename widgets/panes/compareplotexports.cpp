#include "panes/compareplotexports.h"

#include "common/captionedexport.h"
#include "common/plotcontextmenu.h"
#include "panes/comparepane.h"
#include "whatif/configuredrun.h"

#include <QComboBox>

namespace lmct {

namespace {

QStringList fileParts(const ComparePane *pane) {
    const auto c = pane->comparison();
    if (!c) {
        return {QObject::tr("no comparison")};
    }
    return {QObject::tr("A: %1").arg(c->a().fileName), QObject::tr("B: %1").arg(c->b().fileName)};
}

QString configured(const TraceComparison::Side &side, const QString &name) {
    const auto run = ConfiguredRun::fromConfig(side.config);
    if (!run) {
        return QObject::tr("%1 without a configured L1 size").arg(name);
    }
    const QString policy =
        run->policyText().isEmpty() ? QString() : QStringLiteral(" · ") + run->policyText();
    return QObject::tr("%1 configured L1 %2%3")
        .arg(name, ConfiguredRun::bytesText(double(run->l1Bytes())), policy);
}

PlotExportSpec specFor(ComparePane *pane, QCustomPlot *plot, const QString &title,
                       const QString &suffix, std::function<QStringList()> what) {
    PlotExportSpec s;
    s.plot = plot;
    s.title = title;
    s.fileSuffix = suffix;
    s.caption = [pane, what = std::move(what)] {
        return (fileParts(pane) + what()).join(CaptionedExport::separator());
    };
    s.inputPath = [pane] {
        const auto c = pane->comparison();
        return c ? c->a().filePath : QString();
    };
    s.subject = [pane] {
        const auto c = pane->comparison();
        return c ? QObject::tr("%1 ⇄ %2").arg(c->a().fileName, c->b().fileName) : QString();
    };
    s.ready = [pane] { return pane->comparison() != nullptr; };
    return s;
}

}  // namespace

void ComparePlotExports::install(ComparePane *pane) {
    PlotContextMenu::install(specFor(
        pane, pane->latencyPlot(), QObject::tr("Latency Plot"), QStringLiteral("-compare-latency"),
        [pane] {
            return QStringList{
                QObject::tr("distribution of %1").arg(pane->latencyChooser()->currentText())};
        }));
    PlotContextMenu::install(specFor(pane, pane->whatIfPlot(), QObject::tr("What-if Curves"),
                                     QStringLiteral("-compare-whatif"), [pane] {
                                         QStringList parts{QObject::tr("capacity in chunks")};
                                         if (const auto c = pane->comparison()) {
                                             parts << configured(c->a(), QObject::tr("A"))
                                                   << configured(c->b(), QObject::tr("B"));
                                         }
                                         return parts;
                                     }));
    PlotContextMenu::install(specFor(
        pane, pane->reusePlot(), QObject::tr("Reuse Plot"), QStringLiteral("-compare-reuse"),
        [pane] {
            return QStringList{
                QObject::tr("reuse distance in %1").arg(pane->reuseChooser()->currentText())};
        }));
}

}  // namespace lmct
