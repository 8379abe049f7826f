#pragma once

#include <QtGlobal>
#include <vector>

namespace lmct {

/**
 * Which finish_read_prefetched records are reads of their own, decided from the calls' order and
 * key lists (docs/cache-behaviour.md, "Reads"); shared by KeyAnalysis and TraceStatistics so that
 * both count the same reads. Fed the read_prefetched_results enters and exits, the
 * release_prefetch_task and the finish_read_prefetched records in file order, each with its key
 * list as a 64-bit hash (any hash of the ordered keys' identities, the same for equal lists).
 *
 * A finish_read_prefetched is, first match wins:
 * - OfRelease: the first within kNestWindow records after a release with the same key list, or
 *   after a release with nil `keys` whatever its list: a nil release's keys, even resolved
 *   through its handle, are no reliable list (the lease covers the keys the server locked);
 * - Read: while an enter of the same key list is open and has no finish yet (older builds), or
 *   after such a read's exit when its t_mono is below the exit's (called inside, published after);
 * - OfRead: after the exit of a read of the same key list that had no finish, t_mono at or after
 *   the exit's (late-2026 builds, release_on_exit=False);
 * - Read otherwise.
 *
 * Memory is bounded: at most 4096 open reads, 1024 reads closed without a finish and 64 recent
 * releases are kept (the oldest dropped), a few at a time in practice.
 *
 * Units: t_mono seconds, document record indices. Thread-safety: a value type.
 */
class FinishReadPlacement {
public:
    enum class Role : quint8 {
        Read,       ///< a read of its own (or, in older builds, of the read it sits in)
        OfRelease,  ///< the lease given back by the release_prefetch_task just before it
        OfRead      ///< the locks of an earlier read pair released late (release_on_exit=False)
    };
    /** Records after a release_prefetch_task within which its finish_read_prefetched comes. */
    static constexpr int kNestWindow = 16;

    void enter(quint64 list, qint32 record);
    void exit(quint64 list, double t);
    /** A release; `keysKnown` false when its `keys` were nil (its finish may name any list). */
    void release(quint64 list, qint32 record, bool keysKnown = true);
    /** Places a finish_read_prefetched; `owner` gets the release or enter record (-1: Read). */
    Role finish(quint64 list, qint32 record, double t, qint32 *owner);

private:
    struct Read {
        quint64 list;
        qint32 enter;
        bool finished;
        double exitT;
    };
    struct Release {
        quint64 list;
        qint32 record;
        bool keysKnown;
    };
    std::vector<Read> m_open, m_closed;
    std::vector<Release> m_releases;
};

}  // namespace lmct
