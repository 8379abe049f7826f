#include "report/comparisonreport.h"

#include "compare/tracecomparison.h"
#include "itemmodels/cachecomparisonmodel.h"
#include "itemmodels/callcomparisonmodel.h"
#include "itemmodels/configcomparisonmodel.h"
#include "itemmodels/keyoverlapmodel.h"
#include "itemmodels/latencycomparisonmodel.h"
#include "report/reportsections.h"
#include "report/statisticsfigures.h"
#include "report/tracereport.h"
#include "trace/tracedocument.h"
#include "util/timeformat.h"
#include "whatif/configuredrun.h"

#include <QDateTime>
#include <algorithm>
#include <cmath>
#include <utility>

namespace lmct {

namespace {

using Section = ReportContent::Section;
using S = ReportSections;

/** The reasons of a figure table's rows that cannot be compared, as a note. */
QString reasons(const FigureTableModel &model) {
    QStringList out;
    for (const FigureTableModel::Row &r : model.rows()) {
        if (!r.reason.isEmpty() && !out.contains(r.reason)) {
            out << r.reason;
        }
    }
    return out.isEmpty() ? QString()
                         : QObject::tr("Not compared: %1.").arg(out.join(QStringLiteral("; ")));
}

ReportContent::Table sideBySide(const TraceDocument &a, const TraceDocument &b) {
    const ReportContent::Table fa = S::fileFacts(a), fb = S::fileFacts(b);
    ReportContent::Table t;
    t.header = {QString(), QObject::tr("A"), QObject::tr("B")};
    t.numeric = {false, false, false};
    // the facts of A in their order, B's beside them (and those only B has after them)
    QList<QStringList> rows;
    for (const QStringList &r : fa.rows) {
        QString vb = QStringLiteral("—");
        for (const QStringList &s : fb.rows) {
            if (s[0] == r[0]) {
                vb = s[1];
            }
        }
        rows << QStringList{r[0], r[1], vb};
    }
    for (const QStringList &s : fb.rows) {
        const bool known = std::any_of(fa.rows.begin(), fa.rows.end(),
                                       [&](const QStringList &r) { return r[0] == s[0]; });
        if (!known) {
            rows << QStringList{s[0], QStringLiteral("—"), s[1]};
        }
    }
    t.rows = rows;
    t.rows << QStringList{QObject::tr("configuration"),
                          a.header().smConfig().summaryParts().join(QStringLiteral("; ")),
                          b.header().smConfig().summaryParts().join(QStringLiteral("; "))};
    return t;
}

/** A and B's buckets overlaid, bars side by side. */
ReportContent::Figure overlay(const QString &id, const QString &title, const QString &x,
                              const QString &y, const std::vector<qint64> &a,
                              const std::vector<qint64> &b, bool micros, const QString &caption) {
    ReportContent::Figure f;
    f.id = id;
    f.title = title;
    f.caption = caption;
    f.xLabel = x;
    f.yLabel = y;
    f.ticks = ReportContent::Ticks::Labels;
    f.height = 280;
    ReportContent::Series sa, sb;
    sa.name = QObject::tr("A");
    sa.color = ReportContent::Color::SideA;
    sa.style = ReportContent::Style::Bars;
    sb.name = QObject::tr("B");
    sb.color = ReportContent::Color::SideB;
    sb.style = ReportContent::Style::Bars;
    std::vector<qint64> both(std::max(a.size(), b.size()));
    for (size_t i = 0; i < both.size(); ++i) {
        both[i] = (i < a.size() ? a[i] : 0) + (i < b.size() ? b[i] : 0);
    }
    ReportContent::Series all;
    const auto [first, last] = S::bucketBars(both, 0.0, micros, &all, &f.tickLabels);
    S::bucketBars(a, -0.2, micros, &sa, nullptr);
    S::bucketBars(b, 0.2, micros, &sb, nullptr);
    f.xMin = first - 0.7;
    f.xMax = std::max(first, last) + 0.7;
    f.series = {std::move(sa), std::move(sb)};
    f.alt = QObject::tr("%1: A's and B's counts per power-of-two bin, side by side.").arg(title);
    return f;
}

ReportContent::Figure whatIfOverlay(const TraceComparison &c, const QString &caption) {
    ReportContent::Figure f =
        S::whatIfCurves({c.cache().a().whatIf.get(), c.cache().b().whatIf.get()}, caption);
    f.id = QStringLiteral("compare-whatif");
    f.title = QObject::tr("What-if: prefetched keys hit (A solid, B dashed)");
    for (int side = 0; side < 2; ++side) {
        const CapacityHit &h = side == 0 ? c.cache().a().atCapacity : c.cache().b().atCapacity;
        if (h.chunks > 0) {
            f.markers.push_back(
                {double(h.chunks), QObject::tr("%1: configured L1 %2")
                                       .arg(side == 0 ? QObject::tr("A") : QObject::tr("B"),
                                            ConfiguredRun::bytesText(double(*h.l1Bytes)))});
        }
    }
    f.alt = QObject::tr(
        "The prefetch hit ratio of each policy against the capacity, A solid and "
        "B dashed, in the policy's colour.");
    return f;
}

QString configuredOf(const TraceComparison::Side &side, const QString &name) {
    const auto run = ConfiguredRun::fromConfig(side.config);
    return run ? QStringLiteral("%1 %2").arg(name, S::configuredText(*run))
               : QObject::tr("%1 without a configured L1 size").arg(name);
}

/**
 * The stretch of the common axis both timelines show, in A's `t_mono` seconds: `range` cut to
 * where either trace is, else both whole with 1 % to spare on each side (as the comparison's
 * tab shows them at first).
 */
std::pair<double, double> commonAxis(const TraceDocument &a, const TraceDocument &b, double bStart,
                                     const TMonoRange &range) {
    const auto [lower, upper] = ComparisonReport::tracesAxis(a, b, bStart);
    const double from = std::isfinite(range.from) ? std::max(range.from, lower) : lower;
    const double to = std::isfinite(range.to) ? std::min(range.to, upper) : upper;
    if (!range.isAll() && to > from) {
        return {from, to};
    }
    const double margin = std::max(1e-6, (upper - lower) * 0.01);
    return {lower - margin, upper + margin};
}

/** How B lines up with A, in words; `offset`: the manual part of `bStart` under t_wall. */
QString alignmentText(ComparisonReport::Alignment alignment, double bStart, double offset) {
    if (alignment == ComparisonReport::Alignment::Wall) {
        if (std::isfinite(offset) && offset != 0.0) {
            return QObject::tr("aligned by t_wall, B shifted by %1 (B's start %2 from A's)")
                .arg(TimeFormat::delta(offset), TimeFormat::delta(bStart));
        }
        return QObject::tr("aligned by t_wall (B's start %1 from A's)")
            .arg(TimeFormat::delta(bStart));
    }
    return bStart == 0.0 ? QObject::tr("aligned from each trace's start")
                         : QObject::tr("aligned from each trace's start, B shifted by %1")
                               .arg(TimeFormat::delta(bStart));
}

}  // namespace

std::pair<double, double> ComparisonReport::tracesAxis(const TraceDocument &a,
                                                       const TraceDocument &b, double bStart) {
    const double lower = std::min(0.0, bStart);
    return {lower, std::max({a.duration(), bStart + b.duration(), lower})};
}

std::shared_ptr<const ReportContent> ComparisonReport::build(std::shared_ptr<const TraceDocument> a,
                                                             std::shared_ptr<const TraceDocument> b,
                                                             const Options &options,
                                                             const Progress &progress,
                                                             const std::atomic_bool *cancel,
                                                             QString *error) {
    const auto recordsA = TraceReport::filterRecords(a, options.filterText, error);
    if (!recordsA) {
        return nullptr;
    }
    const auto recordsB = TraceReport::filterRecords(b, options.filterText, error);
    if (!recordsB) {
        return nullptr;
    }
    const auto c = TraceComparison::run(*a, *b, TraceComparison::Options{}, progress, cancel);
    if (!c || (cancel && cancel->load())) {
        return nullptr;
    }
    auto content = std::make_shared<ReportContent>();
    const QString na = a->fileName(), nb = b->fileName();
    const QString files = S::caption({QObject::tr("A: %1").arg(na), QObject::tr("B: %1").arg(nb)});
    content->title = QObject::tr("Comparison report: %1 ⇄ %2").arg(na, nb);
    content->runningTitle = QObject::tr("%1 ⇄ %2 — comparison report").arg(na, nb);
    const QString selection = S::selectionText(options.filterText.trimmed(), options.range);
    content->subtitle << QObject::tr(
                             "B against A: Δ = B − A, Δ % = Δ / |A|; both traces whole "
                             "(the timelines show %1)")
                             .arg(selection)
                      << QObject::tr("Made by LMCache Trace Viewer on %1")
                             .arg(QDateTime::currentDateTime().toString(Qt::ISODate));
    // One common axis for both timelines, as the comparison's tab draws them: A at its t_mono,
    // B at its t_mono + bStart; each picture gets the same stretch in its own t_mono.
    const double bStart = std::isfinite(options.bStart) ? options.bStart : 0.0;
    const auto [axisFrom, axisTo] = commonAxis(*a, *b, bStart, options.range);
    const QString alignment = alignmentText(options.alignment, bStart, options.offset);
    for (int side = 0; side < 2; ++side) {
        ReportContent::TimelineSource tl;
        tl.doc = side == 0 ? a : b;
        tl.label = side == 0 ? QObject::tr("A") : QObject::tr("B");
        tl.filterText = options.filterText.trimmed();
        tl.filterRecords = side == 0 ? *recordsA : *recordsB;
        tl.range = options.range;
        const double shift = side == 0 ? 0.0 : bStart;
        tl.axisFrom = axisFrom - shift;
        tl.axisTo = axisTo - shift;
        tl.axisNote = QObject::tr("one axis for A and B, %1").arg(alignment);
        tl.captionNote = QObject::tr("one time axis for A and B, %1").arg(alignment);
        tl.sharedRateScale = true;
        content->timelines.push_back(tl);
    }

    Section f;
    f.id = QStringLiteral("files");
    f.title = QObject::tr("Files and configuration");
    f.table(sideBySide(*a, *b));
    content->sections.push_back(std::move(f));

    Section d;
    d.id = QStringLiteral("diagnostics");
    d.title = QObject::tr("Diagnostics");
    d.paragraph(QObject::tr("A (%1):").arg(na));
    S::addDiagnostics(&d, *a, options.maxDiagnostics);
    d.paragraph(QObject::tr("B (%1):").arg(nb));
    S::addDiagnostics(&d, *b, options.maxDiagnostics);
    content->sections.push_back(std::move(d));

    Section h;
    h.id = QStringLiteral("header");
    h.title = QObject::tr("Header and configuration");
    ConfigComparisonModel config;
    config.setComparison(c->header());
    const int differing = c->header().differingCount();
    if (differing == 0) {
        h.paragraph(
            QObject::tr("No header or configuration field differs (volatile fields such "
                        "as shm_name are not counted)."));
    } else {
        h.paragraph(QObject::tr("%1 differ:")
                        .arg(S::counted(differing, QObject::tr("field"), QObject::tr("fields"))));
        ReportContent::Table t = ReportContent::Table::fromModel(
            config,
            {ConfigComparisonModel::FieldColumn, ConfigComparisonModel::AColumn,
             ConfigComparisonModel::BColumn},
            -1, ConfigComparisonModel::DiffersRole);
        h.table(std::move(t));
    }
    content->sections.push_back(std::move(h));

    const auto shared = c;
    Section calls;
    calls.id = QStringLiteral("calls");
    calls.title = QObject::tr("Calls");
    CallComparisonModel callModel;
    callModel.setComparison(shared);
    ReportContent::Table ct =
        ReportContent::Table::fromModel(callModel, {}, FigureTableModel::IsTotalRole);
    ct.note = reasons(callModel);
    calls.table(std::move(ct));
    // the Statistics pane's charts, A beside B
    for (ReportContent::Figure &fig : StatisticsFigures::comparisonFigures(
             c->calls(), S::caption({files, QObject::tr("whole traces")}))) {
        calls.figure(std::move(fig));
    }
    content->sections.push_back(std::move(calls));

    Section lat;
    lat.id = QStringLiteral("latencies");
    lat.title = QObject::tr("Latencies");
    LatencyComparisonModel latModel;
    latModel.setComparison(shared);
    ReportContent::Table lt = ReportContent::Table::fromModel(latModel);
    lt.note = reasons(latModel);
    lat.table(std::move(lt));
    for (int k = 0; k < LatencyComparison::kKindCount; ++k) {
        const auto kind = LatencyComparison::Kind(k);
        const LatencyComparison::Row &r = c->latencies().row(kind);
        if (r.a.n == 0 && r.b.n == 0) {
            continue;
        }
        lat.figure(overlay(QStringLiteral("latency-%1").arg(LatencyComparison::kindName(kind)),
                           LatencyComparison::kindLabel(kind), QObject::tr("latency (log₂ bins)"),
                           QObject::tr("count"), r.a.buckets, r.b.buckets, true,
                           S::caption({files, QObject::tr("distribution of %1")
                                                  .arg(LatencyComparison::kindLabel(kind))})));
    }
    content->sections.push_back(std::move(lat));

    Section cache;
    cache.id = QStringLiteral("cache");
    cache.title = QObject::tr("Cache behaviour");
    CacheComparisonModel cacheModel;
    cacheModel.setComparison(shared);
    ReportContent::Table kt =
        ReportContent::Table::fromModel(cacheModel, {}, FigureTableModel::IsTotalRole);
    QStringList notes;
    for (const QString &r :
         {c->cache().hitRatioReason(), c->cache().lmcacheReason(), c->cache().whatIfReason()}) {
        if (!r.isEmpty()) {
            notes << r;
        }
    }
    for (const QString &n : {c->cache().a().atCapacity.note, c->cache().b().atCapacity.note}) {
        if (!n.isEmpty()) {
            notes << QObject::tr("note: %1").arg(n);
        }
    }
    kt.note = notes.join(QStringLiteral("; "));
    cache.table(std::move(kt));
    KeyOverlapModel overlap;
    overlap.setComparison(shared);
    ReportContent::Table ot =
        ReportContent::Table::fromModel(overlap, {}, KeyOverlapModel::IsTotalRole);
    ot.title = QObject::tr("Key overlap per model");
    ot.note = c->cache().overlap().reason();
    cache.table(std::move(ot));
    if (c->cache().a().whatIf && c->cache().b().whatIf) {
        cache.figure(
            whatIfOverlay(*c, S::caption({files, QObject::tr("capacity in chunks"),
                                          configuredOf(c->a(), "A"), configuredOf(c->b(), "B")})));
    }
    const ReuseAnalysis::Stats &ra = c->cache().a().reuse->total();
    const ReuseAnalysis::Stats &rb = c->cache().b().reuse->total();
    cache.figure(overlay(QStringLiteral("compare-reuse-keys"), QObject::tr("Reuse distance (keys)"),
                         QObject::tr("distinct keys in between (log₂ bins)"), QObject::tr("reuses"),
                         ra.distanceKeys, rb.distanceKeys, false,
                         S::caption({files, QObject::tr("reuse distance in distinct keys")})));
    cache.figure(overlay(QStringLiteral("compare-reuse-time"), QObject::tr("Reuse distance (time)"),
                         QObject::tr("time since the previous use (log₂ bins)"),
                         QObject::tr("reuses"), ra.distanceTime, rb.distanceTime, true,
                         S::caption({files, QObject::tr("reuse distance in time")})));
    content->sections.push_back(std::move(cache));

    Section t;
    t.id = QStringLiteral("timeline");
    t.title = QObject::tr("Timelines");
    t.paragraph(QObject::tr("A (%1), then B (%2): %3.").arg(na, nb, selection));
    const QString stretch =
        bStart == 0.0
            ? QObject::tr("t_mono %1 … %2 s in both")
                  .arg(TimeFormat::mono(axisFrom), TimeFormat::mono(axisTo))
            : QObject::tr("A's t_mono %1 … %2 s, B's %3 … %4 s")
                  .arg(TimeFormat::mono(axisFrom), TimeFormat::mono(axisTo),
                       TimeFormat::mono(axisFrom - bStart), TimeFormat::mono(axisTo - bStart));
    t.paragraph(QObject::tr("Both on one time axis, %1: %2%3.")
                    .arg(alignment, stretch,
                         options.range.isAll() ? QObject::tr(", both traces whole") : QString()));
    t.timeline(0);
    t.timeline(1);
    content->sections.push_back(std::move(t));
    content->escapeControls();
    return content;
}

}  // namespace lmct
