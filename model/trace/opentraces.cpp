#include "trace/opentraces.h"

#include <QMutex>
#include <vector>

namespace lmct {

namespace {

struct Entry {
    quint64 ticket;
    FileIdentity identity;
    QString path;
};

struct Registry {
    QMutex mutex;
    std::vector<Entry> entries;
    quint64 next = 1;
};

Registry &registry() {
    // never destroyed: a TraceFile destroyed during static destruction still finds it
    static Registry *r = new Registry;
    return *r;
}

}  // namespace

quint64 OpenTraces::add(const FileIdentity &identity, const QString &path) {
    Registry &r = registry();
    QMutexLocker lock(&r.mutex);
    const quint64 ticket = r.next++;
    r.entries.push_back({ticket, identity, path});
    return ticket;
}

void OpenTraces::remove(quint64 ticket) {
    Registry &r = registry();
    QMutexLocker lock(&r.mutex);
    std::erase_if(r.entries, [ticket](const Entry &e) { return e.ticket == ticket; });
}

QString OpenTraces::openAs(const QString &path) {
    const auto id = FileIdentity::of(path);
    if (!id) {
        return {};
    }
    Registry &r = registry();
    QMutexLocker lock(&r.mutex);
    for (const Entry &e : r.entries) {
        if (e.identity == *id) {
            return e.path;
        }
    }
    return {};
}

}  // namespace lmct
