#include "shell/headlessexport.h"
#include "common/quietoffscreennotes.h"

#include "filter/filterevaluator.h"
#include "filter/filterexpression.h"
#include "timeline/timelineexport.h"
#include "timeline/timelineviewport.h"
#include "timeline/timelinewidget.h"
#include "trace/traceloader.h"
#include "util/terminaltext.h"
#include "util/timeformat.h"
#include "viewstate.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTextStream>
#include <QTimer>
#include <cmath>

namespace lmct {

namespace {

int fail(int code, const QString &message) {
    QTextStream(stderr) << "lmct-viewer: " << message << "\n";
    return code;
}

/** Runs the event loop until `done` or `timeoutMs`; returns done(). */
bool waitUntil(const std::function<bool()> &done, int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < timeoutMs) {
        QEventLoop loop;
        QTimer::singleShot(20, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return done();
}

}  // namespace

int HeadlessExport::run(const Request &request) {
    // a file named after another format would say one and hold another (x.jpg holding a PNG)
    if (const QString why = PlotExport::suffixProblem(request.output, request.format);
        !why.isEmpty()) {
        return fail(kExitUsage,
                    QStringLiteral("--export-%1 %2").arg(PlotExport::suffix(request.format), why));
    }
    static const QRegularExpression sizeRe(QStringLiteral("^(\\d{1,5})[xX](\\d{1,5})$"));
    const QRegularExpressionMatch m = sizeRe.match(request.size);
    const int width = m.hasMatch() ? m.captured(1).toInt() : 0;
    const int height = m.hasMatch() ? m.captured(2).toInt() : 0;
    if (width < PlotExport::kMinSide || height < PlotExport::kMinSide ||
        width > PlotExport::kMaxSide || height > PlotExport::kMaxSide) {
        return fail(kExitUsage, QStringLiteral("invalid --size '%1': expected WxH, each %2..%3 "
                                               "(e.g. 1600x900)")
                                    .arg(request.size)
                                    .arg(PlotExport::kMinSide)
                                    .arg(PlotExport::kMaxSide));
    }
    if (!(request.scale >= 0.1 && request.scale <= 8)) {
        return fail(kExitUsage, QStringLiteral("invalid --scale: expected a number in 0.1..8"));
    }
    // The image is (W x scale) x (H x scale) pixels of 4 bytes: cap it (PlotExport's limits,
    // the GUI's too) before loading anything.
    const double pixelsWide = width * request.scale, pixelsHigh = height * request.scale;
    if (request.format == PlotExport::Format::Png &&
        !PlotExport::withinImageLimits(pixelsWide, pixelsHigh)) {
        return fail(kExitUsage,
                    QStringLiteral("--size %1 at --scale %2 is a %3 x %4 pixel image: at most "
                                   "%5 pixels a side and %6 million pixels in all")
                        .arg(request.size)
                        .arg(request.scale)
                        .arg(qint64(pixelsWide))
                        .arg(qint64(pixelsHigh))
                        .arg(PlotExport::kMaxImageSide)
                        .arg(PlotExport::kMaxImagePixels / 1000000));
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

    // The same set-up as a tab of the app: a ViewState with the document and the filter.
    ViewState state;
    state.setDocument(doc);
    if (!filter.isEmpty()) {
        // every matching record, as the filter bar evaluates it (the range is the view's)
        auto rows =
            std::make_shared<const std::vector<int>>(FilterEvaluator(doc, filter).run().records);
        state.setFilterText(filter.text());
        state.setFilterResult(filter.text(), std::move(rows));
    }
    const QuietOffscreenNotes quiet;
    TimelineWidget timeline;
    timeline.setAttribute(Qt::WA_DontShowOnScreen);
    timeline.setViewState(&state);
    // An exported picture shows what --filter selects (not the user's Dim preference).
    timeline.setFilterMode(TimelineWidget::FilterMode::Hide);
    timeline.resize(width, height + 100);  // about WxH for the plot (under toolbar and overview)
    timeline.show();
    if (!waitUntil([&] { return !timeline.isIndexing(); }, request.timeoutMs)) {
        return fail(kExitIo, QStringLiteral("%1: the timeline was not ready after %2 s")
                                 .arg(request.input)
                                 .arg(request.timeoutMs / 1000));
    }
    if (!request.range.isEmpty()) {
        // What the picture can show is the trace: a range reaching past it is cut to it (and
        // said so), an empty one or one wholly outside it is an error, not an empty picture.
        const RecordStore &rs = doc->records();
        const QString trace =
            QStringLiteral("t_mono %1 … %2 s")
                .arg(TimeFormat::mono(rs.minTMono()), TimeFormat::mono(rs.maxTMono()));
        const TimelineViewport::Range whole = timeline.viewport()->traceRange();
        const double wantFrom = std::isfinite(range.from) ? range.from : whole.lower;
        const double wantTo = std::isfinite(range.to) ? range.to : whole.upper;
        if (!(wantTo > wantFrom)) {
            return fail(kExitUsage,
                        QStringLiteral("--range %1 is empty: expected T0 < T1").arg(request.range));
        }
        if (wantFrom > rs.maxTMono() || wantTo < rs.minTMono()) {
            return fail(
                kExitUsage,
                QStringLiteral("--range %1 lies outside the trace (%2)").arg(request.range, trace));
        }
        // cut to the first and last record (a trace shorter than 1 ms: 1 ms around them)
        if (const auto window = timeline.viewport()->windowFor(wantFrom, wantTo)) {
            timeline.setVisibleRange(window->lower, window->upper);
        }
        const QCPRange shown = timeline.visibleRange();
        if (shown.lower > wantFrom || shown.upper < wantTo) {
            QTextStream(stderr) << QStringLiteral(
                                       "lmct-viewer: note: --range %1 reaches past the trace "
                                       "(%2): showing t_mono %3 … %4 s\n")
                                       .arg(request.range, trace, TimeFormat::mono(shown.lower),
                                            TimeFormat::mono(shown.upper));
        }
    }
    // Let the queued replots run; the export lays the plot out at WxH itself (TimelineExport),
    // as it does for the GUI's exports.
    timeline.plot()->replot(QCustomPlot::rpImmediateRefresh);
    QCoreApplication::processEvents();

    QString error;
    if (!TimelineExport::save(&timeline, request.output, request.format, QSize(width, height),
                              request.scale, &error)) {
        return fail(kExitIo, error);
    }
    // Cut short by another process meanwhile: the picture shows the records read, the rest was
    // not the file's. Said, and exit 2, as lmct does (exit 0 and nothing said).
    qint64 shrunk = -1;
    if (const QString shrank = doc->shrinkSentence(&shrunk); !shrank.isEmpty()) {
        return fail(kExitIo, QStringLiteral("%1: the picture shows the records before byte %2; "
                                            "what lay past it is not the file's")
                                 .arg(TerminalText::escaped(shrank))
                                 .arg(shrunk));
    }
    return kExitOk;
}

}  // namespace lmct
