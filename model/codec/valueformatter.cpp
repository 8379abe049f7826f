#include "codec/valueformatter.h"

#include "codec/kvrank.h"
#include "codec/memorylayout.h"
#include "codec/objectkey.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>

namespace lmct {

namespace {

QString elide(const QString &s, int maxChars) {
    return s.size() > maxChars ? s.left(qMax(1, maxChars - 1)) + QChar(0x2026) : s;
}

/**
 * Hex of a binary's bytes, at most about maxChars of it (only the bytes shown are converted: a
 * whole 1 MiB binary to hex for a 200-character summary cost 2 MB per row), with the binary's
 * size when they do not all fit or only its first bytes were kept (Value::isCut()).
 */
QString hexPreview(const Value &v, int maxChars) {
    const QByteArray &b = v.toBytes();
    const qsizetype shown = std::min<qsizetype>(b.size(), qsizetype(std::max(1, maxChars / 2)));
    if (shown == b.size() && !v.isCut()) {
        return elide(QString::fromLatin1(b.toHex()), maxChars);
    }
    return QString::fromLatin1(b.left(shown).toHex()) + QChar(0x2026) +
           QStringLiteral(" (%1 bytes)").arg(v.fullSize());
}

/**
 * A string, at most about maxChars of it; a string of which only the start was kept
 * (Value::isCut()) ends with its size in the record, as hexPreview() does for binaries.
 */
QString stringPreview(const Value &v, int maxChars) {
    if (!v.isCut()) {
        return elide(v.toString(), maxChars);
    }
    return v.toString().left(qMax(1, maxChars - 1)) + QChar(0x2026) +
           QStringLiteral(" (%1 bytes)").arg(v.fullSize());
}

QString intList(const Value &v) {
    QStringList parts;
    const Value &l = v.untagged();
    for (const Value &e : l.children()) {
        parts.append(ValueFormatter::number(e));
    }
    return QStringLiteral("[%1]").arg(parts.join(QLatin1Char(',')));
}

QString attnWindow(const Value &payload) {
    const Value *list = &payload;
    QString world;
    if (payload.isMap()) {
        list = payload.find(u"num_chunks_in_sw");
        if (const Value *w = payload.find(u"world_size")) {
            world = QStringLiteral(" · world %1").arg(w->toInt());
        }
        if (!list) {
            return QStringLiteral("AttnWindowDesc");
        }
    }
    const Value &l = list->untagged();
    bool allFull = l.size() > 0;
    for (const Value &e : l.children()) {
        allFull = allFull && e.toInt() == -1;
    }
    if (allFull) {
        return QStringLiteral("full attention") + world;
    }
    return QStringLiteral("sliding window %1 chunks").arg(intList(l)) + world;
}

QString enumName(const Value &payload) {
    if (payload.isString()) {
        return payload.toString();
    }
    return ValueFormatter::display(payload, 60);
}

QString specSummary(const Value &p) {
    QStringList parts;
    const int keys = ObjectKey::count(p);
    parts.append(QStringLiteral("%1 key%2").arg(keys).arg(keys == 1 ? "" : "s"));
    for (const char *f : {"policy", "mode", "attn_desc", "lock_mode", "fetching_policy"}) {
        if (const Value *v = p.find(QString::fromLatin1(f))) {
            parts.append(ValueFormatter::display(*v, 50));
        }
    }
    if (auto l = MemoryLayout::findIn(p)) {
        parts.append(l->toString());
    }
    return parts.join(QStringLiteral(" · "));
}

}  // namespace

QString ValueFormatter::indexRuns(const Value &list, int maxChars) {
    const Value &l = list.untagged();
    if (!l.isArray()) {
        return display(list, maxChars);
    }
    if (l.size() == 0) {
        return QStringLiteral("none");
    }
    QStringList parts;
    int len = 0;
    const int n = l.size();
    for (int i = 0; i < n;) {
        QString part;
        int next = i + 1;
        if (l.at(i).isInt()) {
            const qint64 first = l.at(i).toInt();
            qint64 last = first;
            while (next < n && l.at(next).isInt() && last < std::numeric_limits<qint64>::max() &&
                   l.at(next).toInt() == last + 1) {
                last = l.at(next).toInt();
                ++next;
            }
            part = last == first ? QString::number(first)
                                 : QStringLiteral("%1–%2").arg(first).arg(last);
        } else {
            part = display(l.at(i), 40);
        }
        len += int(part.size()) + 2;
        if (len > maxChars && !parts.isEmpty()) {
            parts.append(QStringLiteral("… %1 more").arg(n - i));
            break;
        }
        parts.append(part);
        i = next;
    }
    return parts.join(QStringLiteral(", "));
}

bool ValueFormatter::isKnownTag(const QString &t) {
    static const QStringList known = {QStringLiteral("ObjectKey"),
                                      QStringLiteral("MemoryLayoutDesc"),
                                      QStringLiteral("PrefetchHandle"),
                                      QStringLiteral("torch.Size"),
                                      QStringLiteral("torch.dtype"),
                                      QStringLiteral("TrimPolicy"),
                                      QStringLiteral("PrefetchMode"),
                                      QStringLiteral("AttnWindowDesc"),
                                      QStringLiteral("PrefetchRequestSpec"),
                                      QStringLiteral("set"),
                                      QStringLiteral("tuple")};
    return known.contains(t);
}

QString ValueFormatter::number(const Value &v) {
    if (v.isInt()) {
        return v.isUnsigned() ? QString::number(v.toUInt()) : QString::number(v.toInt());
    }
    const double d = v.toDouble();
    if (std::isnan(d)) {
        return QStringLiteral("nan");
    }
    if (std::isinf(d)) {
        return d > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    }
    QString s = QString::number(d, 'g', v.wasFloat32() ? 9 : 17);
    // Prefer the shortest text that reads back the same (as a float32 when it was one).
    for (int prec = 6; prec < 17; ++prec) {
        const QString t = QString::number(d, 'g', prec);
        const double back = t.toDouble();
        if (v.wasFloat32() ? float(back) == float(d) : back == d) {
            s = t;
            break;
        }
    }
    // Plain magnitudes are written out (1760000000, not 1.76e+09); 'g' switches to an exponent
    // as soon as the exponent reaches the number of significant digits.
    const qsizetype e = s.indexOf(QLatin1Char('e'));
    if (e > 0 && std::abs(d) >= 1.0 && std::abs(d) < 1e17) {
        int digits = 0;
        for (qsizetype i = 0; i < e; ++i) {
            digits += s[i].isDigit() ? 1 : 0;
        }
        s = QString::number(d, 'f', qMax(0, digits - 1 - s.mid(e + 1).toInt()));
    }
    return s;
}

QString ValueFormatter::typeLabel(const Value &v) {
    switch (v.type()) {
        case Value::Type::Bytes:
            return QStringLiteral("bytes[%1]").arg(v.toBytes().size());
        case Value::Type::Array:
            return QStringLiteral("list[%1]").arg(v.size());
        case Value::Type::Map:
            return QStringLiteral("map{%1}").arg(v.size());
        case Value::Type::Tagged:
            return v.tag();
        case Value::Type::String:
            return QStringLiteral("str");
        default:
            return v.typeName();
    }
}

QString ValueFormatter::display(const Value &v, int maxChars) {
    switch (v.type()) {
        case Value::Type::Nil:
            return QStringLiteral("None");
        case Value::Type::Bool:
            return v.toBool() ? QStringLiteral("True") : QStringLiteral("False");
        case Value::Type::Int:
        case Value::Type::Float:
            return number(v);
        case Value::Type::String:
            return stringPreview(v, maxChars);
        case Value::Type::Bytes:
            return hexPreview(v, maxChars);
        case Value::Type::Ext:
            return QStringLiteral("ext %1: %2").arg(v.extType()).arg(hexPreview(v, maxChars));
        case Value::Type::Truncated:
            return QStringLiteral("⚠ decoding stopped: %1").arg(v.toString());
        case Value::Type::Array: {
            QStringList parts;
            int len = 2;
            for (const Value &e : v.children()) {
                const QString s = display(e, 40);
                len += s.size() + 2;
                if (len > maxChars) {
                    parts.append(QStringLiteral("… %1 more").arg(v.size() - parts.size()));
                    break;
                }
                parts.append(s);
            }
            return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
        }
        case Value::Type::Map: {
            QStringList parts;
            int len = 2;
            for (int i = 0; i < v.size(); ++i) {
                const QString s = v.keyAt(i) + QStringLiteral(": ") + display(v.at(i), 40);
                len += s.size() + 2;
                if (len > maxChars) {
                    parts.append(QStringLiteral("… %1 more").arg(v.size() - i));
                    break;
                }
                parts.append(s);
            }
            return QStringLiteral("{%1}").arg(parts.join(QStringLiteral(", ")));
        }
        case Value::Type::Tagged:
            break;
    }
    const QString tag = v.tag();
    const Value &p = v.payload();
    if (tag == QLatin1String("ObjectKey")) {
        if (auto k = ObjectKey::fromValue(v)) {
            QString s = QStringLiteral("%1 · %2 · %3")
                            .arg(k->shortHash(16), k->modelName, k->rank().toString());
            if (k->objectGroupId && *k->objectGroupId != 0) {
                s += QStringLiteral(" · group %1").arg(*k->objectGroupId);
            }
            if (k->cacheSalt && !k->cacheSalt->isEmpty()) {
                s += QStringLiteral(" · salt %1").arg(*k->cacheSalt);
            }
            return elide(s, maxChars);
        }
    } else if (tag == QLatin1String("MemoryLayoutDesc")) {
        if (auto l = MemoryLayout::fromValue(v)) {
            QString s = l->toString();
            if (auto b = l->bytesPerObject()) {
                s += QStringLiteral(" · %1/object").arg(formatBytes(*b));
            }
            return elide(s, maxChars);
        }
    } else if (tag == QLatin1String("TrimPolicy") || tag == QLatin1String("PrefetchMode") ||
               tag == QLatin1String("torch.dtype")) {
        return enumName(p);
    } else if (tag == QLatin1String("torch.Size")) {
        return intList(p);
    } else if (tag == QLatin1String("AttnWindowDesc")) {
        return attnWindow(p);
    } else if (tag == QLatin1String("set") || tag == QLatin1String("tuple")) {
        const QString inner = display(p, maxChars - 2);
        if (p.isArray() && inner.size() >= 2) {
            return tag == QLatin1String("set")
                       ? QStringLiteral("{%1}").arg(inner.mid(1, inner.size() - 2))
                       : QStringLiteral("(%1)").arg(inner.mid(1, inner.size() - 2));
        }
        return inner;
    } else if (tag == QLatin1String("PrefetchRequestSpec")) {
        return elide(specSummary(p), maxChars);
    } else if (tag == QLatin1String("PrefetchHandle")) {
        QStringList parts;
        if (const Value *id = p.find(u"external_request_id")) {
            parts.append(display(*id, 60));
        }
        if (const Value *id = p.find(u"prefetch_request_id")) {
            parts.append(QStringLiteral("prefetch %1").arg(display(*id, 30)));
        }
        if (const QString hits = handleHits(p); !hits.isEmpty()) {
            parts.append(hits);
        }
        return elide(parts.join(QStringLiteral(" · ")), maxChars);
    }
    // Unknown tag (newer LMCache): the tag name and a glimpse of the payload.
    if (p.isContainer()) {
        const int keys = ObjectKey::count(p);
        if (keys > 0) {
            return elide(QStringLiteral("%1 · %2").arg(tag, specSummary(p)), maxChars);
        }
    }
    return elide(QStringLiteral("%1 %2").arg(tag, display(p, maxChars - tag.size() - 1)), maxChars);
}

QString ValueFormatter::handleHits(const Value &payload) {
    const Value *hits = payload.find(u"l1_prefix_hit_count");
    const Value *total = payload.find(u"total_requested_keys");
    if (!hits || !total || !hits->isInt() || !total->isInt()) {
        return QString();
    }
    return QStringLiteral("L1 hits %1/%2").arg(number(*hits), number(*total));
}

QJsonValue ValueFormatter::toJson(const Value &v) {
    switch (v.type()) {
        case Value::Type::Nil:
            return QJsonValue(QJsonValue::Null);
        case Value::Type::Bool:
            return v.toBool();
        case Value::Type::Int:
            if (v.isUnsigned()) {
                return double(v.toUInt());
            }
            return v.toInt();
        case Value::Type::Float: {
            const double d = v.toDouble();
            if (std::isfinite(d)) {
                return d;
            }
            return QJsonValue(QJsonValue::Null);  // JSON has no NaN or infinity
        }
        case Value::Type::String:
            if (v.isCut()) {  // only its start was decoded: say so, as for binaries
                return QJsonObject{{QStringLiteral("__cut__"), v.toString()},
                                   {QStringLiteral("size"), v.fullSize()}};
            }
            return v.toString();
        case Value::Type::Bytes:
            if (v.isCut()) {  // only its first bytes were decoded: say so, do not pass them off
                return QJsonObject{
                    {QStringLiteral("__cut__"), QString::fromLatin1(v.toBytes().toHex())},
                    {QStringLiteral("size"), v.fullSize()}};
            }
            return QString::fromLatin1(v.toBytes().toHex());
        case Value::Type::Ext: {
            QJsonObject o{{QStringLiteral("ext"), int(v.extType())},
                          {QStringLiteral("data"), QString::fromLatin1(v.toBytes().toHex())}};
            if (v.isCut()) {
                o.insert(QStringLiteral("size"), v.fullSize());
            }
            return o;
        }
        case Value::Type::Truncated:
            return QJsonObject{{QStringLiteral("__truncated__"), v.toString()}};
        case Value::Type::Array: {
            QJsonArray a;
            for (const Value &e : v.children()) {
                a.append(toJson(e));
            }
            return a;
        }
        case Value::Type::Map: {
            QJsonObject o;
            for (int i = 0; i < v.size(); ++i) {
                o.insert(v.keyAt(i), toJson(v.at(i)));
            }
            return o;
        }
        case Value::Type::Tagged:
            return QJsonObject{{QStringLiteral("__t__"), v.tag()},
                               {QStringLiteral("v"), toJson(v.payload())}};
    }
    return QJsonValue();
}

}  // namespace lmct
