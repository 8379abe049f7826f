#include "export/tablecsv.h"

#include "export/csvwriter.h"

#include <QAbstractItemModel>

namespace lmct {

QByteArray TableCsv::toCsv(const QAbstractItemModel &model) {
    QStringList header;
    const int columns = model.columnCount();
    for (int c = 0; c < columns; ++c) {
        header << model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    }
    QByteArray out = CsvWriter::row(header);
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList fields;
        for (int c = 0; c < columns; ++c) {
            fields << model.data(model.index(r, c), Qt::DisplayRole).toString();
        }
        out += CsvWriter::row(fields);
    }
    return out;
}

}  // namespace lmct
