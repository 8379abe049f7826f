#pragma once

#include <QModelIndex>

class QKeyEvent;
class QMenu;

namespace lmct {

/**
 * The copy actions of InspectorTreeModel views (inspector, header pane), in one place so both
 * panes behave the same:
 * - Copy Value (Ctrl+C): InspectorTreeModel::CopyTextRole, the full text (whole hashes, compact
 *   JSON for containers);
 * - Copy Path (Ctrl+Shift+C): InspectorTreeModel::PathRole, as the filter language writes it;
 * - Copy Name.
 *
 * Thread-safety: GUI thread only.
 */
class TreeCopyActions {
public:
    /**
     * Handles Ctrl+C / Ctrl+Shift+C on `current` (call from the view's keyPressEvent: item views
     * take Ctrl+C for themselves, so an action's shortcut would never fire). Returns whether
     * `event` was one of them.
     */
    static bool handleKey(const QModelIndex &current, QKeyEvent *event);
    /** Adds the three copy entries for the row of `index` to `menu`. */
    static void addToMenu(QMenu *menu, const QModelIndex &index);
    /** Copies `role` of the row of `index` (column 0) to the clipboard; false when empty. */
    static bool copy(const QModelIndex &index, int role);
};

}  // namespace lmct
