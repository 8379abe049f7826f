#include "whatif/usesequence.h"

#include "cache/keyanalysis.h"
#include "codec/recordfacts.h"
#include "trace/packedargsdecoder.h"
#include "trace/tracedocument.h"
#include "util/passprogress.h"

#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

constexpr quint32 kNoLocal = 0xffffffffu;

/** splitmix64's finaliser: spreads any 64-bit value over all bits. */
quint64 mix(quint64 x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

bool isUse(KeyAnalysis::Call c) {
    return c == KeyAnalysis::Call::Finish || c == KeyAnalysis::Call::Prefetch ||
           c == KeyAnalysis::Call::ReadEnter;
}

UseSequence::UseKind kindOf(KeyAnalysis::Call c) {
    switch (c) {
        case KeyAnalysis::Call::Finish:
            return UseSequence::Write;
        case KeyAnalysis::Call::Prefetch:
            return UseSequence::Prefetch;
        default:
            return UseSequence::Read;
    }
}

}  // namespace

std::shared_ptr<const UseSequence> UseSequence::build(const TraceDocument &doc,
                                                      std::shared_ptr<const KeyAnalysis> keys,
                                                      Scope scope, const Progress &progress,
                                                      const std::atomic_bool *cancel) {
    auto seq = std::make_shared<UseSequence>();
    seq->m_scope = scope;
    seq->m_ka = keys;
    if (!keys) {
        return seq;
    }
    const KeyAnalysis &ka = *keys;
    auto inScope = [&](quint32 id) {
        const KeyAnalysis::Key &k = ka.key(int(id));
        if (scope.model != kAll && int(k.model) != scope.model) {
            return false;
        }
        if (scope.salt == kAll) {
            return true;
        }
        return scope.salt == kNoSalt ? k.salt < 0 : k.salt == scope.salt;
    };
    const int nkr = ka.keyRecordCount();
    // Two passes over the key records: count, then fill (exact allocations).
    PassProgress pass(2 * qint64(nkr), cancel, progress);
    size_t uses = 0;
    for (int kr = 0; kr < nkr; ++kr) {
        if (!pass.at(kr)) {
            return nullptr;
        }
        if (!isUse(ka.callAt(kr))) {
            continue;
        }
        for (const quint32 k : ka.keysAt(kr)) {
            uses += inScope(k) ? 1 : 0;
        }
    }
    if (uses >= kNever) {
        uses = kNever - 1;  // positions are 32-bit; kNever is reserved
    }
    seq->m_keys.reserve(uses);
    seq->m_keyRecords.reserve(uses);
    seq->m_flags.reserve(uses);
    std::vector<quint32> local(size_t(ka.keyCount()), kNoLocal);
    std::vector<quint32> global;  // local id → KeyAnalysis id
    std::vector<quint8> written;
    for (int kr = 0; kr < nkr && seq->m_keys.size() < uses; ++kr) {
        if (!pass.at(qint64(nkr) + kr)) {
            return nullptr;
        }
        const KeyAnalysis::Call call = ka.callAt(kr);
        if (!isUse(call)) {
            continue;
        }
        const UseKind kind = kindOf(call);
        for (const quint32 k : ka.keysAt(kr)) {
            if (!inScope(k) || seq->m_keys.size() >= uses) {
                continue;
            }
            quint32 &l = local[k];
            if (l == kNoLocal) {
                l = quint32(global.size());
                global.push_back(k);
                written.push_back(0);
            }
            quint8 flags = quint8(kind);
            if (kind == Prefetch) {
                ++seq->m_prefetches;
                if (written[l]) {
                    flags |= 4;
                }
            } else if (kind == Write) {
                written[l] = 1;
            }
            seq->m_keys.push_back(l);
            seq->m_keyRecords.push_back(kr);
            seq->m_flags.push_back(flags);
        }
    }
    seq->m_keyCount = quint32(global.size());
    seq->m_hashes.resize(global.size());
    for (size_t l = 0; l < global.size(); ++l) {
        seq->m_hashes[l] = mix(ka.key(int(global[l])).hash);
    }

    // Bytes per object per model: the first layout in its reserves, else in its submits.
    const int nm = int(ka.models().size());
    std::vector<quint8> wanted(size_t(nm), 0);
    for (const quint32 g : global) {
        wanted[ka.key(int(g)).model] = 1;
    }
    std::vector<qint64> bytes(size_t(nm), 0);
    std::vector<int> tries(size_t(nm), 0);
    int missing = int(std::count(wanted.begin(), wanted.end(), 1));
    PackedArgsDecoder decoder(doc);
    RecordFacts facts;
    for (const bool reserves : {true, false}) {
        std::fill(tries.begin(), tries.end(), 0);
        for (int kr = 0; kr < nkr && missing > 0; ++kr) {
            const KeyAnalysis::Call call = ka.callAt(kr);
            const bool fits = reserves ? (call == KeyAnalysis::Call::Reserve ||
                                          call == KeyAnalysis::Call::ReserveWithStatus)
                                       : call == KeyAnalysis::Call::Prefetch;
            if (!fits || ka.keysAt(kr).empty()) {
                continue;
            }
            const quint32 m = ka.key(int(ka.keysAt(kr)[0])).model;
            if (!wanted[m] || bytes[m] > 0 || tries[m] >= kLayoutTries) {
                continue;
            }
            ++tries[m];
            if (ka.recordOf(kr) >= doc.records().size()) {
                continue;
            }
            const PackedValue args = decoder.decode(ka.recordOf(kr));
            if (!args.isValid()) {
                continue;
            }
            facts.reset(args);
            if (const auto b = facts.layoutBytesPerObject(); b && *b > 0) {
                bytes[m] = *b;
                --missing;
            }
        }
    }
    seq->m_sizes.resize(global.size());
    bool all = !global.empty();
    for (size_t l = 0; l < global.size(); ++l) {
        const quint64 b = quint64(bytes[ka.key(int(global[l])).model]);
        seq->m_sizes[l] = b;
        seq->m_totalBytes += b;
        all = all && b > 0;
    }
    seq->m_hasSizes = all;
    pass.finish();
    return seq;
}

std::shared_ptr<const UseSequence> UseSequence::build(const TraceDocument &doc,
                                                      std::shared_ptr<const KeyAnalysis> keys) {
    return build(doc, std::move(keys), Scope{});
}

std::shared_ptr<const UseSequence> UseSequence::fromKeys(std::span<const quint32> keys,
                                                         std::span<const quint8> kinds,
                                                         std::span<const quint64> sizes) {
    auto seq = std::make_shared<UseSequence>();
    const size_t n = std::min<size_t>(keys.size(), kNever - 1);
    seq->m_keys.assign(keys.begin(), keys.begin() + qsizetype(n));
    seq->m_flags.resize(n);
    quint32 count = 0;
    for (size_t i = 0; i < n; ++i) {
        count = std::max(count, keys[i] + 1);
    }
    std::vector<quint8> written(count, 0);
    for (size_t i = 0; i < n; ++i) {
        const quint8 kind = i < kinds.size() ? quint8(kinds[i] & 3) : quint8(Read);
        quint8 flags = kind;
        if (kind == Prefetch) {
            ++seq->m_prefetches;
            if (written[keys[i]]) {
                flags |= 4;
            }
        } else if (kind == Write) {
            written[keys[i]] = 1;
        }
        seq->m_flags[i] = flags;
    }
    seq->m_keyCount = count;
    seq->m_hashes.resize(count);
    for (quint32 k = 0; k < count; ++k) {
        seq->m_hashes[k] = mix(quint64(k) + 0x9e3779b97f4a7c15ull);
    }
    if (!sizes.empty()) {
        seq->m_sizes.assign(count, 0);
        bool all = count > 0;
        for (quint32 k = 0; k < count; ++k) {
            const quint64 b = k < sizes.size() ? sizes[k] : 0;
            seq->m_sizes[k] = b;
            seq->m_totalBytes += b;
            all = all && b > 0;
        }
        seq->m_hasSizes = all;
    }
    return seq;
}

double UseSequence::timeAt(quint32 i) const {
    if (m_keyRecords.empty() || !m_ka) {
        return qQNaN();
    }
    return m_ka->timeAt(m_keyRecords[i]);
}

int UseSequence::keyRecordAt(quint32 i) const {
    return m_keyRecords.empty() ? -1 : m_keyRecords[i];
}

std::span<const quint32> UseSequence::nextUse() const {
    std::call_once(m_nextOnce, [this] {
        m_next.assign(m_keys.size(), kNever);
        std::vector<quint32> last(m_keyCount, kNever);
        for (size_t i = m_keys.size(); i-- > 0;) {
            const quint32 k = m_keys[i];
            m_next[i] = last[k];
            last[k] = quint32(i);
        }
    });
    return m_next;
}

std::shared_ptr<const UseSequence> UseSequence::sampled(double rate) const {
    auto seq = std::make_shared<UseSequence>();
    seq->m_scope = m_scope;
    seq->m_ka = m_ka;
    // Threshold on the 64-bit hash: rate · 2^64 (all keys at rate ≥ 1).
    const bool all = !(rate < 1.0);
    const quint64 limit = all || !(rate > 0.0) ? 0 : quint64(std::ldexp(rate, 64));
    std::vector<quint32> local(m_keyCount, kNoLocal);
    std::vector<quint32> global;
    std::vector<quint8> take(m_keyCount, 0);
    for (quint32 k = 0; k < m_keyCount; ++k) {
        take[k] = (all || m_hashes[k] < limit) ? 1 : 0;
    }
    for (size_t i = 0; i < m_keys.size(); ++i) {
        const quint32 k = m_keys[i];
        if (!take[k]) {
            continue;
        }
        if (local[k] == kNoLocal) {
            local[k] = quint32(global.size());
            global.push_back(k);
        }
        seq->m_keys.push_back(local[k]);
        seq->m_flags.push_back(m_flags[i]);
        if (!m_keyRecords.empty()) {
            seq->m_keyRecords.push_back(m_keyRecords[i]);
        }
        if ((m_flags[i] & 3) == Prefetch) {
            ++seq->m_prefetches;
        }
    }
    seq->m_keyCount = quint32(global.size());
    seq->m_hashes.resize(global.size());
    if (!m_sizes.empty()) {
        seq->m_sizes.resize(global.size());
    }
    bool allSized = !global.empty();
    for (size_t l = 0; l < global.size(); ++l) {
        seq->m_hashes[l] = m_hashes[global[l]];
        if (!m_sizes.empty()) {
            seq->m_sizes[l] = m_sizes[global[l]];
            seq->m_totalBytes += m_sizes[global[l]];
            allSized = allSized && m_sizes[global[l]] > 0;
        }
    }
    seq->m_hasSizes = !m_sizes.empty() && allSized && m_hasSizes;
    return seq;
}

}  // namespace lmct
