#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>
#include <vector>

namespace lmct {

/**
 * Columnar index of the good records of one trace, in file order.
 *
 * Per record it keeps `t_mono` and `t_wall` (double seconds, as in the record), the qualname as
 * an interned id, the frame's byte offset (64-bit: the length prefix's position) and body length,
 * and flags: 33 bytes per record. Arguments are not stored; TraceDocument decodes them on demand
 * from the mapped file.
 *
 * Row indices are ints in [0, size()). Qualname ids are dense in [0, qualnameCount()), in order of
 * first appearance.
 *
 * Thread-safety: not synchronised. The loader fills it on one thread; afterwards it is read-only
 * and may be read from any thread.
 */
class RecordStore {
public:
    enum Flag : quint8 {
        AfterResync = 1,  ///< the first record read after bytes were skipped to resynchronise
        BadArgs = 2,      ///< index fields intact, but the arguments do not decode completely
    };

    int size() const { return int(m_tMono.size()); }
    bool isEmpty() const { return m_tMono.empty(); }

    double tMono(int i) const { return m_tMono[size_t(i)]; }
    double tWall(int i) const { return m_tWall[size_t(i)]; }
    quint32 qualnameId(int i) const { return m_qualname[size_t(i)]; }
    const QString &qualname(int i) const { return m_qualnames[qsizetype(m_qualname[size_t(i)])]; }
    /** Byte offset of the frame's 4-byte length prefix. */
    qint64 frameOffset(int i) const { return m_offset[size_t(i)]; }
    /** Body length in bytes (the frame is 4 + this). */
    quint32 bodyLength(int i) const { return m_length[size_t(i)]; }
    quint8 flags(int i) const { return m_flags[size_t(i)]; }

    /** All distinct qualnames, indexed by id. */
    const QStringList &qualnames() const { return m_qualnames; }
    int qualnameCount() const { return int(m_qualnames.size()); }
    /** Number of records per qualname id. */
    const std::vector<qint64> &qualnameCounts() const { return m_counts; }
    /** Id of `qualname`, or -1. */
    int qualnameIdOf(const QString &qualname) const;

    /** Largest t_mono (LMCache's "duration"); 0 when empty. */
    double maxTMono() const { return m_maxTMono; }
    double minTMono() const { return m_minTMono; }
    double minTWall() const { return m_minTWall; }
    double maxTWall() const { return m_maxTWall; }

    /** Returns the id of a UTF-8 qualname, adding it when new. */
    quint32 intern(const char *utf8, quint32 size);
    void append(double tMono, double tWall, quint32 qualnameId, qint64 offset, quint32 length,
                quint8 flags);
    void setFlag(int i, Flag f) { m_flags[size_t(i)] |= quint8(f); }
    void reserve(qsizetype n);
    /** Frees spare capacity once loading is done. */
    void squeeze();
    /** Bytes of heap held by the columns (capacity, not size). */
    qint64 memoryBytes() const;

private:
    std::vector<double> m_tMono;
    std::vector<double> m_tWall;
    std::vector<quint32> m_qualname;
    std::vector<qint64> m_offset;
    std::vector<quint32> m_length;
    std::vector<quint8> m_flags;
    QStringList m_qualnames;
    QHash<QByteArray, quint32> m_ids;
    std::vector<qint64> m_counts;
    QList<QByteArray> m_utf8;  // qualnames as in the file, by id
    double m_maxTMono = 0.0, m_minTMono = 0.0, m_minTWall = 0.0, m_maxTWall = 0.0;
};

}  // namespace lmct
