#pragma once

#include "codec/value.h"

#include <QString>
#include <memory>
#include <vector>

namespace lmct {

/**
 * One row of an inspector tree (arguments, header): a name, a type or codec tag, a one-line
 * value, and children. Built by ArgumentTree and HeaderTree, shown by InspectorTreeModel.
 *
 * `path` is the argument path as the filter language writes it (`spec.keys[3].chunk_hash`);
 * empty for rows that have none. `derived` marks rows computed by the viewer (kv_rank unpacked,
 * bytes per object, digest check) rather than read from the file. `source` points at the Value
 * the row shows, owned by whoever owns the tree (InspectorTreeModel keeps it alive); nullptr for
 * rows that do not come from a Value.
 *
 * Ownership: a node owns its children; `parent` is a non-owning back pointer.
 */
struct TreeNode {
    QString name;
    QString type;
    QString value;
    QString path;
    QString copyText;  ///< full text for "copy value"; computed from `source` when empty
    QString toolTip;
    bool derived = false;
    bool problem = false;  ///< shown as a warning (mismatch, decode stopped)
    const Value *source = nullptr;
    TreeNode *parent = nullptr;
    int row = 0;
    std::vector<std::unique_ptr<TreeNode>> children;

    TreeNode *add(std::unique_ptr<TreeNode> child) {
        child->parent = this;
        child->row = int(children.size());
        children.push_back(std::move(child));
        return children.back().get();
    }
    TreeNode *add(const QString &name, const QString &type, const QString &value) {
        auto n = std::make_unique<TreeNode>();
        n->name = name;
        n->type = type;
        n->value = value;
        return add(std::move(n));
    }
};

}  // namespace lmct
