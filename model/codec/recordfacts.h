#pragma once

#include "codec/packedobjectkey.h"
#include "msgpack/packedvalue.h"

#include <optional>
#include <vector>

namespace lmct {

/**
 * The derived facts of one record's arguments that filters and statistics ask for, computed
 * lazily from a PackedValue `args` map and cached until reset():
 *
 * - keys(): every readable ObjectKey anywhere in the args, depth-first in document order
 *   (`keys`, `spec.keys`, GroupedObjectKeys inside unknown specs alike; as ObjectKey::collect);
 * - keyCount(): number of `ObjectKey`-tagged values anywhere (as ObjectKey::count, which also
 *   counts a key whose payload is unreadable);
 * - layoutBytesPerObject(): bytes per object of the first MemoryLayoutDesc anywhere (as
 *   MemoryLayout::findIn + bytesPerObject); bytes() = that × keyCount();
 * - requestId(): `external_request_id` at the top level or nested (as RecordSummary::requestId:
 *   a map's own keys first, then its children, at most 6 levels deep); a nil id counts as none;
 * - keyListHash(): the KeyListHash of the ordered list of keys (their identityHash(), as
 *   KeyAnalysis hashes them), equal for identical key lists (used to pair
 *   `read_prefetched_results.__enter__` with `__exit__`, and by FinishReadPlacement).
 *
 * Ownership: views into the PackedValue's zone and buffer (see PackedArgsDecoder); valid until
 * the decoder decodes the next record. Thread-safety: one instance per thread.
 */
class RecordFacts {
public:
    RecordFacts() = default;
    explicit RecordFacts(PackedValue args) { reset(args); }

    /** Starts over with another record's args (keeps allocated capacity). */
    void reset(PackedValue args);

    PackedValue args() const { return m_args; }
    const std::vector<PackedObjectKey> &keys();
    int keyCount();
    std::optional<qint64> layoutBytesPerObject();
    std::optional<qint64> bytes();
    PackedValue requestId();
    quint64 keyListHash();

private:
    void collectKeys();

    PackedValue m_args;
    std::vector<PackedObjectKey> m_keys;
    int m_keyCount = 0;
    bool m_haveKeys = false;
    bool m_haveLayout = false;
    std::optional<qint64> m_layoutBytes;
    bool m_haveRequest = false;
    PackedValue m_request;
};

}  // namespace lmct
