#pragma once

#include <QByteArray>
#include <QHash>
#include <QMutex>
#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>
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
 * Storage is a list of fixed-size chunks (kChunkSize records each) that never move once
 * allocated, so the store can grow while it is read: that is how records appear progressively
 * while a large file loads and while a live trace is followed.
 *
 * Row indices are ints in [0, size()). Qualname ids are dense in [0, qualnameCount()), in order of
 * first appearance; at most kMaxQualnames distinct names are kept, later new names share the id
 * of a final "<more qualnames>" entry.
 *
 * Thread-safety: one writer (the loader) and any number of readers on other threads. A reader
 * must only touch indices below a size() it has read: size() is published with release
 * semantics after a record is complete. qualnames() and qualnameCounts() return snapshots.
 */
class RecordStore {
public:
    enum Flag : quint8 {
        AfterResync = 1,  ///< the first record read after bytes were skipped to resynchronise
        BadArgs = 2,      ///< index fields intact, but the arguments do not decode completely
    };

    static constexpr int kChunkBits = 16;
    static constexpr int kChunkSize = 1 << kChunkBits;
    static constexpr int kMaxChunks = 1 << 15;  ///< 2^31 records at most
    static constexpr int kMaxQualnames = 4096;

    RecordStore();
    ~RecordStore();
    RecordStore(const RecordStore &) = delete;
    RecordStore &operator=(const RecordStore &) = delete;

    int size() const { return m_size.load(std::memory_order_acquire); }
    bool isEmpty() const { return size() == 0; }

    double tMono(int i) const { return chunk(i)->tMono[slot(i)]; }
    double tWall(int i) const { return chunk(i)->tWall[slot(i)]; }
    quint32 qualnameId(int i) const { return chunk(i)->qualname[slot(i)]; }
    const QString &qualname(int i) const { return m_names[qualnameId(i)]; }
    /** Byte offset of the frame's 4-byte length prefix. */
    qint64 frameOffset(int i) const { return chunk(i)->offset[slot(i)]; }
    /** Body length in bytes (the frame is 4 + this). */
    quint32 bodyLength(int i) const { return chunk(i)->length[slot(i)]; }
    quint8 flags(int i) const { return chunk(i)->flags[slot(i)].load(std::memory_order_relaxed); }

    /** All distinct qualnames, indexed by id (a snapshot). */
    QStringList qualnames() const;
    /** The qualname with this id. */
    const QString &qualnameById(quint32 id) const { return m_names[id]; }
    int qualnameCount() const { return m_nameCount.load(std::memory_order_acquire); }
    /** Number of records per qualname id (a snapshot). */
    std::vector<qint64> qualnameCounts() const;
    /** Id of `qualname`, or -1. */
    int qualnameIdOf(const QString &qualname) const;

    /** Largest t_mono (LMCache's "duration"); 0 when empty. */
    double maxTMono() const { return m_maxTMono.load(std::memory_order_relaxed); }
    double minTMono() const { return m_minTMono.load(std::memory_order_relaxed); }
    double minTWall() const { return m_minTWall.load(std::memory_order_relaxed); }
    double maxTWall() const { return m_maxTWall.load(std::memory_order_relaxed); }

    /** Returns the id of a UTF-8 qualname, adding it when new. Writer only. */
    quint32 intern(const char *utf8, quint32 size);
    /** Appends one record and publishes it. Writer only. */
    void append(double tMono, double tWall, quint32 qualnameId, qint64 offset, quint32 length,
                quint8 flags);
    /** Sets a flag on record i (any thread). */
    void setFlag(int i, Flag f) { chunk(i)->flags[slot(i)].fetch_or(quint8(f)); }
    /** Bytes of heap held by the columns (allocated chunks). */
    qint64 memoryBytes() const;

private:
    struct Chunk {
        double tMono[kChunkSize];
        double tWall[kChunkSize];
        qint64 offset[kChunkSize];
        quint32 qualname[kChunkSize];
        quint32 length[kChunkSize];
        std::atomic<quint8> flags[kChunkSize];
    };
    Chunk *chunk(int i) const {
        return m_chunks[size_t(i) >> kChunkBits].load(std::memory_order_relaxed);
    }
    static int slot(int i) { return i & (kChunkSize - 1); }

    std::unique_ptr<std::atomic<Chunk *>[]> m_chunks;
    std::atomic<int> m_size{0};
    std::unique_ptr<QString[]> m_names;  // fixed slots: never move
    std::unique_ptr<std::atomic<qint64>[]> m_counts;
    std::atomic<int> m_nameCount{0};
    QHash<QByteArray, quint32> m_ids;  // writer only
    QList<QByteArray> m_utf8;          // writer only: qualnames as in the file, by id
    std::atomic<double> m_maxTMono{0.0}, m_minTMono{0.0}, m_minTWall{0.0}, m_maxTWall{0.0};
};

}  // namespace lmct
