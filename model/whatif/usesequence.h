#pragma once

#include <QString>
#include <QtGlobal>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace lmct {

class KeyAnalysis;
class TraceDocument;

/**
 * The uses of one scope of a trace, in file order: what every what-if replays.
 *
 * A use is a key occurrence of finish_write, submit_prefetch_task or
 * read_prefetched_results.__enter__ (KeyAnalysis key records, in file order; a record naming a
 * key twice makes two uses). A prefetch occurrence (submit_prefetch_task) is *counted* when its
 * key had a finish_write earlier in the file: only counted occurrences can be prefetch hits.
 *
 * Scope: all keys, or the keys of one model (KeyAnalysis::models()) and/or one tenant
 * (KeyAnalysis::salts(); kNoSalt for keys without cache_salt). Keys get dense local ids in order
 * of first use within the scope.
 *
 * Sizes: each key's bytes per object, from the first MemoryLayoutDesc found in the
 * reserve_write / reserve_write_with_status records of its model (RecordFacts::
 * layoutBytesPerObject; one argument decode per model when its first reserve has a layout, at
 * most kLayoutTries reserves, then as many submit_prefetch_task records, whose `layout_desc` is
 * the same layout); 0 when none carries one. hasSizes() is true when every key has a size
 * (bytes capacities need it).
 *
 * Positions are 32-bit: at most kNever − 1 uses are kept, later ones left out.
 *
 * Memory: 4 bytes per use for the keys, 4 for the key record, 1 flag byte, and 4 for nextUse()
 * once asked for (computed on first call, thread-safe); 16 bytes per key (size, sampling hash).
 *
 * Ownership: build() returns a shared immutable object that holds its KeyAnalysis (for times).
 * Thread-safety: build() is reentrant; the result's const methods may be called from any thread.
 */
class UseSequence {
public:
    static constexpr int kAll = -1;                 ///< scope: every model / every tenant
    static constexpr int kNoSalt = -2;              ///< tenant scope: keys without cache_salt
    static constexpr quint32 kNever = 0xffffffffu;  ///< nextUse() of a key's last use
    static constexpr int kLayoutTries = 8;  ///< records decoded per model and call to find a layout

    struct Scope {
        int model = kAll;  ///< index into KeyAnalysis::models(), or kAll
        int salt = kAll;   ///< index into KeyAnalysis::salts(), kNoSalt, or kAll
    };

    using Progress = std::function<void(int percent)>;

    /** The uses of `scope`; nullptr when `cancel` became true meanwhile. */
    static std::shared_ptr<const UseSequence> build(const TraceDocument &doc,
                                                    std::shared_ptr<const KeyAnalysis> keys,
                                                    Scope scope, const Progress &progress = {},
                                                    const std::atomic_bool *cancel = nullptr);
    /** Every use (Scope{}). An overload rather than a default argument: GCC cannot use Scope's
     *  member initialisers in a default argument inside the class. */
    static std::shared_ptr<const UseSequence> build(const TraceDocument &doc,
                                                    std::shared_ptr<const KeyAnalysis> keys);
    /** A sequence of plain key ids (tests, benchmarks): `kinds[i]` is use i's UseKind (Read
     *  when missing), sizes[k] key k's size (none: 1 each, hasSizes() false). Ids are kept as
     *  given: keyCount() is the largest + 1. A prefetch counts when an earlier use of its key was
     *  a Write. */
    static std::shared_ptr<const UseSequence> fromKeys(std::span<const quint32> keys,
                                                       std::span<const quint8> kinds,
                                                       std::span<const quint64> sizes = {});
    /** Use kinds for fromKeys(). */
    enum UseKind : quint8 { Write = 0, Prefetch = 1, Read = 2 };

    Scope scope() const { return m_scope; }
    quint32 size() const { return quint32(m_keys.size()); }
    quint32 keyCount() const { return m_keyCount; }
    quint32 keyAt(quint32 i) const { return m_keys[i]; }
    std::span<const quint32> keys() const { return m_keys; }
    UseKind kindAt(quint32 i) const { return UseKind(m_flags[i] & 3); }
    bool isPrefetch(quint32 i) const { return kindAt(i) == Prefetch; }
    /** A prefetch whose key was written (finish_write) earlier in the file. */
    bool isCounted(quint32 i) const { return (m_flags[i] & 4) != 0; }
    /** All prefetch occurrences (the prefetch hit ratio's denominator). */
    qint64 prefetchOccurrences() const { return m_prefetches; }
    /** t_mono (seconds) of use i; NaN for sequences made by fromKeys(). */
    double timeAt(quint32 i) const;
    /** The KeyAnalysis key record of use i; -1 for fromKeys(). */
    int keyRecordAt(quint32 i) const;
    /** Bytes per object of local key k (0 when unknown); 1 per key for fromKeys() without sizes. */
    quint64 sizeOf(quint32 k) const { return m_sizes.empty() ? 1 : m_sizes[k]; }
    bool hasSizes() const { return m_hasSizes; }
    /** Distinct bytes of all keys (the bytes that hold everything). */
    quint64 totalBytes() const { return m_totalBytes; }
    /** For each use, the position of the next use of its key, or kNever. */
    std::span<const quint32> nextUse() const;
    const KeyAnalysis *keyAnalysis() const { return m_ka.get(); }

    /** The 64-bit sampling hash of local key k: its identity hash (KeyAnalysis::Key::hash) or,
     *  for fromKeys(), a hash of its id; both mixed (splitmix64's finaliser). */
    quint64 sampleHash(quint32 k) const { return m_hashes[k]; }
    /**
     * SHARDS's spatial sample: the uses of the keys whose sampleHash() is below rate·2^64, in
     * order, keys renumbered densely (sizes, kinds, counted flags, times and key records kept;
     * prefetchOccurrences() counts the sampled ones). rate ≥ 1 gives a copy.
     */
    std::shared_ptr<const UseSequence> sampled(double rate) const;

private:
    Scope m_scope;
    std::shared_ptr<const KeyAnalysis> m_ka;
    std::vector<quint32> m_keys;
    std::vector<qint32> m_keyRecords;
    std::vector<quint8> m_flags;
    std::vector<quint64> m_sizes;
    std::vector<quint64> m_hashes;
    quint32 m_keyCount = 0;
    qint64 m_prefetches = 0;
    quint64 m_totalBytes = 0;
    bool m_hasSizes = false;
    mutable std::once_flag m_nextOnce;
    mutable std::vector<quint32> m_next;
};

}  // namespace lmct
