#include "codec/objectkey.h"

namespace lmct {

QString ObjectKey::shortHash(int n) const {
    const QString hex = hashHex();
    return hex.size() > n ? hex.left(n) + QChar(0x2026) : hex;
}

std::optional<ObjectKey> ObjectKey::fromValue(const Value &v) {
    const Value *m = &v;
    if (v.isTagged()) {
        if (v.tag() != QLatin1String("ObjectKey")) {
            return std::nullopt;
        }
        m = &v.payload();
    }
    if (!m->isMap()) {
        return std::nullopt;
    }
    const Value *hash = m->find(u"chunk_hash");
    const Value *model = m->find(u"model_name");
    const Value *rank = m->find(u"kv_rank");
    if (!hash || !model || !rank) {
        return std::nullopt;
    }
    ObjectKey k;
    if (hash->isBytes()) {
        k.chunkHash = hash->toBytes();
    } else if (hash->isString()) {
        k.chunkHash = QByteArray::fromHex(hash->toString().toLatin1());
    } else {
        return std::nullopt;
    }
    k.modelName = model->toString();
    k.kvRank = rank->toInt();
    if (const Value *g = m->find(u"object_group_id"); g && g->isInt()) {
        k.objectGroupId = g->toInt();
    }
    if (const Value *s = m->find(u"cache_salt"); s && s->isString()) {
        k.cacheSalt = s->toString();
    }
    return k;
}

namespace {

void walk(const Value &v, QList<ObjectKey> *out, int *count, int limit) {
    if (v.isTagged() && v.tag() == QLatin1String("ObjectKey")) {
        if (out) {
            if (out->size() < limit) {
                if (auto k = ObjectKey::fromValue(v)) {
                    out->append(*k);
                }
            }
        }
        ++*count;
        return;
    }
    for (const Value &c : v.children()) {
        if (c.isContainer()) {
            walk(c, out, count, limit);
        }
    }
}

}  // namespace

QList<ObjectKey> ObjectKey::collect(const Value &v, int limit) {
    QList<ObjectKey> out;
    int n = 0;
    walk(v, &out, &n, limit);
    return out;
}

int ObjectKey::count(const Value &v) {
    int n = 0;
    walk(v, nullptr, &n, 0);
    return n;
}

}  // namespace lmct
