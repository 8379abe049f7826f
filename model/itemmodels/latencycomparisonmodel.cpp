#include "itemmodels/latencycomparisonmodel.h"

namespace lmct {

LatencyComparisonModel::LatencyComparisonModel(QObject *parent)
    : FigureTableModel(QStringLiteral("latency"), parent) {}

void LatencyComparisonModel::setComparison(std::shared_ptr<const TraceComparison> c) {
    m_comparison = std::move(c);
    std::vector<Row> rows;
    if (m_comparison) {
        for (const LatencyComparison::Row &r : m_comparison->latencies().rows()) {
            const QString group = LatencyComparison::kindLabel(r.kind);
            auto add = [&](const char *figure, Format format, FigurePair values) {
                Row row;
                row.group = group;
                row.figure = QLatin1String(figure);
                row.format = format;
                row.values = values;
                row.reason = r.reason;
                rows.push_back(std::move(row));
            };
            add("n", Format::Count, {double(r.a.n), double(r.b.n)});
            add("p50", Format::Seconds, r.p50());
            add("p95", Format::Seconds, r.p95());
            add("max", Format::Seconds, r.max());
        }
    }
    setRows(std::move(rows));
}

}  // namespace lmct
