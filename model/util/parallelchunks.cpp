#include "util/parallelchunks.h"

#include "util/computepool.h"
#include "util/workerpriority.h"

#include <QSemaphore>
#include <algorithm>
#include <atomic>

namespace lmct {

void ParallelChunks::run(int count, const std::function<void(int)> &work, QThreadPool *pool) {
    if (count <= 0) {
        return;
    }
    if (!pool) {
        pool = ComputePool::instance();
    }
    WorkerPriority::applyToCurrentThread();  // (not on the main thread)
    std::atomic<int> next{0};
    auto drain = [&] {
        for (int i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
            work(i);
        }
    };
    QSemaphore finished;
    int helpers = 0;
    const int wanted = std::min(count - 1, pool->maxThreadCount());
    for (; helpers < wanted; ++helpers) {
        const bool started = pool->tryStart([&] {
            WorkerPriority::applyToCurrentThread();
            drain();
            finished.release();
        });
        if (!started) {
            break;  // no idle thread: the calling thread does the rest
        }
    }
    drain();
    finished.acquire(helpers);  // helpers only drain the remaining items: they end promptly
}

}  // namespace lmct
