#include "common/treecopyactions.h"

#include "itemmodels/inspectortreemodel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QKeyEvent>
#include <QMenu>

namespace lmct {

bool TreeCopyActions::handleKey(const QModelIndex &current, QKeyEvent *event) {
    if (event->matches(QKeySequence::Copy)) {
        copy(current, InspectorTreeModel::CopyTextRole);
        return true;
    }
    if (event->key() == Qt::Key_C &&
        event->modifiers() == (Qt::ControlModifier | Qt::ShiftModifier)) {
        copy(current, InspectorTreeModel::PathRole);
        return true;
    }
    return false;
}

void TreeCopyActions::addToMenu(QMenu *menu, const QModelIndex &index) {
    const QModelIndex row = index.siblingAtColumn(0);
    QAction *value =
        menu->addAction(QIcon::fromTheme(QStringLiteral("edit-copy")), QObject::tr("Copy Value"),
                        menu, [row] { copy(row, InspectorTreeModel::CopyTextRole); });
    value->setShortcut(QKeySequence::Copy);
    value->setEnabled(!row.data(InspectorTreeModel::CopyTextRole).toString().isEmpty());
    const QString path = row.data(InspectorTreeModel::PathRole).toString();
    QAction *copyPath = menu->addAction(QObject::tr("Copy Path"), menu,
                                        [row] { copy(row, InspectorTreeModel::PathRole); });
    copyPath->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copyPath->setEnabled(!path.isEmpty());
    if (!path.isEmpty()) {
        const QString shown = path.size() > 40 ? path.left(39) + QChar(0x2026) : path;
        copyPath->setText(QObject::tr("Copy Path  %1").arg(shown));
    }
    menu->addAction(QObject::tr("Copy Name"), menu, [row] { copy(row, Qt::DisplayRole); });
}

bool TreeCopyActions::copy(const QModelIndex &index, int role) {
    if (!index.isValid()) {
        return false;
    }
    const QString text = index.siblingAtColumn(0).data(role).toString();
    if (text.isEmpty()) {
        return false;
    }
    QApplication::clipboard()->setText(text);
    return true;
}

}  // namespace lmct
