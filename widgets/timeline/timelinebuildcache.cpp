#include "timeline/timelinebuildcache.h"

#include "trace/tracedocument.h"

#include <QHash>

namespace lmct {

namespace {

struct Slot {
    std::weak_ptr<const TraceDocument> doc;
    std::shared_ptr<std::mutex> building = std::make_shared<std::mutex>();
    int records = -1;
    std::weak_ptr<const TimelineIndex> index;
    std::vector<std::weak_ptr<const ContextPairs>> pairs;
};

std::mutex g_mutex;                          // guards g_slots
QHash<const TraceDocument *, Slot> g_slots;  // by document address (checked by Slot::doc)

/** The slot of `doc` (a new one when its address was another document's); g_mutex held. */
Slot &slotOf(const std::shared_ptr<const TraceDocument> &doc) {
    // forget the documents that are gone, and whose builds no timeline holds
    for (auto it = g_slots.begin(); it != g_slots.end();) {
        it = it->doc.expired() ? g_slots.erase(it) : std::next(it);
    }
    Slot &s = g_slots[doc.get()];
    if (s.doc.lock() != doc) {
        s = Slot();
        s.doc = doc;
    }
    return s;
}

}  // namespace

std::unique_lock<std::mutex> TimelineBuildCache::tryLock(
    const std::shared_ptr<const TraceDocument> &doc) {
    std::shared_ptr<std::mutex> building;
    {
        const std::lock_guard<std::mutex> guard(g_mutex);
        building = slotOf(doc).building;
    }
    // (the slot keeps the mutex alive while its document lives; the caller holds the document)
    return std::unique_lock<std::mutex>(*building, std::try_to_lock);
}

std::optional<TimelineBuildCache::Entry> TimelineBuildCache::find(
    const std::shared_ptr<const TraceDocument> &doc, int records) {
    const std::lock_guard<std::mutex> guard(g_mutex);
    const Slot &s = slotOf(doc);
    if (s.records != records) {
        return std::nullopt;
    }
    Entry e;
    e.index = s.index.lock();
    if (!e.index) {
        return std::nullopt;
    }
    for (const auto &p : s.pairs) {
        auto pairs = p.lock();
        if (!pairs) {
            return std::nullopt;
        }
        e.pairs.push_back(std::move(pairs));
    }
    return e;
}

void TimelineBuildCache::store(const std::shared_ptr<const TraceDocument> &doc, int records,
                               const Entry &entry) {
    const std::lock_guard<std::mutex> guard(g_mutex);
    Slot &s = slotOf(doc);
    s.records = records;
    s.index = entry.index;
    s.pairs.assign(entry.pairs.begin(), entry.pairs.end());
}

}  // namespace lmct
