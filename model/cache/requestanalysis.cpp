#include "cache/requestanalysis.h"

#include "util/passprogress.h"

#include <QString>

#include <algorithm>
#include <unordered_map>

namespace lmct {

namespace {

constexpr int kMaxCandidates = 256;  // prefix candidates looked at per read, latest first

}  // namespace

QString RequestAnalysis::matchName(Match m) {
    switch (m) {
        case Match::Prefix:
            return QStringLiteral("prefix");
        case Match::Overlap:
            return QStringLiteral("overlap");
        case Match::None:
            break;
    }
    return QStringLiteral("none");
}

std::shared_ptr<const RequestAnalysis> RequestAnalysis::build(const KeyAnalysis &ka,
                                                              const Progress &progress,
                                                              const std::atomic_bool *cancel) {
    auto ra = std::make_shared<RequestAnalysis>();
    ra->m_keys = ka.shared_from_this();
    std::vector<int> requestKr;                             // key record of each request
    std::unordered_map<quint32, std::vector<int>> byFirst;  // first requested key -> requests
    std::vector<qint32> lastSubmit(size_t(ka.keyCount()), -1);
    std::vector<quint32> sortedRead;
    const int nkr = ka.keyRecordCount();
    // First finish_write of each key (key record index; nkr = never).
    std::vector<int> firstFinish(size_t(ka.keyCount()), nkr);
    for (int kr = nkr - 1; kr >= 0; --kr) {
        if (ka.callAt(kr) == KeyAnalysis::Call::Finish) {
            for (const quint32 k : ka.keysAt(kr)) {
                firstFinish[k] = kr;
            }
        }
    }
    // One request per submit_prefetch_task: sized exactly, or growing by doubling holds up to
    // three times the requests' memory at once (10 M small records, 1.76 M requests of 96
    // bytes: 300 MB at the last growth, 200 MB kept, for 170 MB of requests).
    qint64 submits = 0;
    for (int kr = 0; kr < nkr; ++kr) {
        submits += ka.callAt(kr) == KeyAnalysis::Call::Prefetch ? 1 : 0;
    }
    ra->m_requests.reserve(size_t(submits));
    requestKr.reserve(size_t(submits));
    for (int kr = 0; kr < nkr; ++kr) {
        if (ka.callAt(kr) == KeyAnalysis::Call::Prefetch) {
            requestKr.push_back(kr);
        }
    }
    auto requestOf = [&requestKr](int skr) {
        auto it = std::lower_bound(requestKr.begin(), requestKr.end(), skr);
        return skr >= 0 && it != requestKr.end() && *it == skr ? int(it - requestKr.begin()) : -1;
    };
    // How requests ended, by LMCache's account (late-2026 builds), known before reads are
    // matched: a request cancelled and never released read nothing, and a request whose last
    // release comes before a read cannot own it.
    const bool ended = !ka.handleRecords().empty();
    std::vector<qint32> lastRelease;  // per request: key record of its last release, or -1
    std::vector<quint8> cancelledOnly;
    if (ended) {
        lastRelease.assign(requestKr.size(), -1);
        cancelledOnly.assign(requestKr.size(), 0);
        for (const qint32 hkr : ka.handleRecords()) {
            const int r = requestOf(ka.handleSubmit(hkr));
            if (r < 0) {
                continue;
            }
            if (ka.callAt(hkr) == KeyAnalysis::Call::Release) {
                lastRelease[size_t(r)] = std::max(lastRelease[size_t(r)], hkr);
            } else {
                cancelledOnly[size_t(r)] = 1;
            }
        }
        for (size_t r = 0; r < requestKr.size(); ++r) {
            cancelledOnly[r] = cancelledOnly[r] && lastRelease[r] < 0;
        }
    }
    // Whether request r may own the read at key record kr; its release after kr (-1: none).
    auto mayRead = [&](int r, int kr) {
        return !ended || (lastRelease[size_t(r)] >= 0 ? lastRelease[size_t(r)] > kr
                                                      : !cancelledOnly[size_t(r)]);
    };
    auto releaseAfter = [&](int r, int kr) {
        return ended && lastRelease[size_t(r)] > kr ? lastRelease[size_t(r)] : -1;
    };
    // Of two candidates a read may belong to: one whose release follows the read, the earliest
    // such release; else the latest submit (`a`, `b` request indices; true when a is better).
    auto before = [&](int a, int b, int kr) {
        const qint32 relA = releaseAfter(a, kr), relB = releaseAfter(b, kr);
        if ((relA >= 0) != (relB >= 0)) {
            return relA >= 0;
        }
        return relA >= 0 ? relA < relB : a > b;
    };
    // The latest requester of each key among the requests that may read (cancelled ones not).
    std::vector<qint32> lastReaderOwn;
    if (ended) {
        lastReaderOwn.assign(size_t(ka.keyCount()), -1);
    }
    std::vector<qint32> &lastReader = ended ? lastReaderOwn : lastSubmit;
    PassProgress pass(nkr, cancel, progress);
    for (int kr = 0; kr < nkr; ++kr) {
        if (!pass.at(kr)) {
            return nullptr;
        }
        const KeyAnalysis::Call call = ka.callAt(kr);
        const std::span<const quint32> keys = ka.keysAt(kr);
        switch (call) {
            case KeyAnalysis::Call::Prefetch: {
                const int r = int(ra->m_requests.size());
                Request q;
                q.submitRecord = ka.recordOf(kr);
                q.submitKeyRecord = kr;
                q.requested = qint32(keys.size());
                ra->m_requests.push_back(q);
                for (const quint32 k : keys) {
                    lastSubmit[k] = r;
                }
                if (ended && cancelledOnly[size_t(r)]) {
                    break;  // dropped without being read: no read goes to it
                }
                if (ended) {
                    for (const quint32 k : keys) {
                        lastReader[k] = r;
                    }
                }
                if (!keys.empty()) {
                    byFirst[keys[0]].push_back(r);
                }
                break;
            }
            case KeyAnalysis::Call::ReadEnter: {
                int found = -1;
                Match how = Match::None;
                if (!keys.empty()) {
                    auto it = byFirst.find(keys[0]);
                    if (it != byFirst.end()) {
                        std::vector<int> &cands = it->second;
                        while (!cands.empty() &&
                               (ra->m_requests[size_t(cands.back())].match != Match::None ||
                                !mayRead(cands.back(), kr))) {
                            cands.pop_back();  // matched or released meanwhile
                        }
                        // The candidate whose release follows the read, else any; then of the
                        // best level: 2 = consistent, 1 = the read keys were written before its
                        // submit, 0 = any; then as before() orders them.
                        int maxWritten = -1;  // latest first finish_write of the read keys
                        for (const quint32 k : keys) {
                            maxWritten = std::max(maxWritten, firstFinish[k]);
                        }
                        int best = -1, bestLevel = -1;
                        bool bestFollows = false;
                        int looked = 0;
                        for (auto c = cands.rbegin(); c != cands.rend() && looked < kMaxCandidates;
                             ++c, ++looked) {
                            const bool follows = releaseAfter(*c, kr) >= 0;
                            if (ra->m_requests[size_t(*c)].match != Match::None ||
                                !mayRead(*c, kr) || (bestFollows && !follows)) {
                                continue;  // (it would lose to best: skip its key list)
                            }
                            const int skr = requestKr[size_t(*c)];
                            const std::span<const quint32> req = ka.keysAt(skr);
                            if (req.size() < keys.size() ||
                                !std::equal(keys.begin(), keys.end(), req.begin())) {
                                continue;
                            }
                            const bool stored = maxWritten < skr;
                            const bool longest =
                                req.size() == keys.size() || firstFinish[req[keys.size()]] > skr;
                            const int level = stored ? (longest ? 2 : 1) : 0;
                            if (best < 0 || follows > bestFollows || level > bestLevel ||
                                (level == bestLevel && before(*c, best, kr))) {
                                best = *c;
                                bestLevel = level;
                                bestFollows = follows;
                                if (level == 2 && !ended) {
                                    break;  // latest first: no later one is better
                                }
                            }
                        }
                        found = best;
                        if (found >= 0) {
                            how = Match::Prefix;
                        }
                    }
                    if (found < 0) {
                        for (const quint32 k : keys) {
                            const qint32 r = lastReader[k];
                            if (r >= 0 && r != found &&
                                ra->m_requests[size_t(r)].match == Match::None && mayRead(r, kr) &&
                                (found < 0 || before(r, found, kr))) {
                                found = r;
                            }
                        }
                        how = found >= 0 ? Match::Overlap : Match::None;
                    }
                }
                if (found < 0) {
                    ++ra->m_readsUnmatched;
                    break;
                }
                ++ra->m_readsMatched;
                Request &q = ra->m_requests[size_t(found)];
                q.match = how;
                q.readRecord = ka.recordOf(kr);
                q.readKeys = qint32(keys.size());
                sortedRead.assign(keys.begin(), keys.end());
                std::sort(sortedRead.begin(), sortedRead.end());
                qint32 lead = 0;
                for (const quint32 k : ka.keysAt(requestKr[size_t(found)])) {
                    if (!std::binary_search(sortedRead.begin(), sortedRead.end(), k)) {
                        break;
                    }
                    ++lead;
                }
                q.prefixHit = lead;
                break;
            }
            case KeyAnalysis::Call::Reserve:
            case KeyAnalysis::Call::ReserveWithStatus:
            case KeyAnalysis::Call::Finish: {
                const bool finish = call == KeyAnalysis::Call::Finish;
                for (const quint32 k : keys) {
                    const qint32 r = lastSubmit[k];
                    if (r < 0) {
                        continue;
                    }
                    Request &q = ra->m_requests[size_t(r)];
                    if (finish) {
                        ++q.finished;
                        q.lastFinishRecord = ka.recordOf(kr);
                    } else {
                        ++q.reserved;
                        if (q.firstReserveRecord < 0) {
                            q.firstReserveRecord = ka.recordOf(kr);
                        }
                    }
                }
                break;
            }
            case KeyAnalysis::Call::Release:
            case KeyAnalysis::Call::Cancel: {
                const int skr = ka.handleSubmit(kr);
                const int r = requestOf(skr);
                if (r < 0 || size_t(r) >= ra->m_requests.size()) {
                    ++ra->m_unlinked;
                    break;
                }
                Request &q = ra->m_requests[size_t(r)];
                if (ka.handleAt(kr) && !q.released && !q.cancelled) {
                    Link l{skr, kr, 0};
                    for (const quint32 k : ka.keysAt(skr)) {
                        if (firstFinish[k] >= skr) {
                            break;
                        }
                        ++l.storedPrefix;
                    }
                    ra->m_links.push_back(l);
                }
                (call == KeyAnalysis::Call::Release ? q.released : q.cancelled) = true;
                break;
            }
            default:
                break;
        }
    }
    std::sort(ra->m_links.begin(), ra->m_links.end(),
              [](const Link &a, const Link &b) { return a.submitKr < b.submitKr; });
    for (const Request &q : ra->m_requests) {
        ra->m_cancelled += q.cancelled ? 1 : 0;
        ra->m_released += q.released ? 1 : 0;
        const HitCheck c = ra->hitCheck(q);
        ra->m_disagree += c == HitCheck::Disagrees ? 1 : 0;
        ra->m_agree += c == HitCheck::Agrees ? 1 : 0;
    }
    pass.finish();
    return ra;
}

RequestAnalysis::HitCheck RequestAnalysis::hitCheck(const Request &q) const {
    const PrefetchHandle *h = handle(q);
    if (!h || !h->hasHitCount) {
        return HitCheck::NoAccount;
    }
    if (h->hasTotal && h->totalRequestedKeys != q.requested) {
        return HitCheck::Disagrees;
    }
    if (q.readRecord >= 0) {
        return h->l1PrefixHitCount == q.prefixHit ? HitCheck::Agrees : HitCheck::Disagrees;
    }
    return h->l1PrefixHitCount <= storedPrefix(q) ? HitCheck::Agrees : HitCheck::Disagrees;
}

const RequestAnalysis::Link *RequestAnalysis::linkOf(const Request &q) const {
    auto it = std::lower_bound(m_links.begin(), m_links.end(), q.submitKeyRecord,
                               [](const Link &l, int v) { return l.submitKr < v; });
    return it != m_links.end() && it->submitKr == q.submitKeyRecord ? &*it : nullptr;
}

QString RequestAnalysis::hitCheckName(HitCheck c) {
    switch (c) {
        case HitCheck::Agrees:
            return QStringLiteral("agrees");
        case HitCheck::Disagrees:
            return QStringLiteral("disagrees");
        case HitCheck::NoAccount:
            break;
    }
    return QString();
}

QString RequestAnalysis::handleHitText(const Request &q) const {
    const PrefetchHandle *h = handle(q);
    return h ? h->hitText() : QString();
}

QString RequestAnalysis::inferredHitText(const Request &q) const {
    if (q.readRecord >= 0) {
        return QStringLiteral("%1 of %2").arg(q.prefixHit).arg(q.requested);
    }
    return QStringLiteral("at most %1 of %2").arg(storedPrefix(q)).arg(q.requested);
}

int RequestAnalysis::requestOfRecord(int record) const {
    for (size_t i = 0; i < m_requests.size(); ++i) {
        const Request &q = m_requests[i];
        if (q.submitRecord == record || q.readRecord == record || q.firstReserveRecord == record ||
            q.lastFinishRecord == record) {
            return int(i);
        }
    }
    return -1;
}

}  // namespace lmct
