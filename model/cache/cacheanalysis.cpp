#include "cache/cacheanalysis.h"

namespace lmct {

std::shared_ptr<const CacheAnalysis> CacheAnalysis::run(const TraceDocument &doc,
                                                        const KeyAnalysis::Progress &progress,
                                                        const std::atomic_bool *cancel) {
    auto stage = [&progress](int from, int to) -> KeyAnalysis::Progress {
        if (!progress) {
            return {};
        }
        return [&progress, from, to](int p) { progress(from + (to - from) * p / 100); };
    };
    auto out = std::make_shared<CacheAnalysis>();
    out->keys = KeyAnalysis::build(doc, stage(0, 60), cancel);
    if (!out->keys) {
        return nullptr;
    }
    out->requests = RequestAnalysis::build(*out->keys, stage(60, 68), cancel);
    if (!out->requests) {
        return nullptr;
    }
    out->anomalies = AnomalyReport::build(doc, out->keys, stage(68, 88), cancel, out->requests);
    if (!out->anomalies) {
        return nullptr;
    }
    out->reuse = ReuseAnalysis::build(*out->keys, stage(88, 100), cancel);
    if (!out->reuse) {
        return nullptr;
    }
    return out;
}

}  // namespace lmct
