#include "panes/inspectortreeview.h"

#include "common/treecopyactions.h"
#include "common/treerowdelegate.h"
#include "itemmodels/inspectortreemodel.h"

#include <QHeaderView>
#include <QResizeEvent>
#include <QTimer>

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
        if (!m_fitting && logical != InspectorTreeModel::TypeColumn && isVisible()) {
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
    // Name | Value | Type: the type is the stretching last section.
    header()->moveSection(header()->visualIndex(InspectorTreeModel::TypeColumn),
                          InspectorTreeModel::ColumnCount - 1);
    m_fitting = false;
}

void InspectorTreeView::fitColumns() {
    if (!model() || m_userSized) {
        return;
    }
    m_fitting = true;
    const int avail = viewport()->width();
    if (avail > 50) {
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
