#include "report/tracereport.h"

#include "cache/cacheanalysis.h"
#include "compare/cachecomparison.h"
#include "compare/capacityhit.h"
#include "filter/filterevaluator.h"
#include "filter/filterexpression.h"
#include "itemmodels/statisticstablemodel.h"
#include "report/reportsections.h"
#include "report/statisticsfigures.h"
#include "stats/tracestatistics.h"
#include "trace/tracedocument.h"
#include "util/timeformat.h"
#include "whatif/configuredrun.h"
#include "whatif/hitovertime.h"
#include "whatif/usesequence.h"
#include "whatif/whatifanalysis.h"
#include "whatif/whatifscope.h"

#include <QDateTime>
#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

using Section = ReportContent::Section;
using S = ReportSections;

/** `progress` mapped into [from, to]. */
std::function<void(int)> share(const TraceReport::Progress &progress, int from, int to) {
    return [progress, from, to](int p) {
        if (progress) {
            progress(from + std::clamp(p, 0, 100) * (to - from) / 100);
        }
    };
}

Section callsSection(const TraceDocument &doc, const TraceStatistics &stats,
                     const QString &selection, const TraceReport::Options &options) {
    Section s;
    s.id = QStringLiteral("calls");
    s.title = QObject::tr("Calls");
    s.paragraph(QObject::tr("%1 of the trace's %2 records are in the selection (%3): %4, %5.")
                    .arg(S::count(stats.records), S::count(doc.records().size()), selection,
                         S::counted(stats.distinctKeys, QObject::tr("distinct key"),
                                    QObject::tr("distinct keys")),
                         S::counted(stats.pairs.matched, QObject::tr("matched read"),
                                    QObject::tr("matched reads"))));
    auto shared = std::make_shared<const TraceStatistics>(stats);
    StatisticsTableModel calls(StatisticsTableModel::Table::Calls);
    calls.setStatistics(shared);
    ReportContent::Table t = ReportContent::Table::fromModel(calls, {0, 1, 2, 5, 6, 7, 9, 11},
                                                             StatisticsTableModel::IsTotalRole);
    t.title = QObject::tr("Per call");
    t.note = QObject::tr(
        "Rate: calls per second between the call's first and last t_mono; "
        "Δt: the time between successive calls; keys and bytes per call as "
        "their arguments carry them.");
    s.table(std::move(t));
    // the Statistics pane's charts of the same numbers
    for (ReportContent::Figure &f : StatisticsFigures::figures(
             stats, StatisticsFigures::caption(doc.fileName(), options.filterText.trimmed(),
                                               options.range, stats.records))) {
        s.figure(std::move(f));
    }
    if (stats.models.size() > 0) {
        StatisticsTableModel models(StatisticsTableModel::Table::Models);
        models.setStatistics(shared);
        ReportContent::Table m = ReportContent::Table::fromModel(models);
        m.title = QObject::tr("Per model");
        s.table(std::move(m));
    }
    return s;
}

/** The what-if curves around the configured capacity of `run` (its sentence, the table of ½, 1
 *  and 2 × and the figure) into `c`; `captionParts` start the figure's caption. False when
 *  cancelled. */
bool addWhatIf(Section *c, const std::shared_ptr<const UseSequence> &uses,
               const std::optional<ConfiguredRun> &run, const ChunkSize &chunkSize,
               const QStringList &captionParts, const TraceReport::Progress &progress,
               const std::atomic_bool *cancel) {
    const quint64 configured = run ? run->capacityIn(WhatIfAnalysis::Unit::Chunks, chunkSize) : 0;
    WhatIfAnalysis::Options wo;
    wo.unit = WhatIfAnalysis::Unit::Chunks;
    wo.capacities = WhatIfAnalysis::defaultCapacities(*uses, wo.unit);
    const std::vector<quint64> around =
        configured > 0
            ? std::vector<quint64>{std::max<quint64>(1, configured / 2), configured, configured * 2}
            : std::vector<quint64>{};
    for (quint64 cap : around) {
        wo.capacities.push_back(cap);
    }
    std::sort(wo.capacities.begin(), wo.capacities.end());
    wo.capacities.erase(std::unique(wo.capacities.begin(), wo.capacities.end()),
                        wo.capacities.end());
    const auto whatIf = WhatIfAnalysis::run(uses, wo, share(progress, 60, 90), {}, cancel);
    if (!whatIf || (cancel && cancel->load())) {
        return false;
    }
    if (run) {
        const std::function<quint64(qint64)> lruFor = [whatIf](qint64 hits) {
            return whatIf->lruCapacityFor(hits);
        };
        c->paragraph(run->sentence(WhatIfAnalysis::Unit::Chunks,
                                   {chunkSize, uses->prefetchOccurrences()}, whatIf->curves(),
                                   lruFor, ConfiguredRun::Digits::Grouped));
    } else {
        c->paragraph(
            QObject::tr("The header's configuration names no L1 capacity: the curves "
                        "have no configured capacity to mark."));
    }
    if (!around.empty()) {
        ReportContent::Table t;
        t.title = QObject::tr("Prefetched keys hit around the configured capacity");
        t.header = {QObject::tr("policy")};
        t.numeric = {false};
        for (quint64 cap : around) {
            t.header << QObject::tr("%1 chunks").arg(S::count(qint64(cap)));
            t.numeric << true;
        }
        for (const WhatIfAnalysis::Curve &curve : whatIf->curves()) {
            QStringList row{CachePolicy::label(curve.policy)};
            for (quint64 cap : around) {
                const auto it = std::find(curve.capacities.begin(), curve.capacities.end(), cap);
                row << (it == curve.capacities.end()
                            ? QStringLiteral("—")
                            : S::percent(
                                  curve.prefetchHitRatio[size_t(it - curve.capacities.begin())]));
            }
            if (run && run->policy() == curve.policy) {
                t.strongRows << int(t.rows.size());
            }
            t.rows << row;
        }
        t.note = QObject::tr(
                     "½ ×, 1 × and 2 × the configured L1 in chunks (%1 per key); the "
                     "configured policy in bold.")
                     .arg(ConfiguredRun::bytesText(double(chunkSize.meanBytes())));
        c->table(std::move(t));
    }
    QStringList curveCaption = captionParts;
    curveCaption << QStringList{QObject::tr("keys of all models"),
                                QObject::tr("capacity in chunks")};
    if (run) {
        curveCaption << S::configuredText(*run);
    }
    c->figure(S::whatIfFigure(*whatIf, configured, run ? S::configuredText(*run) : QString(),
                              S::caption(curveCaption)));
    return true;
}

/** The cache section; false when cancelled. */
bool addCache(ReportContent *content, const std::shared_ptr<const TraceDocument> &doc,
              const TraceReport::Options &options, const TraceReport::Progress &progress,
              const std::atomic_bool *cancel) {
    const QString file = doc->fileName();
    const auto analysis = CacheAnalysis::run(*doc, share(progress, 10, 55), cancel);
    if (!analysis || (cancel && cancel->load())) {
        return false;
    }
    const KeyAnalysis &ka = *analysis->keys;
    const QString whole = QObject::tr("whole trace (%1 records)").arg(S::count(ka.recordCount()));
    Section c;
    c.id = QStringLiteral("cache");
    c.title = QObject::tr("Cache behaviour");
    c.paragraph(QObject::tr("Over the whole trace (the cache analyses do not follow the filter "
                            "or range): %1, %2, %3.")
                    .arg(S::counted(ka.keyCount(), QObject::tr("key"), QObject::tr("keys")),
                         S::counted(analysis->requests->count(), QObject::tr("request"),
                                    QObject::tr("requests")),
                         S::counted(analysis->anomalies->totalCount(), QObject::tr("anomaly"),
                                    QObject::tr("anomalies"))));
    QStringList notes;
    if (ka.alreadyStoredCount() > 0) {
        notes << QObject::tr(
                     "%1 already stored (reserved again and skipped by "
                     "reserve_write(mode=\"new\"), not lost writes)")
                     .arg(S::counted(ka.alreadyStoredCount(), QObject::tr("key"),
                                     QObject::tr("keys")));
    }
    if (ka.saltMissing()) {
        notes << KeyAnalysis::saltMissingNote();
    }
    if (ka.damagedRecords() > 0) {
        notes << QObject::tr(
                     "the arguments of %1 could not be read whole: their keys after "
                     "that point are not counted")
                     .arg(S::counted(ka.damagedRecords(), QObject::tr("record"),
                                     QObject::tr("records")));
    }
    if (!notes.isEmpty()) {
        c.note(QObject::tr("Note: %1.").arg(notes.join(QStringLiteral("; "))));
    }
    c.table(S::keyStates(ka));

    // The requests' hits, as the calls show them and as LMCache's handles count them.
    const RequestAnalysis &rq = *analysis->requests;
    const CacheComparison::Account calls = CacheComparison::callsAccount(rq);
    const CacheComparison::Account lm = CacheComparison::lmcacheAccount(ka);
    QString requests = QObject::tr(
                           "Requests: %1; the matched reads hit %2 of %3 requested keys "
                           "(%4).")
                           .arg(S::count(rq.count()), S::count(calls.hitKeys),
                                S::count(calls.requestedKeys), S::percent(calls.hitRatio));
    if (lm.requests > 0) {
        requests += QObject::tr(
                        " LMCache's own account (PrefetchHandle l1_prefix_hit_count over "
                        "total_requested_keys of %1 requests): %2 of %3 (%4); it "
                        "agrees with the calls on %5 and disagrees on %6.")
                        .arg(S::count(lm.requests), S::count(lm.hitKeys),
                             S::count(lm.requestedKeys), S::percent(lm.hitRatio),
                             S::count(rq.agreeCount()), S::count(rq.disagreeCount()));
    }
    c.paragraph(requests);

    // The configured L1 and the what-if around it.
    const StorageManagerConfig &config = doc->header().smConfig();
    const auto uses = UseSequence::build(*doc, analysis->keys, UseSequence::Scope{},
                                         share(progress, 55, 60), cancel);
    if (!uses || (cancel && cancel->load())) {
        return false;
    }
    const ChunkSize chunkSize = ChunkSize::of(*uses);
    const std::optional<ConfiguredRun> run = ConfiguredRun::fromConfig(config);
    const quint64 configured = run ? run->capacityIn(WhatIfAnalysis::Unit::Chunks, chunkSize) : 0;
    const auto atCapacity = CapacityHit::compute(config, *uses, QObject::tr("the trace"), cancel);
    if (!atCapacity) {
        return false;
    }
    if (atCapacity->reason.isEmpty()) {
        const QString where =
            atCapacity->inBytes
                ? ConfiguredRun::bytesText(double(*atCapacity->l1Bytes))
                : QObject::tr("%1 (%2 chunks of %3)")
                      .arg(ConfiguredRun::bytesText(double(*atCapacity->l1Bytes)),
                           S::count(qint64(atCapacity->chunks)),
                           ConfiguredRun::bytesText(double(atCapacity->bytesPerObject)));
        QString text =
            QObject::tr(
                "At the configured L1 capacity, %1, with %2 eviction, %3 of "
                "%4 prefetched keys hit: %5.")
                .arg(where, CachePolicy::label(atCapacity->policy),
                     S::count(atCapacity->prefetchHits), S::count(atCapacity->prefetchOccurrences),
                     S::percent(atCapacity->hitRatio));
        if (!atCapacity->note.isEmpty()) {
            text += QObject::tr(" Note: %1.").arg(atCapacity->note);
        }
        c.paragraph(text);
    } else {
        c.paragraph(QObject::tr("The prefetch hit at the configured capacity is unknown: %1.")
                        .arg(atCapacity->reason));
    }

    // A trace without uses, or without prefetches, has no curves: say why, as the What-if tab
    // does, instead of a plot of one degenerate point
    const QString nothing = WhatIfScope(analysis.get(), UseSequence::Scope{}, uses.get())
                                .emptyReason(QObject::tr("all models"));
    if (!nothing.isEmpty()) {
        c.paragraph(QString(nothing).replace(QLatin1Char('\n'), QLatin1Char(' ')));
    } else if (!addWhatIf(&c, uses, run, chunkSize, {file, whole}, progress, cancel)) {
        return false;
    }
    if (!ka.models().isEmpty() && analysis->reuse) {
        c.paragraph(
            QObject::tr("How the keys are reused (all models): the distinct keys and the "
                        "time between successive uses of a key, and the uses per key."));
        for (ReportContent::Figure &f : S::reuseFigures(
                 analysis->reuse->total(),
                 S::caption({file, whole, QObject::tr("keys of all models")}), QString())) {
            c.figure(std::move(f));
        }
    }

    // The hit ratio over time at the configured capacity (or a quarter of the keys).
    quint64 hotCapacity = configured;
    QString hotWhy;
    if (hotCapacity == 0) {
        hotCapacity = std::max<quint64>(1, uses->keyCount() / 4);
        hotWhy = QObject::tr(
            " (no configured capacity in chunks: a quarter of the distinct "
            "keys)");
    }
    std::vector<CachePolicy::Kind> policies{run && run->policy() ? *run->policy()
                                                                 : CachePolicy::Kind::Lru};
    if (policies.front() != CachePolicy::Kind::Opt) {
        policies.push_back(CachePolicy::Kind::Opt);
    }
    const auto hot =
        HitOverTime::build(uses, policies, hotCapacity, false, share(progress, 90, 100), cancel);
    if (!hot || (cancel && cancel->load())) {
        return false;
    }
    if (uses->prefetchOccurrences() > 0) {
        QStringList names;
        for (CachePolicy::Kind k : policies) {
            names << CachePolicy::label(k);
        }
        const RecordStore &rs = doc->records();
        const QString at =
            QObject::tr("%1 at C = %2 chunks")
                .arg(names.join(QStringLiteral(", ")), S::count(qint64(hotCapacity)));
        c.paragraph(QObject::tr("The prefetch hit ratio over time of %1%2, beside LMCache's own "
                                "account where its handles carry one.")
                        .arg(at, hotWhy));
        c.figure(S::hitOverTimeFigure(*hot, rs.minTMono(), std::max(rs.maxTMono(), rs.minTMono()),
                                      options.hitWindows, S::caption({file, whole, at})));
    } else {
        c.paragraph(QObject::tr("No submit_prefetch_task: no prefetch hit ratio over time."));
    }
    content->sections.push_back(std::move(c));

    Section a;
    a.id = QStringLiteral("anomalies");
    a.title = QObject::tr("Anomalies");
    const AnomalyReport &an = *analysis->anomalies;
    if (an.totalCount() == 0) {
        a.paragraph(QObject::tr("No anomalies found in the whole trace."));
    } else {
        a.paragraph(QObject::tr("%1 in the whole trace. Record numbers (#N) are those of the "
                                "record table (Go > Go to Record…).")
                        .arg(S::counted(an.totalCount(), QObject::tr("anomaly"),
                                        QObject::tr("anomalies"))));
        ReportContent::Table counts = S::anomalyCounts(an);
        counts.title = QObject::tr("Per kind");
        a.table(std::move(counts));
        ReportContent::Table top = S::topAnomalies(an, options.maxAnomalies);
        top.title = QObject::tr("Worth a look");
        a.table(std::move(top));
    }
    content->sections.push_back(std::move(a));
    return true;
}

}  // namespace

std::optional<std::shared_ptr<const std::vector<int>>> TraceReport::filterRecords(
    std::shared_ptr<const TraceDocument> doc, const QString &filterText, QString *error) {
    if (filterText.trimmed().isEmpty()) {
        return std::shared_ptr<const std::vector<int>>();
    }
    const FilterExpression filter = FilterExpression::parse(filterText);
    if (!filter.isValid()) {
        if (error) {
            *error = QObject::tr("invalid filter: %1").arg(filter.errorString());
        }
        return std::nullopt;
    }
    return std::make_shared<const std::vector<int>>(FilterEvaluator(doc, filter).run().records);
}

std::shared_ptr<const ReportContent> TraceReport::build(std::shared_ptr<const TraceDocument> doc,
                                                        const Options &options,
                                                        const Progress &progress,
                                                        const std::atomic_bool *cancel,
                                                        QString *error) {
    const auto records = filterRecords(doc, options.filterText, error);
    if (!records) {
        return nullptr;
    }
    auto content = std::make_shared<ReportContent>();
    const QString file = doc->fileName();
    const QString selection = S::selectionText(options.filterText.trimmed(), options.range);
    content->title = QObject::tr("Trace report: %1").arg(file);
    content->runningTitle = QObject::tr("%1 — trace report").arg(file);
    content->subtitle << QObject::tr(
                             "Selection: %1 (the call table and the timeline; the "
                             "cache analyses cover the whole trace)")
                             .arg(selection)
                      << QObject::tr("Made by LMCache Trace Viewer on %1")
                             .arg(QDateTime::currentDateTime().toString(Qt::ISODate));
    ReportContent::TimelineSource tl;
    tl.doc = doc;
    tl.filterText = options.filterText.trimmed();
    tl.filterRecords = *records;
    tl.range = options.range;
    content->timelines.push_back(tl);

    Section f;
    f.id = QStringLiteral("file");
    f.title = QObject::tr("File and configuration");
    f.table(S::fileFacts(*doc));
    f.table(S::configTable(*doc));
    content->sections.push_back(std::move(f));

    // (filled in last: the analyses add their notes to the document's diagnostics)
    const size_t diagnostics = content->sections.size();
    Section d;
    d.id = QStringLiteral("diagnostics");
    d.title = QObject::tr("Diagnostics");
    content->sections.push_back(std::move(d));

    TraceStatistics::Options so;
    so.range = options.range;
    so.subset = records->get();
    so.cancel = cancel;
    so.progress = [&progress](qint64 done, qint64 total) {
        if (progress && total > 0) {
            progress(int(10 * done / total));
        }
    };
    const TraceStatistics stats = TraceStatistics::compute(*doc, so);
    if (stats.cancelled || (cancel && cancel->load())) {
        return nullptr;
    }
    content->sections.push_back(callsSection(*doc, stats, selection, options));

    Section t;
    t.id = QStringLiteral("timeline");
    t.title = QObject::tr("Timeline");
    t.paragraph(QObject::tr("The calls of the selection (%1) on the timeline: one lane per call, "
                            "the calls per second below.")
                    .arg(selection));
    t.timeline(0);
    content->sections.push_back(std::move(t));

    if (!addCache(content.get(), doc, options, progress, cancel)) {
        return nullptr;
    }
    S::addDiagnostics(&content->sections[diagnostics], *doc, options.maxDiagnostics);
    content->escapeControls();
    if (progress) {
        progress(100);
    }
    return content;
}

}  // namespace lmct
