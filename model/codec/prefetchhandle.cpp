#include "codec/prefetchhandle.h"

#include <limits>

namespace lmct {

namespace {

std::vector<qint64> intList(const Value *v) {
    std::vector<qint64> out;
    if (!v) {
        return out;
    }
    const Value &a = v->untagged();
    if (!a.isArray()) {
        return out;
    }
    out.reserve(size_t(a.size()));
    for (int i = 0; i < a.size(); ++i) {
        if (a.at(i).isInt()) {
            out.push_back(a.at(i).toInt());
        }
    }
    return out;
}

}  // namespace

std::optional<PrefetchHandle> PrefetchHandle::fromValue(const Value &v) {
    if (v.isTagged() && v.tag() != QLatin1String("PrefetchHandle")) {
        return std::nullopt;
    }
    const Value &p = v.untagged();
    if (!p.isMap()) {
        return std::nullopt;
    }
    const Value *rid = p.find(u"external_request_id");
    const Value *pid = p.find(u"prefetch_request_id");
    if (!v.isTagged() && !rid && !pid) {
        return std::nullopt;
    }
    PrefetchHandle h;
    if (pid && pid->isInt()) {
        h.prefetchRequestId = pid->toInt();
    }
    if (rid && rid->isString()) {
        h.externalRequestId = rid->toString();
    }
    auto integer = [&p](const char16_t *name, bool *has, qint64 *out, quint64 *above) {
        const Value *f = p.find(QStringView(name));
        if (f && f->isInt()) {
            *has = true;
            if (f->isUnsigned()) {  // above INT64_MAX: toInt() would wrap it negative
                *out = std::numeric_limits<qint64>::max();
                if (above) {
                    *above = f->toUInt();
                }
            } else {
                *out = f->toInt();
            }
        }
    };
    integer(u"l1_prefix_hit_count", &h.hasHitCount, &h.l1PrefixHitCount, &h.hitCountAboveInt64);
    integer(u"total_requested_keys", &h.hasTotal, &h.totalRequestedKeys, &h.totalAboveInt64);
    integer(u"l1_hit_chunks", &h.hasHitChunks, &h.l1HitChunks, nullptr);
    if (const Value *g = p.find(u"generation"); g && g->isInt()) {
        h.generation = g->toInt();
    }
    if (const Value *s = p.find(u"submit_time"); s && s->isNumber()) {
        h.submitTime = s->toDouble();
    }
    h.l1FoundIndices = intList(p.find(u"l1_found_indices"));
    h.l2OrigIndices = intList(p.find(u"l2_orig_indices"));
    if (!h.hasHitCount && p.find(u"l1_found_indices")) {
        h.hasHitCount = true;  // l1_prefix_hit_count = len(l1_found_indices)
        h.l1PrefixHitCount = qint64(h.l1FoundIndices.size());
    }
    return h;
}

QString PrefetchHandle::hitCountText() const {
    return hitCountAboveInt64 ? QString::number(hitCountAboveInt64)
                              : QString::number(l1PrefixHitCount);
}

QString PrefetchHandle::totalText() const {
    return totalAboveInt64 ? QString::number(totalAboveInt64) : QString::number(totalRequestedKeys);
}

QString PrefetchHandle::hitText() const {
    if (!hasHitCount) {
        return QString();
    }
    return hasTotal ? QStringLiteral("%1 of %2").arg(hitCountText(), totalText()) : hitCountText();
}

std::optional<PrefetchHandle> PrefetchHandle::fromArgs(const Value &args) {
    const Value *h = args.isMap() ? args.find(u"handle") : nullptr;
    return h ? fromValue(*h) : std::nullopt;
}

}  // namespace lmct
