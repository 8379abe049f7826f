#pragma once

#include <QByteArray>
#include <QHash>
#include <QMutex>
#include <QString>
#include <QStringList>
#include <atomic>
#include <limits>
#include <memory>
#include <vector>

namespace lmct {

/**
 * Columnar index of the good records of one trace, in file order.
 *
 * Per record it keeps `t_mono` (a double, seconds, as in the record), `t_wall` (exactly, in 4
 * bytes as a rule: see Chunk::wallDelta), the qualname as an interned id, the frame's byte offset
 * (64-bit: the length prefix's position) and body length, and flags: 29 bytes per record. Arguments
 * are not stored; TraceDocument decodes them on demand from the mapped file.
 *
 * Storage is a list of chunks that never move once allocated, so the store can grow while it is
 * read: that is how records appear progressively while a large file loads and while a live trace
 * is followed. Chunk c holds kFirstChunk << c records, so a
 * small file takes little memory and 2^31 records take 20 chunks. Pages of a chunk are only
 * touched as records are written.
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

    static constexpr int kFirstChunkBits = 12;
    static constexpr qint64 kFirstChunk = qint64(1) << kFirstChunkBits;
    static constexpr int kMaxChunks = 32 - kFirstChunkBits;  ///< 2^31 records at most
    static constexpr int kMaxQualnames = 1024;

    RecordStore();
    ~RecordStore();
    RecordStore(const RecordStore &) = delete;
    RecordStore &operator=(const RecordStore &) = delete;

    int size() const { return m_size.load(std::memory_order_acquire); }
    bool isEmpty() const { return size() == 0; }

    double tMono(int i) const { return at(i).c->tMono[at(i).s]; }
    /**
     * The record's t_wall exactly as recorded (bit for bit, NaN and infinities included). Kept
     * in 4 bytes for the usual values: see Chunk::wallDelta.
     */
    double tWall(int i) const;
    quint32 qualnameId(int i) const { return at(i).c->qualname[at(i).s]; }
    const QString &qualname(int i) const { return m_names[qualnameId(i)]; }
    /** Byte offset of the frame's 4-byte length prefix. */
    qint64 frameOffset(int i) const { return at(i).c->offset[at(i).s]; }
    /** Body length in bytes (the frame is 4 + this). */
    quint32 bodyLength(int i) const { return at(i).c->length[at(i).s]; }
    quint8 flags(int i) const { return at(i).c->flags[at(i).s].load(std::memory_order_relaxed); }

    /** All distinct qualnames, indexed by id (a snapshot). */
    QStringList qualnames() const;
    /** The qualname with this id. */
    const QString &qualnameById(quint32 id) const { return m_names[id]; }
    int qualnameCount() const { return m_nameCount.load(std::memory_order_acquire); }
    /** Number of records per qualname id (a snapshot). */
    std::vector<qint64> qualnameCounts() const;
    /** Id of `qualname`, or -1. */
    int qualnameIdOf(const QString &qualname) const;

    /** Largest finite t_mono (LMCache's "duration"); 0 when there is none. Extremes ignore
     *  NaN and infinities. */
    double maxTMono() const { return m_maxTMono.load(std::memory_order_relaxed); }
    double minTMono() const { return m_minTMono.load(std::memory_order_relaxed); }
    double minTWall() const { return m_minTWall.load(std::memory_order_relaxed); }
    double maxTWall() const { return m_maxTWall.load(std::memory_order_relaxed); }

    /** Returns the id of a UTF-8 qualname, adding it when new. Writer only. */
    quint32 intern(const char *utf8, quint32 size);
    /**
     * The id of a UTF-8 qualname among the first kFastNames interned, or -1. Any thread, also
     * while the writer interns (the loader looks names up on its parse threads while it appends
     * the batch parsed before).
     */
    int findInterned(const char *utf8, quint32 size) const;
    /** Appends one record and publishes it. Writer only. */
    void append(double tMono, double tWall, quint32 qualnameId, qint64 offset, quint32 length,
                quint8 flags);
    /**
     * Makes the memory of slots [first, first + count) resident: allocates their chunks and
     * writes the first slot of every page of their columns that slot `first - 1` does not share,
     * so that append() does not take a page fault per 4 KiB (the kernel zeroing fresh pages was
     * most of the index pass's time on small records). Writer side: call it from any thread,
     * with the appends of those slots after it (a join); append() may run meanwhile for the
     * slots before `first`, which are not touched.
     */
    void prefault(qint64 first, qint64 count);
    /** Sets a flag on record i (any thread). */
    void setFlag(int i, Flag f) { at(i).c->flags[at(i).s].fetch_or(quint8(f)); }
    /**
     * Heap bytes this store holds, counted from what is allocated: for each allocated chunk its
     * columns (29 bytes per record, and 8 more for a t_wall that needs its double), the whole
     * capacity of a full chunk but only the pages
     * written so far of the chunk being filled (new[] leaves the rest untouched, so not
     * resident; the flags column excepted, which std::atomic zeroes at allocation), plus the
     * interned qualnames and the fixed per-store slots. Any thread.
     */
    qint64 memoryBytes() const;

private:
    /** One chunk's columns, allocated for a fixed capacity. */
    struct Chunk {
        explicit Chunk(qint64 capacity);
        ~Chunk();
        double *tMono;
        /**
         * t_wall, exactly, in 4 bytes: a t_wall in [2^30, 2^31) seconds (2004 to 2038) is a
         * whole number of steps of 2^-22 s (its double's spacing there); stored is that number
         * less the one predicted from the record's t_mono and its block's wallBase (t_wall −
         * t_mono of the block's first such record; blocks of kWallBlock slots): the drift of
         * the wall clock against the monotonic one, within ±512 s. Any other t_wall (NaN, 0, a
         * synthetic time, a clock stepped by more since the block began) is kWallExact here and
         * its double is in wallExact. A clock step (NTP, a suspend) costs at most the rest of
         * one block the 8-byte form.
         */
        qint32 *wallDelta;
        qint64 *offset;
        quint32 *qualname;
        quint32 *length;
        std::atomic<quint8> *flags;
        /** The t_walls that wallDelta cannot hold, by slot; allocated on the first one. */
        std::atomic<double *> wallExact{nullptr};
        /** Slots in wallExact and the first and last of them (memoryBytes()). */
        std::atomic<qint64> wallExactCount{0}, wallExactFirst{0}, wallExactLast{0};
        /**
         * Per block of kWallBlock slots; NaN until the block's first encodable t_wall, set
         * before the record that uses it is published (the writer's release of the size).
         */
        std::unique_ptr<double[]> wallBase;
    };
    static constexpr int kWallBlockBits = 12;
    static constexpr qint64 kWallBlock = qint64(1) << kWallBlockBits;
    static constexpr qint32 kWallExact = std::numeric_limits<qint32>::min();
    struct Slot {
        const Chunk *c;
        qint64 s;
    };
    /** Chunk of record i: with j = i + kFirstChunk, chunk = floor(log2(j)) - kFirstChunkBits. */
    static int chunkOf(qint64 i) {
        const quint64 j = quint64(i) + quint64(kFirstChunk);
        return 63 - __builtin_clzll(j) - kFirstChunkBits;
    }
    static qint64 chunkStart(int c) { return (kFirstChunk << c) - kFirstChunk; }
    static qint64 chunkCapacity(int c) { return kFirstChunk << c; }
    /** Chunk c, allocated when it is not yet (by append() or prefault(), whichever is first). */
    Chunk *chunk(int c);
    Slot at(int i) const {
        const int c = chunkOf(i);
        return Slot{m_chunks[c].load(std::memory_order_relaxed), i - chunkStart(c)};
    }

    std::atomic<Chunk *> m_chunks[kMaxChunks];
    std::atomic<int> m_size{0};
    std::unique_ptr<QString[]> m_names;  // fixed slots: never move
    std::unique_ptr<std::atomic<qint64>[]> m_counts;
    std::atomic<int> m_nameCount{0};
    QHash<QByteArray, quint32> m_ids;  // writer only
    static constexpr int kFastNames = 32;
    QByteArray m_utf8[kFastNames];  // the first qualnames as in the file, by id (findInterned)
    std::atomic<int> m_utf8Count{0};
    std::atomic<qint64> m_nameBytes{0};  // heap bytes of the interned names (see intern())
    std::atomic<double> m_maxTMono{0.0}, m_minTMono{0.0}, m_minTWall{0.0}, m_maxTWall{0.0};
    bool m_haveTMono = false, m_haveTWall = false;  // writer only: a finite time was seen
};

}  // namespace lmct
