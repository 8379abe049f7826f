#include "comparecommand.h"

#include "commandsupport.h"
#include "compare/tracecomparison.h"
#include "trace/storagemanagerconfig.h"
#include "util/terminaltext.h"
#include "util/timeformat.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <algorithm>
#include <cmath>
#include <vector>

namespace lmct {

namespace {

QString numberText(double v, int precision = 4) {
    if (!std::isfinite(v)) {
        return QStringLiteral("—");
    }
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
        return QString::number(qint64(v));
    }
    return QString::number(v, 'g', precision);
}

QString secondsText(double v) {
    return std::isfinite(v) ? TimeFormat::duration(v) : QStringLiteral("—");
}

QString percentText(double v) {
    if (!std::isfinite(v)) {
        return QStringLiteral("—");
    }
    const QString sign = v > 0 ? QStringLiteral("+") : v < 0 ? QStringLiteral("−") : QString();
    return QStringLiteral("%1%2 %").arg(sign, QString::number(std::fabs(v), 'f', 1));
}

QString deltaText(double v, bool seconds) {
    if (!std::isfinite(v)) {
        return QStringLiteral("—");
    }
    const QString sign = v > 0 ? QStringLiteral("+") : v < 0 ? QStringLiteral("−") : QString();
    return sign + (seconds ? secondsText(std::fabs(v)) : numberText(std::fabs(v)));
}

QString ratioText(double v) {
    return std::isfinite(v) ? QString::number(v, 'f', 4) : QStringLiteral("—");
}

QString cell(const QString &s, int width) {
    return TerminalText::padded(s, width) + QLatin1Char(' ');
}
QString rcell(const QString &s, int width) {
    return TerminalText::padded(s, width, /*alignRight=*/true) + QLatin1Char(' ');
}

QString capacityText(const CapacityHit &h) {
    if (!h.reason.isEmpty()) {
        return QStringLiteral("— (%1)").arg(h.reason);
    }
    QString where = h.inBytes
                        ? StorageManagerConfig::formatBytes(*h.l1Bytes)
                        : QStringLiteral("%1 chunks of %2")
                              .arg(h.chunks)
                              .arg(StorageManagerConfig::formatBytes(qint64(h.bytesPerObject)));
    return QStringLiteral("%1 (%2 of %3 prefetched keys; %4, %5)")
        .arg(ratioText(h.hitRatio))
        .arg(h.prefetchHits)
        .arg(h.prefetchOccurrences)
        .arg(where, CachePolicy::label(h.policy));
}

QString text(const TraceComparison &c) {
    QString out;
    const auto side = [](const char *name, const TraceComparison::Side &s) {
        return QStringLiteral("  %1: %2 (%3 records, %4, %5 distinct keys)\n")
            .arg(QLatin1String(name), TerminalText::escaped(s.filePath))
            .arg(s.records)
            .arg(secondsText(s.duration))
            .arg(s.cache->keys->keyCount());
    };
    out += QStringLiteral("Traces (B against A: Δ = B − A)\n");
    out += side("A", c.a()) + side("B", c.b());

    const HeaderComparison &h = c.header();
    out += QStringLiteral("\nHeader and config: %1 differing, config %2\n")
               .arg(h.differingCount())
               .arg(TerminalText::escaped(h.configDiff().explanation(3)));
    for (const HeaderComparison::Row &r : h.rows()) {
        if (!r.differs && !r.isVolatile) {
            continue;
        }
        // Start times and the duration in seconds with fixed decimals: 1760000000 beside
        // 1760000000.3 read as 1.76e+09 otherwise.
        const bool seconds = r.field == QLatin1String("t_wall_start") ||
                             r.field == QLatin1String("t_mono_start") ||
                             r.field == QLatin1String("duration_s");
        auto value = [seconds](const QString &text) {
            bool ok = false;
            const double v = text.toDouble(&ok);
            return seconds && ok && std::isfinite(v) ? QString::number(v, 'f', 6) : text;
        };
        out += QStringLiteral("  %1%2 │ %3%4\n")
                   .arg(cell(TerminalText::escaped(r.field), 54))
                   .arg(cell(TerminalText::escaped(value(r.a)).left(40), 40))
                   .arg(TerminalText::escaped(value(r.b)).left(40))
                   .arg(r.isVolatile && !r.differs ? QStringLiteral("  (volatile)") : QString());
    }

    out += QStringLiteral("\nCalls\n  %1%2%3%4%5%6\n")
               .arg(cell(QStringLiteral("CALL"), 34), cell(QStringLiteral("FIGURE"), 18),
                    rcell(QStringLiteral("A"), 12), rcell(QStringLiteral("B"), 12),
                    rcell(QStringLiteral("Δ"), 12), rcell(QStringLiteral("Δ %"), 9));
    for (const CallComparison::Row &r : c.calls().rows()) {
        for (int f = 0; f < CallComparison::kFigureCount; ++f) {
            const auto fig = CallComparison::Figure(f);
            const FigurePair &p = r.figure(fig);
            const bool sec = CallComparison::isSeconds(fig);
            const auto val = [sec](double v) { return sec ? secondsText(v) : numberText(v); };
            out += QStringLiteral("  %1%2%3%4%5%6\n")
                       .arg(cell(f == 0 ? TerminalText::escaped(r.call) : QString(), 34),
                            cell(CallComparison::figureLabel(fig), 18), rcell(val(p.a), 12),
                            rcell(val(p.b), 12), rcell(deltaText(p.delta(), sec), 12),
                            rcell(percentText(p.percent()), 9));
        }
        if (!r.reason.isEmpty()) {
            out += QStringLiteral("    (%1)\n").arg(r.reason);
        }
    }

    out += QStringLiteral("\nLatencies\n  %1%2%3%4%5%6\n")
               .arg(cell(QStringLiteral("LATENCY"), 34), cell(QStringLiteral("STAT"), 18),
                    rcell(QStringLiteral("A"), 12), rcell(QStringLiteral("B"), 12),
                    rcell(QStringLiteral("Δ"), 12), rcell(QStringLiteral("Δ %"), 9));
    for (const LatencyComparison::Row &r : c.latencies().rows()) {
        out +=
            QStringLiteral("  %1%2%3%4\n")
                .arg(cell(LatencyComparison::kindLabel(r.kind), 34), cell(QStringLiteral("n"), 18),
                     rcell(QString::number(r.a.n), 12), rcell(QString::number(r.b.n), 12));
        const std::pair<const char *, FigurePair> stats[] = {
            {"p50", r.p50()}, {"p95", r.p95()}, {"max", r.max()}};
        for (const auto &[name, p] : stats) {
            out +=
                QStringLiteral("  %1%2%3%4%5%6\n")
                    .arg(cell(QString(), 34), cell(QLatin1String(name), 18),
                         rcell(secondsText(p.a), 12), rcell(secondsText(p.b), 12),
                         rcell(deltaText(p.delta(), true), 12), rcell(percentText(p.percent()), 9));
        }
        if (!r.reason.isEmpty()) {
            out += QStringLiteral("    (%1)\n").arg(r.reason);
        }
    }

    const CacheComparison &k = c.cache();
    out += QStringLiteral("\nCache\n");
    out += QStringLiteral("  prefetch hit ratio at the configured capacity\n    A: %1\n    B: %2\n")
               .arg(capacityText(k.a().atCapacity), capacityText(k.b().atCapacity));
    for (const QString &note : {k.a().atCapacity.note, k.b().atCapacity.note}) {
        if (!note.isEmpty()) {
            out += QStringLiteral("    note: %1\n").arg(TerminalText::escaped(note));
        }
    }
    if (k.hitRatioReason().isEmpty()) {
        out +=
            QStringLiteral("    Δ %1 (%2)\n")
                .arg(deltaText(k.hitRatio().delta(), false), percentText(k.hitRatio().percent()));
    }
    // `requests` counts LMCache's releases in its own account
    const auto account = [](const CacheComparison::Account &a, const char *counted) {
        return a.requests == 0 ? QStringLiteral("—")
                               : QStringLiteral("%1 (%2 of %3 requested keys, %4 %5)")
                                     .arg(ratioText(a.hitRatio))
                                     .arg(a.hitKeys)
                                     .arg(a.requestedKeys)
                                     .arg(a.requests)
                                     .arg(QLatin1String(counted));
    };
    out += QStringLiteral(
               "  LMCache's L1 prefix hits (PrefetchHandle of release_prefetch_task)\n"
               "    A: %1\n    B: %2\n")
               .arg(account(k.a().lmcache, "releases"), account(k.b().lmcache, "releases"));
    if (!k.lmcacheReason().isEmpty()) {
        out += QStringLiteral("    (%1)\n").arg(k.lmcacheReason());
    }
    out += QStringLiteral("  prefix hits of the matched reads\n    A: %1\n    B: %2\n")
               .arg(account(k.a().calls, "requests"), account(k.b().calls, "requests"));

    if (k.a().whatIf && k.b().whatIf) {
        out += QStringLiteral("  what-if: prefetch hit ratio per capacity (chunks), A / B\n");
        // Cells first, then every column as wide as its widest cell (0.000274/0.000679 is 17).
        const auto &curves = k.a().whatIf->curves();
        std::vector<QStringList> rows;
        std::vector<int> widths(curves.size() + 1);
        QStringList head{QStringLiteral("CAPACITY")};
        for (const WhatIfAnalysis::Curve &cv : curves) {
            head.append(CachePolicy::label(cv.policy));
        }
        rows.push_back(head);
        for (size_t i = 0; i < k.capacities().size(); ++i) {
            QStringList row{QString::number(k.capacities()[i])};
            for (const WhatIfAnalysis::Curve &cv : curves) {
                const WhatIfAnalysis::Curve *cb = k.b().whatIf->curve(cv.policy);
                // "—" for a trace without prefetches (whatif_reason says so)
                const double ra = k.a().hasWhatIfRatios() && i < cv.prefetchHitRatio.size()
                                      ? cv.prefetchHitRatio[i]
                                      : qQNaN();
                const double rb = k.b().hasWhatIfRatios() && cb && i < cb->prefetchHitRatio.size()
                                      ? cb->prefetchHitRatio[i]
                                      : qQNaN();
                row.append(QStringLiteral("%1/%2").arg(numberText(ra, 3), numberText(rb, 3)));
            }
            rows.push_back(row);
        }
        for (const QStringList &row : rows) {
            for (qsizetype c = 0; c < row.size() && size_t(c) < widths.size(); ++c) {
                widths[size_t(c)] = std::max(widths[size_t(c)], int(row[c].size()));
            }
        }
        for (const QStringList &row : rows) {
            QString line = QStringLiteral("    ");
            for (qsizetype c = 0; c < row.size() && size_t(c) < widths.size(); ++c) {
                line += rcell(row[c], widths[size_t(c)] + (c ? 2 : 0));
            }
            out += line + QLatin1Char('\n');
        }
        if (!k.whatIfReason().isEmpty()) {
            out += QStringLiteral("    (%1)\n").arg(k.whatIfReason());
        }
    }
    const ReuseAnalysis::Stats &ra = k.a().reuse->total();
    const ReuseAnalysis::Stats &rb = k.b().reuse->total();
    out +=
        QStringLiteral(
            "  reuse distance p50 / p95: A %1 / %2 keys, %3 / %4; B %5 / %6 keys, "
            "%7 / %8\n")
            .arg(numberText(ra.distanceKeysFigures.median), numberText(ra.distanceKeysFigures.p95),
                 secondsText(ra.distanceTimeFigures.median),
                 secondsText(ra.distanceTimeFigures.p95), numberText(rb.distanceKeysFigures.median),
                 numberText(rb.distanceKeysFigures.p95), secondsText(rb.distanceTimeFigures.median),
                 secondsText(rb.distanceTimeFigures.p95));
    out += QStringLiteral("  key overlap per model (A only / B only / both)\n");
    int modelWidth = 40;  // the widest model name, so that the figures stay in line
    for (const KeyOverlap::Row &r : k.overlap().models()) {
        modelWidth = std::max(modelWidth, TerminalText::columns(TerminalText::escaped(r.model)));
    }
    for (const KeyOverlap::Row &r : k.overlap().models()) {
        out += QStringLiteral("    %1%2 / %3 / %4\n")
                   .arg(cell(TerminalText::escaped(r.model), modelWidth))
                   .arg(r.onlyA)
                   .arg(r.onlyB)
                   .arg(r.both);
    }
    if (!k.overlap().reason().isEmpty()) {
        out += QStringLiteral("    (%1)\n").arg(TerminalText::escaped(k.overlap().reason()));
    }
    out += QStringLiteral("  anomalies (A / B)\n");
    for (int i = 0; i < AnomalyReport::kKindCount; ++i) {
        out += QStringLiteral("    %1%2 / %3\n")
                   .arg(cell(AnomalyReport::kindName(AnomalyReport::Kind(i)), 24))
                   .arg(k.a().anomalies[size_t(i)])
                   .arg(k.b().anomalies[size_t(i)]);
    }
    return out;
}

}  // namespace

int CompareCommand::run(const QStringList &args) {
    const CommandSupport cs(QStringLiteral("compare"));
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Compare two traces, B against A (Δ = B − A, Δ % = Δ / |A|): header and\n"
        "StorageManagerConfig fields that differ (shm_name ignored as volatile), per call\n"
        "count, rate, share, inter-arrival p50/p95 and keys per call, latencies (write\n"
        "latency, time to first reuse, read enter → exit, time to read) and the cache: the\n"
        "prefetch hit ratio at each trace's configured L1 capacity and policy, LMCache's own\n"
        "L1 prefix hits, what-if curves, reuse distances, key overlap per model and anomaly\n"
        "counts. Definitions: docs/compare.md.\n"
        "Exit 0 ok, 1 usage error, 2 unreadable input."));
    p.addHelpOption();
    p.addOption({QStringLiteral("json"), QStringLiteral("Print one JSON object.")});
    p.addOption({QStringLiteral("no-whatif"),
                 QStringLiteral("Skip the what-if curves (every policy replayed at every "
                                "capacity; the slowest part).")});
    p.addPositionalArgument(QStringLiteral("A"),
                            QStringLiteral("The first trace (*.lct, *.lmct)."));
    p.addPositionalArgument(QStringLiteral("B"), QStringLiteral("The trace compared with it."));
    if (!p.parse(args)) {
        cs.error(p.errorText() + QStringLiteral(" (see lmct compare --help)"));
        return CommandSupport::kExitUsage;
    }
    if (p.isSet(QStringLiteral("help"))) {
        cs.printHelp(p);
        return CommandSupport::kExitOk;
    }
    const QStringList files = p.positionalArguments();
    if (files.size() != 2) {
        cs.error(QStringLiteral("expected two FILEs (A B), got %1 (see lmct compare --help)")
                     .arg(files.size()));
        return CommandSupport::kExitUsage;
    }
    const auto a = cs.load(files[0]);
    if (!a) {
        return CommandSupport::kExitUnreadable;
    }
    const auto b = cs.load(files[1]);
    if (!b) {
        return CommandSupport::kExitUnreadable;
    }
    TraceComparison::Options options;
    options.whatIf = !p.isSet(QStringLiteral("no-whatif"));
    const auto c = TraceComparison::run(*a, *b, options);
    // A damaged trace is compared as far as it reads; its figures leave the damage out.
    for (const QString &warning : c->damageWarnings()) {
        cs.error(QStringLiteral("warning: ") + warning);
    }
    if (p.isSet(QStringLiteral("json"))) {
        CommandSupport::print(QJsonDocument(c->toJson()).toJson(QJsonDocument::Compact) + "\n");
    } else {
        CommandSupport::print(text(*c));
    }
    return CommandSupport::kExitOk;
}

}  // namespace lmct
