#pragma once

#include "util/fileidentity.h"

#include <QString>

namespace lmct {

/**
 * The trace files this process has open (every TraceFile that opened a file registers itself
 * until it is destroyed), by file identity: what ExportFile asks so that no export, whatever
 * its path, writes over a trace being read or shown (the other trace of a comparison, another
 * tab's trace, a hard link to one).
 *
 * A file opened twice is registered twice (add() returns a ticket per registration).
 *
 * Thread-safety: every function may be called from any thread (one mutex).
 */
class OpenTraces {
public:
    /** Registers `identity` (opened as `path`); returns the ticket remove() takes. */
    static quint64 add(const FileIdentity &identity, const QString &path);
    /** Ends the registration of `ticket` (no-op when unknown). */
    static void remove(quint64 ticket);
    /**
     * The path an open trace was opened as when `path` names the same file (device and inode),
     * else an empty string (also when `path` names nothing).
     */
    static QString openAs(const QString &path);
};

}  // namespace lmct
