#pragma once

#include "codec/value.h"

#include <QString>

namespace lmct {

/**
 * Decodes one msgpack value into a codec-aware Value tree, with hard limits.
 *
 * Uses msgpack-cxx's visitor parser (msgpack::v2::parse), so no msgpack object zone is
 * allocated from a claimed size: containers grow only as their elements are actually read, and
 * a container that claims more elements than there are bytes left stops the decode at once.
 * Nesting deeper than Limits::maxDepth and trees with more than Limits::maxNodes values stop
 * the decode too. On any stop the tree read so far is kept (open containers are closed) and a
 * Value of type Truncated marks where decoding stopped.
 *
 * Maps of exactly the two keys `__t__` (a string) and `v` become Tagged values (LMCache's
 * `codecs.py` wrapping), at any depth.
 *
 * Thread-safety: stateless; decode() is reentrant.
 */
class ValueDecoder {
public:
    struct Limits {
        int maxDepth = 128;           ///< containers nested deeper than this stop the decode
        qint64 maxNodes = 2'000'000;  ///< values in one tree
    };

    enum class Status : quint8 {
        Ok,          ///< exactly one complete value filled the buffer
        ExtraBytes,  ///< one complete value, then bytes left over
        Truncated,   ///< the buffer ends inside the value
        Malformed,   ///< a byte that cannot start a msgpack value (e.g. 0xc1)
        Limit        ///< a limit was hit (depth, node count, claimed size)
    };

    struct Result {
        Value value;
        Status status = Status::Ok;
        qint64 consumed = 0;     ///< bytes of the buffer read (Ok/ExtraBytes)
        qint64 errorOffset = 0;  ///< offset in the buffer where decoding stopped
        QString message;         ///< empty when Ok
        bool ok() const { return status == Status::Ok; }
    };

    /** Decodes `data[0, size)`. */
    static Result decode(const char *data, qint64 size, const Limits &limits);
    static Result decode(const char *data, qint64 size) { return decode(data, size, Limits()); }
    static Result decode(const QByteArray &bytes) {
        return decode(bytes.constData(), bytes.size(), Limits());
    }

    static QString statusName(Status s);
};

}  // namespace lmct
