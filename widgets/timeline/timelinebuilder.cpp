#include "timeline/timelinebuilder.h"
#include "timeline/timelinebuildcache.h"

#include "common/jobpool.h"

#include <algorithm>

namespace lmct {

TimelineBuilder::TimelineBuilder(QObject *parent) : QObject(parent) {
    m_cancel = std::make_shared<std::atomic_bool>(false);
    m_filterCancel = std::make_shared<std::atomic_bool>(false);
    connect(&m_watcher, &QFutureWatcher<Built>::finished, this, [this] {
        const Built b = m_watcher.result();
        if (b.retry && b.generation == m_generation && b.doc == m_doc) {
            // another timeline builds this document: take its build once it is done, without
            // holding a worker meanwhile
            QTimer::singleShot(kRetryMs, this, [this] { start(); });
            return;
        }
        deliver(b, true);
    });
    // A growing document (loading, live follow) is indexed again at most this often, so that
    // the loader keeps the cores; documentGrew() arms it, and it also polls while a document
    // is loading in case a grower does not notify.
    m_growthTimer.setSingleShot(true);
    connect(&m_growthTimer, &QTimer::timeout, this, [this] {
        if (!m_doc) {
            return;
        }
        // (loading first: the loader marks the document read to end before it stops loading,
        // so a document seen not loading is seen read to end by needsRebuild())
        const bool loading = m_doc->isLoading();
        if (needsRebuild()) {
            start();  // (marks a rebuild pending when one is running)
        }
        if (loading) {
            m_growthTimer.start(growthInterval());
        }
        emit polled();  // how much of what was read is drawn
    });
}

TimelineBuilder::~TimelineBuilder() {
    shutdown();
}

void TimelineBuilder::shutdown() {
    m_cancel->store(true);
    m_filterCancel->store(true);
    m_watcher.waitForFinished();
}

void TimelineBuilder::setDocument(std::shared_ptr<const TraceDocument> doc) {
    m_cancel->store(true);
    m_cancel = std::make_shared<std::atomic_bool>(false);
    ++m_generation;
    m_doc = std::move(doc);
    m_shown.reset();
    m_builtRecords = -1;
    m_pairsDeferred = false;
    m_rebuildPending = false;
}

void TimelineBuilder::begin() {
    if (m_doc) {
        start();
        m_growthTimer.start(growthInterval());
    } else {
        m_growthTimer.stop();
        m_stage.clear();
    }
}

void TimelineBuilder::noteGrowth() {
    if (!m_growthTimer.isActive()) {
        m_growthTimer.start(growthInterval());
    }
}

void TimelineBuilder::start() {
    if (!m_doc) {
        return;
    }
    if (m_watcher.isRunning()) {
        m_rebuildPending = true;
        return;
    }
    m_stage = tr("Indexing…");
    emit stageChanged();
    m_building = true;
    m_buildClock.start();
    auto doc = m_doc;
    auto cancel = m_cancel;
    const quint64 gen = m_generation;
    m_watcher.setFuture(JobPool::run([this, doc, cancel, gen]() {
        Built b;
        b.doc = doc;
        b.generation = gen;
        // One build at a time per document: a second timeline on it (a lane group, another
        // tab) tries again a little later and takes the first's index and pairings.
        const std::unique_lock<std::mutex> building = TimelineBuildCache::tryLock(doc);
        if (!building.owns_lock()) {
            b.retry = true;
            return b;
        }
        b.records = doc->records().size();
        if (!doc->isLoading() || doc->isReadToEnd()) {
            if (auto shared = TimelineBuildCache::find(doc, b.records)) {
                b.index = std::move(shared->index);
                b.pairs = std::move(shared->pairs);
                return b;
            }
        }
        b.index = TimelineIndex::build(doc->records(), cancel.get(), doc);
        if (!b.index) {
            return b;
        }
        // Show the lanes now; the spans follow. (The destructor waits for this task, so
        // `this` outlives the call; a posted call to a deleted object is dropped.)
        QMetaObject::invokeMethod(
            this, [this, b] { deliver(b, false); }, Qt::QueuedConnection);
        // While the file is first read, the spans wait: pairing every growth again costs a
        // pass over the bodies each time, and the spans of the last growth stayed in memory
        // beside the final pairing (10 M records: 85 MB more at the peak). Their rows are
        // there at once (empty pairings), filled when the file has been read.
        b.pairsDeferred = doc->isLoading() && !doc->isReadToEnd();
        for (const QString &f : ContextPairs::families(doc->records())) {
            if (b.pairsDeferred) {
                b.pairs.push_back(ContextPairs::match({}, f));
                continue;
            }
            auto cp = ContextPairs::build(*doc, f, cancel.get());
            if (!cp) {
                b.index.reset();
                return b;
            }
            b.pairs.push_back(std::move(cp));
        }
        if (!b.pairsDeferred) {
            TimelineBuildCache::store(doc, b.records, {b.index, b.pairs});
        }
        return b;
    }));
}

bool TimelineBuilder::needsRebuild() const {
    return m_doc &&
           (m_doc->records().size() != m_builtRecords || (m_pairsDeferred && m_doc->isReadToEnd()));
}

void TimelineBuilder::deliver(const Built &b, bool final) {
    const bool current = b.generation == m_generation && b.doc == m_doc && b.index;
    if (final) {
        m_stage.clear();
        emit stageChanged();
        m_building = false;
        m_lastBuildMs = m_buildClock.isValid() ? m_buildClock.elapsed() : 0;
    } else if (current) {
        m_stage = tr("Pairing spans…");
        emit stageChanged();
    }
    if (!current) {
        if (final && m_doc && (m_rebuildPending || !m_shown)) {
            m_rebuildPending = false;
            start();
        }
        return;
    }
    if (!final && m_shown == b.index) {
        return;
    }
    m_shown = b.index;
    if (final) {
        m_builtRecords = b.records;
        m_pairsDeferred = b.pairsDeferred;
    }
    emit built(b, final);
    if (!final) {
        return;
    }
    if (m_rebuildPending) {
        m_rebuildPending = false;
        if (needsRebuild()) {
            start();
        }
    }
}

int TimelineBuilder::growthInterval() const {
    return int(std::clamp<qint64>(3 * m_lastBuildMs, 500, 5000));
}

void TimelineBuilder::clearFilter() {
    m_filterIndex.reset();
    m_filterRecords.reset();
    m_filterWanted.reset();
}

void TimelineBuilder::setFilter(std::shared_ptr<const std::vector<int>> records,
                                const QString &text) {
    if (records == m_filterRecords && !m_filterWanted) {
        return;  // (the filter was re-applied with the very same result)
    }
    if (records == m_filterWanted && m_filterBuilding) {
        return;  // being built
    }
    if (records && m_filterRecords && !m_filterBuilding && text == m_filterText &&
        records->size() == m_filterRecords->size()) {
        // The same filter re-evaluated over a grown document matching no new record: the same
        // records (a grown document only gains records), nothing to rebuild.
        m_filterRecords = records;
        return;
    }
    m_filterCancel->store(true);
    m_filterCancel = std::make_shared<std::atomic_bool>(false);
    const quint64 gen = ++m_filterGeneration;
    if (!records) {
        // no filter: at once
        m_filterWanted.reset();
        m_filterBuilding = false;
        m_filterRecords.reset();
        m_filterIndex.reset();
        m_filterText.clear();
        emit filterIndexChanged();
        return;
    }
    // Built on a worker; until it is ready the previous state stays shown.
    m_filterWanted = records;
    m_filterBuilding = true;
    m_filterText = text;
    emit filteringStarted();
    auto doc = m_doc;
    auto cancel = m_filterCancel;
    using Result = std::shared_ptr<const TimelineIndex>;
    auto *watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher, gen, records] {
        watcher->deleteLater();
        if (gen != m_filterGeneration) {
            return;  // superseded (a newer build is running or the filter was cleared)
        }
        m_filterBuilding = false;
        m_filterWanted.reset();
        Result index = watcher->result();
        if (!index) {
            return;
        }
        m_filterIndex = std::move(index);
        m_filterRecords = records;
        emit filterIndexChanged();
    });
    watcher->setFuture(JobPool::run([doc, records, cancel]() -> Result {
        return TimelineIndex::buildSubset(doc->records(), *records, cancel.get(), doc);
    }));
}

void TimelineBuilder::setFollowed(std::shared_ptr<const std::vector<int>> records) {
    const quint64 gen = ++m_trailGeneration;
    if (!records || !m_doc) {
        m_trail.reset();
        emit trailReady();
        return;
    }
    using Result = std::shared_ptr<const FollowedTrail>;
    auto *watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher, gen] {
        watcher->deleteLater();
        if (gen != m_trailGeneration) {
            return;
        }
        m_trail = watcher->result();
        emit trailReady();
    });
    auto doc = m_doc;
    watcher->setFuture(JobPool::run([doc, records]() -> Result {
        return std::make_shared<const FollowedTrail>(
            FollowedTrail::build(doc->records(), *records, FollowedTrail::kDefaultCap,
                                 FollowedTrail::notReads(*doc, *records)));
    }));
}

}  // namespace lmct
