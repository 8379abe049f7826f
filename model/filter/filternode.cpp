#include "filter/filternode.h"

#include <QStringList>

namespace lmct {

bool FilterNode::needsArgs() const {
    if (kind == Kind::Compare || kind == Kind::Exists) {
        return field.needsArgs();
    }
    for (const auto &c : children) {
        if (c->needsArgs()) {
            return true;
        }
    }
    return false;
}

QString FilterNode::opName(Op op) {
    switch (op) {
        case Op::Eq:
            return QStringLiteral("==");
        case Op::Ne:
            return QStringLiteral("!=");
        case Op::Lt:
            return QStringLiteral("<");
        case Op::Le:
            return QStringLiteral("<=");
        case Op::Gt:
            return QStringLiteral(">");
        case Op::Ge:
            return QStringLiteral(">=");
        case Op::Contains:
            return QStringLiteral("contains");
        case Op::Matches:
            return QStringLiteral("matches");
        case Op::In:
            return QStringLiteral("in");
    }
    return QString();
}

QString FilterNode::toString() const {
    switch (kind) {
        case Kind::And:
        case Kind::Or: {
            QStringList parts;
            for (const auto &c : children) {
                parts.append(c->toString());
            }
            return QLatin1Char('(') +
                   parts.join(kind == Kind::And ? QStringLiteral(" && ") : QStringLiteral(" || ")) +
                   QLatin1Char(')');
        }
        case Kind::Not: {
            const FilterNode &c = *children.front();
            const bool grouped = c.kind == Kind::And || c.kind == Kind::Or;
            return grouped ? QLatin1Char('!') + c.toString()
                           : QStringLiteral("!(%1)").arg(c.toString());
        }
        case Kind::Exists:
            return field.text;
        case Kind::Compare: {
            if (op == Op::In) {
                QStringList vs;
                for (const FilterLiteral &v : values) {
                    vs.append(v.toString());
                }
                return QStringLiteral("%1 in [%2]").arg(field.text, vs.join(QStringLiteral(", ")));
            }
            return QStringLiteral("%1 %2 %3")
                .arg(field.text, opName(op),
                     values.empty() ? QString() : values.front().toString());
        }
    }
    return QString();
}

}  // namespace lmct
