#include "shell/traceloadjob.h"

#include "common/jobpool.h"
#include "trace/traceloader.h"

#include <QtConcurrent/QtConcurrentRun>

namespace lmct {

TraceLoadJob::TraceLoadJob(QObject *parent) : QObject(parent) {
    connect(&m_watcher, &QFutureWatcher<Result>::finished, this, [this] {
        const Result r = m_watcher.result();
        emit finished(r.doc, r.error);
    });
}

TraceLoadJob::~TraceLoadJob() {
    if (m_watcher.isRunning()) {
        m_cancel = true;
        m_watcher.waitForFinished();
    }
}

void TraceLoadJob::start(const QString &path) {
    run([this, path](const TraceLoadOptions &opt) {
        Result r;
        auto doc = TraceLoader::open(path, &r.error, opt);
        if (!doc) {
            return r;
        }
        announce(doc);
        TraceLoader::scan(doc.get(), opt);
        r.doc = doc;
        return r;
    });
}

void TraceLoadJob::follow(const QString &path, int pollMs) {
    m_following = true;
    run([this, path, pollMs](const TraceLoadOptions &base) {
        Result r;
        TraceLoadOptions opt = base;
        opt.follow = true;
        auto doc = TraceLoader::open(path, &r.error, opt);
        if (!doc) {
            m_following = false;
            return r;
        }
        announce(doc);
        // Poll the size (cheap: one fstat) and index what was appended; a file-system watcher
        // would only shorten the wait, and the poll also works on network file systems.
        while (!m_cancel.load()) {
            QString error;
            const int added = TraceLoader::refresh(doc.get(), &error, opt);
            if (added < 0) {
                r.error = error;
                break;
            }
            if (added > 0) {
                QMetaObject::invokeMethod(this, &TraceLoadJob::grew, Qt::QueuedConnection);
            }
            for (int waited = 0; waited < pollMs && !m_cancel.load(); waited += 20) {
                QThread::msleep(20);
            }
        }
        TraceLoader::stopFollowing(doc.get());
        m_following = false;
        r.doc = doc;
        return r;
    });
}

void TraceLoadJob::announce(const std::shared_ptr<TraceDocument> &doc) {
    // Worker thread: hand the growing document to the GUI thread.
    std::shared_ptr<const TraceDocument> shown = doc;
    QMetaObject::invokeMethod(
        this, [this, shown] { emit opened(shown); }, Qt::QueuedConnection);
}

void TraceLoadJob::startBytes(const QByteArray &bytes, const QString &name) {
    run([bytes, name](const TraceLoadOptions &opt) {
        Result r;
        r.doc = TraceLoader::loadBytes(bytes, name, &r.error, opt);
        return r;
    });
}

void TraceLoadJob::cancel() {
    m_cancel = true;
}

void TraceLoadJob::run(std::function<Result(const TraceLoadOptions &)> work) {
    Q_ASSERT(!m_watcher.isRunning());
    TraceLoadOptions opt;
    opt.cancel = &m_cancel;
    opt.progress = [this](qint64 done, qint64 total, qint64 records) {
        onWorkerProgress(done, total, records);
    };
    m_watcher.setFuture(
        JobPool::run(JobPool::loads(), [work = std::move(work), opt] { return work(opt); }));
}

void TraceLoadJob::onWorkerProgress(qint64 done, qint64 total, qint64 records) {
    // Worker thread. The job outlives the worker (see the destructor), so `this` is valid here.
    m_done = done;
    m_total = total;
    m_records = records;
    if (m_progressQueued.exchange(true)) {
        return;
    }
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_progressQueued = false;
            emit progress(m_done.load(), m_total.load(), m_records.load());
        },
        Qt::QueuedConnection);
}

}  // namespace lmct
