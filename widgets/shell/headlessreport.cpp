#include "shell/headlessreport.h"
#include "common/quietoffscreennotes.h"

#include "export/exportfile.h"
#include "filter/filterexpression.h"
#include "filter/tmonorange.h"
#include "report/reportjob.h"
#include "trace/damagesummary.h"
#include "trace/traceloader.h"
#include "util/terminaltext.h"
#include "util/timeformat.h"

#include <QEventLoop>
#include <QTextStream>
#include <QTimer>

namespace lmct {

namespace {

int fail(int code, const QString &message) {
    QTextStream(stderr) << "lmct-viewer: " << TerminalText::escaped(message) << "\n";
    return code;
}

}  // namespace

int HeadlessReport::run(const Request &request) {
    if (request.inputs.isEmpty() || request.inputs.size() > 2) {
        return fail(kExitUsage, QStringLiteral("--report takes one FILE, or two with --compare"));
    }
    if (const QString why = ReportJob::formatProblem(request.output); !why.isEmpty()) {
        return fail(kExitUsage, QStringLiteral("--report %1").arg(why));
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
    if (!request.filter.isEmpty()) {
        const FilterExpression filter = FilterExpression::parse(request.filter);
        if (!filter.isValid()) {
            return fail(kExitUsage, QStringLiteral("invalid filter: %1").arg(filter.errorString()));
        }
    }
    for (const QString &input : request.inputs) {
        QString why;
        if (!ExportFile::checkTarget(request.output, &why, input)) {
            return fail(kExitIo, why);
        }
    }
    std::shared_ptr<const TraceDocument> docs[2];
    for (qsizetype i = 0; i < request.inputs.size(); ++i) {
        QString why;
        docs[i] = TraceLoader::load(request.inputs[i], &why);
        if (!docs[i]) {
            return fail(kExitIo, why);
        }
    }
    // A range that holds none of a trace's records is a mistake, not an empty report (as
    // --export-png refuses it).
    for (qsizetype i = 0; i < request.inputs.size() && !request.range.isEmpty(); ++i) {
        const RecordStore &rs = docs[i]->records();
        if (rs.size() > 0 && !range.meets(rs.minTMono(), rs.maxTMono())) {
            const QString which = request.inputs.size() == 1 ? QStringLiteral("the trace")
                                                             : QStringLiteral("trace %1 (%2)")
                                                                   .arg(QChar(char16_t(u'A' + i)))
                                                                   .arg(docs[i]->fileName());
            return fail(kExitUsage, QStringLiteral("--range %1 lies outside %2 (t_mono %3 … %4 s)")
                                        .arg(request.range, which, TimeFormat::mono(rs.minTMono()),
                                             TimeFormat::mono(rs.maxTMono())));
        }
    }
    const QuietOffscreenNotes quiet;

    ReportJob::Request r;
    r.a = docs[0];
    r.b = docs[1];
    r.output = request.output;
    r.filterText = request.filter;
    r.range = range;
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
        return fail(kExitIo, error.isEmpty() ? QStringLiteral("the report was cancelled") : error);
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
            return fail(kExitIo, QStringLiteral("%1: the report covers the records before byte "
                                                "%2; what lay past it is not the file's")
                                     .arg(doc->shrinkSentence(), QString::number(shrunk)));
        }
    }
    return kExitOk;
}

}  // namespace lmct
