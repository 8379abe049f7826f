#include "util/computepool.h"

namespace lmct {

QThreadPool *ComputePool::instance() {
    static QThreadPool *pool = [] {
        auto *p = new QThreadPool;  // lives for the process (like the global pool)
        p->setMaxThreadCount(qMax(1, QThread::idealThreadCount()));
        p->setObjectName(QStringLiteral("lmct-compute"));
        return p;
    }();
    return pool;
}

}  // namespace lmct
