#include "compare/capacityhit.h"

#include "whatif/chunksize.h"

namespace lmct {

std::optional<CapacityHit> CapacityHit::compute(const StorageManagerConfig &config,
                                                const UseSequence &uses, const QString &side,
                                                const std::atomic_bool *cancel) {
    CapacityHit h;
    h.l1Bytes = config.l1Bytes();
    h.configuredPolicy = config.evictionPolicy().value_or(QString());
    h.prefetchOccurrences = uses.prefetchOccurrences();
    QStringList notes;
    if (const auto kind = CachePolicy::fromName(h.configuredPolicy); kind) {
        h.policy = *kind;
    } else {
        h.policy = CachePolicy::Kind::Lru;
        notes.append(
            h.configuredPolicy.isEmpty()
                ? QStringLiteral("no eviction policy in %1's config: replayed as LRU").arg(side)
                : QStringLiteral("eviction policy \"%1\" of %2 is not simulated: "
                                 "replayed as LRU")
                      .arg(h.configuredPolicy, side));
    }
    if (!config.isValid()) {
        h.reason = QStringLiteral("%1 has no StorageManager config: L1 size unknown").arg(side);
    } else if (!h.l1Bytes) {
        h.reason = QStringLiteral("no L1 size in %1's config").arg(side);
    } else if (uses.prefetchOccurrences() == 0) {
        h.reason = QStringLiteral("%1 has no submit_prefetch_task").arg(side);
    } else if (!uses.hasSizes()) {
        h.reason =
            QStringLiteral("%1 has no MemoryLayoutDesc for every key: bytes per object unknown")
                .arg(side);
    }
    if (!h.reason.isEmpty()) {
        return h;  // no replay: no assumption to note
    }
    // ChunkSize: the one rule from bytes to chunks that `lmct whatif`, the What-if tab,
    // ConfiguredRun and the report use too (an L1 below one object holds 1 chunk)
    const ChunkSize size = ChunkSize::of(uses);
    quint64 capacity = 0;
    if (size.isUniform()) {
        h.bytesPerObject = size.perKey();
        h.chunks = size.chunksFor(quint64(*h.l1Bytes)).value_or(0);
        capacity = h.chunks;
    } else {
        h.inBytes = true;
        capacity = quint64(*h.l1Bytes);
        notes.append(QStringLiteral("keys of %1 differ in size: replayed in bytes at the L1 size")
                         .arg(side));
    }
    h.note = notes.join(QStringLiteral("; "));
    if (auto sim = CachePolicy::create(h.policy, capacity, uses)) {
        CachePolicy::Tally tally;
        if (!sim->replay(uses, h.inBytes, 0, uses.size(), tally, cancel)) {
            return std::nullopt;
        }
        h.prefetchHits = tally.prefetchHits;
    }
    h.hitRatio = double(h.prefetchHits) / double(h.prefetchOccurrences);
    return h;
}

}  // namespace lmct
