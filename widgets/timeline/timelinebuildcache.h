#pragma once

#include "timeline/contextpairs.h"
#include "timeline/timelineindex.h"

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace lmct {

class TraceDocument;

/**
 * The document builds (timeline index and span pairings) that timelines on one document share:
 * the lane groups of a combined tab (a TP=4 trace grouped by rank is four timelines on one
 * document), or one trace open in two tabs. Both depend only on the document and its record
 * count, so the second timeline takes the first's instead of indexing and pairing the whole
 * trace again (4 ranks: a quarter of the time and of the memory).
 *
 * tryLock() serialises the builds of one document: a build holds it while it runs, and a
 * second build of the same document that cannot take it tries again later (without holding a
 * worker) and then finds the first's result (find()).
 *
 * Ownership: holds the document, index and pairings weakly: an entry lives as long as some
 * timeline keeps what it names, and a document that is gone is never matched (its address
 * reused by another is told apart by the weak reference). Thread-safety: every function may be
 * called from any thread (JobPool workers).
 */
class TimelineBuildCache {
public:
    struct Entry {
        std::shared_ptr<const TimelineIndex> index;
        std::vector<std::shared_ptr<const ContextPairs>> pairs;
    };

    /** The lock that serialises the builds of `doc`, when no other build holds it (else a lock
     *  that owns nothing: try again later). The caller holds `doc` while it holds the lock
     *  (which keeps the lock's slot). */
    static std::unique_lock<std::mutex> tryLock(const std::shared_ptr<const TraceDocument> &doc);
    /** The build of the first `records` records of `doc`, when a timeline still holds it. */
    static std::optional<Entry> find(const std::shared_ptr<const TraceDocument> &doc, int records);
    /** Remembers a complete build (index and every pairing) of `records` records of `doc`. */
    static void store(const std::shared_ptr<const TraceDocument> &doc, int records,
                      const Entry &entry);
};

}  // namespace lmct
