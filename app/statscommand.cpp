#include "statscommand.h"
#include "util/terminaltext.h"

#include "commandsupport.h"
#include "export/csvwriter.h"
#include "itemmodels/statisticstablemodel.h"
#include "stats/tracesetstatistics.h"
#include "stats/tracestatistics.h"
#include "util/timeformat.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

using namespace lmct;

namespace {

/** A model's display text as an aligned plain-text table. */
QString textTable(const StatisticsTableModel &m) {
    const int rows = m.rowCount(), cols = m.columnCount();
    std::vector<int> width(size_t(cols), 0);
    std::vector<QStringList> cells(size_t(rows) + 1);
    for (int c = 0; c < cols; ++c) {
        cells[0].append(m.headerData(c, Qt::Horizontal).toString());
    }
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            cells[size_t(r) + 1].append(m.data(m.index(r, c)).toString());
        }
    }
    for (const QStringList &row : cells) {
        for (int c = 0; c < cols; ++c) {
            width[size_t(c)] = qMax(width[size_t(c)], TerminalText::columns(row[c]));
        }
    }
    QString out;
    for (const QStringList &row : cells) {
        QString line = QStringLiteral(" ");
        for (int c = 0; c < cols; ++c) {
            const int w = width[size_t(c)];
            line += QLatin1Char(' ') + TerminalText::padded(row[c], w, /*alignRight=*/c != 0);
        }
        out += line.trimmed().isEmpty() ? QString() : line + QLatin1Char('\n');
    }
    return out;
}

QByteArray csvValue(const QJsonValue &v) {
    if (v.isNull() || v.isUndefined()) {
        return QByteArray();
    }
    if (v.isString()) {
        return v.toString().toUtf8();
    }
    if (v.isBool()) {
        return v.toBool() ? "true" : "false";
    }
    const double d = v.toDouble();
    return CommandSupport::number(d);
}

QByteArray csvTable(const QList<QJsonObject> &rows, const QStringList &columns) {
    QByteArray out = CsvWriter::row(columns);
    for (const QJsonObject &o : rows) {
        QList<QByteArray> fields;
        for (const QString &c : columns) {
            fields.append(csvValue(o.value(c)));
        }
        out += CsvWriter::row(fields);
    }
    return out;
}

/** The tables and the pair line of `stats`, as the single-trace text shows them. */
void writeTables(QTextStream &ts, const std::shared_ptr<const TraceStatistics> &stats,
                 const QString &timeAxis = QStringLiteral("t_mono")) {
    const std::pair<StatisticsTableModel::Table, const char *> sections[] = {
        {StatisticsTableModel::Table::Calls, "Calls"},
        {StatisticsTableModel::Table::Models, "Models"},
        {StatisticsTableModel::Table::Ranks, "Ranks"},
        {StatisticsTableModel::Table::Salts, "Cache salts"},
    };
    for (const auto &[t, title] : sections) {
        StatisticsTableModel m(t);
        m.setTimeAxis(timeAxis);
        m.setStatistics(stats);
        if (m.rowCount() == 0) {
            continue;
        }
        ts << title << "\n" << textTable(m) << "\n";
    }
    const TraceStatistics::PairStats &pp = stats->pairs;
    ts << "read_prefetched_results enter/exit pairs: " << pp.matched << " matched, "
       << pp.unmatchedEnter << " unmatched enter, " << pp.unmatchedExit << " unmatched exit";
    if (pp.matched > 0) {
        ts << "; enter→exit p50 " << TimeFormat::duration(pp.durationP50) << ", p95 "
           << TimeFormat::duration(pp.durationP95) << ", max "
           << TimeFormat::duration(pp.durationMax);
    }
    ts << "\n";
}

const QStringList &callColumns() {
    static const QStringList columns = {QStringLiteral("call"),
                                        QStringLiteral("qualname"),
                                        QStringLiteral("count"),
                                        QStringLiteral("share"),
                                        QStringLiteral("first_t_mono"),
                                        QStringLiteral("last_t_mono"),
                                        QStringLiteral("rate_per_s"),
                                        QStringLiteral("inter_arrival_p50_s"),
                                        QStringLiteral("inter_arrival_p95_s"),
                                        QStringLiteral("inter_arrival_max_s"),
                                        QStringLiteral("keys_mean"),
                                        QStringLiteral("keys_max"),
                                        QStringLiteral("bytes_mean"),
                                        QStringLiteral("bytes_calls")};
    return columns;
}

/** The rows of one CSV table of `st` (calls with the totals row last, or a group table). */
QList<QJsonObject> tableRows(const TraceStatistics &st, const QString &table) {
    QList<QJsonObject> objs;
    if (table == QLatin1String("calls")) {
        for (const auto &r : st.calls) {
            objs.append(TraceStatistics::toJson(r));
        }
        objs.append(TraceStatistics::toJson(st.totals));
        return objs;
    }
    const QList<TraceStatistics::GroupRow> &groups = table == QLatin1String("models")  ? st.models
                                                     : table == QLatin1String("ranks") ? st.ranks
                                                                                       : st.salts;
    for (const auto &r : groups) {
        QJsonObject g = TraceStatistics::toJson(r);
        if (table == QLatin1String("salts")) {
            g.insert(QStringLiteral("has_salt"), r.hasSalt);
        }
        objs.append(g);
    }
    return objs;
}

QStringList groupColumns(const QString &table) {
    QStringList columns{QStringLiteral("name")};
    if (table == QLatin1String("ranks")) {
        columns << QStringLiteral("rank") << QStringLiteral("world_size");
    } else if (table == QLatin1String("salts")) {
        columns << QStringLiteral("has_salt");
    }
    columns << QStringLiteral("calls") << QStringLiteral("reserves")
            << QStringLiteral("finished_writes") << QStringLiteral("prefetches")
            << QStringLiteral("reads") << QStringLiteral("finished_reads")
            << QStringLiteral("releases") << QStringLiteral("distinct_keys");
    return columns;
}

int runCombined(const CommandSupport &cs, const QCommandLineParser &p, bool json, bool csv,
                const QString &table, const CommandSupport::Selection &sel) {
    TraceSet set;
    if (const int rc = cs.loadCombined(p, sel, &set); rc >= 0) {
        return rc;
    }
    cs.warnIfDamaged(set);
    const MergedOrder order = MergedOrder::build(set);
    std::vector<std::vector<int>> selected;
    TraceSetStatistics::Options o;
    if (!sel.filter.isEmpty()) {
        CommandSupport::selectRows(set, order, sel.filter, &selected);
        for (const std::vector<int> &s : selected) {
            o.subsets.push_back(&s);
        }
    }
    const TraceSetStatistics stats = TraceSetStatistics::compute(set, order, o);
    if (json) {
        QJsonObject obj = stats.toJson(set);
        obj.insert(QStringLiteral("files"), QJsonArray::fromStringList(p.positionalArguments()));
        obj.insert(QStringLiteral("filter"), sel.filter.text());
        CommandSupport::print(QJsonDocument(obj).toJson(QJsonDocument::Indented));
        return CommandSupport::kExitOk;
    }
    if (csv) {
        QStringList columns = table == QLatin1String("calls") ? callColumns() : groupColumns(table);
        columns.prepend(QStringLiteral("trace"));
        QList<QJsonObject> objs;
        auto add = [&](const TraceStatistics &st, const QString &label) {
            for (QJsonObject o : tableRows(st, table)) {
                o.insert(QStringLiteral("trace"), label);
                objs.append(o);
            }
        };
        add(stats.all, QStringLiteral("(all)"));
        for (int t = 0; t < set.size(); ++t) {
            add(stats.perTrace[t], set.label(t));
        }
        CommandSupport::print(csvTable(objs, columns));
        return CommandSupport::kExitOk;
    }
    QString text;
    QTextStream ts(&text);
    ts << "combined:  " << set.size() << " traces, " << stats.all.records << " of "
       << set.recordCount() << " records";
    if (!sel.filter.isEmpty()) {
        ts << "  (filter: " << sel.filter.text() << ")";
    }
    ts << "\n";
    ts << "times:     seconds from " << TimeFormat::fixed(stats.origin, 6)
       << " on the aligned t_wall axis (first, last, rate, inter-arrival)\n";
    ts << "distinct keys: " << stats.all.distinctKeys << " (summed over the traces)\n\n";
    const QString axis = QStringLiteral("aligned t_wall");  // seconds from stats.origin
    writeTables(ts, std::make_shared<const TraceStatistics>(stats.all), axis);
    for (int t = 0; t < set.size(); ++t) {
        const TraceStatistics &st = stats.perTrace[t];
        ts << "\n== trace " << t << ": " << set.displayLabel(t) << " (offset "
           << TimeFormat::fixed(set.offset(t), 6) << " s) ==\n";
        ts << "records:   " << st.records << " of " << set.document(t).records().size() << "\n";
        if (st.decodeErrors > 0) {
            ts << "warning:   " << st.decodeErrors << " records whose arguments did not decode\n";
        }
        ts << "distinct keys: " << st.distinctKeys << "\n\n";
        writeTables(ts, std::make_shared<const TraceStatistics>(st), axis);
    }
    ts.flush();
    CommandSupport::print(TerminalText::escapedLines(text).toUtf8());
    return CommandSupport::kExitOk;
}

}  // namespace

int StatsCommand::run(const QStringList &args) {
    CommandSupport cs(QStringLiteral("stats"));
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Statistics of the records of a trace that match a filter: per call (count, share,\n"
        "first/last t_mono, rate, inter-arrival p50/p95/max, keys and bytes per call, totals),\n"
        "per model, per rank and per cache salt (reserves, finished writes, prefetches, reads,\n"
        "finished reads, distinct keys), and read_prefetched_results enter/exit pairs.\n"
        "--combine FILE...: the traces together (times on the aligned t_wall axis) and each\n"
        "on its own; --csv then has a trace column first ((all), then each label).\n"
        "Exit 0 ok, 1 usage error or invalid filter/range, 2 unreadable input or a failed\n"
        "write to standard output."));
    p.addOption({QStringLiteral("json"), QStringLiteral("One JSON object.")});
    p.addOption(
        {QStringLiteral("csv"), QStringLiteral("CSV (RFC 4180) of one table, see --table.")});
    p.addOption({QStringLiteral("table"),
                 QStringLiteral("Table for --csv: calls (default; totals row last), models, "
                                "ranks or salts."),
                 QStringLiteral("T"), QStringLiteral("calls")});
    cs.addSelectionOptions(p);
    cs.addCombineOptions(p);
    if (const int rc = cs.parseArguments(p, args); rc >= 0) {
        return rc;
    }
    const bool json = p.isSet(QStringLiteral("json"));
    const bool csv = p.isSet(QStringLiteral("csv"));
    if (json && csv) {
        cs.error(QStringLiteral("--json and --csv exclude each other"));
        return CommandSupport::kExitUsage;
    }
    const QString table = p.value(QStringLiteral("table"));
    static const QStringList tables = {QStringLiteral("calls"), QStringLiteral("models"),
                                       QStringLiteral("ranks"), QStringLiteral("salts")};
    if (!tables.contains(table)) {
        cs.error(QStringLiteral("--table must be one of %1, not '%2'")
                     .arg(tables.join(QStringLiteral(", ")), table));
        return CommandSupport::kExitUsage;
    }
    if (p.isSet(QStringLiteral("table")) && !csv) {
        cs.error(QStringLiteral("--table goes with --csv"));
        return CommandSupport::kExitUsage;
    }
    CommandSupport::Selection sel;
    if (!cs.readSelection(p, &sel)) {
        return CommandSupport::kExitUsage;
    }
    if (cs.combine(p)) {
        return runCombined(cs, p, json, csv, table, sel);
    }
    const QString file = p.positionalArguments().front();
    const auto doc = cs.load(file);
    if (!doc) {
        return CommandSupport::kExitUnreadable;
    }
    cs.warnIfDamaged(*doc);
    std::vector<int> rows;
    TraceStatistics::Options o;
    o.range = sel.range;
    if (!sel.filter.isEmpty()) {
        rows = CommandSupport::select(doc, sel);
        o.subset = &rows;
    }
    auto stats = std::make_shared<const TraceStatistics>(TraceStatistics::compute(*doc, o));

    if (json) {
        QJsonObject obj = stats->toJson();
        obj.insert(QStringLiteral("file"), file);
        obj.insert(QStringLiteral("filter"), sel.filter.text());
        CommandSupport::print(QJsonDocument(obj).toJson(QJsonDocument::Indented));
        return CommandSupport::kExitOk;
    }
    if (csv) {
        const QList<QJsonObject> objs = tableRows(*stats, table);
        const QStringList columns =
            table == QLatin1String("calls") ? callColumns() : groupColumns(table);
        CommandSupport::print(csvTable(objs, columns));
        return CommandSupport::kExitOk;
    }

    QString text;
    QTextStream ts(&text);
    ts << "file:      " << file << "\n";
    ts << "records:   " << stats->records << " of " << doc->records().size();
    if (!sel.filter.isEmpty()) {
        ts << "  (filter: " << sel.filter.text() << ")";
    }
    if (!sel.range.isAll()) {
        ts << "  (t_mono range " << sel.range.toString() << ")";
    }
    ts << "\n";
    if (stats->decodeErrors > 0) {
        ts << "warning:   " << stats->decodeErrors << " records whose arguments did not decode\n";
    }
    ts << "distinct keys: " << stats->distinctKeys << "\n\n";
    writeTables(ts, stats);
    ts.flush();
    CommandSupport::print(TerminalText::escapedLines(text).toUtf8());  // qualnames, models, salts
    return CommandSupport::kExitOk;
}
