#include "compare/keyoverlap.h"

#include <QByteArray>
#include <QMap>
#include <QSet>

namespace lmct {

namespace {

/** Key `id`'s identity as bytes: equal bytes, equal identity (lengths make it unambiguous). */
QByteArray identityOf(const KeyAnalysis &ka, int id) {
    const KeyAnalysis::Key &k = ka.key(id);
    QByteArray out;
    const QByteArray model = ka.modelName(id).toUtf8();
    const QByteArray salt = k.salt >= 0 ? ka.salts()[k.salt].toUtf8() : QByteArray();
    out.reserve(qsizetype(k.hashSize) + model.size() + salt.size() + 40);
    auto num = [&out](qint64 v) { out.append(reinterpret_cast<const char *>(&v), sizeof v); };
    num(qint64(k.hashSize));
    out.append(ka.hashView(id));
    num(model.size());
    out.append(model);
    num(k.kvRank);
    num(k.hasGroup ? 1 : 0);
    num(k.hasGroup ? k.group : 0);
    num(k.salt >= 0 ? salt.size() : -1);
    out.append(salt);
    return out;
}

}  // namespace

std::optional<KeyOverlap> KeyOverlap::build(const KeyAnalysis &a, const KeyAnalysis &b,
                                            const std::atomic_bool *cancel) {
    auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    QSet<QByteArray> inB;
    inB.reserve(b.keyCount());
    for (int id = 0; id < b.keyCount(); ++id) {
        if ((id & 0xffff) == 0 && cancelled()) {
            return std::nullopt;
        }
        inB.insert(identityOf(b, id));
    }
    QMap<QString, Row> rows;
    for (const QString &m : a.models()) {
        rows[m].model = m;
    }
    for (const QString &m : b.models()) {
        rows[m].model = m;
    }
    QSet<QByteArray> shared;  // B's keys also in A
    for (int id = 0; id < a.keyCount(); ++id) {
        if ((id & 0xffff) == 0 && cancelled()) {
            return std::nullopt;
        }
        QByteArray ident = identityOf(a, id);
        Row &r = rows[a.modelName(id)];
        if (inB.contains(ident)) {
            ++r.both;
            shared.insert(std::move(ident));
        } else {
            ++r.onlyA;
        }
    }
    for (int id = 0; id < b.keyCount(); ++id) {
        if ((id & 0xffff) == 0 && cancelled()) {
            return std::nullopt;
        }
        if (!shared.contains(identityOf(b, id))) {
            ++rows[b.modelName(id)].onlyB;
        }
    }
    KeyOverlap out;
    for (const Row &r : rows) {
        out.m_models.push_back(r);
        out.m_total.onlyA += r.onlyA;
        out.m_total.onlyB += r.onlyB;
        out.m_total.both += r.both;
    }
    QStringList ma = a.models(), mb = b.models();
    ma.sort();
    mb.sort();
    if (ma != mb) {
        auto list = [](const QStringList &l) {
            return l.isEmpty() ? QStringLiteral("no model") : l.join(QStringLiteral(", "));
        };
        out.m_reason = QStringLiteral("different models: A %1, B %2").arg(list(ma), list(mb));
    }
    return out;
}

}  // namespace lmct
