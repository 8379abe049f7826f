#include "headlessexport.h"

#include "filterevaluator.h"
#include "filterexpression.h"
#include "tickplot.h"
#include "timeformat.h"
#include "traceloader.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QTextStream>

namespace lmct {

namespace {

int fail(int code, const QString &message) {
    QTextStream(stderr) << "lmct-viewer: " << message << "\n";
    return code;
}

}  // namespace

int HeadlessExport::run(const Request &request) {
    static const QRegularExpression sizeRe(QStringLiteral("^(\\d{1,5})[xX](\\d{1,5})$"));
    const QRegularExpressionMatch m = sizeRe.match(request.size);
    const int width = m.hasMatch() ? m.captured(1).toInt() : 0;
    const int height = m.hasMatch() ? m.captured(2).toInt() : 0;
    if (width < 16 || height < 16 || width > 20000 || height > 20000) {
        return fail(kExitUsage, QStringLiteral("invalid --size '%1': expected WxH, each 16..20000 "
                                               "(e.g. 1600x900)")
                                    .arg(request.size));
    }
    if (!(request.scale >= 0.1 && request.scale <= 8)) {
        return fail(kExitUsage, QStringLiteral("invalid --scale: expected a number in 0.1..8"));
    }
    TMonoRange range;
    if (!request.range.isEmpty()) {
        QString why;
        const auto r = TMonoRange::parse(request.range, &why);
        if (!r) {
            return fail(kExitUsage, QStringLiteral("invalid --range: %1").arg(why));
        }
        range = *r;
    }
    FilterExpression filter;
    if (!request.filter.isEmpty()) {
        filter = FilterExpression::parse(request.filter);
        if (!filter.isValid()) {
            return fail(kExitUsage, QStringLiteral("invalid filter: %1").arg(filter.errorString()));
        }
    }
    QString why;
    const std::shared_ptr<const TraceDocument> doc = TraceLoader::load(request.input, &why);
    if (!doc) {
        return fail(kExitIo, why);
    }
    FilterEvaluator ev(doc, filter);
    FilterEvaluator::Options o;
    o.range = range;
    const std::vector<int> rows = ev.run(o).records;

    TickPlot plot;
    plot.resize(width, height);
    plot.setRecords(doc, rows, range);
    const QCPRange shown = plot.xAxis->range();
    plot.setCaption(QStringLiteral("%1  —  t_mono %2 … %3  —  %4  —  %5 records")
                        .arg(QFileInfo(request.input).fileName(),
                             TimeFormat::mono(std::max(0.0, shown.lower)),
                             TimeFormat::mono(shown.upper),
                             filter.isEmpty() ? QStringLiteral("no filter")
                                              : QStringLiteral("filter: ") + filter.text())
                        .arg(rows.size()));
    plot.replot(QCustomPlot::rpImmediateRefresh);
    QString error;
    if (QFileInfo(request.output).exists() && QFileInfo(request.output).canonicalFilePath() ==
                                                  QFileInfo(request.input).canonicalFilePath()) {
        return fail(kExitIo,
                    QStringLiteral("cannot write %1: it is the input trace").arg(request.output));
    }
    if (!PlotExport::save(&plot, request.output, request.format, width, height, request.scale,
                          &error)) {
        return fail(kExitIo, error);
    }
    return kExitOk;
}

}  // namespace lmct
