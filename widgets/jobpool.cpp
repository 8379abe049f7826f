#include "jobpool.h"

#include <QCoreApplication>
#include <QThread>
#include <algorithm>

namespace lmct {

QThreadPool *JobPool::instance() {
    static QThreadPool *pool = [] {
        auto *p = new QThreadPool(QCoreApplication::instance());
        p->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
        p->setObjectName(QStringLiteral("lmct-jobs"));
        return p;
    }();
    return pool;
}

}  // namespace lmct
