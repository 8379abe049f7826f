#include "codec/packedobjectkey.h"

#include "codec/rawkeyscanner.h"
#include "util/hex.h"

#include <QHashFunctions>

namespace lmct {

QByteArray PackedObjectKey::hashHex() const {
    const QByteArray raw = QByteArray::fromRawData(chunkHash.data(), qsizetype(chunkHash.size()));
    return chunkHashIsHex ? raw.toLower() : raw.toHex();
}

bool PackedObjectKey::hashHasHexPrefix(std::string_view hexPrefix) const {
    return Hex::hasPrefix(chunkHash, chunkHashIsHex, hexPrefix);
}

quint64 PackedObjectKey::identityHash() const {
    // RawKeyScanner's: one identity for a key however it is read (a hex chunk hash as its bytes)
    RawKeyScanner::Fields f;
    f.hash = reinterpret_cast<const uchar *>(chunkHash.data());
    f.hashSize = quint32(chunkHash.size());
    f.hashIsHex = chunkHashIsHex;
    f.model = reinterpret_cast<const uchar *>(modelName.data());
    f.modelSize = quint32(modelName.size());
    f.kvRank = kvRank;
    f.hasGroup = hasObjectGroupId;
    f.group = objectGroupId;
    f.hasSalt = hasCacheSalt;
    f.salt = reinterpret_cast<const uchar *>(cacheSalt.data());
    f.saltSize = quint32(cacheSalt.size());
    return RawKeyScanner::identityHash(f);
}

bool PackedObjectKey::fromValue(const PackedValue &v, PackedObjectKey *out) {
    PackedValue m = v;
    if (const std::string_view t = v.tag(); !t.empty()) {
        if (t != "ObjectKey") {
            return false;
        }
        m = v.payload();
    }
    if (!m.isMap()) {
        return false;
    }
    const PackedValue hash = m.find("chunk_hash");
    const PackedValue model = m.find("model_name");
    const PackedValue rank = m.find("kv_rank");
    if (!hash.isValid() || !model.isValid() || !rank.isValid()) {
        return false;
    }
    PackedObjectKey k;
    if (hash.isBytes()) {
        k.chunkHash = hash.bytes();
    } else if (hash.isString()) {
        k.chunkHash = hash.str();
        k.chunkHashIsHex = true;
    } else {
        return false;
    }
    k.modelName = model.str();
    k.kvRank = rank.toInt();
    if (const PackedValue g = m.find("object_group_id"); g.isInt()) {
        k.hasObjectGroupId = true;
        k.objectGroupId = g.toInt();
    }
    if (const PackedValue s = m.find("cache_salt"); s.isString()) {
        k.hasCacheSalt = true;
        k.cacheSalt = s.str();
    }
    *out = k;
    return true;
}

}  // namespace lmct
