#include "records/filtercomposer.h"

#include "codec/kvrank.h"
#include "filter/filterexpression.h"
#include "itemmodels/inspectortreemodel.h"
#include "itemmodels/treenode.h"

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

namespace {

/** The field and literal a tree row names, or false when it names none. */
bool fieldLiteral(const TreeNode *node, QString *field, QString *literal) {
    if (!node) {
        return false;
    }
    const QString &name = node->name;
    const Value *v = node->source;
    if (name == QLatin1String("chunk_hash") && v && v->isBytes()) {
        *field = QStringLiteral("chunk_hash");
        *literal = QString::fromLatin1(v->toBytes().toHex());
        return true;
    }
    if ((name == QLatin1String("model_name") || name == QLatin1String("cache_salt")) && v &&
        v->isString()) {
        *field = name;
        *literal = FilterComposer::quote(v->toString());
        return true;
    }
    if (name == QLatin1String("external_request_id") && v && (v->isString() || v->isInt())) {
        *field = QStringLiteral("request");
        *literal =
            v->isString() ? FilterComposer::quote(v->toString()) : QString::number(v->toInt());
        return true;
    }
    if (name == QLatin1String("kv_rank") && v && v->isInt()) {
        *field = QStringLiteral("rank");
        *literal = QString::number(KvRank::unpack(v->toInt()).rank);
        return true;
    }
    if (name == QLatin1String("rank") && node->derived) {
        bool ok = false;
        const int r = node->value.trimmed().toInt(&ok);
        if (ok) {
            *field = QStringLiteral("rank");
            *literal = QString::number(r);
            return true;
        }
    }
    // An ObjectKey's group (a top-level argument of that name means something else).
    const TreeNode *p = node->parent;
    if (name == QLatin1String("object_group_id") && v && v->isInt() && p && p->source &&
        p->source->isTagged() && p->source->tag() == QLatin1String("ObjectKey")) {
        *field = QStringLiteral("object_group_id");
        *literal = QString::number(v->toInt());
        return true;
    }
    return false;
}

}  // namespace

QString FilterComposer::literalCondition(const QString &field, const QString &literal,
                                         bool exclude) {
    return QStringLiteral("%1 %2 %3")
        .arg(field, exclude ? QStringLiteral("!=") : QStringLiteral("=="), literal);
}

QString FilterComposer::anyOfCondition(const QString &field, const QStringList &literals,
                                       bool exclude) {
    if (literals.size() == 1) {
        return literalCondition(field, literals.first(), exclude);
    }
    const QString in = QStringLiteral("%1 in [%2]").arg(field, literals.join(QStringLiteral(", ")));
    return exclude ? QStringLiteral("!(%1)").arg(in) : in;
}

QString FilterComposer::conditionForNode(const TreeNode *node, bool exclude) {
    QString field, literal;
    return fieldLiteral(node, &field, &literal) ? literalCondition(field, literal, exclude)
                                                : QString();
}

QList<FilterChoice> FilterComposer::choicesInTree(const TreeNode *root) {
    static const QStringList order = {
        QStringLiteral("chunk_hash"),      QStringLiteral("model_name"), QStringLiteral("rank"),
        QStringLiteral("object_group_id"), QStringLiteral("cache_salt"), QStringLiteral("request")};
    QList<FilterChoice> out;
    for (const QString &f : order) {
        out.append({f, {}});
    }
    std::function<void(const TreeNode *)> walk = [&](const TreeNode *n) {
        if (!n) {
            return;
        }
        QString field, literal;
        if (fieldLiteral(n, &field, &literal)) {
            QStringList &values = out[order.indexOf(field)].literals;
            if (!values.contains(literal)) {
                values.append(literal);
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
    out.removeIf([](const FilterChoice &c) { return c.literals.isEmpty(); });
    return out;
}

}  // namespace lmct
