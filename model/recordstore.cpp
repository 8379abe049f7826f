#include "recordstore.h"

#include <cstring>

namespace lmct {

int RecordStore::qualnameIdOf(const QString &qualname) const {
    return int(m_qualnames.indexOf(qualname));
}

quint32 RecordStore::intern(const char *utf8, quint32 size) {
    // A trace has a handful of qualnames: compare bytes before hashing.
    const qsizetype known = qMin<qsizetype>(m_utf8.size(), 32);
    for (qsizetype i = 0; i < known; ++i) {
        const QByteArray &n = m_utf8[i];
        if (quint32(n.size()) == size && std::memcmp(n.constData(), utf8, size) == 0) {
            return quint32(i);
        }
    }
    const QByteArray key(utf8, qsizetype(size));
    auto it = m_ids.constFind(key);
    quint32 id;
    if (it == m_ids.constEnd()) {
        id = quint32(m_qualnames.size());
        m_ids.insert(key, id);
        m_qualnames.append(QString::fromUtf8(key));
        m_utf8.append(key);
        m_counts.push_back(0);
    } else {
        id = it.value();
    }
    return id;
}

void RecordStore::append(double tMono, double tWall, quint32 qualnameId, qint64 offset,
                         quint32 length, quint8 flags) {
    if (m_tMono.empty()) {
        m_minTMono = m_maxTMono = tMono;
        m_minTWall = m_maxTWall = tWall;
    } else {
        m_minTMono = qMin(m_minTMono, tMono);
        m_maxTMono = qMax(m_maxTMono, tMono);
        m_minTWall = qMin(m_minTWall, tWall);
        m_maxTWall = qMax(m_maxTWall, tWall);
    }
    m_tMono.push_back(tMono);
    m_tWall.push_back(tWall);
    m_qualname.push_back(qualnameId);
    m_offset.push_back(offset);
    m_length.push_back(length);
    m_flags.push_back(flags);
    ++m_counts[qualnameId];
}

void RecordStore::reserve(qsizetype n) {
    m_tMono.reserve(size_t(n));
    m_tWall.reserve(size_t(n));
    m_qualname.reserve(size_t(n));
    m_offset.reserve(size_t(n));
    m_length.reserve(size_t(n));
    m_flags.reserve(size_t(n));
}

void RecordStore::squeeze() {
    m_tMono.shrink_to_fit();
    m_tWall.shrink_to_fit();
    m_qualname.shrink_to_fit();
    m_offset.shrink_to_fit();
    m_length.shrink_to_fit();
    m_flags.shrink_to_fit();
}

qint64 RecordStore::memoryBytes() const {
    return qint64(m_tMono.capacity() * sizeof(double) + m_tWall.capacity() * sizeof(double) +
                  m_qualname.capacity() * sizeof(quint32) + m_offset.capacity() * sizeof(qint64) +
                  m_length.capacity() * sizeof(quint32) + m_flags.capacity());
}

}  // namespace lmct
