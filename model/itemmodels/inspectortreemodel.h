#pragma once

#include "itemmodels/treenode.h"

#include <QAbstractItemModel>
#include <memory>

namespace lmct {

/**
 * A read-only tree model over TreeNode rows (argument inspector, header pane).
 *
 * Columns: Name, Type (type or codec tag), Value. Extra roles: PathRole (argument path for the
 * filter), CopyTextRole (full text of the value: scalars in full, containers as compact JSON),
 * DerivedRole (bool: computed by the viewer), ProblemRole (bool: a warning row).
 *
 * setTree() takes ownership of the nodes and of `keepAlive`, whatever the nodes' `source`
 * pointers point into. Thread-safety: GUI thread only (as every QAbstractItemModel).
 */
class InspectorTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, TypeColumn, ValueColumn, ColumnCount };
    enum Role { PathRole = Qt::UserRole + 1, CopyTextRole, DerivedRole, ProblemRole };

    explicit InspectorTreeModel(QObject *parent = nullptr);
    ~InspectorTreeModel() override;

    void setTree(std::unique_ptr<TreeNode> root, std::shared_ptr<const void> keepAlive = nullptr);
    void clear();
    const TreeNode *node(const QModelIndex &index) const;

    QModelIndex index(int row, int column,
                      const QModelIndex &parent = QModelIndex()) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /** Indexes of the rows whose name equals `name` (depth-first), e.g. "chunk_hash". */
    QModelIndexList findByName(const QString &name) const;

private:
    std::unique_ptr<TreeNode> m_root;
    std::shared_ptr<const void> m_keepAlive;
};

}  // namespace lmct
