#pragma once

#include <QList>
#include <QModelIndex>
#include <QPair>
#include <QString>

namespace lmct {

struct TreeNode;

/**
 * Builds filter expressions for "Filter to this", "Exclude this" and "Follow this key" from a
 * value the user points at (an inspector row or a record's call).
 *
 * Fields offered: chunk_hash (hex), model_name (quoted), rank (from a kv_rank row or its derived
 * rank row), request (external_request_id), cache_salt (quoted), call.
 *
 * Thread-safety: stateless; any thread.
 */
class FilterComposer {
public:
    /** `field == value` with the value written as the language needs it (hex, quoted, number). */
    static QString condition(const QString &field, const QString &value, bool exclude = false);
    /** `existing && condition`, parenthesizing `existing` when it has a top-level `||`. */
    static QString append(const QString &existing, const QString &condition);
    /**
     * The condition selecting the value of the inspector row `index` (InspectorTreeModel), or
     * empty when the row is not a chunk hash, model, rank, request id or cache salt.
     */
    static QString conditionForInspectorRow(const QModelIndex &index, bool exclude = false);
    /** As conditionForInspectorRow, for a tree node (ArgumentTree). */
    static QString conditionForNode(const TreeNode *node, bool exclude = false);
    /**
     * The conditions for the first chunk hash, model, rank, request id and cache salt found in
     * `root` (depth-first), as (label, condition) pairs, e.g. ("model_name", `model_name == "…"`).
     */
    static QList<QPair<QString, QString>> conditionsInTree(const TreeNode *root,
                                                           bool exclude = false);
    /** A string literal: "text" with `"` and `\` escaped. */
    static QString quote(const QString &text);
};

}  // namespace lmct
