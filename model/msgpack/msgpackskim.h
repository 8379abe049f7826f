#pragma once

#include <QByteArrayView>
#include <QtGlobal>

namespace lmct {

/**
 * Walks raw msgpack bytes without decoding them: skips whole values and finds map entries by
 * string key, so that a value's exact byte range can be hashed or compared (e.g. the `keys`
 * argument of a record, for ContextPairs).
 *
 * Bounded and allocation-free: values are skipped iteratively (no recursion, so no nesting
 * limit is needed), and a container claiming more elements than there are bytes left fails at
 * once. Offsets are byte positions in `data[0, size)`; -1 means "malformed, truncated or not
 * found".
 *
 * Thread-safety: stateless; every function is reentrant.
 */
class MsgpackSkim {
public:
    /** Offset just past the value that starts at `pos`; -1 when malformed or cut short. */
    static qint64 skip(const uchar *data, qint64 size, qint64 pos);

    /**
     * When a map starts at `pos`: the offset of the value of its first entry whose key is the
     * string `key`; -1 when there is none or the bytes are not a map.
     */
    static qint64 findInMap(const uchar *data, qint64 size, qint64 pos, QByteArrayView key);

    /**
     * A 128-bit hash (two 64-bit halves from independent mixers) of the value `v` (exactly one
     * msgpack value) that ignores how it was encoded: integer, string, binary, array and map
     * widths and float32 vs float64 hash alike, so values Python would decode to equal objects
     * hash equal (an integer and a float never do). false when `v` is malformed or has trailing
     * bytes.
     */
    static bool canonicalHash(QByteArrayView v, quint64 *a, quint64 *b);
};

}  // namespace lmct
