#include "common/jobpool.h"

#include <QCoreApplication>
#include <QThread>
#include <algorithm>

namespace lmct {

QThreadPool *JobPool::make(const char *name) {
    auto *p = new QThreadPool(QCoreApplication::instance());
    p->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
    p->setObjectName(QLatin1String(name));
    return p;
}

QThreadPool *JobPool::instance() {
    static QThreadPool *pool = make("lmct-jobs");
    return pool;
}

QThreadPool *JobPool::loads() {
    static QThreadPool *pool = make("lmct-loader-pool");
    return pool;
}

}  // namespace lmct
