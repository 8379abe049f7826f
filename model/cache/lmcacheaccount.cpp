#include "cache/lmcacheaccount.h"

#include "cache/keyanalysis.h"

namespace lmct {

bool LmcacheAccount::usable(const PrefetchHandle &h) {
    return h.hasHitCount && h.hasTotal && h.hitCountAboveInt64 == 0 && h.totalAboveInt64 == 0 &&
           h.l1PrefixHitCount >= 0 && h.totalRequestedKeys > 0 &&
           h.l1PrefixHitCount <= h.totalRequestedKeys && h.totalRequestedKeys < (qint64(1) << 40);
}

bool LmcacheAccount::counts(const KeyAnalysis &keys, int kr) {
    if (keys.callAt(kr) != KeyAnalysis::Call::Release) {
        return false;
    }
    const PrefetchHandle *h = keys.handleAt(kr);
    return h && usable(*h);
}

LmcacheAccount::Totals LmcacheAccount::total(const KeyAnalysis &keys) {
    Totals t;
    for (const qint32 kr : keys.handleRecords()) {
        if (counts(keys, kr)) {
            const PrefetchHandle *h = keys.handleAt(kr);
            ++t.releases;
            t.hitKeys += h->l1PrefixHitCount;
            t.requestedKeys += h->totalRequestedKeys;
        }
    }
    return t;
}

}  // namespace lmct
