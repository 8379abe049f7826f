#include "trace/tracefile.h"

#include "trace/mappingguard.h"
#include "trace/opentraces.h"

#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <cstring>

#ifdef Q_OS_LINUX
#include <sys/mman.h>
#include <unistd.h>
#endif
#ifdef Q_OS_UNIX
#include <sys/stat.h>
#endif

namespace lmct {

TraceFile::~TraceFile() {
    if (m_openTicket) {
        OpenTraces::remove(m_openTicket);
    }
    for (int slot : m_guards) {
        MappingGuard::remove(slot);
    }
    if (m_file) {
        for (uchar *p : m_maps) {
            m_file->unmap(p);
        }
    }
}

bool TraceFile::open(const QString &path, QString *error) {
    m_fileName = path;
    const QFileInfo info(path);
    if (!info.exists()) {
#ifdef Q_OS_UNIX
        // exists() is false for every failed stat(): say why when it is not a missing file.
        struct stat st;
        if (::stat(QFile::encodeName(path).constData(), &st) != 0 && errno != ENOENT) {
            const int e = errno;
            *error = e == ELOOP ? QStringLiteral("%1: cannot open: the symbolic links loop (%2)")
                                      .arg(path, QString::fromLocal8Bit(std::strerror(e)))
                                : QStringLiteral("%1: cannot open: %2")
                                      .arg(path, QString::fromLocal8Bit(std::strerror(e)));
            return false;
        }
#endif
        *error = QStringLiteral("%1: no such file").arg(path);
        return false;
    }
    if (info.isDir()) {
        *error = QStringLiteral("%1: is a directory, not a trace file").arg(path);
        return false;
    }
    if (!info.isFile()) {
        *error = QStringLiteral("%1: not a regular file").arg(path);
        return false;
    }
    m_file = std::make_unique<QFile>(path);
    if (!m_file->open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot open for reading: %2").arg(path, m_file->errorString());
        return false;
    }
    // exports refuse this file as their target while it is open (ExportFile)
    auto id = FileIdentity::ofHandle(m_file->handle());
    if (!id) {
        id = FileIdentity::of(path);
    }
    if (m_openTicket) {
        OpenTraces::remove(m_openTicket);
        m_openTicket = 0;
    }
    if (id) {
        m_openTicket = OpenTraces::add(*id, path);
    }
    if (m_file->size() == 0) {
        return true;
    }
    if (!remap(error)) {
        if (error && error->isEmpty()) {
            *error = QStringLiteral("%1: cannot map the file").arg(path);
        }
        return false;
    }
    return true;
}

void TraceFile::openBytes(const QByteArray &bytes, const QString &displayName) {
    m_bytes = bytes;
    m_fileName = displayName;
    m_data.store(reinterpret_cast<const uchar *>(m_bytes.constData()), std::memory_order_release);
    m_size.store(m_bytes.size(), std::memory_order_release);
}

bool TraceFile::remap(QString *error) {
    if (!m_file) {
        return false;
    }
    const Stamp stamp = stampNow();     // before mapping: a change after it is seen later
    const qint64 now = m_file->size();  // fstat: the size now
    if (now <= size() || shrunkTo() >= 0) {
        return false;
    }
    uchar *p = m_file->map(0, now);
    if (!p) {
        if (error) {
            *error = QStringLiteral("%1: cannot map %2 bytes: %3")
                         .arg(m_fileName)
                         .arg(now)
                         .arg(m_file->errorString());
        }
        return false;
    }
    m_maps.push_back(p);
    {
        const int slot = MappingGuard::add(p, now);
        QMutexLocker lock(&m_guardMutex);
        m_guards.push_back(slot);
    }
    {
        QMutexLocker lock(&m_stampMutex);
        m_stamp = stamp;
    }
    m_data.store(p, std::memory_order_release);
    m_size.store(now, std::memory_order_release);
    return true;
}

TraceFile::Stamp TraceFile::stampNow() const {
    Stamp s;
#ifdef Q_OS_UNIX
    struct stat st;
    if (m_file && m_file->handle() >= 0 && ::fstat(m_file->handle(), &st) == 0) {
        s.device = quint64(st.st_dev);
        s.inode = quint64(st.st_ino);
        s.size = qint64(st.st_size);
#ifdef Q_OS_LINUX
        s.modified = qint64(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
        s.changed = qint64(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
#else
        s.modified = qint64(st.st_mtime);
        s.changed = qint64(st.st_ctime);
#endif
    }
#endif
    return s;
}

bool TraceFile::changedSinceMapped() const {
    if (!m_file || !data()) {
        return false;
    }
    const Stamp now = stampNow();
    QMutexLocker lock(&m_stampMutex);
    return !(now == m_stamp) || now.size < 0;
}

void TraceFile::restamp() const {
    const Stamp now = stampNow();
    QMutexLocker lock(&m_stampMutex);
    m_stamp = now;
}

void TraceFile::noteRewrittenFrom(qint64 offset) const {
    offset = std::clamp<qint64>(offset, 0, size());
    qint64 cur = m_shrunkTo.load(std::memory_order_relaxed);
    while ((cur < 0 || offset < cur) &&
           !m_shrunkTo.compare_exchange_weak(cur, offset, std::memory_order_acq_rel)) {
    }
    m_rewritten.store(true, std::memory_order_release);
}

qint64 TraceFile::checkShrunk() const {
#ifdef Q_OS_LINUX
    if (!m_file || m_file->handle() < 0) {
        return -1;
    }
    qint64 end = size();
    struct stat st;
    if (::fstat(m_file->handle(), &st) == 0 && qint64(st.st_size) < end) {
        end = qint64(st.st_size);
    }
    if (MappingGuard::faultCount() > 0) {
        QMutexLocker lock(&m_guardMutex);
        for (int slot : m_guards) {
            const qint64 f = MappingGuard::faultOffset(slot);
            if (f >= 0 && f < end) {
                end = f;
            }
        }
    }
    if (end < size()) {
        qint64 cur = m_shrunkTo.load(std::memory_order_relaxed);
        while ((cur < 0 || end < cur) &&
               !m_shrunkTo.compare_exchange_weak(cur, end, std::memory_order_acq_rel)) {
        }
    }
#endif
    return shrunkTo();
}

void TraceFile::releaseResident(qint64 offset, qint64 length) const {
#ifdef Q_OS_LINUX
    if (!m_file || !data()) {
        return;  // in-memory bytes: MADV_DONTNEED would zero anonymous memory
    }
    static const qint64 page = qint64(::sysconf(_SC_PAGESIZE));
    const qint64 from = (std::max<qint64>(0, offset) + page - 1) / page * page;
    const qint64 to = std::min(offset + length, size()) / page * page;
    if (to > from) {
        // The mapping is shared and read-only: dropping its pages loses nothing.
        ::madvise(const_cast<uchar *>(data()) + from, size_t(to - from), MADV_DONTNEED);
    }
#else
    Q_UNUSED(offset);
    Q_UNUSED(length);
#endif
}

}  // namespace lmct
