#pragma once

#include <QtGlobal>

namespace lmct {

/**
 * The 64-bit hash of an ordered key list, from its keys' identity hashes
 * (RawKeyScanner::identityHash, which PackedObjectKey::identityHash and KeyAnalysis::Key::hash
 * are too): the key list FinishReadPlacement compares to tell which read_prefetched_results or
 * release_prefetch_task a finish_read_prefetched belongs to. The one definition its feeders use
 * (KeyAnalysis from raw scans and interned ids, RecordFacts::keyListHash for TraceStatistics and
 * FollowedTrail), so that they pair alike. Equal lists hash equal whatever their keys' encoding
 * (a chunk_hash as bin or as hex text, integer widths); the hash is order- and length-sensitive
 * (a list and its prefix or its permutation differ but for collisions).
 *
 * Thread-safety: a value type. Errors: none.
 */
class KeyListHash {
public:
    /** Appends a key, by its identity hash. */
    void add(quint64 identityHash) {
        m_h = combine(m_h, identityHash);
        ++m_count;
    }
    /** The hash of the keys added so far. */
    quint64 value() const { return combine(m_h, m_count); }

private:
    static quint64 combine(quint64 h, quint64 k) {
        h ^= k + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        return h * 0xff51afd7ed558ccdull;
    }
    quint64 m_h = 0x243f6a8885a308d3ull;
    quint64 m_count = 0;
};

}  // namespace lmct
