#pragma once

#include <QByteArray>
#include <QString>

namespace lmct {

/**
 * A text hex dump of one record frame (u32 big-endian length prefix + msgpack body), annotated
 * with the msgpack structure of the body's top-level map: for the prefix and for each key, the
 * frame offset, length, the key and the msgpack type of its value.
 *
 * The hex part shows offset, 16 bytes in hex and their ASCII; it stops after `maxBytes` bytes
 * (and says how many were left out), so large frames stay cheap. The structure part scans the
 * whole body but stops at malformed data, saying where.
 *
 * Thread-safety: stateless; any thread.
 */
class FrameDump {
public:
    /** The annotated dump; `fileOffset` is where the frame starts in the file. */
    static QString dump(const QByteArray &frame, qint64 fileOffset, int maxBytes = 4096);
    /** Only the hex lines ("00000000  00 01 …  |..|"), for `bytes` starting at `base`. */
    static QString hexLines(const QByteArray &bytes, qint64 base, int maxBytes);
    /**
     * Size in bytes of the msgpack value starting at `pos` in `data` (with its nested values),
     * or -1 when it is malformed or runs past `size`. `type` gets its msgpack type name
     * ("fixmap(3)", "str8", "float64", ...).
     */
    static qint64 valueSize(const uchar *data, qint64 size, qint64 pos, QString *type = nullptr,
                            int depth = 0);
};

}  // namespace lmct
