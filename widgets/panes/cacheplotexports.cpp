#include "panes/cacheplotexports.h"

#include "common/captionedexport.h"
#include "common/plotcontextmenu.h"
#include "panes/cachebehaviourpane.h"
#include "trace/storagemanagerconfig.h"
#include "viewstate.h"
#include "whatif/configuredrun.h"

#include <QComboBox>
#include <QLocale>

namespace lmct {

namespace {

/** "FILE  —  whole trace (N records)  —  keys of all models[, tenant T]". */
QStringList scopeParts(const CacheBehaviourPane *pane) {
    const ViewState *state = pane->viewState();
    const auto doc = state ? state->document() : nullptr;
    QStringList parts;
    parts << (doc ? doc->fileName() : QObject::tr("no trace"));
    const auto analysis = pane->analysis();
    if (analysis && analysis->keys) {
        parts << QObject::tr("whole trace (%1 records)")
                     .arg(QLocale().toString(analysis->keys->recordCount()));
    }
    const CacheWhatIfTab *tab = pane->whatIfTab();
    const QComboBox *model = tab->reuseModelSelector();
    QString keys = model->currentIndex() > 0 ? QObject::tr("keys of %1").arg(model->currentText())
                                             : QObject::tr("keys of all models");
    const QComboBox *tenant = tab->tenantSelector();
    if (!tenant->isHidden() && tenant->currentIndex() > 0) {
        keys += QObject::tr(", tenant %1").arg(tenant->currentText());
    }
    parts << keys;
    return parts;
}

QString inputPath(const CacheBehaviourPane *pane) {
    const ViewState *state = pane->viewState();
    return state && state->document() ? state->document()->filePath() : QString();
}

QString curvesCaption(const CacheBehaviourPane *pane) {
    QStringList parts = scopeParts(pane);
    const CacheWhatIfTab *tab = pane->whatIfTab();
    const bool bytes = tab->unit() == WhatIfAnalysis::Unit::Bytes;
    QStringList policies;
    for (CachePolicy::Kind k : tab->checkedPolicies()) {
        policies << CachePolicy::label(k);
    }
    if (pane->analysis()) {
        const QString c =
            bytes ? ConfiguredRun::bytesText(double(tab->capacity()))
                  : QObject::tr("%1 chunks").arg(QLocale().toString(qint64(tab->capacity())));
        parts << QObject::tr("%1 at C = %2")
                     .arg(policies.isEmpty() ? QObject::tr("no policy")
                                             : policies.join(QStringLiteral(", ")),
                          c);
    }
    const ViewState *state = pane->viewState();
    if (state && state->document()) {
        if (const auto run = ConfiguredRun::fromConfig(state->document()->header().smConfig())) {
            const QString policy =
                run->policyText().isEmpty() ? QString() : QStringLiteral(" · ") + run->policyText();
            parts << QObject::tr("configured L1 %1%2")
                         .arg(ConfiguredRun::bytesText(double(run->l1Bytes())), policy);
        }
    }
    return parts.join(CaptionedExport::separator());
}

}  // namespace

void CachePlotExports::install(CacheBehaviourPane *pane) {
    const auto ready = [pane] { return pane->analysis() != nullptr; };
    PlotExportSpec curves;
    curves.plot = pane->hitPlot();
    curves.title = QObject::tr("What-if Curves");
    curves.fileSuffix = QStringLiteral("-whatif");
    curves.caption = [pane] { return curvesCaption(pane); };
    curves.inputPath = [pane] { return inputPath(pane); };
    curves.ready = ready;
    PlotContextMenu::install(curves);
    const QString titles[CacheBehaviourPane::kHistogramCount] = {
        QObject::tr("Reuse Distance Histogram"), QObject::tr("Reuse Time Histogram"),
        QObject::tr("Reuse Count Histogram")};
    const QString suffixes[CacheBehaviourPane::kHistogramCount] = {QStringLiteral("-reuse-keys"),
                                                                   QStringLiteral("-reuse-time"),
                                                                   QStringLiteral("-reuse-count")};
    for (int h = 0; h < CacheBehaviourPane::kHistogramCount; ++h) {
        PlotExportSpec s;
        s.plot = pane->histogramPlot(CacheBehaviourPane::Histogram(h));
        s.title = titles[h];
        s.fileSuffix = suffixes[h];
        s.caption = [pane] { return scopeParts(pane).join(CaptionedExport::separator()); };
        s.inputPath = [pane] { return inputPath(pane); };
        s.ready = ready;
        PlotContextMenu::install(s);
    }
}

}  // namespace lmct
