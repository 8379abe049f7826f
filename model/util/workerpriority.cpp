#include "util/workerpriority.h"

#include <QCoreApplication>
#include <QThread>
#include <atomic>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace lmct {

namespace {

std::atomic<int> s_nice{0};

}  // namespace

void WorkerPriority::setWorkerNice(int nice) {
    s_nice.store(nice, std::memory_order_relaxed);
}

int WorkerPriority::workerNice() {
    return s_nice.load(std::memory_order_relaxed);
}

void WorkerPriority::applyToCurrentThread() {
    thread_local int applied = 0;  // a new thread has the nice value of the one that created it
    const int wanted = s_nice.load(std::memory_order_relaxed);
    if (wanted == applied) {
        return;
    }
    const QCoreApplication *app = QCoreApplication::instance();
    if (!app || QThread::currentThread() == app->thread()) {
        return;  // the GUI (main) thread keeps its priority
    }
#ifdef Q_OS_LINUX
    const auto tid = id_t(::syscall(SYS_gettid));
    if (::setpriority(PRIO_PROCESS, tid, wanted) != 0) {
        return;  // e.g. lowering it again without privileges: leave it
    }
#endif
    applied = wanted;
}

}  // namespace lmct
