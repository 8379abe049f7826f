#pragma once

#include "msgpack/packedvalue.h"
#include "trace/tracedocument.h"

#include <QString>
#include <msgpack.hpp>

namespace lmct {

/**
 * Unpacks the `args` of records straight from the mapped trace, for scans over many records
 * (filters, statistics, exports): msgpack-cxx's unpacker into one reusable zone, strings and
 * bytes referenced in place (zero copy), no Value tree, no QString, and TraceDocument's args
 * cache is neither consulted nor filled.
 *
 * Limits: nesting deeper than 128 levels, containers claiming more elements than the body has
 * bytes (checked before anything is allocated), or any unpack error (malformed or cut-short
 * arguments, as in records the loader flags RecordStore::BadArgs) make decode() return an
 * invalid PackedValue and set lastError(). Nothing is allocated from a claimed size beyond the
 * body's own length.
 *
 * Ownership: the returned PackedValue (and every view taken from it) is valid until the next
 * decode() or the decoder's destruction, and only while the document lives. The decoder keeps a
 * reference to the document: the caller keeps the document alive.
 *
 * Thread-safety: one decoder per thread (it owns a mutable zone); decoders for the same document
 * may run concurrently on different threads.
 */
class PackedArgsDecoder {
public:
    explicit PackedArgsDecoder(const TraceDocument &doc);
    PackedArgsDecoder(const PackedArgsDecoder &) = delete;
    PackedArgsDecoder &operator=(const PackedArgsDecoder &) = delete;

    /**
     * The `args` map of record `record`; an invalid value when the body does not decode or has no
     * `args` map (see lastError()).
     */
    PackedValue decode(int record);

    /** Why the last decode() returned an invalid value; empty after a success. */
    QString lastError() const { return m_error; }

private:
    const TraceDocument &m_doc;
    msgpack::zone m_zone;
    msgpack::object m_root;
    QString m_error;
};

}  // namespace lmct
