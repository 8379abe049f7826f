#include "records/combinedrecordview.h"

#include "itemmodels/combinedrecordtablemodel.h"

#include <QHeaderView>

namespace lmct {

CombinedRecordView::CombinedRecordView(CombinedRecordTableModel *model, QWidget *parent)
    : QTableView(parent) {
    setObjectName(QStringLiteral("combinedTable"));
    setModel(model);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setAlternatingRowColors(true);
    setWordWrap(false);
    setFrameShape(QFrame::NoFrame);
    verticalHeader()->hide();
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->setHighlightSections(false);
    const QFontMetrics fm = fontMetrics();
    const auto width = [&](int column, const char *sample) {
        setColumnWidth(column, fm.horizontalAdvance(QString::fromUtf8(sample)));
    };
    width(CombinedRecordTableModel::RowColumn, "00000000");
    width(CombinedRecordTableModel::TraceColumn, "worker-00.lct (vllm-00)");
    width(CombinedRecordTableModel::IndexColumn, "0000000");
    width(CombinedRecordTableModel::TWallColumn, "2026-00-00 00:00:00.000  ");
    width(CombinedRecordTableModel::DeltaColumn, "+000.000 ms ");
    width(CombinedRecordTableModel::TMonoColumn, "0000.000000 ");
    width(CombinedRecordTableModel::CallColumn, "read_prefetched_results.__exit__");
}

}  // namespace lmct
