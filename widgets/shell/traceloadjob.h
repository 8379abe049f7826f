#pragma once

#include "trace/tracedocument.h"
#include "trace/traceloader.h"

#include <QByteArray>
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

namespace lmct {

/**
 * Loads one trace off the GUI thread: TraceLoader::load() (or loadBytes()) runs through
 * QtConcurrent in a thread pool reserved for loads (the loader itself fans out to the global
 * pool and waits, so it must not occupy the global pool's threads); its progress callback is
 * forwarded to the GUI thread as the progress() signal, and the outcome arrives as finished().
 *
 * cancel() asks the loader to stop; the loader then returns what it read so far as a document
 * marked partial (TraceDocument::isPartial()), which finished() delivers like any other.
 *
 * Ownership: a QObject; destroying a running job cancels it and waits (briefly) for the worker
 * to return, so no callback outlives the job. Thread-safety: create and use on the GUI thread.
 */
class TraceLoadJob : public QObject {
    Q_OBJECT
public:
    explicit TraceLoadJob(QObject *parent = nullptr);
    ~TraceLoadJob() override;

    /**
     * Starts loading the file at `path`. Call once. opened() comes as soon as the header is
     * read, with the document that then fills on the worker (progressive loading); finished()
     * when every record is indexed.
     */
    void start(const QString &path);
    /**
     * Live follow of a trace still being written: opens `path` (waiting for a header if there
     * is none yet), indexes what is there, then keeps indexing what is appended (file watching
     * plus a poll every `pollMs`) until cancel(). opened() comes at once; grew() after every
     * refresh that added records; finished() when following stops.
     */
    void follow(const QString &path, int pollMs = 500);
    bool isFollowing() const { return m_following.load(); }
    /** Starts loading `bytes` (e.g. a bundled sample); `name` is used in messages. Call once. */
    void startBytes(const QByteArray &bytes, const QString &name);
    /** Asks the loader to stop; finished() follows with a partial document. */
    void cancel();

    bool isRunning() const { return m_watcher.isRunning(); }
    bool isCancelRequested() const { return m_cancel.load(); }

signals:
    /** The header is read: the document exists and is filling (GUI thread). */
    void opened(std::shared_ptr<const lmct::TraceDocument> doc);
    /** Following: the document gained records (GUI thread). */
    void grew();
    /** Bytes scanned of the total and good records indexed so far (GUI thread, throttled). */
    void progress(qint64 bytesDone, qint64 bytesTotal, qint64 records);
    /**
     * The load ended: `doc` is the document (possibly partial), or nullptr with the loader's
     * refusal in `error` ("FILE: offset N: expected ..., found ...").
     */
    void finished(std::shared_ptr<const lmct::TraceDocument> doc, const QString &error);

private:
    struct Result {
        std::shared_ptr<const TraceDocument> doc;
        QString error;
    };
    void run(std::function<Result(const TraceLoadOptions &)> work);
    void onWorkerProgress(qint64 done, qint64 total, qint64 records);
    void announce(const std::shared_ptr<TraceDocument> &doc);

    QFutureWatcher<Result> m_watcher;
    std::atomic_bool m_cancel{false};
    std::atomic_bool m_following{false};
    // Worker-side progress is coalesced: only one queued update is in flight at a time.
    std::atomic_bool m_progressQueued{false};
    std::atomic<qint64> m_done{0}, m_total{0}, m_records{0};
};

}  // namespace lmct
