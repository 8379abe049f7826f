#pragma once

#include <QString>
#include <QtGlobal>

namespace lmct {

/**
 * An ObjectKey's `kv_rank`, unpacked.
 *
 * LMCache packs four bytes into one int (`lmcache/v1/distributed/api.py`, ObjectKey):
 * `world_size << 24 | rank << 16 | local_world_size << 8 | local_rank`. TP=1 gives 16777472
 * (0x01000100); TP=2 gives 33554944 and 33620481.
 */
struct KvRank {
    int worldSize = 0;
    int rank = 0;
    int localWorldSize = 0;
    int localRank = 0;

    static KvRank unpack(qint64 packed) {
        const quint64 u = quint64(packed);
        return KvRank{int((u >> 24) & 0xff), int((u >> 16) & 0xff), int((u >> 8) & 0xff),
                      int(u & 0xff)};
    }
    qint64 pack() const {
        return (qint64(worldSize) << 24) | (qint64(rank) << 16) | (qint64(localWorldSize) << 8) |
               qint64(localRank);
    }
    /** "rank 1/2" (rank over world size). */
    QString toString() const { return QStringLiteral("rank %1/%2").arg(rank).arg(worldSize); }
};

}  // namespace lmct
