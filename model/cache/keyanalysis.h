#pragma once

#include "cache/keytable.h"
#include "codec/objectkey.h"
#include "codec/prefetchhandle.h"
#include "codec/rawkeyscanner.h"
#include "timeline/finishreadplacement.h"
#include "trace/recordstore.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QString>
#include <QStringList>
#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace lmct {

class TraceDocument;

/**
 * Every distinct ObjectKey of a storage trace, with what the traced calls did to it: the first
 * step of "see the cache behave" (ReuseAnalysis, RequestAnalysis and AnomalyReport build on it).
 *
 * Calls considered (by Qualname::shortName, whatever the prefix): reserve_write,
 * reserve_write_with_status, finish_write, abort_write, submit_prefetch_task,
 * read_prefetched_results.__enter__, finish_read_prefetched, release_prefetch_task and
 * cancel_prefetch_task. Their keys are every ObjectKey anywhere in the record's args (`keys`,
 * `spec.keys` of a PrefetchRequestSpec, GroupedObjectKeys inside an unknown spec tag...), found
 * by RawKeyScanner in the mapped file without building Value trees. `read_prefetched_results.
 * __exit__` and unknown calls are not key records (the exits' key lists are read only to place
 * finish_read_prefetched, below).
 *
 * Release and cancel (late-2026 builds): their `handle` (PrefetchHandle) is decoded (rare
 * records). A release's keys are its `keys`, or, when nil, the keys its handle locked: the keys
 * of the submit it is linked to (handleSubmit()) at the handle's `l1_found_indices` (all of the
 * submit's keys when the handle lists none); a cancel has no keys of its own. Linking a handle to
 * its submit: the submit an earlier handle with the same `prefetch_request_id` (not -1) was linked
 * to; else, among the earlier submit_prefetch_task records with the handle's `external_request_id`,
 * the one whose t_mono is nearest to `submit_time` − the header's `t_mono_start` (the latest when
 * the handle has no submit_time; HandleLinker).
 *
 * Which finish_read_prefetched is a read (finishRoleAt()), decided from the calls' order and key
 * lists by FinishReadPlacement (docs/cache-behaviour.md, "Reads"), file order:
 * - OfRelease: the first finish_read_prefetched within kNestWindow records after a
 *   release_prefetch_task with the same key list, or after one with nil `keys` whatever its key
 *   list (keys resolved through a handle are no reliable list): the release gives its lease back
 *   through it;
 * - Read: while a read_prefetched_results.__enter__ of the same key list is open (older builds
 *   call it inside the context manager; also when its t_mono is below the exit's, called before
 *   the exit but published after it), or when no read of that key list waits for it;
 * - OfRead: after the __exit__ of a read of the same key list (t_mono at or after the exit's)
 *   that had no finish_read_prefetched yet: release_on_exit=False, the read's locks released
 *   later.
 * Only Read ones count as reads (Key::finishReads, reuse, states, anomalies).
 *
 * Key identity: chunk hash bytes, model name, kv_rank, object group id and cache salt (an absent
 * optional field differs from any present value). Keys are interned in an open-addressing table
 * keyed by a 64-bit identity hash (KeyTable); equal hashes are confirmed field by field, so two
 * identities never merge. Key ids are dense, in order of first appearance.
 *
 * Per key it keeps compact stats (Key, ≈ 120 bytes; KeyStatsAccumulator adds them up and decides
 * the state). Per key record it keeps the record index, the call and the key ids in file order (a
 * CSR: 4 bytes per key occurrence + 9 per record), so lifecycles (KeyLifecycle) and replays
 * (ReuseAnalysis) need no second decode. The CSR's offsets are 4 bytes: at most kMaxOccurrences key
 * occurrences in all (16 GB of key ids); the keys of records past that are left out and the records
 * counted in damagedRecords(). A key record's `t_mono` is read from the document's RecordStore, not
 * copied (8 bytes per record less).
 *
 * Keyless finish_write (the newest builds omit `keys` when the server has several L1
 * managers): such a record cannot be attributed to keys. It counts in keylessFinishes(), changes
 * no key's stats or state, and AnomalyReport does not call a reservation unfinished when a keyless
 * finish_write follows it.
 *
 * Times are t_mono seconds; record indices are the document's. Record i's keys are read in the
 * document's first recordCount() records, snapshot once at build (the document may grow).
 *
 * Ownership: build() returns a shared immutable object that reads `t_mono` from the document's
 * record store (timeAt()): it holds the document when a shared_ptr owns it (TraceLoader's
 * documents always are), else the caller keeps the document alive as long as the analysis.
 * Thread-safety: build() is reentrant (run it on a worker; its key scan, KeyScanPass, runs on
 * ComputePool through ParallelChunks); the result is immutable and its const methods may be called
 * from any thread.
 * Errors: records whose args are damaged contribute the keys found before the damage and are
 * counted in damagedRecords() (the first in firstDamagedRecord()); a damaged finish_write with
 * no key found before the damage is no keyless finish_write.
 */
class KeyAnalysis : public std::enable_shared_from_this<KeyAnalysis> {
public:
    /** A storage call, as it concerns keys. */
    enum class Call : quint8 {
        Reserve,            ///< reserve_write
        ReserveWithStatus,  ///< reserve_write_with_status
        Finish,             ///< finish_write
        Abort,              ///< abort_write
        Prefetch,           ///< submit_prefetch_task
        ReadEnter,          ///< read_prefetched_results.__enter__
        FinishRead,         ///< finish_read_prefetched
        Release,            ///< release_prefetch_task
        Cancel,             ///< cancel_prefetch_task (no keys of its own)
        ReadExit,           ///< read_prefetched_results.__exit__ (not a key record)
        Other               ///< anything else (not a key record)
    };
    /** The Call of a qualname (full or short). */
    static Call callOf(const QString &qualname);
    /** The short call name, e.g. "reserve_write". */
    static QString callName(Call c);

    /** What became of a key in this trace (first match wins). */
    enum class State : quint8 {
        WrittenRead,     ///< finish_write, then a read (enter or finish_read_prefetched) after it
        Written,         ///< finish_write, never read after it
        Aborted,         ///< abort_write, never finished
        ReservedOnly,    ///< reserved, neither finished nor aborted
        PrefetchedOnly,  ///< only prefetched and/or read: never reserved nor written here
    };
    static constexpr int kStateCount = 5;
    /** "written_read", "written", "aborted", "reserved_only", "prefetched_only". */
    static QString stateName(State s);
    /** People's words, e.g. "written then read". */
    static QString stateLabel(State s);

    struct Key {
        quint64 hash = 0;        ///< identity hash (RawKeyScanner::identityHash)
        quint64 hashOffset = 0;  ///< chunk hash bytes in the pool (see chunkHash())
        quint32 hashSize = 0;
        quint32 model = 0;  ///< index into models()
        qint32 salt = -1;   ///< index into salts(); -1 when the key has no cache_salt
        bool hasGroup = false;
        State state = State::PrefetchedOnly;
        /** Reserved again after its last finish_write, not finished nor aborted since: skipped
         *  by reserve_write(mode="new") as already stored (not a lost write). */
        bool reservedAgain = false;
        qint64 kvRank = 0;                         ///< packed (KvRank::unpack)
        qint64 group = 0;                          ///< object_group_id when hasGroup
        qint32 firstRecord = -1, lastRecord = -1;  ///< file order
        double firstT = 0.0, lastT = 0.0;          ///< t_mono of those records
        quint32 reserves = 0;                      ///< reserve_write + reserve_write_with_status
        quint32 finishes = 0;                      ///< finish_write
        quint32 aborts = 0;                        ///< abort_write
        quint32 prefetches = 0;                    ///< submit_prefetch_task
        quint32 readEnters = 0;                    ///< read_prefetched_results.__enter__
        quint32 finishReads = 0;  ///< finish_read_prefetched that are reads (FinishRole::Read)
        /** t_mono of the first finish_write; NaN when never finished. */
        double firstFinishT = qQNaN();
        /** First finish_write − the reservation it closed (seconds); NaN when unknown. */
        double writeLatency = qQNaN();
        /** First read after the first finish_write − that finish (seconds); NaN when none. */
        double firstReuse = qQNaN();

        /** Reads: read_prefetched_results.__enter__ + finish_read_prefetched. */
        quint32 reads() const { return readEnters + finishReads; }
    };

    /** What a finish_read_prefetched record is part of (see the class comment). */
    using FinishRole = FinishReadPlacement::Role;
    /** Records after a release_prefetch_task within which its finish_read_prefetched comes. */
    static constexpr int kNestWindow = FinishReadPlacement::kNestWindow;

    /** Called with 0..100 from the building thread. */
    using Progress = std::function<void(int percent)>;

    /**
     * Analyses the first `doc.records().size()` records (read once), or those of them still in
     * the file (readableRecordCount()). Returns nullptr when `cancel` became true meanwhile.
     *
     * A file cut short while the scan reads it (TraceDocument::checkShrunk() after the scan
     * finds fewer readable records than it read) is scanned again over the records still there,
     * as often as it is cut again meanwhile: the bytes read past the new end are MappingGuard's
     * zeros, not the records', and never count as keys or uses. `progress` then runs from 0
     * again.
     */
    static std::shared_ptr<const KeyAnalysis> build(const TraceDocument &doc,
                                                    const Progress &progress = {},
                                                    const std::atomic_bool *cancel = nullptr);

    /** Records analysed: indices [0, recordCount()) of the document. */
    int recordCount() const { return m_recordCount; }
    /**
     * Of those, the records whose frames lie within the file as it was when the analysis ended:
     * [0, readableRecordCount()), the records every figure of the analysis covers. After a file
     * was cut short while open (TraceDocument::checkShrunk()), before or while the analysis read
     * it, the records past its new end have no arguments any more: they are left out (not keys,
     * requests or anomalies), counted in lostRecords().
     */
    int readableRecordCount() const { return m_readable; }
    int lostRecords() const { return m_recordCount - m_readable; }

    int keyCount() const { return int(m_table.size()); }
    const Key &key(int id) const { return m_table.entry(quint32(id)); }
    const std::vector<Key> &keys() const { return m_table.entries(); }
    QByteArray chunkHash(int id) const;
    /** The chunk hash bytes, a view valid as long as this analysis. */
    QByteArrayView hashView(int id) const {
        return QByteArrayView(m_table.hashData() + key(id).hashOffset, qsizetype(key(id).hashSize));
    }
    QString hashHex(int id) const;
    const QString &modelName(int id) const { return m_table.models()[key(id).model]; }
    /** The key's ObjectKey (as ObjectKey::fromValue reads it). */
    ObjectKey objectKey(int id) const;
    /** Key id of `k`; -1 when the trace has no such key. */
    int find(const ObjectKey &k) const;
    /** Ids of the keys whose lowercase hex chunk hash starts with `hexPrefix` (case ignored). */
    std::vector<int> findByHashPrefix(const QString &hexPrefix) const;
    /** Whether key `id`'s hex chunk hash starts with `hexPrefix` (lowercase hex digits). */
    bool hashStartsWith(int id, const QByteArray &hexPrefix) const;

    /**
     * A filter expression (docs/filter-language.md) selecting the records that name key `id`,
     * for ViewState::setFollowedKey: `chunk_hash == <full hex>` (`chunk_hash matches "^hex$"`
     * when a longer hash starts with it: `==` on chunk_hash is a prefix match), plus
     * `model_name`, `kv_rank`, `object_group_id` and `cache_salt` conditions for the fields in
     * which another key with that hash differs. Limits of the filter language: key conditions
     * hold when ANY key of a record satisfies them, so a record naming a same-hash key of
     * another rank together with some other key of this key's rank would match too (LMCache
     * records do not mix ranks or models); and an absent object_group_id or cache_salt cannot be
     * asked for, so a key lacking one is told from same-hash keys only by its other fields.
     * Empty for an invalid id.
     */
    QString followExpression(int id) const;

    /** Distinct model names, by Key::model. */
    const QStringList &models() const { return m_table.models(); }
    /** Distinct cache salts, by Key::salt. */
    const QStringList &salts() const { return m_table.salts(); }
    /** Keys per state, indexed by int(State). */
    std::array<qint64, kStateCount> stateCounts() const;

    /** Key records: records of the calls above, in file order. */
    int keyRecordCount() const { return int(m_records.size()); }
    qint32 recordOf(int kr) const { return m_records[size_t(kr)]; }
    Call callAt(int kr) const { return Call(m_calls[size_t(kr)] & ~kAttachedBit); }
    /** t_mono of key record `kr` (seconds), as in the record store. */
    double timeAt(int kr) const { return recordTime(m_records[size_t(kr)]); }
    /** t_mono of document record `record` (seconds; below recordCount()). */
    double recordTime(int record) const { return m_store->tMono(record); }
    /** Key ids of key record `kr`, in document order (duplicates kept). */
    std::span<const quint32> keysAt(int kr) const {
        return {m_keyIds.data() + m_begin[size_t(kr)],
                size_t(m_begin[size_t(kr) + 1] - m_begin[size_t(kr)])};
    }
    /** The role of finish_read_prefetched key record `kr` (Read for any other call). */
    FinishRole finishRoleAt(int kr) const {
        return (m_calls[size_t(kr)] & kAttachedBit) ? attachedRole(kr) : FinishRole::Read;
    }
    /** The record a non-Read finish_read_prefetched belongs to: the release_prefetch_task, or
     *  the read's __enter__; -1 otherwise. */
    qint32 finishOwnerAt(int kr) const;
    /** finish_read_prefetched records per role, indexed by int(FinishRole). */
    std::array<qint64, 3> finishRoleCounts() const { return m_roleCounts; }

    /** The PrefetchHandle of release/cancel key record `kr`; nullptr when none was read. */
    const PrefetchHandle *handleAt(int kr) const;
    /** The submit_prefetch_task key record release/cancel `kr` is linked to; -1 when none. */
    int handleSubmit(int kr) const;
    /** Key records of release_prefetch_task / cancel_prefetch_task, file order. */
    const std::vector<qint32> &handleRecords() const { return m_handleKrs; }
    qint64 releaseCount() const { return m_releases; }
    qint64 cancelCount() const { return m_cancels; }
    /** Releases with nil `keys` whose keys were taken from their linked submit (and handle). */
    qint64 releasesWithRequestKeys() const { return m_releasesNil; }

    /** Keys with Key::reservedAgain (skipped by reserve_write(mode="new"): already stored). */
    qint64 alreadyStoredCount() const { return m_alreadyStored; }

    /**
     * Whether the header promises cache_salt (trace_schema_version 2) while no key carries one:
     * tenants cannot be told apart (LMCache's ObjectKey codec of late 2026 does not write it).
     */
    bool saltMissing() const { return m_saltMissing; }
    /** The sentence that says so. */
    static QString saltMissingNote();

    /** The key record of document record `record`; -1 when it is none. */
    int keyRecordOf(int record) const;
    /** `external_request_id` of a submit_prefetch_task, release or cancel key record (anywhere
     *  in its args: a handle's own for the last two). */
    QString requestIdAt(int kr) const;
    /** requestIdAt() as the UTF-8 bytes in the trace, a view valid as long as this analysis
     *  (null when absent). */
    QByteArrayView requestIdBytesAt(int kr) const;

    /** Key occurrences over all key records. */
    qint64 occurrenceCount() const { return qint64(m_keyIds.size()); }
    /** finish_write records without any key (see the class comment), file order. */
    const std::vector<qint32> &keylessFinishes() const { return m_keylessFinishes; }
    /** Key occurrences kept at most (the CSR's 4-byte offsets; see the class comment). */
    static constexpr quint64 kMaxOccurrences = 0xffffffffu;

    /** Key records whose args did not scan completely (or whose keys found no room). */
    qint64 damagedRecords() const { return m_damaged; }
    /** Record index of the first of damagedRecords() in file order; -1 when none. */
    qint32 firstDamagedRecord() const { return m_firstDamaged; }
    /** Record index of the last finish_write among damagedRecords(); -1 when none. */
    qint32 lastDamagedFinish() const { return m_lastDamagedFinish; }
    qint64 memoryBytes() const;

private:
    /** One scan of `doc`'s first `readable` of `records` records (build() checks the file after
     *  it); nullptr when cancelled. */
    static std::shared_ptr<KeyAnalysis> buildOver(const TraceDocument &doc, int records,
                                                  int readable, const Progress &progress,
                                                  const std::atomic_bool *cancel);
    static constexpr quint8 kAttachedBit = 0x80;  // in m_calls: a finish that is no read
    FinishRole attachedRole(int kr) const;
    struct Attached {
        qint32 kr;
        qint32 owner;  // record
        FinishRole role;
    };
    struct HandleRef {
        qint32 kr;
        qint32 submitKr;  // -1: not linked
        PrefetchHandle handle;
    };
    struct RequestIdRef {
        qint32 kr;
        quint32 offset;  // into m_ridPool
        quint32 size;
    };

    std::shared_ptr<const TraceDocument> m_doc;  // keeps m_store alive (when shared)
    const RecordStore *m_store = nullptr;        // the document's records (timeAt())
    int m_recordCount = 0;
    int m_readable = 0;
    KeyTable<Key> m_table;  // the keys, their chunk hashes, models and salts
    std::vector<qint32> m_records;
    std::vector<quint8> m_calls;
    std::vector<quint32> m_begin{0};  // CSR: key ids of key record kr in [m_begin[kr], [kr+1])
    std::vector<quint32> m_keyIds;
    std::vector<RequestIdRef> m_rids;
    QByteArray m_ridPool;
    std::vector<qint32> m_keylessFinishes;
    std::vector<Attached> m_attached;  // by kr
    std::array<qint64, 3> m_roleCounts{};
    std::vector<HandleRef> m_handles;  // by kr
    std::vector<qint32> m_handleKrs;
    qint64 m_releases = 0, m_cancels = 0, m_releasesNil = 0;
    qint64 m_alreadyStored = 0;
    bool m_saltMissing = false;
    qint64 m_damaged = 0;
    qint32 m_firstDamaged = -1;
    qint32 m_lastDamagedFinish = -1;
};

}  // namespace lmct
