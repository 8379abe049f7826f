#pragma once

#include "trace/storagemanagerconfig.h"
#include "whatif/cachepolicy.h"
#include "whatif/usesequence.h"

#include <QString>
#include <atomic>
#include <optional>

namespace lmct {

/**
 * The prefetch hit ratio one trace would have had with the L1 it was recorded with: its
 * StorageManagerConfig's capacity and eviction policy, replayed over its UseSequence
 * (CachePolicy, docs/compare.md).
 *
 * - Capacity: `l1_manager_config.memory_config.size_in_bytes` (StorageManagerConfig::l1Bytes)
 *   in chunks by ChunkSize::chunksFor() (over the bytes per object of the keys, from the
 *   MemoryLayoutDesc of the reserves; rounded down, at least 1), the count `lmct whatif`, the
 *   What-if tab, ConfiguredRun and the report give too. Keys of different sizes (several models)
 * are replayed in bytes at the L1 size instead (chunks then 0, a note says so).
 * - Policy: `eviction_config.eviction_policy` mapped by CachePolicy::fromName ("LRU" → LRU);
 *   an absent or unknown name is replayed as LRU and the note says so.
 * - hit ratio = counted prefetch occurrences that hit / all prefetch occurrences (WhatIfAnalysis's
 *   definition).
 * When it cannot be computed, hitRatio is NaN and `reason` says why ("A has no StorageManager
 * config: L1 size unknown", "no L1 size in A's config", "B has no submit_prefetch_task", "A has
 * no MemoryLayoutDesc for every key: bytes per object unknown"); `note` is then empty.
 *
 * Thread-safety: a value type; compute() is reentrant.
 */
struct CapacityHit {
    std::optional<qint64> l1Bytes;  ///< the configured L1 size (bytes)
    quint64 bytesPerObject = 0;     ///< bytes of every key; 0 when unknown or not one size
    quint64 chunks = 0;             ///< capacity replayed, in chunks (0 when in bytes)
    bool inBytes = false;           ///< replayed in bytes at l1Bytes
    QString configuredPolicy;       ///< eviction_policy as written; empty when absent
    CachePolicy::Kind policy = CachePolicy::Kind::Lru;  ///< the policy replayed
    qint64 prefetchOccurrences = 0;
    qint64 prefetchHits = 0;
    double hitRatio = qQNaN();
    QString note;    ///< an assumption made (LRU for an unknown policy, bytes replay)
    QString reason;  ///< why hitRatio is unknown; empty when known

    /** Replays `uses` with `config`'s L1; `side` ("A", "B") names the trace in messages.
     *  nullopt when `cancel` became true meanwhile. */
    static std::optional<CapacityHit> compute(const StorageManagerConfig &config,
                                              const UseSequence &uses, const QString &side,
                                              const std::atomic_bool *cancel = nullptr);
};

}  // namespace lmct
