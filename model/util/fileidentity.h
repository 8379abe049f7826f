#pragma once

#include <QString>
#include <QtGlobal>
#include <optional>

namespace lmct {

/**
 * Which file a path names: its device and inode (stat), so that two paths that reach one file
 * (a hard link, a symbolic link, "./x" and "/abs/x", a bind mount) compare equal. Exports use it
 * to refuse writing over a trace they read (ExportFile).
 *
 * Off Unix (no inode) the identity is the canonical path's hash, which catches symbolic links
 * and relative paths but not hard links.
 *
 * Errors: of() is nullopt when the path names nothing (or stat fails). Thread-safety: a value;
 * of() and ofHandle() are reentrant.
 */
class FileIdentity {
public:
    quint64 device = 0;
    quint64 inode = 0;

    /** The file `path` names (symbolic links followed); nullopt when none. */
    static std::optional<FileIdentity> of(const QString &path);
    /** The file open as descriptor `fd` (fstat); nullopt when it fails or off Unix. */
    static std::optional<FileIdentity> ofHandle(int fd);
    /** Whether `a` and `b` both name one existing file. */
    static bool same(const QString &a, const QString &b);

    bool operator==(const FileIdentity &) const = default;
};

}  // namespace lmct
