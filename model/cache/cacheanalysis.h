#pragma once

#include "cache/anomalyreport.h"
#include "cache/keyanalysis.h"
#include "cache/requestanalysis.h"
#include "cache/reuseanalysis.h"

#include <atomic>
#include <memory>

namespace lmct {

/**
 * Everything "see the cache behave" shows, computed in one go: KeyAnalysis, then
 * RequestAnalysis, AnomalyReport (which reads the requests for hit_disagrees) and ReuseAnalysis
 * from it.
 *
 * Progress (0..100) is split by typical cost: keys 0–60, requests 60–68, anomalies 68–88,
 * reuse 88–100.
 *
 * Ownership: run() returns a shared immutable object holding no pointer into the document.
 * Thread-safety: run() is reentrant (call it on a worker thread); the result is immutable.
 */
class CacheAnalysis {
public:
    std::shared_ptr<const KeyAnalysis> keys;
    std::shared_ptr<const AnomalyReport> anomalies;
    std::shared_ptr<const ReuseAnalysis> reuse;
    std::shared_ptr<const RequestAnalysis> requests;

    /** Analyses `doc` (its records at the time of the call). nullptr when cancelled. */
    static std::shared_ptr<const CacheAnalysis> run(const TraceDocument &doc,
                                                    const KeyAnalysis::Progress &progress = {},
                                                    const std::atomic_bool *cancel = nullptr);
};

}  // namespace lmct
