#pragma once

#include <QTableView>

namespace lmct {

class CombinedRecordTableModel;

/**
 * The record table of a combined tab: a QTableView over a CombinedRecordTableModel (not owned),
 * rows selected whole and one at a time, one fixed row height, the merged order as it is (no
 * sorting), column widths for the usual contents and the summary taking the rest.
 *
 * Ownership: does not own the model. Thread-safety: GUI thread only.
 */
class CombinedRecordView : public QTableView {
    Q_OBJECT
public:
    explicit CombinedRecordView(CombinedRecordTableModel *model, QWidget *parent = nullptr);
};

}  // namespace lmct
