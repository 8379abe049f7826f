#include "report/reportsections.h"

#include "cache/bucketlabel.h"
#include "codec/qualname.h"
#include "trace/storagemanagerconfig.h"
#include "util/timeformat.h"

#include <QLocale>
#include <QSet>
#include <algorithm>
#include <cmath>
#include <map>

namespace lmct {

QString ReportSections::caption(const QStringList &parts) {
    return parts.join(QStringLiteral("  —  "));
}

QString ReportSections::selectionText(const QString &filterText, const TMonoRange &range) {
    QStringList parts;
    if (!filterText.isEmpty()) {
        parts << QObject::tr("filter: %1").arg(filterText);
    }
    if (!range.isAll()) {
        const QString from =
            std::isfinite(range.from) ? TimeFormat::mono(range.from) : QObject::tr("start");
        const QString to =
            std::isfinite(range.to) ? TimeFormat::mono(range.to) : QObject::tr("end");
        parts << QObject::tr("t_mono %1 … %2 s").arg(from, to);
    }
    return parts.isEmpty() ? QObject::tr("every record") : parts.join(QStringLiteral(" · "));
}

QString ReportSections::count(qint64 n) {
    return QLocale().toString(n);
}

QString ReportSections::counted(qint64 n, const QString &one, const QString &many) {
    return QStringLiteral("%1 %2").arg(count(n), n == 1 ? one : many);
}

QString ReportSections::percent(double ratio) {
    return std::isfinite(ratio) ? ConfiguredRun::percentText(ratio) : QStringLiteral("—");
}

ReportContent::Table ReportSections::fileFacts(const TraceDocument &doc) {
    const TraceHeader &h = doc.header();
    ReportContent::Table t;
    t.title = QObject::tr("File");
    const auto row = [&t](const QString &k, const QString &v) { t.rows << QStringList{k, v}; };
    row(QObject::tr("file"), doc.filePath());
    row(QObject::tr("size"),
        QObject::tr("%1 bytes (%2)")
            .arg(count(doc.fileSize()), StorageManagerConfig::formatBytes(doc.fileSize())));
    row(QObject::tr("records"), count(doc.records().size()));
    row(QObject::tr("duration"),
        QObject::tr("%1 (largest t_mono %2 s)")
            .arg(TimeFormat::duration(doc.duration()), TimeFormat::fixed(doc.duration(), 6)));
    const RecordStore &rs = doc.records();
    if (rs.size() > 0) {
        row(QObject::tr("t_mono span"),
            QObject::tr("%1 … %2 s")
                .arg(TimeFormat::mono(rs.minTMono()), TimeFormat::mono(rs.maxTMono())));
    }
    row(QStringLiteral("level"), h.level().isEmpty() ? QObject::tr("(none)") : h.level());
    row(QStringLiteral("format_version"),
        h.formatVersion() ? QString::number(*h.formatVersion()) : QObject::tr("(none)"));
    row(QStringLiteral("trace_schema_version"),
        h.traceSchemaVersion() ? QString::number(*h.traceSchemaVersion()) : QObject::tr("(none)"));
    if (!h.lmcacheVersion().isEmpty()) {
        row(QStringLiteral("lmcache_version"), h.lmcacheVersion());
    }
    if (h.tWallStart()) {
        const QString date = TimeFormat::wall(*h.tWallStart());
        row(QStringLiteral("t_wall_start"),
            date.isEmpty() ? TimeFormat::fixed(*h.tWallStart(), 6) : date);
    }
    const QString digest = h.smConfigDigest();
    row(QStringLiteral("sm_config_digest"),
        QStringLiteral("%1 [%2]").arg(digest.isEmpty() ? QObject::tr("(none)") : digest,
                                      TraceHeader::digestStatusName(h.digestStatus())));
    row(QObject::tr("arguments"), doc.argsChecked()
                                      ? QObject::tr("every record's arguments decoded and checked")
                                      : QObject::tr("decoded where the analyses need them"));
    if (doc.skippedBytes() || doc.skippedFrames() || doc.recoveredFrames()) {
        row(QObject::tr("damage"),
            QObject::tr("%1 skipped, %2 skipped, %3 recovered")
                .arg(counted(doc.skippedBytes(), QObject::tr("byte"), QObject::tr("bytes")),
                     counted(doc.skippedFrames(), QObject::tr("frame"), QObject::tr("frames")),
                     count(doc.recoveredFrames())));
    }
    // the records per call, as `lmct info` lists them
    QStringList names = rs.qualnames();
    const std::vector<qint64> counts = rs.qualnameCounts();
    std::sort(names.begin(), names.end(), Qualname::flowLess);
    QStringList calls;
    for (const QString &q : names) {
        calls << QStringLiteral("%1 %2").arg(Qualname::displayName(q),
                                             count(counts[size_t(rs.qualnameIdOf(q))]));
    }
    if (!calls.isEmpty()) {
        row(QObject::tr("records per call"), calls.join(QStringLiteral(" · ")));
    }
    return t;
}

ReportContent::Table ReportSections::configTable(const TraceDocument &doc) {
    ReportContent::Table t;
    t.title = QObject::tr("StorageManager configuration");
    for (const QString &part : doc.header().smConfig().summaryParts()) {
        t.rows << QStringList{part};
    }
    return t;
}

void ReportSections::addDiagnostics(ReportContent::Section *section, const TraceDocument &doc,
                                    int max) {
    const DiagnosticList diags = doc.diagnostics();
    if (diags.isEmpty()) {
        section->paragraph(QObject::tr("No diagnostics: the file reads cleanly."));
        return;
    }
    int errors = 0, warnings = 0;
    for (const Diagnostic &d : diags) {
        errors += d.severity == Diagnostic::Severity::Error;
        warnings += d.severity == Diagnostic::Severity::Warning;
    }
    section->paragraph(
        QObject::tr("%1: %2, %3, %4 for information.")
            .arg(counted(diags.size(), QObject::tr("diagnostic"), QObject::tr("diagnostics")),
                 counted(errors, QObject::tr("error"), QObject::tr("errors")),
                 counted(warnings, QObject::tr("warning"), QObject::tr("warnings")),
                 count(diags.size() - errors - warnings)));
    ReportContent::Table t;
    t.header = {QObject::tr("severity"), QObject::tr("offset"), QObject::tr("kind"),
                QObject::tr("message")};
    t.numeric = {false, true, false, false};
    for (qsizetype i = 0; i < diags.size() && i < max; ++i) {
        const Diagnostic &d = diags[i];
        t.rows << QStringList{Diagnostic::severityName(d.severity),
                              d.offset >= 0 ? count(d.offset) : QStringLiteral("—"),
                              Diagnostic::kindName(d.kind), d.message};
    }
    if (diags.size() > max) {
        t.note = QObject::tr(
                     "The first %1 of %2 diagnostics; the Diagnostics pane and `lmct info` "
                     "list them all.")
                     .arg(max)
                     .arg(count(diags.size()));
    }
    section->table(std::move(t));
}

ReportContent::Table ReportSections::keyStates(const KeyAnalysis &keys) {
    ReportContent::Table t;
    t.title = QObject::tr("What became of the keys");
    t.header = {QObject::tr("state"), QObject::tr("keys"), QObject::tr("share")};
    t.numeric = {false, true, true};
    const auto states = keys.stateCounts();
    // no keys: no shares ("—"), not 100.0% of nothing
    const double all = keys.keyCount() > 0 ? double(keys.keyCount()) : qQNaN();
    for (int s = 0; s < KeyAnalysis::kStateCount; ++s) {
        t.rows << QStringList{KeyAnalysis::stateLabel(KeyAnalysis::State(s)),
                              count(states[size_t(s)]), percent(double(states[size_t(s)]) / all)};
    }
    t.rows << QStringList{QObject::tr("all keys"), count(keys.keyCount()), percent(all / all)};
    t.strongRows << int(t.rows.size()) - 1;
    return t;
}

QString ReportSections::bucketLabel(quint64 v, bool micros) {
    return micros ? BucketLabel::micros(v) : BucketLabel::count(v);
}

std::pair<int, int> ReportSections::bucketBars(const std::vector<qint64> &buckets, double shift,
                                               bool micros, ReportContent::Series *bars,
                                               std::vector<std::pair<double, QString>> *ticks) {
    int first = int(buckets.size()), last = -1;
    for (int b = 0; b < int(buckets.size()); ++b) {
        if (buckets[size_t(b)] > 0) {
            first = std::min(first, b);
            last = b;
            bars->x.push_back(b + shift);
            bars->y.push_back(double(buckets[size_t(b)]));
        }
    }
    if (last < 0) {
        return {0, -1};
    }
    if (ticks) {
        ticks->clear();
        const int span = last - first + 1;
        const int step = span <= 8 ? 1 : (span + 6) / 7;
        for (int b = first; b <= last; b += step) {
            ticks->emplace_back(double(b), bucketLabel(ReuseAnalysis::bucketFloor(b), micros));
        }
    }
    return {first, last};
}

std::vector<ReportContent::Figure> ReportSections::reuseFigures(const ReuseAnalysis::Stats &stats,
                                                                const QString &caption,
                                                                const QString &idPrefix) {
    struct Spec {
        const std::vector<qint64> *buckets;
        const ReuseAnalysis::Figures *figures;
        QString id, title, x, y;
        bool micros, logY;
    };
    const Spec specs[] = {
        {&stats.distanceKeys, &stats.distanceKeysFigures, QStringLiteral("reuse-keys"),
         QObject::tr("Reuse distance (keys)"), QObject::tr("distinct keys in between (log₂ bins)"),
         QObject::tr("reuses"), false, false},
        {&stats.distanceTime, &stats.distanceTimeFigures, QStringLiteral("reuse-time"),
         QObject::tr("Reuse distance (time)"),
         QObject::tr("time since the previous use (log₂ bins)"), QObject::tr("reuses"), true,
         false},
        {&stats.reuseCount, &stats.reuseCountFigures, QStringLiteral("reuse-count"),
         QObject::tr("Reuse count"), QObject::tr("uses after the first, per key (log₂ bins)"),
         QObject::tr("keys"), false, true},
    };
    std::vector<ReportContent::Figure> out;
    for (int h = 0; h < 3; ++h) {
        const Spec &s = specs[h];
        ReportContent::Figure f;
        f.id = idPrefix + s.id;
        f.xLabel = s.x;
        f.yLabel = s.y;
        f.logY = s.logY;
        f.ticks = ReportContent::Ticks::Labels;
        f.width = 760;
        f.height = 260;
        ReportContent::Series bars;
        bars.name = s.title;
        bars.style = ReportContent::Style::Bars;
        bars.color = ReportContent::Color::Histogram;
        bars.colorIndex = h;
        const auto [first, last] = bucketBars(*s.buckets, 0.0, s.micros, &bars, &f.tickLabels);
        f.xMin = first - 0.6;
        f.xMax = std::max(first, last) + 0.6;
        f.series.push_back(std::move(bars));
        const ReuseAnalysis::Figures &fig = *s.figures;
        QString figures = QObject::tr("no data");
        if (fig.n > 0) {
            const QString med =
                s.micros ? TimeFormat::duration(fig.median) : count(qint64(fig.median));
            const QString p95 = s.micros ? TimeFormat::duration(fig.p95) : count(qint64(fig.p95));
            figures =
                QObject::tr("median %1 · p95 %2 · %3")
                    .arg(med, p95,
                         h == 2 ? counted(fig.n, QObject::tr("key"), QObject::tr("keys"))
                                : counted(fig.n, QObject::tr("reuse"), QObject::tr("reuses")));
        }
        f.title = QStringLiteral("%1: %2").arg(s.title, figures);
        f.caption = caption;
        f.alt = QObject::tr("Histogram of the %1 in power-of-two bins: %2")
                    .arg(s.title.toLower(), figures);
        out.push_back(std::move(f));
    }
    return out;
}

QString ReportSections::configuredText(const ConfiguredRun &run) {
    const QString policy =
        run.policyText().isEmpty() ? QString() : QStringLiteral(" · ") + run.policyText();
    return QObject::tr("configured L1 %1%2")
        .arg(ConfiguredRun::bytesText(double(run.l1Bytes())), policy);
}

ReportContent::Figure ReportSections::whatIfCurves(const std::vector<const WhatIfAnalysis *> &runs,
                                                   const QString &caption) {
    ReportContent::Figure f;
    f.id = QStringLiteral("whatif");
    f.title = QObject::tr("What-if: prefetched keys hit against the cache capacity");
    f.caption = caption;
    f.xLabel = QObject::tr("capacity (chunks, log scale)");
    f.yLabel = QObject::tr("prefetched keys hit (%)");
    f.logX = true;
    f.ticks = ReportContent::Ticks::Chunks;
    f.yMin = 0;
    f.yMax = 105;
    double most = 1;
    QSet<int> named;  // policies with their legend entry
    for (size_t run = 0; run < runs.size(); ++run) {
        if (!runs[run]) {
            continue;
        }
        for (const WhatIfAnalysis::Curve &c : runs[run]->curves()) {
            ReportContent::Series s;
            if (!named.contains(int(c.policy))) {
                s.name = CachePolicy::label(c.policy);
                named.insert(int(c.policy));
            }
            s.color = ReportContent::Color::Policy;
            s.colorIndex = int(c.policy);
            s.style = run == 0 ? ReportContent::Style::Line : ReportContent::Style::Dashed;
            s.points = true;
            for (size_t i = 0; i < c.capacities.size() && i < c.prefetchHitRatio.size(); ++i) {
                s.x.push_back(double(c.capacities[i]));
                s.y.push_back(100.0 * c.prefetchHitRatio[i]);
                most = std::max(most, double(c.capacities[i]));
            }
            f.series.push_back(std::move(s));
        }
    }
    f.xMin = 0.7;
    f.xMax = most * 1.4;
    return f;
}

ReportContent::Figure ReportSections::whatIfFigure(const WhatIfAnalysis &whatIf, quint64 configured,
                                                   const QString &marker, const QString &caption) {
    ReportContent::Figure f = whatIfCurves({&whatIf}, caption);
    QStringList words;
    for (const WhatIfAnalysis::Curve &c : whatIf.curves()) {
        if (!c.prefetchHitRatio.empty()) {
            words << QStringLiteral("%1 up to %2")
                         .arg(CachePolicy::label(c.policy), percent(c.prefetchHitRatio.back()));
        }
    }
    if (configured > 0) {
        f.markers.push_back({double(configured), marker});
    }
    f.alt = QObject::tr("The prefetch hit ratio of each eviction policy against the capacity: %1.")
                .arg(words.join(QStringLiteral(", ")));
    return f;
}

ReportContent::Figure ReportSections::hitOverTimeFigure(const HitOverTime &hot, double t0,
                                                        double t1, int windows,
                                                        const QString &caption) {
    ReportContent::Figure f;
    f.id = QStringLiteral("hit-over-time");
    f.title = QObject::tr("Prefetched keys hit over time");
    f.caption = caption;
    f.xLabel = QObject::tr("t_mono (s)");
    f.yLabel = QObject::tr("prefetched keys hit (%)");
    f.ticks = ReportContent::Ticks::Seconds;
    f.yMin = 0;
    f.yMax = 105;
    f.xMin = t0;
    f.xMax = t1;
    f.height = 300;
    const double w = (t1 - t0) / std::max(1, windows);
    const auto centres = [&] {
        std::vector<double> x;
        for (int i = 0; i < windows; ++i) {
            x.push_back(t0 + (i + 0.5) * w);
        }
        return x;
    };
    QStringList names;
    for (size_t s = 0; s < hot.series().size(); ++s) {
        ReportContent::Series line;
        line.name = CachePolicy::label(hot.series()[s].policy);
        line.color = ReportContent::Color::Policy;
        line.colorIndex = int(hot.series()[s].policy);
        line.x = centres();
        for (double r : hot.windowed(int(s), t0, t1, windows)) {
            line.y.push_back(100.0 * r);  // (NaN stays a gap)
        }
        names << line.name;
        f.series.push_back(std::move(line));
    }
    if (hot.hasLmcacheAccount()) {
        ReportContent::Series lm;
        lm.name = QObject::tr("LMCache L1 prefix hits");
        lm.color = ReportContent::Color::LMCache;
        lm.style = ReportContent::Style::Dashed;
        lm.x = centres();
        for (double r : hot.lmcacheWindowed(t0, t1, windows)) {
            lm.y.push_back(100.0 * r);
        }
        names << lm.name;
        f.series.push_back(std::move(lm));
    }
    f.alt = QObject::tr("The prefetch hit ratio in %1 windows of %2 over the trace: %3.")
                .arg(windows)
                .arg(TimeFormat::duration(w), names.join(QStringLiteral(", ")));
    return f;
}

ReportContent::Table ReportSections::anomalyCounts(const AnomalyReport &report) {
    ReportContent::Table t;
    t.header = {QObject::tr("anomaly"), QObject::tr("items"), QObject::tr("what it is")};
    t.numeric = {false, true, false};
    for (int k = 0; k < AnomalyReport::kKindCount; ++k) {
        const auto kind = AnomalyReport::Kind(k);
        if (report.count(kind) > 0) {
            t.rows << QStringList{AnomalyReport::kindName(kind), count(report.count(kind)),
                                  AnomalyReport::kindDescription(kind)};
        }
    }
    return t;
}

ReportContent::Table ReportSections::topAnomalies(const AnomalyReport &report, int max) {
    ReportContent::Table t;
    t.header = {QObject::tr("anomaly"), QObject::tr("records"), QObject::tr("t_mono"),
                QObject::tr("what")};
    t.numeric = {false, true, true, false};
    std::map<int, std::vector<const AnomalyReport::Item *>> byKind;
    for (const AnomalyReport::Item &it : report.items()) {
        byKind[int(it.kind)].push_back(&it);
    }
    if (byKind.empty() || max <= 0) {
        return t;
    }
    // an even share for every kind found, what one kind leaves to the others
    const int perKind = std::max(1, max / int(byKind.size()));
    std::vector<const AnomalyReport::Item *> chosen;
    for (auto &[kind, items] : byKind) {
        const auto k = AnomalyReport::Kind(kind);
        if (k == AnomalyReport::Kind::Gap || k == AnomalyReport::Kind::TimeBackwards) {
            std::stable_sort(items.begin(), items.end(),
                             [](const auto *a, const auto *b) { return a->value > b->value; });
        }
        for (size_t i = 0; i < items.size() && i < size_t(perKind); ++i) {
            chosen.push_back(items[i]);
        }
    }
    for (const AnomalyReport::Item *it : chosen) {
        const QString records = it->record2 >= 0
                                    ? QStringLiteral("#%1, #%2").arg(it->record).arg(it->record2)
                                    : QStringLiteral("#%1").arg(it->record);
        t.rows << QStringList{AnomalyReport::kindName(it->kind), records, TimeFormat::mono(it->t),
                              report.message(*it)};
    }
    if (qint64(chosen.size()) < report.totalCount()) {
        t.note = QObject::tr(
                     "%1 of %2 items; the Anomalies tab and `lmct anomalies` list them "
                     "all.")
                     .arg(count(qint64(chosen.size())), count(report.totalCount()));
    }
    return t;
}

}  // namespace lmct
