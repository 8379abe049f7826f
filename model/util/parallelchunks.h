#pragma once

#include <QThreadPool>
#include <functional>

namespace lmct {

/**
 * Runs numbered work items in parallel on the calling thread and on idle threads of a pool,
 * without ever waiting for a queued task.
 *
 * Why not QtConcurrent::blockingMap & co.: in Qt 6 they start the work on the pool and wait for
 * its future. A caller that itself runs on that pool (a widget's QtConcurrent::run job, several
 * at once) then holds a pool thread while its work waits for one: with every thread held this
 * way, nothing progresses (a deadlock, reproduced by tst_filterevaluator). ComputePool keeps
 * model work off the global pool; on top of that, here the calling thread takes items itself
 * and helpers are only started with QThreadPool::tryStart() on threads that are free right now,
 * so a busy pool (or a caller running on the very pool it uses) just means fewer helpers.
 *
 * `work(i)` is called exactly once for each i in [0, count), from the calling thread or a
 * helper, in no particular order; it must not block on other items. run() returns when every
 * item is done.
 *
 * Thread-safety: run() is reentrant; `work` must be safe to call from several threads at once.
 */
class ParallelChunks {
public:
    /** `pool` null means ComputePool::instance(). */
    static void run(int count, const std::function<void(int)> &work, QThreadPool *pool = nullptr);
};

}  // namespace lmct
