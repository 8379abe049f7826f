#pragma once

#include <QByteArray>

class QAbstractItemModel;

namespace lmct {

/**
 * A flat item model (e.g. a StatisticsTableModel) as CSV (RFC 4180, CsvWriter): one header row of
 * the horizontal header labels, then every row's Qt::DisplayRole texts, in the model's order.
 *
 * Thread-safety: the model's thread.
 */
class TableCsv {
public:
    static QByteArray toCsv(const QAbstractItemModel &model);
};

}  // namespace lmct
