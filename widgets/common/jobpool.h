#pragma once

#include "util/workerpriority.h"

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <utility>

namespace lmct {

/**
 * The thread pool the viewer's background jobs run on: the timeline's index and span pairing,
 * filter and find evaluation, the record table's subsets, the statistics and the inspector's
 * argument trees (each a QtConcurrent::run job the GUI thread watches, never waits for).
 *
 * Why not Qt's global pool: Qt 6.4's raster paint engine (the widgets' and offscreen painting)
 * splits large fills and image conversions into tasks on QThreadPool::globalInstance() and
 * waits for them on the GUI thread. A job that held every global thread for seconds (statistics
 * or the timeline index of a 10 M record trace while it loads) stalled all painting meanwhile:
 * the timeline's toolbar label, axis and lanes were repainted seconds apart and disagreed until
 * loading ended. Jobs here leave the global pool to Qt. (ComputePool is for the items of
 * data-parallel work inside such a job; the loader has a pool of its own.)
 *
 * idealThreadCount() threads (at least 2). Ownership: a process-wide instance, created on first
 * use, a child of the application (destroyed with it, after its running jobs end).
 * Thread-safety: QThreadPool's; instance() may be called from any thread once the application
 * exists.
 */
class JobPool {
public:
    static QThreadPool *instance();
    /**
     * The pool trace loads (TraceLoadJob) run on, likewise made: apart from the jobs above, so
     * that loads (which wait for their own data-parallel items) never wait behind them, nor
     * they behind loads of several files opened at once.
     */
    static QThreadPool *loads();

    /**
     * QtConcurrent::run(pool, job) where the job first takes the worker threads' priority
     * (WorkerPriority::applyToCurrentThread): every background job of the viewer starts this
     * way, so none can forget it. `pool` defaults to instance().
     */
    template <typename Job>
    static auto run(QThreadPool *pool, Job &&job) {
        return QtConcurrent::run(pool, [job = std::forward<Job>(job)]() mutable {
            WorkerPriority::applyToCurrentThread();
            return job();
        });
    }
    template <typename Job>
    static auto run(Job &&job) {
        return run(instance(), std::forward<Job>(job));
    }

private:
    static QThreadPool *make(const char *name);
};

}  // namespace lmct
