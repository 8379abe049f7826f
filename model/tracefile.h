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
 * Ownership: the mappings live as long as the TraceFile; pointers returned by data() must not
 * outlive it. Thread-safety: data() and size() may be read from any thread at any time; open(),
 * openBytes() and remap() are for one thread (the loader).
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

private:
    std::unique_ptr<QFile> m_file;
    QByteArray m_bytes;
    std::vector<uchar *> m_maps;  // every mapping made, newest last
    std::atomic<const uchar *> m_data{nullptr};
    std::atomic<qint64> m_size{0};
    QString m_fileName;
};

}  // namespace lmct
