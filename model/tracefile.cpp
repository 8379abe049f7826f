#include "tracefile.h"

#include <QFileInfo>

namespace lmct {

TraceFile::~TraceFile() {
    if (m_file && m_data && m_bytes.isEmpty()) {
        m_file->unmap(const_cast<uchar *>(m_data));
    }
}

bool TraceFile::open(const QString &path, QString *error) {
    m_fileName = path;
    const QFileInfo info(path);
    if (!info.exists()) {
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
    m_size = m_file->size();
    if (m_size == 0) {
        m_data = nullptr;
        return true;
    }
    m_data = m_file->map(0, m_size);
    if (!m_data) {
        *error = QStringLiteral("%1: cannot map %2 bytes: %3")
                     .arg(path)
                     .arg(m_size)
                     .arg(m_file->errorString());
        return false;
    }
    return true;
}

void TraceFile::openBytes(const QByteArray &bytes, const QString &displayName) {
    m_bytes = bytes;
    m_fileName = displayName;
    m_size = m_bytes.size();
    m_data = reinterpret_cast<const uchar *>(m_bytes.constData());
}

}  // namespace lmct
