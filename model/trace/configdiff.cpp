#include "trace/configdiff.h"

#include "trace/traceheader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <algorithm>
#include <limits>

namespace lmct {

namespace {

bool sameLeaf(const QJsonValue &a, const QJsonValue &b) {
    if (a.isDouble() && b.isDouble()) {
        // by value (600 == 600.0), and exactly for integers past 2^53
        return a.toDouble() == b.toDouble() && a.toInteger(0) == b.toInteger(0);
    }
    return a == b;
}

QString childPath(const QString &path, const QString &key) {
    return path.isEmpty() ? key : path + QLatin1Char('.') + key;
}

void diff(const QString &path, const QJsonValue &a, const QJsonValue &b,
          QList<ConfigDiff::Change> &out) {
    using Kind = ConfigDiff::Change::Kind;
    auto add = [&out](Kind kind, const QString &p, const QJsonValue &va, const QJsonValue &vb) {
        ConfigDiff::Change c;
        c.kind = kind;
        c.path = p;
        c.a = va;
        c.b = vb;
        c.isVolatile = ConfigDiff::isVolatilePath(p);
        out.append(c);
    };
    if (a.isObject() && b.isObject()) {
        const QJsonObject oa = a.toObject();
        const QJsonObject ob = b.toObject();
        QStringList keys = oa.keys() + ob.keys();
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        for (const QString &k : keys) {
            const QString p = childPath(path, k);
            const bool inA = oa.contains(k);
            const bool inB = ob.contains(k);
            if (inA && inB) {
                diff(p, oa.value(k), ob.value(k), out);
            } else if (inA) {
                add(Kind::Removed, p, oa.value(k), QJsonValue(QJsonValue::Undefined));
            } else {
                add(Kind::Added, p, QJsonValue(QJsonValue::Undefined), ob.value(k));
            }
        }
        return;
    }
    if (a.isArray() && b.isArray()) {
        const QJsonArray aa = a.toArray();
        const QJsonArray ab = b.toArray();
        const qsizetype n = std::max(aa.size(), ab.size());
        for (qsizetype i = 0; i < n; ++i) {
            const QString p = path + QStringLiteral("[%1]").arg(i);
            if (i < aa.size() && i < ab.size()) {
                diff(p, aa.at(i), ab.at(i), out);
            } else if (i < aa.size()) {
                add(Kind::Removed, p, aa.at(i), QJsonValue(QJsonValue::Undefined));
            } else {
                add(Kind::Added, p, QJsonValue(QJsonValue::Undefined), ab.at(i));
            }
        }
        return;
    }
    if (!sameLeaf(a, b)) {
        add(Kind::Changed, path, a, b);
    }
}

/** The config as one value: the object when it is one, else the text, or null for "". */
QJsonValue wholeValue(const QString &text, const QJsonDocument &doc) {
    if (doc.isObject()) {
        return doc.object();
    }
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

QString valueText(const QJsonValue &v) {
    QString s;
    switch (v.type()) {
        case QJsonValue::String:
            s = QLatin1Char('"') + v.toString() + QLatin1Char('"');
            break;
        case QJsonValue::Double: {
            const qint64 whole = v.toInteger(std::numeric_limits<qint64>::min());
            s = whole != std::numeric_limits<qint64>::min()
                    ? QString::number(whole)
                    : QString::number(v.toDouble(), 'g', QLocale::FloatingPointShortest);
            break;
        }
        case QJsonValue::Bool:
            s = v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
            break;
        case QJsonValue::Null:
            s = QStringLiteral("null");
            break;
        case QJsonValue::Object:
            s = QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
            break;
        case QJsonValue::Array:
            s = QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
            break;
        case QJsonValue::Undefined:
            s = QStringLiteral("(absent)");
            break;
    }
    return s.size() > 60 ? s.left(59) + QChar(0x2026) : s;
}

}  // namespace

QStringList ConfigDiff::volatileKeys() {
    return {QStringLiteral("shm_name")};
}

bool ConfigDiff::isVolatilePath(const QString &path) {
    const qsizetype dot = path.lastIndexOf(QLatin1Char('.'));
    const QString last = dot < 0 ? path : path.mid(dot + 1);
    return volatileKeys().contains(last);
}

ConfigDiff ConfigDiff::compare(const QString &a, const QString &b) {
    ConfigDiff d;
    const QJsonDocument da = QJsonDocument::fromJson(a.toUtf8());
    const QJsonDocument db = QJsonDocument::fromJson(b.toUtf8());
    if (da.isObject() && db.isObject()) {
        diff(QString(), da.object(), db.object(), d.m_changes);
    } else if (a != b) {
        Change c;
        c.kind = Change::Kind::Changed;
        c.a = wholeValue(a, da);
        c.b = wholeValue(b, db);
        d.m_changes.append(c);
    }
    return d;
}

bool ConfigDiff::equalIgnoringVolatile(const QString &a, const QString &b) {
    return compare(a, b).isEqualIgnoringVolatile();
}

QList<ConfigDiff::Change> ConfigDiff::realChanges() const {
    QList<Change> out;
    for (const Change &c : m_changes) {
        if (!c.isVolatile) {
            out.append(c);
        }
    }
    return out;
}

QStringList ConfigDiff::changedVolatileKeys() const {
    QStringList names;
    for (const Change &c : m_changes) {
        const QString last = c.path.mid(c.path.lastIndexOf(QLatin1Char('.')) + 1);
        if (c.isVolatile && !names.contains(last)) {
            names.append(last);
        }
    }
    return names;
}

QString ConfigDiff::describe(const Change &c) {
    const QString path = c.path.isEmpty() ? QStringLiteral("the whole config") : c.path;
    switch (c.kind) {
        case Change::Kind::Added:
            return QStringLiteral("%1: added (%2)").arg(path, valueText(c.b));
        case Change::Kind::Removed:
            return QStringLiteral("%1: removed (%2)").arg(path, valueText(c.a));
        case Change::Kind::Changed:
            break;
    }
    return QStringLiteral("%1: %2 → %3").arg(path, valueText(c.a), valueText(c.b));
}

QString ConfigDiff::explanation(int maxListed) const {
    if (isIdentical()) {
        return QStringLiteral("identical");
    }
    const QList<Change> real = realChanges();
    if (real.isEmpty()) {
        return QStringLiteral("differs only in volatile fields (%1)")
            .arg(changedVolatileKeys().join(QStringLiteral(", ")));
    }
    QStringList listed;
    for (qsizetype i = 0; i < real.size() && i < maxListed; ++i) {
        listed.append(describe(real.at(i)));
    }
    QString s = real.size() == 1
                    ? QStringLiteral("differs in 1 field: %1").arg(listed.first())
                    : QStringLiteral("differs in %1 fields: %2")
                          .arg(QString::number(real.size()), listed.join(QStringLiteral("; ")));
    if (real.size() > maxListed) {
        s += QStringLiteral("; and %1 more").arg(real.size() - maxListed);
    }
    return s;
}

QString ConfigDiff::explainDigests(const TraceHeader &a, const TraceHeader &b) {
    if (a.configLost() || b.configLost()) {
        return QStringLiteral(
                   "cannot compare: the config of the %1 was overwritten (header "
                   "rewritten in place)")
            .arg(a.configLost() && b.configLost() ? QStringLiteral("both traces")
                 : a.configLost()                 ? QStringLiteral("first trace")
                                                  : QStringLiteral("second trace"));
    }
    const QString ja = a.smConfigJson();
    const QString jb = b.smConfigJson();
    if (ja.isEmpty() && jb.isEmpty()) {
        return QStringLiteral("neither trace has a StorageManager config attached");
    }
    if (ja.isEmpty() || jb.isEmpty()) {
        return QStringLiteral("only the %1 trace has a StorageManager config attached")
            .arg(ja.isEmpty() ? QStringLiteral("second") : QStringLiteral("first"));
    }
    const ConfigDiff d = compare(ja, jb);
    if (d.isIdentical()) {
        const bool mismatch = a.digestStatus() == TraceHeader::DigestStatus::Mismatch ||
                              b.digestStatus() == TraceHeader::DigestStatus::Mismatch;
        return mismatch ? QStringLiteral("the same config, but a digest does not match it")
                        : QStringLiteral("the same config");
    }
    if (d.isEqualIgnoringVolatile()) {
        return QStringLiteral(
                   "the same settings: the configs differ only in volatile fields "
                   "(%1), which change with every server process, so the digests "
                   "differ")
            .arg(d.changedVolatileKeys().join(QStringLiteral(", ")));
    }
    return QStringLiteral("different configs: %1").arg(d.explanation());
}

}  // namespace lmct
