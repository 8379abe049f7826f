#pragma once

#include <QByteArray>
#include <QIODevice>
#include <QString>
#include <functional>

namespace lmct {

/**
 * Writes an export file atomically: through QSaveFile, so a failed or cancelled export leaves
 * nothing behind (no half-written file, an existing file untouched).
 *
 * Refuses, with a message naming the path: a directory as the target, the trace being exported
 * (`inputPath`) and every trace this process has open (OpenTraces: the other trace of a
 * comparison, another tab's), both compared by file identity (device and inode: hard and
 * symbolic links too), a folder that does not exist or cannot be written. Every export (plots,
 * reports, records, SQLite) passes here, so none writes over a trace it reads; write() checks
 * again before it replaces the file.
 *
 * Thread-safety: reentrant.
 */
class ExportFile {
public:
    /** Writes the content. Returns false and sets `error` to abandon the file. */
    using Body = std::function<bool(QIODevice *out, QString *error)>;

    /**
     * Opens `path` through QSaveFile, runs `body`, commits. Returns false with `error` set
     * ("cannot write PATH: reason") when anything failed; the target is then unchanged.
     */
    static bool write(const QString &path, const Body &body, QString *error,
                      const QString &inputPath = {});

    /**
     * Writes all of `bytes` to `out` and flushes it (a QFileDevice); false with `error` set to
     * the device's reason when any of it is not written. What a Body writing a file encoded in
     * memory calls.
     */
    static bool writeAll(QIODevice *out, const QByteArray &bytes, QString *error);

    /**
     * The refusals above, checked before anything is written (also by exports that replace
     * their file themselves, SqliteExport). False with `error` set ("cannot write PATH: ...").
     */
    static bool checkTarget(const QString &path, QString *error, const QString &inputPath = {});
};

}  // namespace lmct
