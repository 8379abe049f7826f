#pragma once

#include "whatif/usesequence.h"

#include <QString>
#include <QStringList>
#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <span>

namespace lmct {

/**
 * One eviction policy simulated at one capacity: the what-if's unit of work.
 *
 * A simulator is fed the uses of a UseSequence in order (access()). A hit is a key that is
 * resident; on a miss the key is admitted (demand caching, as LMCache's L1 stores what it misses
 * through the write that follows), evicting by the policy until it fits. A key larger than the
 * whole capacity is never admitted. Sizes are in the capacity's unit: 1 per key for capacities in
 * chunks, the key's bytes per object for capacities in bytes.
 *
 * Policies (definitions as in docs/cache-behaviour.md, "What-if"; cross-checked against the
 * textbook papers and libCacheSim's code, written independently):
 * - Lru: evicts the least recently used key.
 * - Fifo: evicts the key admitted first; hits do not reorder.
 * - Clock: FIFO with one reference bit per key, set on a hit; the hand clears set bits and
 *   evicts the first key found clear (second chance).
 * - S3Fifo (Yang et al., SOSP'23): a small FIFO of 10 % of the capacity and a main FIFO of the
 *   rest; new keys enter small (or main when their id is in the ghost FIFO); a key leaving small
 *   moves to main if it was hit while in small, else its id goes to the ghost FIFO (holding as
 *   many units as main's capacity); main is a FIFO with a 2-bit frequency, reinserted while
 *   non-zero (S3FifoPolicy has the exact rules).
 * - Arc (Megiddo & Modha, FAST'03): T1/T2 with ghost lists B1/B2 and the adaptive target p
 *   (ArcPolicy has the exact rules, and how sizes enter them).
 * - Opt: Belady's MIN with demand admission: every miss is admitted, and the resident key whose
 *   next use is farthest away (or never comes) is evicted. It needs the sequence's next-use
 *   positions (UseSequence::nextUse()).
 *
 * Every simulator keeps flat arrays indexed by the sequence's dense key ids and allocates nothing
 * per use: FIFO, CLOCK and S3-FIFO a state byte per key and rings of entries (KeyRing), LRU and
 * ARC intrusive lists (KeyLists, 16 bytes per key), OPT a bit per use.
 *
 * Ownership: a simulator owns its state; the UseSequence given to create() must outlive it.
 * Thread-safety: one simulator per thread; different simulators may run concurrently.
 * Errors: none; create() returns nullptr for capacity 0.
 */
class CachePolicy {
public:
    enum class Kind { Lru, Fifo, Clock, S3Fifo, Arc, Opt };
    static constexpr int kKindCount = 6;

    virtual ~CachePolicy() = default;

    /** Use `position` of the sequence: key `key` (dense id) of `size` units. True on a hit. */
    virtual bool access(quint32 key, quint64 size, quint32 position) = 0;
    /** Units resident now. */
    virtual quint64 occupied() const = 0;

    /** What a replay counted. */
    struct Tally {
        qint64 prefetchHits =
            0;              ///< counted prefetch occurrences (UseSequence::isCounted) that hit
        qint64 misses = 0;  ///< uses that missed
    };
    /**
     * Feeds uses [begin, end) of `uses` (each key of UseSequence::sizeOf() units when `inBytes`,
     * else 1) and adds to `tally`: access() in a loop the compiler can inline. False when
     * `cancel` became true (checked every 65536 uses); the tally then covers part of the range.
     */
    virtual bool replay(const UseSequence &uses, bool inBytes, quint32 begin, quint32 end,
                        Tally &tally, const std::atomic_bool *cancel = nullptr) = 0;

    /** A simulator of `kind` at `capacity` units for the keys of `uses`. */
    static std::unique_ptr<CachePolicy> create(Kind kind, quint64 capacity,
                                               const UseSequence &uses);

    /** "lru", "fifo", "clock", "s3fifo", "arc", "opt" (the CLI's and JSON's names). */
    static QString name(Kind kind);
    /** "LRU", "FIFO", "CLOCK", "S3-FIFO", "ARC", "OPT". */
    static QString label(Kind kind);
    /** The kind of a name or label, case ignored ("LRU", "s3-fifo", "s3fifo"); nullopt if none. */
    static std::optional<Kind> fromName(const QString &name);
    /** Every kind, in the order above. */
    static std::span<const Kind> all();

protected:
    /** replay() for a final policy class P: calls P::access directly (no virtual dispatch). */
    template <class P>
    static bool replayAs(P &p, const UseSequence &uses, bool inBytes, quint32 begin, quint32 end,
                         Tally &tally, const std::atomic_bool *cancel) {
        const quint32 *keys = uses.keys().data();
        qint64 hits = 0, misses = 0;
        for (quint32 i = begin; i < end;) {
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                tally.prefetchHits += hits;
                tally.misses += misses;
                return false;
            }
            const quint32 stop = std::min<quint32>(end, i + 65536);
            for (; i < stop; ++i) {
                const quint32 k = keys[i];
                const bool hit = p.P::access(k, inBytes ? uses.sizeOf(k) : 1, i);
                misses += hit ? 0 : 1;
                hits += (hit && uses.isCounted(i)) ? 1 : 0;
            }
        }
        tally.prefetchHits += hits;
        tally.misses += misses;
        return true;
    }
};

}  // namespace lmct
