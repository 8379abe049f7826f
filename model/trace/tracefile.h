#pragma once

#include <QByteArray>
#include <QFile>
#include <QMutex>
#include <QString>
#include <atomic>
#include <memory>
#include <vector>

namespace lmct {

/**
 * A trace file mapped read-only into memory.
 *
 * The file is opened with QIODevice::ReadOnly and mapped with QFile::map(); it is never written
 * and never copied as a whole. Offsets and sizes are 64-bit (files over 4 GiB work). An empty file
 * is valid here (size() == 0, data() == nullptr); deciding whether it is a trace is the loader's
 * job.
 *
 * A file that grows (a trace still being recorded) is mapped again by remap(); earlier mappings
 * stay mapped until the TraceFile is destroyed, so pointers into them stay valid, and since a trace
 * is only ever appended to, every mapping shows the same bytes where they overlap.
 *
 * A file that shrinks while mapped (truncated by another process) does not crash the reader:
 * every mapping is registered with MappingGuard, whose SIGBUS handler maps zeros over a page read
 * beyond the new end of the file. The bytes read there are not the file's; checkShrunk() tells
 * where the file now ends, and readers (TraceLoader, TraceDocument::args) treat what lies beyond
 * it as not there and report it. Once the file has shrunk, remap() no longer maps it again (its
 * content was rewritten under us; the records read so far stay).
 *
 * While open, the file is registered with OpenTraces (by device and inode), so that no export
 * writes over it.
 *
 * Ownership: the mappings live as long as the TraceFile; pointers returned by data() must not
 * outlive it. Thread-safety: data(), size(), shrunkTo() and checkShrunk() may be called from any
 * thread at any time; open(), openBytes() and remap() are for one thread (the loader).
 */
class TraceFile {
public:
    TraceFile() = default;
    ~TraceFile();
    TraceFile(const TraceFile &) = delete;
    TraceFile &operator=(const TraceFile &) = delete;

    /**
     * Opens and maps `path`. Returns false and sets `*error` (naming the file and the reason)
     * when the file cannot be opened, is not a regular file, or cannot be mapped.
     */
    bool open(const QString &path, QString *error);

    /** Maps an in-memory copy instead of a file (tests, fuzzing). `bytes` is kept by value. */
    void openBytes(const QByteArray &bytes, const QString &displayName);

    /**
     * Maps the file again when it has grown. Returns true when size() grew; false when it did not
     * (or cannot be mapped, with `*error` set when given).
     */
    bool remap(QString *error = nullptr);

    /** Start of the newest mapping (covers [0, size())). */
    const uchar *data() const { return m_data.load(std::memory_order_acquire); }
    qint64 size() const { return m_size.load(std::memory_order_acquire); }
    QString fileName() const { return m_fileName; }

    /**
     * Drops this process's resident pages of the newest mapping inside [offset, offset + length)
     * (whole pages only), so that reading a file once does not keep all of it in the process's
     * RSS. The bytes stay in the kernel's page cache and are read again on the next access, so
     * data() stays valid and shows the same bytes. Does nothing for openBytes() (its memory is
     * the process's own) or off Linux. Offset and length in bytes.
     *
     * Thread-safety: may be called from any thread, also while others read the same pages (they
     * fault them in again).
     */
    void releaseResident(qint64 offset, qint64 length) const;

    /**
     * Size in bytes the file was found to have shrunk to while mapped (smaller than size()), or
     * -1 while it has not been seen to shrink. Only updated by checkShrunk().
     */
    qint64 shrunkTo() const { return m_shrunkTo.load(std::memory_order_acquire); }
    /**
     * Checks now whether the file is shorter than mapped (fstat) or a read of a mapping faulted
     * beyond its end (MappingGuard); returns the size it shrank to (bytes), or -1 when it did
     * not. A fault without a shrink (an I/O error) counts as the file ending at the faulting
     * page. Cheap enough to call once per batch of records (one fstat); always -1 for
     * openBytes().
     */
    qint64 checkShrunk() const;

    /**
     * Whether the file is no longer the one mapped as it was when mapped: its identity (device
     * and inode) or its size or its last change (modification and status change times, to the
     * nanosecond) differ from what fstat said when the newest mapping was made or restamp()
     * was last called. A file appended to has changed too; a file cut and written again past
     * its old size has, though checkShrunk() sees no shrink. Then the bytes read must be
     * checked (TraceDocument::checkRewritten). False for openBytes(). One fstat; any thread.
     */
    bool changedSinceMapped() const;
    /** Takes what fstat says now as the file as mapped (the bytes read were found intact). */
    void restamp() const;
    /**
     * The bytes from `offset` on are no longer those read (the file was cut there or before
     * and written again): shrunkTo() becomes at most `offset`, and rewritten() true.
     */
    void noteRewrittenFrom(qint64 offset) const;
    /** Whether noteRewrittenFrom() found bytes read replaced (shrunkTo() is where). */
    bool rewritten() const { return m_rewritten.load(std::memory_order_acquire); }

private:
    /** What fstat says of the file: identity, size and last change times (ns). */
    struct Stamp {
        quint64 device = 0;
        quint64 inode = 0;
        qint64 size = -1;
        qint64 modified = 0;
        qint64 changed = 0;
        bool operator==(const Stamp &) const = default;
    };
    /** fstat of the open file; a Stamp with size -1 when it fails or off Unix. */
    Stamp stampNow() const;
    mutable QMutex m_stampMutex;  // guards m_stamp
    mutable Stamp m_stamp;        // the file as mapped (remap(), restamp())
    mutable std::atomic_bool m_rewritten{false};

    std::unique_ptr<QFile> m_file;
    QByteArray m_bytes;
    std::vector<uchar *> m_maps;  // every mapping made, newest last
    std::vector<int> m_guards;    // MappingGuard slot of each mapping (-1: not guarded)
    mutable QMutex m_guardMutex;  // guards m_guards against checkShrunk() on other threads
    mutable std::atomic<qint64> m_shrunkTo{-1};
    std::atomic<const uchar *> m_data{nullptr};
    std::atomic<qint64> m_size{0};
    QString m_fileName;
    quint64 m_openTicket = 0;  // OpenTraces registration of the open file (0: none)
};

}  // namespace lmct
