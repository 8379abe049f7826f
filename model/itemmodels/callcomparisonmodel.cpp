#include "itemmodels/callcomparisonmodel.h"

namespace lmct {

CallComparisonModel::CallComparisonModel(QObject *parent)
    : FigureTableModel(QStringLiteral("call"), parent) {}

void CallComparisonModel::setComparison(std::shared_ptr<const TraceComparison> c) {
    m_comparison = std::move(c);
    std::vector<Row> rows;
    if (m_comparison) {
        for (const CallComparison::Row &r : m_comparison->calls().rows()) {
            for (int f = 0; f < CallComparison::kFigureCount; ++f) {
                const auto fig = CallComparison::Figure(f);
                Row row;
                row.group = r.call;
                row.figure = CallComparison::figureLabel(fig);
                row.format = fig == CallComparison::Figure::Count   ? Format::Count
                             : fig == CallComparison::Figure::Share ? Format::Ratio
                             : CallComparison::isSeconds(fig)       ? Format::Seconds
                                                                    : Format::Number;
                row.values = r.figure(fig);
                row.reason = r.reason;
                row.isTotal = r.isTotal;
                rows.push_back(std::move(row));
            }
        }
    }
    setRows(std::move(rows));
}

}  // namespace lmct
