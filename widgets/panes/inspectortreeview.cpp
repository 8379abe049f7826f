#include "panes/inspectortreeview.h"

#include "common/treecopyactions.h"
#include "common/treerowdelegate.h"
#include "itemmodels/inspectortreemodel.h"

#include <QHeaderView>
#include <QHelpEvent>
#include <QResizeEvent>
#include <QTimer>
#include <QToolTip>

namespace lmct {

InspectorTreeView::InspectorTreeView(QWidget *parent)
    : QTreeView(parent), m_delegate(new TreeRowDelegate(this)) {
    setItemDelegate(m_delegate);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    setContextMenuPolicy(Qt::CustomContextMenu);
    setFrameShape(QFrame::NoFrame);
    setIndentation(16);
    // The stretching last section never shrinks below its size before stretching, which starts
    // as the default section size: keep that small so the type column can be narrow.
    header()->setDefaultSectionSize(60);
    header()->setStretchLastSection(true);
    header()->setSectionResizeMode(QHeaderView::Interactive);
    header()->setHighlightSections(false);
    // A column edge dragged by the user (the stretching Type column resizes with the view).
    connect(header(), &QHeaderView::sectionResized, this, [this](int logical) {
        const int stretching =
            m_valueLast ? InspectorTreeModel::ValueColumn : InspectorTreeModel::TypeColumn;
        if (!m_fitting && logical != stretching && isVisible()) {
            m_userSized = true;
        }
    });
    // The user double-clicking a column edge, or resetting the layout, fits again.
    connect(header(), &QHeaderView::sectionHandleDoubleClicked, this, [this] {
        m_userSized = false;
        fitColumns();
    });
}

void InspectorTreeView::setModel(QAbstractItemModel *model) {
    QTreeView::setModel(model);
    if (!model) {
        return;
    }
    m_fitting = true;
    // Name | Value | Type (or Name | Type | Value): the last one stretches.
    header()->moveSection(header()->visualIndex(m_valueLast ? InspectorTreeModel::ValueColumn
                                                            : InspectorTreeModel::TypeColumn),
                          InspectorTreeModel::ColumnCount - 1);
    m_fitting = false;
}

void InspectorTreeView::setValueLast(bool last) {
    if (m_valueLast == last) {
        return;
    }
    m_valueLast = last;
    if (model()) {
        m_fitting = true;
        header()->moveSection(header()->visualIndex(last ? InspectorTreeModel::ValueColumn
                                                         : InspectorTreeModel::TypeColumn),
                              InspectorTreeModel::ColumnCount - 1);
        m_fitting = false;
    }
    fitColumns();
}

void InspectorTreeView::fitColumns() {
    if (!model() || m_userSized) {
        return;
    }
    m_fitting = true;
    const int avail = viewport()->width();
    if (avail > 50 && m_valueLast) {
        // Name and type as wide as their content (up to 40% and 20%); the value stretches over
        // the rest, so typical values read whole.
        const int name =
            std::min(sizeHintForColumn(InspectorTreeModel::NameColumn) + 8, avail * 40 / 100);
        const int type =
            std::min(sizeHintForColumn(InspectorTreeModel::TypeColumn) + 8, avail * 20 / 100);
        header()->resizeSection(InspectorTreeModel::NameColumn, std::max(name, 40));
        header()->resizeSection(InspectorTreeModel::TypeColumn, std::max(type, 30));
    } else if (avail > 50) {
        // Name up to 38% of the width; the type keeps what it needs up to 22%; the value gets
        // the rest (at least 35%), and the stretching type column whatever remains.
        const int name = std::max(
            std::min(sizeHintForColumn(InspectorTreeModel::NameColumn) + 8, avail * 38 / 100),
            std::min(120, avail / 2));
        const int type =
            std::min(sizeHintForColumn(InspectorTreeModel::TypeColumn) + 8, avail * 22 / 100);
        const int valueHint = sizeHintForColumn(InspectorTreeModel::ValueColumn) + 8;
        const int value = std::max(std::min(valueHint, avail - name - type), avail * 35 / 100);
        // The type column never shrinks below what the header allows: no horizontal scrolling.
        const int typeFloor =
            std::max({header()->minimumSectionSize(), header()->defaultSectionSize(), 48}) + 2;
        header()->resizeSection(InspectorTreeModel::NameColumn, name);
        header()->resizeSection(InspectorTreeModel::ValueColumn,
                                std::min(value, std::max(avail - name - typeFloor, 40)));
    }
    m_fitting = false;
}

void InspectorTreeView::resizeEvent(QResizeEvent *event) {
    QTreeView::resizeEvent(event);
    if (event->size().width() != event->oldSize().width()) {
        fitColumns();
    }
}

}  // namespace lmct

namespace lmct {

void InspectorTreeView::keyPressEvent(QKeyEvent *event) {
    if (TreeCopyActions::handleKey(currentIndex(), event)) {
        event->accept();
        return;
    }
    QTreeView::keyPressEvent(event);
}

}  // namespace lmct

namespace lmct {

bool InspectorTreeView::viewportEvent(QEvent *event) {
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QModelIndex idx = indexAt(help->pos());
        if (idx.isValid() && !idx.data(Qt::ToolTipRole).isValid()) {
            const QString text = idx.data(Qt::DisplayRole).toString();
            const QRect cell = visualRect(idx);
            const int needed = sizeHintForIndex(idx).width();
            if (!text.isEmpty() && needed > cell.width()) {
                QToolTip::showText(help->globalPos(), text.toHtmlEscaped(), viewport(), cell);
                return true;
            }
        }
    }
    return QTreeView::viewportEvent(event);
}

}  // namespace lmct
