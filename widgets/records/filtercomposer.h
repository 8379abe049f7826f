#pragma once

#include <QList>
#include <QModelIndex>
#include <QPair>
#include <QString>

namespace lmct {

struct TreeNode;

/**
 * The distinct values of one filter field found in a record (or a part of it), in order of
 * first appearance, each already written as the filter language needs it (hex chunk hash,
 * quoted string, number), e.g. {"chunk_hash", {"9f3a…", "0b71…"}}.
 */
struct FilterChoice {
    QString field;
    QStringList literals;
};

/**
 * Builds filter expressions for "Filter to this", "Exclude this" and "Follow this key" from a
 * value the user points at (an inspector row or a record's call).
 *
 * Fields offered: chunk_hash (hex), model_name (quoted), rank (from a kv_rank row or its derived
 * rank row), request (external_request_id), cache_salt (quoted), object_group_id (an ObjectKey's
 * group), call.
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
     * Every distinct value of every field above in the subtree `root` (depth-first, so in the
     * record's order), one FilterChoice per field in the order chunk_hash, model_name, rank,
     * object_group_id, cache_salt, request; fields without a value are left out.
     */
    static QList<FilterChoice> choicesInTree(const TreeNode *root);
    /**
     * `field == literal` (`!=` with `exclude`); `literal` is written as the language needs it
     * already (see FilterChoice).
     */
    static QString literalCondition(const QString &field, const QString &literal,
                                    bool exclude = false);
    /**
     * `field in [a, b, ...]` over `literals` (`!(field in [...])` with `exclude`); a single
     * literal gives literalCondition().
     */
    static QString anyOfCondition(const QString &field, const QStringList &literals,
                                  bool exclude = false);
    /** A string literal: "text" with `"` and `\` escaped. */
    static QString quote(const QString &text);
};

}  // namespace lmct
