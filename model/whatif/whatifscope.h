#pragma once

#include "whatif/usesequence.h"

#include <QString>
#include <QtGlobal>

namespace lmct {

class CacheAnalysis;

/**
 * What is known of one what-if scope (all keys, a model, a tenant) before and after its uses are
 * built: its distinct keys (KeyAnalysis), its uses and prefetch occurrences (ReuseAnalysis per
 * model until the UseSequence is there; a tenant's only from its UseSequence), the best prefetch
 * hit ratio any cache reaches (counted prefetches over all), and why there is nothing to plot: a
 * trace without key calls, a scope whose keys are never used, or never prefetched (the prefetch
 * hit ratio has no denominator). The What-if tab reads its curves' ranges and its message here.
 *
 * Units: keys, uses, occurrences; ratios in [0, 1]. Ownership: keeps the pointers it is given
 * (the caller keeps the analysis and the uses alive while it is used). Thread-safety: a value
 * type over immutable results. Errors: none; without an analysis every count is 0 and nothing
 * is said.
 */
class WhatIfScope {
public:
    /** `scope` of `analysis`; `uses` its UseSequence once built (null before), with
     *  `countedPrefetches` counted prefetches (UseSequence::isCounted). */
    WhatIfScope(const CacheAnalysis *analysis, UseSequence::Scope scope,
                const UseSequence *uses = nullptr, qint64 countedPrefetches = 0);

    /** The scope's distinct keys, at least 1 (a log axis up to it). */
    qint64 keys() const;
    /** Whether uses() and prefetches() are known (a tenant's once its uses are built). */
    bool countsKnown() const { return m_known; }
    qint64 uses() const { return m_uses; }
    qint64 prefetches() const { return m_prefetches; }
    /** Counted prefetches over all prefetches: the hit ratio of a cache that holds every key. */
    double bestRatio() const;
    /**
     * Why the scope has no curves, in two lines: what ("Nothing to plot: the trace has no key
     * calls."), then why; `scopeWords` names the scope ("all models", "Qwen/Qwen3-8B, tenant
     * a"). Empty when there are curves to plot or the counts are not known yet.
     */
    QString emptyReason(const QString &scopeWords) const;

private:
    const CacheAnalysis *m_analysis = nullptr;
    UseSequence::Scope m_scope;
    bool m_known = false;
    qint64 m_uses = 0;
    qint64 m_prefetches = 0;
    qint64 m_counted = 0;
};

}  // namespace lmct
