#include "cache/handlelinker.h"

#include "cache/keyanalysis.h"

#include <cmath>

namespace lmct {

void HandleLinker::index() {
    m_indexed = true;
    for (int kr = 0; kr < m_analysis.keyRecordCount(); ++kr) {
        if (m_analysis.callAt(kr) != KeyAnalysis::Call::Prefetch) {
            continue;
        }
        const QByteArrayView rid = m_analysis.requestIdBytesAt(kr);
        if (!rid.isNull()) {
            m_submitsByRid[rid.toByteArray()].push_back(kr);
        }
    }
}

qint32 HandleLinker::link(const PrefetchHandle &h, QByteArrayView rid) {
    if (h.prefetchRequestId != -1) {
        auto it = m_submitByPrefetchId.constFind(h.prefetchRequestId);
        if (it != m_submitByPrefetchId.constEnd()) {
            return it.value();
        }
    }
    if (!m_indexed) {
        index();
    }
    const QByteArray id =
        h.externalRequestId.isEmpty() ? rid.toByteArray() : h.externalRequestId.toUtf8();
    auto it = m_submitsByRid.constFind(id);
    if (it == m_submitsByRid.constEnd() || it->empty()) {
        return -1;
    }
    qint32 best = it->back();
    const double want = h.submitTMono(m_tMonoStart);
    if (std::isfinite(want)) {
        double bestD = qInf();
        for (const qint32 skr : *it) {
            const double d = std::abs(m_analysis.timeAt(skr) - want);
            if (d < bestD) {
                bestD = d;
                best = skr;
            }
        }
    }
    if (h.prefetchRequestId != -1) {
        m_submitByPrefetchId.insert(h.prefetchRequestId, best);
    }
    return best;
}

void HandleLinker::lockedKeys(const PrefetchHandle &h, std::span<const quint32> request,
                              std::vector<quint32> *out) {
    out->clear();
    for (const qint64 i : h.l1FoundIndices) {
        if (i < 0 || quint64(i) >= request.size()) {
            out->clear();
            break;
        }
        out->push_back(request[size_t(i)]);
    }
    if (out->empty()) {
        out->assign(request.begin(), request.end());
    }
}

}  // namespace lmct
