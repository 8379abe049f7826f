#pragma once

#include "common/jobpool.h"

#include <QFutureWatcher>
#include <QObject>
#include <atomic>
#include <memory>

namespace lmct {

/**
 * The latest of a view's background computations of a `Result` (a shared pointer): start()
 * cancels the one before, whose result is then dropped, and runs `compute(cancel)` on JobPool;
 * `done(result)` runs on the owner's thread when that computation is still the latest and its
 * result is not null (null: cancelled). cancel() drops the running one.
 *
 * Ownership: a member of its owner, a QObject, which parents the watchers. Thread-safety: the
 * owner's thread only; `compute` runs on a worker with the cancel flag it is given (set by
 * cancel() or a later start()).
 */
template <typename Result>
class LatestJob {
public:
    explicit LatestJob(QObject *owner) : m_owner(owner) {}
    LatestJob(const LatestJob &) = delete;
    LatestJob &operator=(const LatestJob &) = delete;
    ~LatestJob() { cancel(); }

    /** Whether a computation runs whose result will be handed on. */
    bool isRunning() const { return m_running; }

    /** Drops the running computation (asked to stop; its result is not handed on). */
    void cancel() {
        if (m_cancel) {
            m_cancel->store(true);
        }
        ++m_generation;
        m_running = false;
    }

    /** Cancels the one before and runs `compute(const std::atomic_bool *cancel) -> Result` on
     *  JobPool, then `done(Result)` on the owner's thread (see the class). */
    template <typename Compute, typename Done>
    void start(Compute compute, Done done) {
        cancel();
        const quint64 generation = m_generation;
        m_running = true;
        auto token = std::make_shared<std::atomic_bool>(false);
        m_cancel = token;
        auto *watcher = new QFutureWatcher<Result>(m_owner);
        QObject::connect(watcher, &QFutureWatcher<Result>::finished, m_owner,
                         [this, watcher, generation, done] {
                             watcher->deleteLater();
                             if (generation != m_generation) {
                                 return;
                             }
                             m_running = false;
                             if (const Result r = watcher->result()) {
                                 done(r);
                             }
                         });
        watcher->setFuture(
            JobPool::run([compute, token]() -> Result { return compute(token.get()); }));
    }

private:
    QObject *m_owner;
    quint64 m_generation = 0;
    bool m_running = false;
    std::shared_ptr<std::atomic_bool> m_cancel;
};

}  // namespace lmct
