#pragma once

#include "cache/followedtrail.h"
#include "timeline/contextpairs.h"
#include "timeline/timelineindex.h"
#include "trace/tracedocument.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QTimer>
#include <atomic>
#include <memory>
#include <vector>

namespace lmct {

/**
 * The timeline's background builds, on JobPool workers: the index and the span pairings of the
 * document, the index of the filter's result, and the followed key's trail. Each build carries a
 * generation and a cancel token; a result of a superseded generation is dropped, and a new
 * document or filter cancels the build before it.
 *
 * The document build: the index first (built() with `final` false, so that the lanes show at
 * once), then the pairings (built() with `final` true). A growing document (loading, live
 * follow) is built again, throttled to growthInterval(): noteGrowth() arms the timer, which also
 * polls while the document is loading. While the file is first read (TraceDocument::isReadToEnd
 * false) the pairings are deferred: empty pairings, paired once after the read (pairing again at
 * every growth cost a pass over the bodies each time and kept two pairings in memory).
 *
 * The filter build (setFilter()) runs whenever the filter's result changes, not when the same
 * filter merely matches the same records of a grown document; until it is ready the previous
 * index stays (filterIndex()).
 *
 * Ownership: a QObject (parent-owned); holds the document (shared) while it builds.
 * Thread-safety: GUI thread only; the jobs share nothing but immutable inputs and atomics.
 * Its destructor (and shutdown()) cancel the builds and wait for the document build.
 */
class TimelineBuilder : public QObject {
    Q_OBJECT
public:
    /** A document build's result. */
    struct Built {
        std::shared_ptr<const TraceDocument> doc;
        std::shared_ptr<const TimelineIndex> index;
        std::vector<std::shared_ptr<const ContextPairs>> pairs;
        int records = 0;
        quint64 generation = 0;
        bool pairsDeferred = false;  // pairs left empty: the file was still being read first
        bool retry = false;          // not built: another timeline builds the document (try again)
    };
    /** How long a build waits before it tries again while another builds its document (ms). */
    static constexpr int kRetryMs = 25;

    explicit TimelineBuilder(QObject *parent = nullptr);
    ~TimelineBuilder() override;
    /** Cancels every build and waits for the document build to end. */
    void shutdown();

    /** Forgets what was built and cancels the build of the previous document (none started). */
    void setDocument(std::shared_ptr<const TraceDocument> doc);
    /** Starts building the document (and polling while it loads); stops for no document. */
    void begin();
    /** Builds the document (again); marks a rebuild pending while a build runs. */
    void start();
    /** The document grew: builds it again once the throttle allows. */
    void noteGrowth();
    /** Whether the shown build is out of date: more records, or spans deferred until read. */
    bool needsRebuild() const;
    /** Milliseconds between re-indexings of a growing document: 3× the last build, ≥ 0.5 s. */
    int growthInterval() const;
    /** Whether a build runs or its final result is not delivered yet. */
    bool isBuilding() const { return m_building; }
    /** "Indexing…", "Pairing spans…", or empty: no build. */
    const QString &stage() const { return m_stage; }

    /**
     * The filter's result (the records it matches, null: no filter) and its applied text:
     * builds its index, or clears it at once for no filter.
     */
    void setFilter(std::shared_ptr<const std::vector<int>> records, const QString &text);
    /** Forgets the filter's index and records (a new document); no signal. */
    void clearFilter();
    std::shared_ptr<const TimelineIndex> filterIndex() const { return m_filterIndex; }
    /** The records filterIndex() indexes. */
    std::shared_ptr<const std::vector<int>> filterRecords() const { return m_filterRecords; }
    bool isFiltering() const { return m_filterBuilding; }

    /** The followed key's records (null: none followed): builds their trail. */
    void setFollowed(std::shared_ptr<const std::vector<int>> records);
    std::shared_ptr<const FollowedTrail> trail() const { return m_trail; }

signals:
    /** A current build's index (`final` false) or index and pairings (`final` true). */
    void built(const lmct::TimelineBuilder::Built &b, bool final);
    /** stage() changed. */
    void stageChanged();
    /** The growth timer looked at the document (how much of what was read is built). */
    void polled();
    /** filterIndex() and filterRecords() changed. */
    void filterIndexChanged();
    /** A filter build started (isFiltering()). */
    void filteringStarted();
    /** trail() changed. */
    void trailReady();

private:
    void deliver(const Built &b, bool final);

    std::shared_ptr<const TraceDocument> m_doc;
    QFutureWatcher<Built> m_watcher;
    std::shared_ptr<std::atomic_bool> m_cancel;
    quint64 m_generation = 0;
    int m_builtRecords = -1;
    bool m_pairsDeferred = false;  // the shown build's pairs are empty placeholders (Built)
    bool m_rebuildPending = false;
    bool m_building = false;  // a build runs or its final result is not shown yet
    std::shared_ptr<const TimelineIndex> m_shown;  // the index last delivered
    QTimer m_growthTimer;                          // re-indexes a growing document, throttled
    QElapsedTimer m_buildClock;
    qint64 m_lastBuildMs = 0;
    QString m_stage;

    std::shared_ptr<const TimelineIndex> m_filterIndex;
    std::shared_ptr<const std::vector<int>> m_filterRecords;  // what m_filterIndex indexes
    std::shared_ptr<const std::vector<int>> m_filterWanted;   // being built
    QString m_filterText;  // the applied filter text of m_filterWanted / m_filterRecords
    std::shared_ptr<std::atomic_bool> m_filterCancel;
    quint64 m_filterGeneration = 0;
    bool m_filterBuilding = false;

    std::shared_ptr<const FollowedTrail> m_trail;
    quint64 m_trailGeneration = 0;
};

}  // namespace lmct
