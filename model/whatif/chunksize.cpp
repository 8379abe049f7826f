#include "whatif/chunksize.h"

#include "whatif/usesequence.h"

#include <algorithm>
#include <limits>

namespace lmct {

ChunkSize::ChunkSize(quint64 keys, quint64 totalBytes, quint64 smallest, quint64 largest)
    : m_keys(keys), m_totalBytes(totalBytes), m_smallest(smallest), m_largest(largest) {
    if (!isKnown()) {
        *this = ChunkSize();
    }
}

ChunkSize ChunkSize::of(const UseSequence &uses) {
    if (!uses.hasSizes() || uses.keyCount() == 0) {
        return {};
    }
    quint64 smallest = std::numeric_limits<quint64>::max(), largest = 0;
    for (quint32 k = 0; k < uses.keyCount(); ++k) {
        smallest = std::min(smallest, uses.sizeOf(k));
        largest = std::max(largest, uses.sizeOf(k));
    }
    return ChunkSize(uses.keyCount(), uses.totalBytes(), smallest, largest);
}

std::optional<quint64> ChunkSize::chunksFor(quint64 bytes) const {
    if (!isKnown()) {
        return std::nullopt;
    }
    // bytes < 2^64 and keys < 2^64: the product fits 128 bits, the quotient is below 2^64 as
    // long as total bytes ≥ keys (every key at least one byte), else it is clamped
    const unsigned __int128 n = (unsigned __int128)bytes * m_keys / m_totalBytes;
    const unsigned __int128 max = std::numeric_limits<quint64>::max();
    return std::max<quint64>(1, quint64(std::min(n, max)));
}

std::optional<quint64> ChunkSize::bytesFor(quint64 chunks) const {
    if (!isKnown()) {
        return std::nullopt;
    }
    const unsigned __int128 n = (unsigned __int128)chunks * m_totalBytes / m_keys;
    const unsigned __int128 max = std::numeric_limits<quint64>::max();
    return quint64(std::min(n, max));
}

}  // namespace lmct
