#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>
#include <memory>

namespace lmct {

/**
 * A trace file mapped read-only into memory.
 *
 * The file is opened with QIODevice::ReadOnly and mapped with QFile::map(); it is never written
 * and never copied as a whole. Offsets and sizes are 64-bit (files over 4 GiB work). An empty file
 * is valid here (size() == 0, data() == nullptr); deciding whether it is a trace is the loader's
 * job.
 *
 * Ownership: the mapping lives as long as the TraceFile. Pointers returned by data() must not
 * outlive it. Thread-safety: after open() returns, the object is immutable; data() may be read
 * from any thread concurrently.
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

    /** Maps an in-memory copy instead of a file (tests, stdin). `bytes` is kept by value. */
    void openBytes(const QByteArray &bytes, const QString &displayName);

    const uchar *data() const { return m_data; }
    qint64 size() const { return m_size; }
    QString fileName() const { return m_fileName; }

private:
    std::unique_ptr<QFile> m_file;
    QByteArray m_bytes;
    const uchar *m_data = nullptr;
    qint64 m_size = 0;
    QString m_fileName;
};

}  // namespace lmct
