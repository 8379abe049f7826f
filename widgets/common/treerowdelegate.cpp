#include "common/treerowdelegate.h"

#include "common/statuscolors.h"
#include "itemmodels/inspectortreemodel.h"

namespace lmct {

TreeRowDelegate::TreeRowDelegate(QObject *parent) : QStyledItemDelegate(parent) {}

void TreeRowDelegate::setRowAccent(const QModelIndex &index, const QColor &color) {
    const QPersistentModelIndex key(index.siblingAtColumn(0));
    if (color.isValid()) {
        m_accents.insert(key, color);
    } else {
        m_accents.remove(key);
    }
}

void TreeRowDelegate::clearAccents() {
    m_accents.clear();
}

void TreeRowDelegate::initStyleOption(QStyleOptionViewItem *option,
                                      const QModelIndex &index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    // Values keep their start and end (hashes); names and types read from the left.
    option->textElideMode =
        index.column() == InspectorTreeModel::ValueColumn ? Qt::ElideMiddle : Qt::ElideRight;
    const QPalette &pal = option->palette;
    QColor color;
    if (!m_accents.isEmpty()) {
        auto it = m_accents.constFind(QPersistentModelIndex(index.siblingAtColumn(0)));
        if (it != m_accents.constEnd()) {
            color = *it;
            option->font.setBold(true);
        }
    }
    if (!color.isValid() && index.data(InspectorTreeModel::ProblemRole).toBool()) {
        color = StatusColors::warning(pal);
    }
    if (index.data(InspectorTreeModel::DerivedRole).toBool()) {
        option->font.setItalic(true);
        if (!color.isValid()) {
            color = StatusColors::muted(pal);
        }
    }
    if (color.isValid()) {
        // Selected rows keep the palette's highlighted text for contrast.
        option->palette.setColor(QPalette::Text, color);
    }
}

}  // namespace lmct
