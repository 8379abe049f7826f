#include "treecopyactions.h"

#include "inspectortreemodel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMenu>
#include <QTreeView>

namespace lmct {

void TreeCopyActions::install(QTreeView *tree) {
    auto add = [tree](const QString &text, const QKeySequence &keys, int role) {
        auto *a = new QAction(text, tree);
        a->setShortcut(keys);
        a->setShortcutContext(Qt::WidgetShortcut);
        QObject::connect(a, &QAction::triggered, tree,
                         [tree, role] { copy(tree->currentIndex(), role); });
        tree->addAction(a);
    };
    add(QObject::tr("Copy Value"), QKeySequence::Copy, InspectorTreeModel::CopyTextRole);
    add(QObject::tr("Copy Path"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
        InspectorTreeModel::PathRole);
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
