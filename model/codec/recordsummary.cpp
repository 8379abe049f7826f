#include "codec/recordsummary.h"

#include "codec/memorylayout.h"
#include "codec/objectkey.h"
#include "codec/qualname.h"
#include "codec/valueformatter.h"

#include <QStringList>
#include <QVarLengthArray>
#include <algorithm>

namespace lmct {

namespace {

const Value *findDeep(const Value &v, QStringView key, int depth = 0) {
    if (depth > 6) {
        return nullptr;
    }
    if (v.isMap()) {
        if (const Value *hit = v.find(key)) {
            return hit;
        }
    }
    for (const Value &c : v.children()) {
        if (c.isContainer()) {
            if (const Value *hit = findDeep(c, key, depth + 1)) {
                return hit;
            }
        }
    }
    return nullptr;
}

}  // namespace

QString RecordSummary::elideMiddle(const QString &s, int max) {
    return s.size() > max ? s.left(max - 1) + QChar(0x2026) : s;
}

void RecordSummary::appendKeyParts(const QList<ObjectKey> &keys, QStringList *parts) {
    if (keys.isEmpty()) {
        return;
    }
    // The distinct models, salts and ranks, in small vectors: a record's keys name one or a
    // few of each, and a hash set allocated per record was most of the summary's time.
    QVarLengthArray<QString, 4> models, salts;
    QVarLengthArray<int, 16> ranks;
    const auto addTo = [](auto &distinct, const auto &v) {
        if (std::find(distinct.begin(), distinct.end(), v) == distinct.end()) {
            distinct.append(v);
        }
    };
    int world = 0;
    bool oneWorld = true;
    for (const ObjectKey &k : keys) {
        if (models.isEmpty() || models.back() != k.modelName) {
            addTo(models, k.modelName);
        }
        if (k.cacheSalt && !k.cacheSalt->isEmpty()) {
            addTo(salts, *k.cacheSalt);
        }
        const KvRank r = k.rank();
        addTo(ranks, r.rank);
        if (world == 0) {
            world = r.worldSize;
        } else if (world != r.worldSize) {
            oneWorld = false;
        }
    }
    parts->append(models.size() == 1 ? models.front()
                                     : QString::number(models.size()) + QLatin1String(" models"));
    std::sort(ranks.begin(), ranks.end());
    QString text;
    text.reserve(40);
    const auto appendRanks = [&ranks, &text] {
        for (qsizetype i = 0; i < ranks.size(); ++i) {
            if (i > 0) {
                text += QLatin1Char(',');
            }
            text += QString::number(ranks[i]);
        }
    };
    if (oneWorld) {
        text += ranks.size() == 1 ? QLatin1String("rank ") : QLatin1String("ranks ");
        if (ranks.size() > 8) {
            text += QString::number(ranks.size());
        } else {
            appendRanks();
        }
        text += QLatin1Char('/');
        text += QString::number(world);
    } else {
        text += QLatin1String("ranks ");
        appendRanks();
        text += QLatin1String(" (mixed world sizes)");
    }
    parts->append(text);
    if (salts.size() == 1) {
        parts->append(QLatin1String("salt ") + salts.front());
    } else if (salts.size() > 1) {
        parts->append(QString::number(salts.size()) + QLatin1String(" salts"));
    }
}

QString RecordSummary::capped(const QStringList &parts, int maxChars) {
    const QString s = parts.join(QStringLiteral(" · "));
    return s.size() > maxChars ? s.left(maxChars - 1) + QChar(0x2026) : s;
}

QString RecordSummary::handleRequest(const Value &handle) {
    const QString req = RecordSummary::requestId(handle);
    if (!req.isEmpty()) {
        return QStringLiteral("request ") + elideMiddle(req, 28);
    }
    const Value *id = handle.find(u"prefetch_request_id");
    if (id && id->isInt() && id->toInt() >= 0) {
        return QStringLiteral("prefetch %1").arg(id->toInt());
    }
    return QStringLiteral("a prefetch without request id");
}

QString RecordSummary::requestId(const Value &args) {
    const Value *id = findDeep(args, u"external_request_id");
    if (!id || id->isNil()) {
        return QString();
    }
    return id->isString() ? id->toString() : ValueFormatter::display(*id, 60);
}

QString RecordSummary::summarize(const Value &args, int maxChars) {
    QStringList parts;
    const QList<ObjectKey> keys = ObjectKey::collect(args, 100000);
    const int nkeys = ObjectKey::count(args);
    if (nkeys > 0 || args.find(u"keys")) {
        parts.append(QStringLiteral("%1 key%2").arg(nkeys).arg(nkeys == 1 ? "" : "s"));
    }
    appendKeyParts(keys, &parts);
    if (auto l = MemoryLayout::findIn(args)) {
        parts.append(l->toString());
    }
    if (nkeys > 0 || args.find(u"keys")) {
        for (const char *f : {"mode", "policy", "extra_count", "read_locks", "skip_l2"}) {
            const Value *v = findDeep(args, QString::fromLatin1(f));
            if (!v) {
                continue;
            }
            const Value &u = v->untagged();
            if ((u.isInt() && u.toInt() == 0) || (u.type() == Value::Type::Bool && !u.toBool()) ||
                u.isNil()) {
                continue;
            }
            if (QLatin1String(f) == QLatin1String("mode") ||
                QLatin1String(f) == QLatin1String("policy")) {
                parts.append(ValueFormatter::display(*v, 30));
            } else {
                parts.append(
                    QStringLiteral("%1=%2").arg(QLatin1String(f), ValueFormatter::display(*v, 30)));
            }
        }
    } else if (args.isMap()) {
        // No keys: events level or an unknown call. Show scalar arguments.
        for (int i = 0; i < args.size(); ++i) {
            const Value &v = args.at(i);
            if (args.keyAt(i) == QLatin1String("external_request_id")) {
                continue;
            }
            if (v.isArray()) {
                parts.append(QStringLiteral("%1[%2]").arg(args.keyAt(i)).arg(v.size()));
            } else if (!v.isContainer()) {
                parts.append(
                    QStringLiteral("%1=%2").arg(args.keyAt(i), ValueFormatter::display(v, 40)));
            } else {
                parts.append(
                    QStringLiteral("%1=%2").arg(args.keyAt(i), ValueFormatter::typeLabel(v)));
            }
        }
    }
    const QString req = requestId(args);
    if (!req.isEmpty()) {
        parts.append(elideMiddle(req, 28));
    }
    return capped(parts, maxChars);
}

QString RecordSummary::summarize(const QString &qualname, const Value &args, int maxChars) {
    const QString call = Qualname::shortName(qualname);
    const bool release = call == QLatin1String("release_prefetch_task");
    const bool cancel = call == QLatin1String("cancel_prefetch_task");
    const Value *handle = args.isMap() ? args.find(u"handle") : nullptr;
    if ((!release && !cancel) || !handle || !handle->isTagged() ||
        handle->tag() != QLatin1String("PrefetchHandle") || !handle->payload().isMap()) {
        return summarize(args, maxChars);
    }
    const Value &h = handle->payload();
    QStringList parts;
    if (cancel) {
        parts.append(QStringLiteral("cancel ") + handleRequest(h));
    } else {
        const Value *keys = args.find(u"keys");
        QString what;
        if (!keys) {
            what = QString();  // not recorded: say nothing about the keys
        } else if (keys->isNil()) {
            what = QStringLiteral("all keys of ");
        } else {
            const int n = ObjectKey::count(*keys);
            what = QStringLiteral("%1 key%2 of ").arg(n).arg(n == 1 ? "" : "s");
        }
        parts.append(QStringLiteral("release ") + what + handleRequest(h));
        if (keys) {
            appendKeyParts(ObjectKey::collect(*keys, 100000), &parts);
        }
    }
    if (const QString hits = ValueFormatter::handleHits(h); !hits.isEmpty()) {
        parts.append(hits);
    }
    return capped(parts, maxChars);
}

}  // namespace lmct
