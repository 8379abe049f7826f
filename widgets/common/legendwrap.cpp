#include "common/legendwrap.h"

#include <qcustomplot.h>

#include <algorithm>

namespace lmct {

void LegendWrap::wrap(QCPLegend *legend, int width) {
    // (the grid's cells, some of them empty: itemCount() counts cells)
    QList<int> widths;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = legend->item(i)) {
            widths.append(item->minimumOuterSizeHint().width());
        }
    }
    const int n = int(widths.size());
    if (n == 0) {
        return;
    }
    const QMargins m = legend->margins();
    int columns = 1;
    for (int c = n; c > 1; --c) {
        int total = m.left() + m.right() + legend->columnSpacing() * (c - 1);
        for (int col = 0; col < c; ++col) {
            int widest = 0;
            for (int i = col; i < n; i += c) {
                widest = std::max(widest, widths[i]);
            }
            total += widest;
        }
        if (total <= width) {
            columns = c;
            break;
        }
    }
    const int rows = (n + columns - 1) / columns;
    if (legend->wrap() != columns || legend->columnCount() != std::min(columns, n) ||
        legend->rowCount() != rows) {
        legend->setWrap(columns);
        // setWrap() alone keeps the entries where they are: re-add them in the new wrapping
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

}  // namespace lmct
