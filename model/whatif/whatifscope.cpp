#include "whatif/whatifscope.h"

#include "cache/cacheanalysis.h"

#include <algorithm>

namespace lmct {

WhatIfScope::WhatIfScope(const CacheAnalysis *analysis, UseSequence::Scope scope,
                         const UseSequence *uses, qint64 countedPrefetches)
    : m_analysis(analysis), m_scope(scope) {
    if (uses) {
        m_known = true;
        m_uses = uses->size();
        m_prefetches = uses->prefetchOccurrences();
        m_counted = countedPrefetches;
        return;
    }
    const ReuseAnalysis *r = analysis ? analysis->reuse.get() : nullptr;
    if (!r || (scope.salt != UseSequence::kAll && r->total().uses > 0)) {
        return;  // (a tenant's are not known before its uses are)
    }
    const ReuseAnalysis::Stats &st = scope.model >= 0 && scope.model < int(r->models().size())
                                         ? r->models()[size_t(scope.model)]
                                         : r->total();
    m_known = true;
    m_uses = st.uses;
    m_prefetches = st.prefetches;
    m_counted = st.prefetchHits;
}

qint64 WhatIfScope::keys() const {
    const KeyAnalysis *ka = m_analysis ? m_analysis->keys.get() : nullptr;
    if (!ka) {
        return 1;
    }
    if (m_scope.model == UseSequence::kAll && m_scope.salt == UseSequence::kAll) {
        return std::max(1, ka->keyCount());
    }
    qint64 n = 0;
    for (int k = 0; k < ka->keyCount(); ++k) {
        const KeyAnalysis::Key &key = ka->key(k);
        const bool model = m_scope.model == UseSequence::kAll || int(key.model) == m_scope.model;
        const bool salt =
            m_scope.salt == UseSequence::kAll ||
            (m_scope.salt == UseSequence::kNoSalt ? key.salt < 0 : key.salt == m_scope.salt);
        n += model && salt;
    }
    return std::max<qint64>(1, n);
}

double WhatIfScope::bestRatio() const {
    return m_prefetches > 0 ? double(m_counted) / double(m_prefetches) : 0.0;
}

QString WhatIfScope::emptyReason(const QString &scopeWords) const {
    if (!m_analysis || !m_known) {
        return QString();
    }
    const QString calls = QStringLiteral(
        "The what-if replays the keys of the finish_write, submit_prefetch_task and "
        "read_prefetched_results records");
    const ReuseAnalysis *r = m_analysis->reuse.get();
    if (r && r->total().uses == 0) {
        return QStringLiteral(
                   "Nothing to plot: the trace has no key calls.\n%1; this trace has "
                   "none.")
            .arg(calls);
    }
    if (m_uses == 0) {
        return QStringLiteral(
                   "Nothing to plot: the keys of %1 are never used.\n%2; none of "
                   "them names these keys.")
            .arg(scopeWords, calls);
    }
    if (m_prefetches == 0) {
        return QStringLiteral(
                   "Nothing to plot: the keys of %1 are never prefetched.\nThe "
                   "prefetch hit ratio counts the submit_prefetch_task keys that "
                   "hit; these keys have none.")
            .arg(scopeWords);
    }
    return QString();
}

}  // namespace lmct
