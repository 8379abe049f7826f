#pragma once

#include <QThreadPool>

namespace lmct {

/**
 * The thread pool the model's data-parallel work runs on (record parsing, argument checks,
 * filter evaluation, statistics, analyses): idealThreadCount() threads, separate from Qt's global
 * pool.
 *
 * Why separate: callers run model functions as background jobs, often on the global pool
 * (QtConcurrent::run). If those functions also spread their work over the global pool and wait
 * for it, jobs that fill the pool wait on work that cannot start. With this pool, background jobs
 * wait only on tasks that never wait on anything themselves.
 *
 * Ownership: a process-wide instance, created on first use. Thread-safety: QThreadPool's.
 */
class ComputePool {
public:
    static QThreadPool *instance();
};

}  // namespace lmct
