#pragma once

#include "codec/prefetchhandle.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <span>
#include <vector>

namespace lmct {

class KeyAnalysis;

/**
 * Links the PrefetchHandle of a release_prefetch_task or cancel_prefetch_task (late-2026 builds)
 * to the submit_prefetch_task it was returned by (KeyAnalysis::handleSubmit()), and resolves the
 * keys a release with nil `keys` gives back (lockedKeys()).
 *
 * Linking, in file order: the submit an earlier handle with the same `prefetch_request_id` (not
 * -1) was linked to; else, among the earlier submit_prefetch_task key records with the handle's
 * `external_request_id` (the record's own when the handle has none), the one whose t_mono is
 * nearest to the handle's `submit_time` − the header's `t_mono_start` (PrefetchHandle::
 * submitTMono), the latest when that is unknown. The submits by request id are indexed at the
 * first link (traces without release/cancel pay nothing); from then on addSubmit() extends the
 * index.
 *
 * Units: key record indices of the KeyAnalysis being built, t_mono seconds.
 * Ownership: reads that KeyAnalysis through its public accessors (keyRecordCount(), callAt(),
 * timeAt(), requestIdBytesAt()) and must not outlive it; copies the request ids it indexes.
 * Thread-safety: none (one linker per build, on the building thread).
 * Errors: none: a handle without a matching submit is not linked (-1).
 */
class HandleLinker {
public:
    /** `tMonoStart`: the header's t_mono_start (NaN when absent). */
    HandleLinker(const KeyAnalysis &analysis, double tMonoStart)
        : m_analysis(analysis), m_tMonoStart(tMonoStart) {}

    /** Submit key record `kr` (already in the analysis) has request id `rid` (not null). */
    void addSubmit(qint32 kr, QByteArrayView rid) {
        if (m_indexed) {
            m_submitsByRid[rid.toByteArray()].push_back(kr);
        }
    }
    /** The submit key record handle `h` of a record with request id `rid` is linked to; -1 when
     *  none. */
    qint32 link(const PrefetchHandle &h, QByteArrayView rid);

    /**
     * The keys a release with nil `keys` gives back: the request's keys `request` at the handle's
     * l1_found_indices (the keys its prefetch locked in L1), or all of `request` when the handle
     * lists no found index or one outside `request`. `out` is replaced.
     */
    static void lockedKeys(const PrefetchHandle &h, std::span<const quint32> request,
                           std::vector<quint32> *out);

private:
    void index();

    const KeyAnalysis &m_analysis;
    double m_tMonoStart;
    bool m_indexed = false;
    QHash<QByteArray, std::vector<qint32>> m_submitsByRid;  // key records, file order
    QHash<qint64, qint32> m_submitByPrefetchId;
};

}  // namespace lmct
