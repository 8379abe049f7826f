#include "timeline/timelineexport.h"

#include "common/captionedexport.h"
#include "timeline/timelinehitplot.h"
#include "timeline/timelinewidget.h"
#include "util/plural.h"
#include "util/timeformat.h"
#include "whatif/configuredrun.h"

#include <qcustomplot.h>

#include <QLocale>
#include <algorithm>

namespace lmct {

QString TimelineExport::captionSeparator() {
    return CaptionedExport::separator();
}

QString TimelineExport::captionLines(const QString &caption, const QFontMetricsF &fm, int width) {
    return CaptionedExport::captionLines(caption, fm, width);
}

PlotExportSpec TimelineExport::spec(TimelineWidget *timeline) {
    PlotExportSpec s;
    s.plot = timeline->plot();
    s.title = QObject::tr("Timeline");
    s.fileSuffix = QStringLiteral("-timeline");
    s.caption = [timeline] { return caption(*timeline); };
    s.inputPath = [timeline] {
        const ViewState *state = timeline->viewState();
        return state && state->document() ? state->document()->filePath() : QString();
    };
    s.ready = [timeline] {
        const ViewState *state = timeline->viewState();
        return state && state->document() && !timeline->isIndexing();
    };
    // Lanes, rate plot, legend and ticks as a plot of the export's size on screen has them.
    s.layOut = [timeline](QSize size, int reservedHeight) {
        timeline->layOutFor(size, reservedHeight);
    };
    s.paletteWidget = timeline;
    return s;
}

QString TimelineExport::caption(const TimelineWidget &timeline) {
    const ViewState *state = timeline.viewState();
    const auto doc = state ? state->document() : nullptr;
    const QString file = doc ? doc->fileName() : QObject::tr("no trace");
    const QCPRange r = timeline.visibleRange();
    // The axis's range as drawn (before the trace's first record too, when zoomed out there).
    const double lo = r.lower, hi = std::max(lo, r.upper);
    QString range;
    if (timeline.timeMode() == TimelineWidget::TimeMode::Wall) {
        const double off = timeline.ticker()->wallOffset();
        const bool utc = timeline.ticker()->utc();
        range = QObject::tr("t_wall %1 … %2")
                    .arg(TimeFormat::wall(off + lo, utc), TimeFormat::wall(off + hi, utc));
    } else {
        range = QObject::tr("t_mono %1 … %2 s").arg(TimeFormat::mono(lo), TimeFormat::mono(hi));
    }
    range += QStringLiteral(" (%1)").arg(TimeFormat::duration(hi - lo));
    const QString filter = state ? state->filterAppliedText() : QString();
    const QString filterText =
        filter.isEmpty() ? QObject::tr("no filter") : QObject::tr("filter: %1").arg(filter);
    const QString sep = captionSeparator();
    QString out = file + sep + range + sep + filterText;
    // the what-if's hit ratio over time under the lanes: its capacity and policies
    if (timeline.hitPlot() && timeline.hitPlot()->isPlaced() && state) {
        const ViewState::WhatIfChoice c = state->whatIfChoice();
        QStringList policies;
        for (CachePolicy::Kind k : c.policies) {
            policies << CachePolicy::label(k);
        }
        const QString capacity =
            c.inBytes ? ConfiguredRun::bytesText(double(c.capacity))
                      : QObject::tr("%1 chunks").arg(QLocale().toString(qint64(c.capacity)));
        out += sep + QObject::tr("hit ratio at C = %1: %2")
                         .arg(capacity, policies.join(QStringLiteral(", ")));
    }
    // a picture too small for a row per lane (TimelinePlotLayout): how the rows were merged
    const TimelineLanes *lanes = timeline.lanes();
    if (lanes && lanes->isMerged()) {
        out += sep + QObject::tr("%1 merged into %2 to fit")
                         .arg(Plural::counted(lanes->baseRows().size(), "lane", "lanes"),
                              Plural::counted(lanes->rows().size(), "row", "rows"));
    }
    return out;
}

QImage TimelineExport::toImage(TimelineWidget *timeline, QSize size, double scale) {
    return CaptionedExport::toImage(spec(timeline), size, scale);
}

bool TimelineExport::save(TimelineWidget *timeline, const QString &path, PlotExport::Format format,
                          QSize size, double scale, QString *error) {
    return CaptionedExport::save(spec(timeline), path, format, size, scale, error);
}

}  // namespace lmct
