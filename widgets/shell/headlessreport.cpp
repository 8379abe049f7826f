#include "shell/headlessreport.h"
#include "common/quietoffscreennotes.h"

#include "comparealignmentoptions.h"
#include "comparisonlink.h"
#include "export/exportfile.h"
#include "filter/filterexpression.h"
#include "filter/tmonorange.h"
#include "report/comparisonreport.h"
#include "report/reportjob.h"
#include "timeline/timelineviewport.h"
#include "trace/damagesummary.h"
#include "trace/traceloader.h"
#include "util/terminaltext.h"
#include "util/timeformat.h"
#include "viewstate.h"

#include <QEventLoop>
#include <QTextStream>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <tuple>

namespace lmct {

namespace {

int failWith(int code, const QString &message) {
    QTextStream(stderr) << "lmct-viewer: " << TerminalText::escaped(message) << "\n";
    return code;
}

}  // namespace

int HeadlessReport::run(const Request &request) {
    if (request.inputs.isEmpty() || request.inputs.size() > 2) {
        return failWith(kExitUsage,
                        QStringLiteral("--report takes one FILE, or two with --compare"));
    }
    if (const QString why = ReportJob::formatProblem(request.output); !why.isEmpty()) {
        return failWith(kExitUsage, QStringLiteral("--report %1").arg(why));
    }
    TMonoRange range;
    if (!request.range.isEmpty()) {
        QString why;
        const auto r = TMonoRange::parse(request.range, &why);
        if (!r) {
            return failWith(kExitUsage, QStringLiteral("invalid --range: %1").arg(why));
        }
        range = *r;
    }
    if (!request.filter.isEmpty()) {
        const FilterExpression filter = FilterExpression::parse(request.filter);
        if (!filter.isValid()) {
            return failWith(kExitUsage,
                            QStringLiteral("invalid filter: %1").arg(filter.errorString()));
        }
    }
    // B's alignment, as a comparison's tab offers it (ComparisonLink)
    const bool comparing = request.inputs.size() == 2;
    if (!comparing && (!request.align.isEmpty() || !request.offset.isEmpty())) {
        return failWith(
            kExitUsage,
            QStringLiteral("--align and --offset line B up with A: they need --compare A B"));
    }
    QString alignWhy;
    const auto alignment = CompareAlignmentOptions::parse(request.align, request.offset, &alignWhy);
    if (!alignment) {
        return failWith(kExitUsage, alignWhy);
    }
    const bool byWall = alignment->byWall();
    const double offset = alignment->offset;
    for (const QString &input : request.inputs) {
        QString why;
        if (!ExportFile::checkTarget(request.output, &why, input)) {
            return failWith(kExitIo, why);
        }
    }
    std::shared_ptr<const TraceDocument> docs[2];
    for (qsizetype i = 0; i < request.inputs.size(); ++i) {
        QString why;
        docs[i] = TraceLoader::load(request.inputs[i], &why);
        if (!docs[i]) {
            return failWith(kExitIo, why);
        }
    }
    // Where B's t_mono 0 lies on the common axis: as the comparison's tab maps it
    double bStart = 0.0;
    if (comparing) {
        ViewState stateA, stateB;
        stateA.setDocument(docs[0]);
        stateB.setDocument(docs[1]);
        ComparisonLink link(&stateA, &stateB);
        for (qsizetype i = 0; i < 2 && byWall; ++i) {
            // (what makes the tab's "by t_wall" unavailable: ComparisonLink::wallReason())
            if (!std::isfinite(ComparisonLink::wallStart(*docs[i]))) {
                return failWith(kExitUsage,
                                QStringLiteral("--align wall: trace %1 (%2) has no t_wall (no "
                                               "t_wall_start and no record); try --align start")
                                    .arg(QChar(char16_t(u'A' + i)))
                                    .arg(docs[i]->fileName()));
            }
        }
        link.setAlignment(alignment->alignment);
        link.setOffset(offset);
        bStart = link.base() + link.offset();
    }
    // A range that holds none of a trace's records is a mistake, not an empty report (as
    // --export-png refuses it). The range is on the common axis: B's records lie at their
    // t_mono + bStart there.
    for (qsizetype i = 0; i < request.inputs.size() && !request.range.isEmpty(); ++i) {
        const RecordStore &rs = docs[i]->records();
        const double shift = i == 1 ? bStart : 0.0;
        if (rs.size() > 0 && !range.meets(rs.minTMono() + shift, rs.maxTMono() + shift)) {
            const QString which = request.inputs.size() == 1 ? QStringLiteral("the trace")
                                                             : QStringLiteral("trace %1 (%2)")
                                                                   .arg(QChar(char16_t(u'A' + i)))
                                                                   .arg(docs[i]->fileName());
            const QString onAxis = shift == 0.0 ? QString()
                                                : QStringLiteral(", %1 … %2 s on A's axis")
                                                      .arg(TimeFormat::mono(rs.minTMono() + shift),
                                                           TimeFormat::mono(rs.maxTMono() + shift));
            return failWith(kExitUsage,
                            QStringLiteral("--range %1 lies outside %2 (t_mono %3 … %4 s%5)")
                                .arg(request.range, which, TimeFormat::mono(rs.minTMono()),
                                     TimeFormat::mono(rs.maxTMono()), onAxis));
        }
    }
    // A range reaching past the trace is cut to it, and said so (as --export-png says it): the
    // report's timelines show the part inside. A comparison's is cut to both traces' axis.
    if (!request.range.isEmpty()) {
        double lower = 0.0, upper = 0.0;
        QString which;
        if (comparing) {
            std::tie(lower, upper) = ComparisonReport::tracesAxis(*docs[0], *docs[1], bStart);
            which = QStringLiteral("the traces (t_mono %1 … %2 s on A's axis)")
                        .arg(TimeFormat::mono(lower), TimeFormat::mono(upper));
        } else {
            const RecordStore &rs = docs[0]->records();
            TimelineViewport viewport;
            viewport.setTrace(rs.size() > 0, rs.minTMono(), rs.maxTMono());
            lower = viewport.traceRange().lower;
            upper = viewport.traceRange().upper;
            which = QStringLiteral("the trace (t_mono %1 … %2 s)")
                        .arg(TimeFormat::mono(rs.minTMono()), TimeFormat::mono(rs.maxTMono()));
        }
        const double from = std::isfinite(range.from) ? range.from : lower;
        const double to = std::isfinite(range.to) ? range.to : upper;
        if (from < lower || to > upper) {
            QTextStream(stderr) << TerminalText::escaped(
                                       QStringLiteral("lmct-viewer: note: --range %1 reaches past "
                                                      "%2: showing t_mono %3 … %4 s")
                                           .arg(request.range, which,
                                                TimeFormat::mono(std::max(from, lower)),
                                                TimeFormat::mono(std::min(to, upper))))
                                << "\n";
        }
    }
    const QuietOffscreenNotes quiet;

    ReportJob::Request r;
    r.a = docs[0];
    r.b = docs[1];
    r.output = request.output;
    r.filterText = request.filter;
    r.range = range;
    r.alignment = byWall ? ComparisonReport::Alignment::Wall : ComparisonReport::Alignment::Start;
    r.bStart = bStart;
    r.offset = offset;
    r.timelineTimeoutMs = request.timeoutMs;
    ReportJob job(r);
    bool ok = false;
    QString error;
    QEventLoop loop;
    QObject::connect(&job, &ReportJob::finished, &loop, [&](bool done, const QString &why) {
        ok = done;
        error = why;
        loop.quit();
    });
    job.start();
    loop.exec();
    if (!ok) {
        return failWith(kExitIo,
                        error.isEmpty() ? QStringLiteral("the report was cancelled") : error);
    }
    // A damaged trace is reported as far as it reads, said as `lmct compare` says it.
    for (qsizetype i = 0; i < request.inputs.size(); ++i) {
        const QString who =
            request.inputs.size() == 1
                ? docs[i]->fileName()
                : QStringLiteral("%1 (%2)").arg(QChar(char16_t(u'A' + i))).arg(docs[i]->fileName());
        const QString damage = DamageSummary::of(*docs[i]).sentence(who);
        if (!damage.isEmpty()) {
            QTextStream(stderr) << "lmct-viewer: warning: " << TerminalText::escaped(damage)
                                << "\n";
        }
    }
    for (const auto &doc : docs) {
        qint64 shrunk = -1;
        if (doc && !doc->shrinkSentence(&shrunk).isEmpty()) {
            return failWith(kExitIo, QStringLiteral("%1: the report covers the records before byte "
                                                    "%2; what lay past it is not the file's")
                                         .arg(doc->shrinkSentence(), QString::number(shrunk)));
        }
    }
    return kExitOk;
}

}  // namespace lmct
