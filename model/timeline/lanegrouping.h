#pragma once

#include "trace/traceset.h"

#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace lmct {

/**
 * How the timeline's lanes are grouped (the Lanes menu's Group By): the records of one trace or
 * of a deployment's traces (a TraceSet) split into groups, each group a lane group of its own,
 * one under the other, so that e.g. the four ranks of a TP=4 trace show their calls one under
 * the other and a late rank stands out.
 *
 * Keys:
 * - Trace: one group per trace of the set (a single trace: one group), labelled by
 *   TraceSet::displayLabel;
 * - Model: the `model_name` of the record's ObjectKeys;
 * - Rank: the `kv_rank` of its keys, unpacked (KvRank: "rank 2/4"), groups in rank order;
 * - Tenant: the `cache_salt` of its keys ("(no salt)" for keys without one, "(empty salt)" for an
 * empty one: two other keys). A record goes to the group its keys share (RawKeyScanner finds them
 * in the raw bytes); a record whose keys differ (a submit_prefetch_task carries the keys of every
 * rank) goes to a group "(several ranks)" ("(several models)", "(several tenants)") after the
 * single values. Records without an ObjectKey (control calls, prefetch handles) go to a last group
 * "(no key)" under Model, Rank and Tenant. Model, Rank and Tenant groups are over every trace of
 * the set: group g holds trace t's records groups[g].records[t].
 *
 * Single-value groups are ordered by their value (ranks numerically, the rest as text), so an
 * order does not depend on which record came first.
 *
 * Cost: one scan of every record body's raw msgpack (RawKeyScanner, no value tree), on the
 * calling thread (a worker); 4 bytes per record in the result. Cancel: the result is then
 * empty (cancelled set). Thread-safety: compute() is a pure function of its inputs; the
 * documents may grow meanwhile (the records published when it starts are grouped).
 * Errors: a body that does not scan goes to the keyless group.
 */
class LaneGrouping {
public:
    enum class By { None, Trace, Model, Rank, Tenant };

    struct Group {
        QString label;  ///< "Qwen/Qwen3-8B", "rank 2/4", a salt, "(no key)", a trace's label
        /** Per trace of the set, the group's record indices (ascending); never null. */
        std::vector<std::shared_ptr<const std::vector<int>>> records;
        /** Whether it holds the records without an ObjectKey. */
        bool keyless = false;
        qint64 count() const;
    };

    struct Result {
        By by = By::None;
        std::vector<Group> groups;
        bool cancelled = false;
    };

    /** Groups the records of every trace of `set` by `by` (None: one group of everything). */
    static Result compute(const TraceSet &set, By by, const std::atomic_bool *cancel = nullptr);
    /** The same over one document (a set of one trace). */
    static Result compute(std::shared_ptr<const TraceDocument> doc, By by,
                          const std::atomic_bool *cancel = nullptr);

    /** "Trace", "Model", "Rank", "Tenant" (menu text), "None". */
    static QString name(By by);
    /** The keys in menu order: None, Trace, Model, Rank, Tenant. */
    static std::vector<By> all();
};

}  // namespace lmct
