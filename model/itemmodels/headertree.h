#pragma once

#include "itemmodels/treenode.h"
#include "trace/traceheader.h"

#include <memory>

namespace lmct {

/**
 * Builds the header pane's tree: every header field in file order, with `t_mono_start` and
 * `t_wall_start` also as date-times, `magic` as text, `sm_config_json` expanded as a JSON tree
 * (QJsonDocument; a field with a value of another type or out of range,
 * StorageManagerConfig::fieldProblems(), is a problem row saying what was expected, and so is
 * `sm_config_json` itself then), `level_meta` expanded, and a derived row checking
 * `sm_config_digest` against the SHA-256 recomputed from `sm_config_json` (match, mismatch, absent,
 * or lost).
 *
 * Ownership: nodes point into `header.fields()`: keep the header alive as long as the tree.
 */
class HeaderTree {
public:
    static std::unique_ptr<TreeNode> build(const TraceHeader &header);
};

}  // namespace lmct
