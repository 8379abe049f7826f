#pragma once

#include <QtGlobal>
#include <optional>

namespace lmct {

class UseSequence;

/**
 * How many bytes a chunk (one key) of a scope takes, and the one rule that turns a capacity in
 * bytes into chunks and back (docs/cache-behaviour.md, "Bytes and chunks"). `lmct whatif` (its
 * `configured.chunks`, sizes given to `--capacity`) and the What-if tab (the configured L1's
 * line and sentence, the slider's readings) both go through it.
 *
 * The rule: B bytes hold ⌊B · keys / total bytes⌋ chunks, at least 1: the bytes over the scope's
 * mean bytes per key, rounded down (a cache holds whole chunks only). When every key has the same
 * size S that is ⌊B / S⌋ exactly; when the keys differ in size (several models) it is the chunks
 * of the mean size, an approximation (isUniform() false). Back, C chunks take ⌊C · total / keys⌋
 * bytes (C · S exactly for one size).
 *
 * Units: bytes and chunks (distinct keys). Thread-safety: a value type. Errors: none; without
 * sizes (a key without layout, or no key) isKnown() is false and the conversions give nullopt.
 */
class ChunkSize {
public:
    /** Unknown: no sizes. */
    ChunkSize() = default;
    /** `keys` keys of `totalBytes` in all, the smallest `smallest`, the largest `largest`
     *  bytes; unknown when `keys` or `totalBytes` is 0. */
    ChunkSize(quint64 keys, quint64 totalBytes, quint64 smallest, quint64 largest);

    /** The sizes of `uses`' keys; unknown when it has no keys or not every key has a size. */
    static ChunkSize of(const UseSequence &uses);

    bool isKnown() const { return m_keys > 0 && m_totalBytes > 0; }
    /** Every key has the same size (then the conversions are exact). */
    bool isUniform() const { return isKnown() && m_smallest == m_largest; }
    quint64 keys() const { return m_keys; }
    quint64 totalBytes() const { return m_totalBytes; }
    quint64 smallest() const { return m_smallest; }
    quint64 largest() const { return m_largest; }
    /** The one size when isUniform(), else 0. */
    quint64 perKey() const { return isUniform() ? m_smallest : 0; }
    /** The mean bytes per key, rounded down; 0 when unknown. */
    quint64 meanBytes() const { return isKnown() ? m_totalBytes / m_keys : 0; }

    /** The chunks `bytes` hold (the rule above: rounded down, at least 1); nullopt when
     *  unknown. */
    std::optional<quint64> chunksFor(quint64 bytes) const;
    /** The bytes `chunks` take (rounded down; at most 2^64 − 1); nullopt when unknown. */
    std::optional<quint64> bytesFor(quint64 chunks) const;

private:
    quint64 m_keys = 0;
    quint64 m_totalBytes = 0;
    quint64 m_smallest = 0;
    quint64 m_largest = 0;
};

}  // namespace lmct
