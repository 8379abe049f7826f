#include "filtercomposer.h"

#include "filterexpression.h"
#include "inspectortreemodel.h"
#include "kvrank.h"
#include "treenode.h"

#include <functional>

namespace lmct {

QString FilterComposer::quote(const QString &text) {
    QString out = QStringLiteral("\"");
    for (const QChar c : text) {
        if (c == QLatin1Char('"') || c == QLatin1Char('\\')) {
            out += QLatin1Char('\\');
        }
        out += c;
    }
    return out + QLatin1Char('"');
}

QString FilterComposer::condition(const QString &field, const QString &value, bool exclude) {
    QString v = value;
    if (field == QLatin1String("model_name") || field == QLatin1String("cache_salt") ||
        (field == QLatin1String("request") && !v.startsWith(QLatin1Char('"')))) {
        v = quote(value);
    }
    return QStringLiteral("%1 %2 %3")
        .arg(field, exclude ? QStringLiteral("!=") : QStringLiteral("=="), v);
}

QString FilterComposer::append(const QString &existing, const QString &condition) {
    const QString e = existing.trimmed();
    if (e.isEmpty()) {
        return condition;
    }
    const FilterExpression parsed = FilterExpression::parse(e);
    const QString canon = parsed.toString();
    // A top-level `||` would bind looser than the appended `&&`: keep the user's grouping.
    bool needParens = false;
    if (parsed.isValid()) {
        int depth = 0;
        for (int i = 0; i + 1 < canon.size(); ++i) {
            const QChar c = canon.at(i);
            if (c == QLatin1Char('(')) {
                ++depth;
            } else if (c == QLatin1Char(')')) {
                --depth;
            } else if (depth == 0 && c == QLatin1Char('|') && canon.at(i + 1) == QLatin1Char('|')) {
                needParens = true;
                break;
            }
        }
        needParens =
            needParens || e.contains(QLatin1String("||")) || e.contains(QLatin1String(" or "));
    } else {
        needParens = true;
    }
    return (needParens ? QStringLiteral("(%1)").arg(e) : e) + QStringLiteral(" && ") + condition;
}

QString FilterComposer::conditionForInspectorRow(const QModelIndex &index, bool exclude) {
    const QModelIndex row = index.siblingAtColumn(0);
    const auto *model = qobject_cast<const InspectorTreeModel *>(row.model());
    return model ? conditionForNode(model->node(row), exclude) : QString();
}

QString FilterComposer::conditionForNode(const TreeNode *node, bool exclude) {
    if (!node) {
        return {};
    }
    const QString &name = node->name;
    const Value *v = node->source;
    if (name == QLatin1String("chunk_hash") && v && v->isBytes()) {
        return condition(QStringLiteral("chunk_hash"), QString::fromLatin1(v->toBytes().toHex()),
                         exclude);
    }
    if (name == QLatin1String("model_name") && v && v->isString()) {
        return condition(QStringLiteral("model_name"), v->toString(), exclude);
    }
    if (name == QLatin1String("cache_salt") && v && v->isString()) {
        return condition(QStringLiteral("cache_salt"), v->toString(), exclude);
    }
    if (name == QLatin1String("external_request_id") && v) {
        if (v->isString()) {
            return condition(QStringLiteral("request"), quote(v->toString()), exclude);
        }
        if (v->isInt()) {
            return condition(QStringLiteral("request"), QString::number(v->toInt()), exclude);
        }
    }
    if (name == QLatin1String("kv_rank") && v && v->isInt()) {
        const KvRank r = KvRank::unpack(v->toInt());
        return condition(QStringLiteral("rank"), QString::number(r.rank), exclude);
    }
    if (name == QLatin1String("rank") && node->derived) {
        bool ok = false;
        const int r = node->value.trimmed().toInt(&ok);
        if (ok) {
            return condition(QStringLiteral("rank"), QString::number(r), exclude);
        }
    }
    return {};
}

QList<QPair<QString, QString>> FilterComposer::conditionsInTree(const TreeNode *root,
                                                                bool exclude) {
    QList<QPair<QString, QString>> out;
    QStringList seen;
    std::function<void(const TreeNode *)> walk = [&](const TreeNode *n) {
        if (!n || out.size() >= 5) {
            return;
        }
        const QString c = conditionForNode(n, exclude);
        if (!c.isEmpty()) {
            const QString field = c.section(QLatin1Char(' '), 0, 0);
            if (!seen.contains(field)) {
                seen << field;
                out.append({field, c});
            }
            if (n->name == QLatin1String("kv_rank")) {
                return;  // its derived rank row would repeat it
            }
        }
        for (const auto &child : n->children) {
            walk(child.get());
        }
    };
    walk(root);
    return out;
}

}  // namespace lmct
