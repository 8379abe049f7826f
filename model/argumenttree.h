#pragma once

#include "treenode.h"
#include "value.h"

#include <memory>

namespace lmct {

/**
 * Builds the inspector tree of a record's arguments from its decoded `args` Value.
 *
 * Tagged values show their codec tag as the type and their payload's entries as children (so
 * paths read `spec.keys[0].chunk_hash`, as the filter language writes them). Known tags get
 * derived rows: an ObjectKey's `kv_rank` unpacked into world_size, rank, local_world_size and
 * local_rank; a MemoryLayoutDesc's bytes per object. Chunk hashes and other bytes are shown as
 * full lowercase hex. At most `maxNodes` rows are built; the rest is summarised in one row.
 *
 * Ownership: the returned nodes point into `args` (TreeNode::source): keep `args` alive as long
 * as the tree. Thread-safety: reentrant.
 */
class ArgumentTree {
public:
    static std::unique_ptr<TreeNode> build(const Value &args, int maxNodes = 200000);
};

}  // namespace lmct
