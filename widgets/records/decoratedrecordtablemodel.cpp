#include "records/decoratedrecordtablemodel.h"

#include "codec/qualname.h"
#include "common/callcolors.h"

#include <QApplication>
#include <QColor>
#include <QStyle>
#include <algorithm>

namespace lmct {

DecoratedRecordTableModel::DecoratedRecordTableModel(QObject *parent) : RecordTableModel(parent) {
    m_warning = QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
    connect(this, &QAbstractItemModel::modelReset, this, &DecoratedRecordTableModel::rebuildChips);
    // Records arrive while a trace loads or is followed: new calls get their chips too.
    connect(this, &QAbstractItemModel::rowsInserted, this, [this] {
        if (document() && size_t(document()->records().qualnameCount()) != m_chips.size()) {
            rebuildChips();
        }
    });
}

void DecoratedRecordTableModel::rebuildChips() {
    m_chips.clear();
    if (!document()) {
        return;
    }
    const QStringList &names = document()->records().qualnames();
    m_chips.reserve(size_t(names.size()));
    for (const QString &q : names) {
        m_chips.push_back(CallColors::chip(Qualname::shortName(q)));
    }
}

QVariant DecoratedRecordTableModel::headerData(int section, Qt::Orientation orientation,
                                               int role) const {
    if (role == Qt::TextAlignmentRole && orientation == Qt::Horizontal) {
        return section <= TWallColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                      : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    }
    return RecordTableModel::headerData(section, orientation, role);
}

QVariant DecoratedRecordTableModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || !document()) {
        return RecordTableModel::data(index, role);
    }
    if (role == Qt::BackgroundRole && (m_followed || m_matches)) {
        const int rec = recordAt(index.row());
        if (rec >= 0 && rec == m_currentMatch) {
            return QColor(255, 200, 80);
        }
        if (isMatch(rec)) {
            return QColor(255, 236, 160);
        }
        if (isFollowed(rec)) {
            return QColor(200, 225, 255);
        }
        return QVariant();
    }
    if (role == Qt::DecorationRole) {
        const int rec = recordAt(index.row());
        if (rec < 0) {
            return QVariant();
        }
        const RecordStore &rs = document()->records();
        if (index.column() == CallColumn) {
            const quint32 id = rs.qualnameId(rec);
            return id < m_chips.size() ? QVariant(m_chips[id]) : QVariant();
        }
        if (index.column() == IndexColumn &&
            (rs.flags(rec) & (RecordStore::AfterResync | RecordStore::BadArgs))) {
            return m_warning;
        }
        return QVariant();
    }
    if (role == Qt::ToolTipRole && index.column() == IndexColumn) {
        const int rec = recordAt(index.row());
        const quint8 flags = rec >= 0 ? document()->records().flags(rec) : 0;
        QStringList tips;
        if (flags & RecordStore::AfterResync) {
            tips << tr("Record #%1 was read after skipping damaged bytes (resynchronised): records "
                       "before it may be missing.")
                        .arg(rec);
        }
        if (flags & RecordStore::BadArgs) {
            tips << tr("Record #%1's time and call are intact, but its arguments are damaged; the "
                       "Inspector shows what decodes.")
                        .arg(rec);
        }
        if (!tips.isEmpty()) {
            tips << tr("See the Diagnostics pane.");
            return tips.join(QLatin1Char('\n'));
        }
    }
    return RecordTableModel::data(index, role);
}

namespace {
bool contains(const std::shared_ptr<const std::vector<int>> &v, int record) {
    return v && record >= 0 && std::binary_search(v->begin(), v->end(), record);
}
}  // namespace

bool DecoratedRecordTableModel::isFollowed(int record) const {
    return contains(m_followed, record);
}

bool DecoratedRecordTableModel::isMatch(int record) const {
    return contains(m_matches, record);
}

void DecoratedRecordTableModel::setFollowed(std::shared_ptr<const std::vector<int>> records) {
    m_followed = std::move(records);
    repaintAll();
}

void DecoratedRecordTableModel::setMatches(std::shared_ptr<const std::vector<int>> records,
                                           int current) {
    m_matches = std::move(records);
    m_currentMatch = current;
    repaintAll();
}

void DecoratedRecordTableModel::repaintAll() {
    if (rowCount() > 0) {
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1),
                         {Qt::BackgroundRole});
    }
}

}  // namespace lmct
