#pragma once

#include <QString>
#include <QStringList>

namespace lmct {

/**
 * Helpers for record qualnames (LMCache's call sites, e.g.
 * `lmcache.v1.distributed.storage_manager.StorageManager.reserve_write`).
 */
class Qualname {
public:
    /** The prefix of every storage-level qualname. */
    static QString storagePrefix() {
        return QStringLiteral("lmcache.v1.distributed.storage_manager.StorageManager.");
    }

    /**
     * The call as people say it: everything after the class name (the last dotted component
     * that starts with an upper-case letter), e.g. `reserve_write` or
     * `read_prefetched_results.__enter__`. Qualnames without a class (`events.batch`) are
     * returned whole.
     */
    static QString shortName(const QString &qualname);
    /**
     * shortName() as the views show it: control and bidi characters escaped
     * (TerminalText::escaped), so that a hostile qualname cannot reverse or break the text
     * around it, and at most about kMaxDisplayChars characters (longer ones keep their start,
     * then "… (N characters)", see capped(): a 50 MB qualname hung the viewer, which shaped it on
     * every paint of the table, and a 1 MB one crashed the headless export after 14.7 GB). Filters
     * still match the name as recorded.
     */
    static QString displayName(const QString &qualname);
    /** The full qualname as tooltips show it: escaped and capped like displayName(). */
    static QString displayFull(const QString &qualname);
    /**
     * `name` itself when at most kMaxDisplayChars long, else its start and "… (N characters)"
     * (no escaping; text outputs escape their lines).
     */
    static QString capped(const QString &name);
    /** Characters of a qualname the views and text outputs show at most (see displayName()). */
    static constexpr int kMaxDisplayChars = 200;

    /**
     * LMCache's call flow, the default lane order (short names): submit_prefetch_task,
     * read_prefetched_results.__enter__, finish_read_prefetched, release_prefetch_task,
     * cancel_prefetch_task, read_prefetched_results.__exit__, reserve_write,
     * reserve_write_with_status, finish_write, abort_write. The two prefetch-lease calls of late
     * 2026 builds (spec §6) sit beside finish_read_prefetched: a release releases its lease
     * through a nested finish_read_prefetched, a cancel drops a lease that was never read.
     */
    static const QStringList &callFlow();

    /** Sort key for lanes: position in callFlow(), unknown qualnames after, in name order. */
    static int flowRank(const QString &qualname);
    /** Orders qualnames by flowRank, then by name. */
    static bool flowLess(const QString &a, const QString &b);
};

}  // namespace lmct
