#pragma once

#include "cache/keyanalysis.h"

#include <QString>
#include <atomic>
#include <memory>
#include <vector>

namespace lmct {

/**
 * Per request: what it asked for, what it then read, and the writes that followed. One row per
 * submit_prefetch_task record (a request id submitted twice gives two rows), from a KeyAnalysis.
 *
 * Read matching rule (a read carries only keys, no request id): each
 * read_prefetched_results.__enter__, in file order, goes to
 *   1. prefix: among the earlier submits still without a read whose requested key list starts
 *      with the enter's whole key list (same keys, same order; the latest 256 looked at), the
 *      latest one of the best level: (2) consistent: every read key had been written
 *      (finish_write) before that submit, and the requested key just after the read prefix had
 *      not (had it been, that request's hit would have been longer); (1) only the read keys had
 *      been written before that submit; (0) any. Else
 *   2. overlap: the latest earlier submit still without a read that requested any of the
 *      enter's keys (the latest request of each read key is looked at);
 *   otherwise the enter belongs to no request. The latest rather than the oldest: a submit is
 *   followed by its own read within milliseconds, while older submits without a read are
 *   typically requests that had no hit.
 * Where releases and cancels tell how requests ended (late-2026 builds, linked as below), they
 * come first in both steps: a request cancelled and never released is no candidate (a cancelled
 * prefetch was never read), nor one whose last release comes before the enter; a candidate whose
 * release follows the enter is preferred to any other (in the prefix step before the levels),
 * the one with the earliest such release among them (pairs end in the order they were read).
 *
 * prefixHit: how many of the requested keys, from the start, are among the matched read's keys
 * (0 without a read). timeToRead = t_mono(enter) − t_mono(submit).
 *
 * LMCache's own account (late-2026 builds): a release_prefetch_task or cancel_prefetch_task is
 * linked to its submit by KeyAnalysis::handleSubmit() (the handle's `prefetch_request_id` where
 * it is not -1, else its `external_request_id` and `submit_time`). The request keeps the first
 * such handle (handleKr()) and whether it was released and/or cancelled. Its handle's
 * `l1_prefix_hit_count` of `total_requested_keys` is compared with the hit the calls show
 * (hitCheck()): with a matched read, the read's prefixHit (equal counts agree); without one
 * (cancelled: dropped before being read), storedPrefix, the leading requested keys written
 * (finish_write) before the submit, bounds it from above (evictions are not traced), so a count
 * at most storedPrefix agrees. A total_requested_keys other than the keys requested disagrees.
 *
 * Writes that followed: each key occurrence of a reserve_write / reserve_write_with_status /
 * finish_write after the submit is credited to the latest earlier submit that requested that key
 * (so a key requested again by a later request is credited to the later one).
 *
 * Ownership: build() returns a shared immutable object that holds `keys` (shared: KeyAnalysis
 * objects are made by KeyAnalysis::build, which shares them) for the request ids and times.
 * Thread-safety: build() is reentrant (run it on a worker); the result's const methods may be
 * called from any thread.
 */
class RequestAnalysis {
public:
    enum class Match : quint8 { None, Prefix, Overlap };
    static QString matchName(Match m);

    /**
     * One request, 44 bytes: record indices and counts only. Its request id and times are read
     * through the analysis (requestId(), submitT(), ...) from the KeyAnalysis it holds, which
     * reads them from the trace.
     */
    struct Request {
        qint32 submitRecord = -1;     ///< the submit_prefetch_task record
        qint32 submitKeyRecord = -1;  ///< its KeyAnalysis key record
        qint32 requested = 0;         ///< keys asked for
        qint32 readRecord = -1;       ///< the matched __enter__, or -1
        qint32 readKeys = 0;          ///< keys of that read
        qint32 prefixHit = 0;         ///< leading requested keys that were read
        qint32 reserved = 0;          ///< reserve key occurrences credited to this request
        qint32 finished = 0;          ///< finish_write key occurrences credited to this request
        qint32 firstReserveRecord = -1;
        qint32 lastFinishRecord = -1;
        Match match = Match::None;
        bool released = false;   ///< a release_prefetch_task is linked to it
        bool cancelled = false;  ///< a cancel_prefetch_task is linked to it
    };

    /** LMCache's account against the calls' (see the class comment). */
    enum class HitCheck : quint8 {
        NoAccount,  ///< no release/cancel handle with a hit count
        Agrees,
        Disagrees
    };

    /** external_request_id of `q`'s submit (anywhere in its args; empty when absent). */
    QString requestId(const Request &q) const { return m_keys->requestIdAt(q.submitKeyRecord); }
    /** requestId() as the UTF-8 bytes in the trace (a view valid as long as this analysis). */
    QByteArrayView requestIdBytes(const Request &q) const {
        return m_keys->requestIdBytesAt(q.submitKeyRecord);
    }
    /** t_mono of `q`'s submit (seconds). */
    double submitT(const Request &q) const { return m_keys->recordTime(q.submitRecord); }
    /** t_mono of the matched read (seconds); NaN without one. */
    double readT(const Request &q) const { return timeOrNaN(q.readRecord); }
    /** t_mono of the last credited finish_write (seconds); NaN without one. */
    double lastFinishT(const Request &q) const { return timeOrNaN(q.lastFinishRecord); }
    /** Read − submit (seconds); NaN without a read. */
    double timeToRead(const Request &q) const { return readT(q) - submitT(q); }
    /** Last credited finish_write − submit (seconds); NaN without one. */
    double timeToWritten(const Request &q) const { return lastFinishT(q) - submitT(q); }

    /** The PrefetchHandle of `q`'s first release/cancel; nullptr without one. */
    const PrefetchHandle *handle(const Request &q) const {
        const int kr = handleKr(q);
        return kr < 0 ? nullptr : m_keys->handleAt(kr);
    }
    /** Key record of `q`'s first release/cancel with a handle; -1 without one. */
    int handleKr(const Request &q) const {
        const Link *l = linkOf(q);
        return l ? l->handleKr : -1;
    }
    /** Leading requested keys of `q` written (finish_write) before its submit; counted for the
     *  requests with a handle only (0 for the others). */
    qint32 storedPrefix(const Request &q) const {
        const Link *l = linkOf(q);
        return l ? l->storedPrefix : 0;
    }
    HitCheck hitCheck(const Request &q) const;
    static QString hitCheckName(HitCheck c);
    /** The hit the calls show: prefixHit with a read, else storedPrefix (an upper bound). */
    qint32 inferredHit(const Request &q) const {
        return q.readRecord >= 0 ? q.prefixHit : storedPrefix(q);
    }
    /** "N of T" from the handle (empty without one). */
    QString handleHitText(const Request &q) const;
    /** "N of T" read, or "at most N of T" (no read). */
    QString inferredHitText(const Request &q) const;

    using Progress = KeyAnalysis::Progress;

    /** Returns nullptr when `cancel` became true meanwhile. */
    static std::shared_ptr<const RequestAnalysis> build(const KeyAnalysis &keys,
                                                        const Progress &progress = {},
                                                        const std::atomic_bool *cancel = nullptr);

    const std::vector<Request> &requests() const { return m_requests; }
    /** The key analysis the requests were built from. */
    const KeyAnalysis &keys() const { return *m_keys; }
    int count() const { return int(m_requests.size()); }
    const Request &at(int i) const { return m_requests[size_t(i)]; }
    /** Index of the request whose submit, read, first reserve or last finish is `record`. */
    int requestOfRecord(int record) const;

    qint64 readsMatched() const { return m_readsMatched; }
    qint64 readsUnmatched() const { return m_readsUnmatched; }
    /** Requests with a linked cancel_prefetch_task / release_prefetch_task. */
    qint64 cancelledCount() const { return m_cancelled; }
    qint64 releasedCount() const { return m_released; }
    /** Requests whose hitCheck() is Disagrees / Agrees. */
    qint64 disagreeCount() const { return m_disagree; }
    qint64 agreeCount() const { return m_agree; }
    /** Release/cancel records linked to no submit. */
    qint64 unlinkedHandles() const { return m_unlinked; }

    /** Bytes of heap held by the request table (capacity; request ids' text not counted). */
    qint64 memoryBytes() const {
        return qint64(m_requests.capacity() * sizeof(Request) + m_links.capacity() * sizeof(Link));
    }

private:
    /** What a request with a release/cancel handle has besides (few requests: kept apart, the
     *  Request stays 44 bytes). */
    struct Link {
        qint32 submitKr;
        qint32 handleKr;
        qint32 storedPrefix;
    };
    const Link *linkOf(const Request &q) const;
    std::vector<Link> m_links;  // by submitKr

    double timeOrNaN(qint32 record) const {
        return record < 0 ? qQNaN() : m_keys->recordTime(record);
    }

    std::shared_ptr<const KeyAnalysis> m_keys;  // request ids and times are read through it
    std::vector<Request> m_requests;
    qint64 m_readsMatched = 0;
    qint64 m_readsUnmatched = 0;
    qint64 m_cancelled = 0, m_released = 0, m_disagree = 0, m_agree = 0, m_unlinked = 0;
};

}  // namespace lmct
