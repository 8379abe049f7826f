#pragma once

#include <QString>
#include <QStringList>

namespace lmct {

/**
 * The last applied filter of each trace file, kept in QSettings (group `filter/lastPerFile`,
 * an array of {file, filter}, most recently used first) so that a trace opened again gets its
 * filter back.
 *
 * Files are keyed by their canonical path (symbolic links and `..` resolved; the absolute path
 * when the file does not exist), so two spellings of one file share one entry. At most
 * maxCount() files are remembered: remembering one more drops the least recently used.
 * Remembering an empty or invalid filter (FilterExpression does not parse it) forgets the file.
 *
 * Thread-safety: static functions on the application's default QSettings; GUI thread only (as
 * every other QSettings user in the viewer). Errors: QSettings failures are silent (nothing is
 * remembered).
 */
class FilterMemory {
public:
    /** How many files are remembered. */
    static int maxCount() { return 200; }

    /** The key of `path`: its canonical path, or its absolute path when it does not exist. */
    static QString fileKey(const QString &path);
    /** The last filter remembered for `path`, or an empty string. */
    static QString filterFor(const QString &path);
    /**
     * Remembers `filter` as the last filter of `path` and makes it the most recent entry;
     * an empty (after trimming) or invalid filter forgets `path` instead.
     */
    static void remember(const QString &path, const QString &filter);
    /** Forgets the filter of `path`. */
    static void forget(const QString &path);
    /** The remembered files (keys), most recent first. */
    static QStringList files();
};

}  // namespace lmct
