#include "cache/keylifecycle.h"

#include "cache/keylifecyclerules.h"

#include <cmath>

namespace lmct {

KeyLifecycle KeyLifecycle::build(const KeyAnalysis &ka, int id, int cap) {
    KeyLifecycle lc;
    lc.m_key = id;
    if (id < 0 || id >= ka.keyCount()) {
        return lc;
    }
    const KeyAnalysis::Key &key = ka.key(id);
    KeyLifecycleRules rules;
    const quint32 want = quint32(id);
    // Start at the key's first record: nothing before it names the key.
    int kr = ka.keyRecordOf(key.firstRecord);
    const int lastKr = ka.keyRecordOf(key.lastRecord);
    for (kr = std::max(kr, 0); kr <= lastKr; ++kr) {
        for (const quint32 k : ka.keysAt(kr)) {
            if (k != want) {
                continue;
            }
            Event e;
            e.record = ka.recordOf(kr);
            e.call = ka.callAt(kr);
            e.t = ka.timeAt(kr);
            if (e.call == KeyAnalysis::Call::FinishRead) {
                e.partOf = ka.finishOwnerAt(kr);
            }
            const KeyLifecycleRules::Step step = rules.next(
                e.call, e.record, e.t, ka.finishRoleAt(kr) == KeyAnalysis::FinishRole::Read);
            if (e.call == KeyAnalysis::Call::Finish) {
                e.writeLatency = e.t - step.reservation.t;  // NaN: not reserved
                if (step.isFirstFinish) {
                    lc.m_writeLatency = e.writeLatency;
                }
            }
            if (step.firstFinish.isValid()) {
                lc.m_firstReuse = e.t - step.firstFinish.t;
            }
            if (int(lc.m_events.size()) >= cap) {
                lc.m_truncated = true;
                continue;
            }
            if (!lc.m_events.empty()) {
                e.sincePrevious = e.t - lc.m_events.back().t;
            }
            lc.m_events.push_back(e);
        }
    }
    return lc;
}

}  // namespace lmct
