#include "filter/filterexpression.h"

#include "filter/filterlexer.h"

#include <QDateTime>
#include <QTimeZone>

namespace lmct {

namespace {

using Token = FilterLexer::Token;
using Type = FilterLexer::Token::Type;
using Node = FilterNode;
using NodePtr = std::shared_ptr<FilterNode>;

struct ParseError {
    FilterExpression::Error error;
};

bool isWord(const Token &t, const char *w) {
    return t.type == Type::Word && t.text == QLatin1String(w);
}

bool isReserved(const Token &t) {
    return isWord(t, "and") || isWord(t, "or") || isWord(t, "not") || isWord(t, "in") ||
           isWord(t, "contains") || isWord(t, "matches");
}

/** Reads a date-time for t_wall: ISO 8601 with 'T' or a space, local time unless zoned. */
std::optional<double> parseDateTime(const QString &text) {
    QString t = text.trimmed();
    if (t.size() > 10 && t[10] == QLatin1Char(' ')) {
        t[10] = QLatin1Char('T');
    }
    QDateTime dt = QDateTime::fromString(t, Qt::ISODateWithMs);
    if (!dt.isValid()) {
        return std::nullopt;
    }
    return double(dt.toMSecsSinceEpoch()) / 1000.0;
}

class Parser {
public:
    explicit Parser(std::vector<Token> tokens) : m_tokens(std::move(tokens)) {}

    NodePtr parseAll() {
        if (peek().type == Type::Error) {
            fail(peek(), peek().text);
        }
        if (peek().type == Type::End) {
            return nullptr;
        }
        NodePtr root = parseOr(0);
        checkLexError();
        if (peek().type != Type::End) {
            if (peek().type == Type::RParen) {
                fail(peek(), QStringLiteral("found ')' without a matching '('"));
            }
            fail(peek(), QStringLiteral("expected '&&', '||' or end of input, found %1")
                             .arg(describe(peek())));
        }
        return root;
    }

private:
    const Token &peek() const { return m_tokens[m_pos]; }
    const Token &take() {
        const Token &t = m_tokens[m_pos];
        if (t.type != Type::End && t.type != Type::Error) {
            ++m_pos;
        }
        return t;
    }

    [[noreturn]] void fail(const Token &at, const QString &message) {
        throw ParseError{FilterExpression::Error{at.column, at.length, message}};
    }
    [[noreturn]] void failAt(int column, int length, const QString &message) {
        throw ParseError{FilterExpression::Error{column, length, message}};
    }

    QString describe(const Token &t) const {
        if (t.type == Type::Error) {
            // A lexing error behind the expected token: report it as what was found.
            return t.text;
        }
        return FilterLexer::describe(t);
    }

    void checkLexError() {
        if (peek().type == Type::Error) {
            fail(peek(), peek().text);
        }
    }

    void enter(const Token &at, int depth) {
        if (depth > FilterExpression::kMaxDepth) {
            fail(at, QStringLiteral("expression nested too deeply (more than %1 levels)")
                         .arg(FilterExpression::kMaxDepth));
        }
    }

    NodePtr parseOr(int depth) {
        enter(peek(), depth);
        NodePtr left = parseAnd(depth);
        if (!(peek().type == Type::Or || isWord(peek(), "or"))) {
            return left;
        }
        auto node = std::make_shared<Node>();
        node->kind = Node::Kind::Or;
        node->column = left->column;
        node->children.push_back(left);
        while (peek().type == Type::Or || isWord(peek(), "or")) {
            const Token op = take();
            checkLexError();
            if (!startsCondition(peek())) {
                fail(peek(), QStringLiteral("expected a condition after '%1', found %2")
                                 .arg(op.text, describe(peek())));
            }
            node->children.push_back(parseAnd(depth));
        }
        return node;
    }

    NodePtr parseAnd(int depth) {
        NodePtr left = parseUnary(depth);
        if (!(peek().type == Type::And || isWord(peek(), "and"))) {
            return left;
        }
        auto node = std::make_shared<Node>();
        node->kind = Node::Kind::And;
        node->column = left->column;
        node->children.push_back(left);
        while (peek().type == Type::And || isWord(peek(), "and")) {
            const Token op = take();
            checkLexError();
            if (!startsCondition(peek())) {
                fail(peek(), QStringLiteral("expected a condition after '%1', found %2")
                                 .arg(op.text, describe(peek())));
            }
            node->children.push_back(parseUnary(depth));
        }
        return node;
    }

    static bool startsCondition(const Token &t) {
        return t.type == Type::LParen || t.type == Type::Not ||
               (t.type == Type::Word && (!isReserved(t) || isWord(t, "not")));
    }

    NodePtr parseUnary(int depth) {
        checkLexError();
        if (peek().type == Type::Not || isWord(peek(), "not")) {
            const Token op = take();
            enter(op, depth + 1);
            checkLexError();
            if (!startsCondition(peek())) {
                fail(peek(), QStringLiteral("expected a condition after '%1', found %2")
                                 .arg(op.text, describe(peek())));
            }
            auto node = std::make_shared<Node>();
            node->kind = Node::Kind::Not;
            node->column = op.column;
            node->children.push_back(parseUnary(depth + 1));
            return node;
        }
        return parsePrimary(depth);
    }

    NodePtr parsePrimary(int depth) {
        checkLexError();
        const Token &t = peek();
        if (t.type == Type::LParen) {
            const Token open = take();
            enter(open, depth + 1);
            checkLexError();
            if (peek().type == Type::RParen) {
                fail(peek(), QStringLiteral("expected a condition inside '(' ')', found ')'"));
            }
            NodePtr inner = parseOr(depth + 1);
            checkLexError();
            if (peek().type != Type::RParen) {
                fail(peek(), QStringLiteral("expected ')' to close the '(' at column %1, found %2")
                                 .arg(open.column)
                                 .arg(describe(peek())));
            }
            take();
            return inner;
        }
        if (t.type != Type::Word || isReserved(t)) {
            fail(t, QStringLiteral("expected a condition (a field such as call or model_name, "
                                   "'(' or '!'), found %1")
                        .arg(describe(t)));
        }
        const Token fieldTok = take();
        FilterField field;
        QString why;
        if (!FilterField::parse(fieldTok.text, &field, &why)) {
            fail(fieldTok, why);
        }
        auto node = std::make_shared<Node>();
        node->column = fieldTok.column;
        node->field = field;
        checkLexError();
        const Token &opTok = peek();
        std::optional<Node::Op> op;
        switch (opTok.type) {
            case Type::Eq:
                op = Node::Op::Eq;
                break;
            case Type::Ne:
                op = Node::Op::Ne;
                break;
            case Type::Lt:
                op = Node::Op::Lt;
                break;
            case Type::Le:
                op = Node::Op::Le;
                break;
            case Type::Gt:
                op = Node::Op::Gt;
                break;
            case Type::Ge:
                op = Node::Op::Ge;
                break;
            case Type::Word:
                if (isWord(opTok, "contains")) {
                    op = Node::Op::Contains;
                } else if (isWord(opTok, "matches")) {
                    op = Node::Op::Matches;
                } else if (isWord(opTok, "in")) {
                    op = Node::Op::In;
                }
                break;
            default:
                break;
        }
        if (!op) {
            const bool ends = opTok.type == Type::End || opTok.type == Type::RParen ||
                              opTok.type == Type::And || opTok.type == Type::Or ||
                              isWord(opTok, "and") || isWord(opTok, "or");
            if (!ends) {
                fail(opTok, QStringLiteral("expected an operator after '%1' (==, !=, <, <=, >, "
                                           ">=, contains, matches, in), found %2")
                                .arg(fieldTok.text, describe(opTok)));
            }
            node->kind = Node::Kind::Exists;
            return node;
        }
        const Token opCopy = take();
        node->kind = Node::Kind::Compare;
        node->op = *op;
        checkLexError();
        if (*op == Node::Op::In) {
            if (peek().type != Type::LBracket) {
                fail(peek(),
                     QStringLiteral("expected '[' after 'in', found %1").arg(describe(peek())));
            }
            const Token open = take();
            checkLexError();
            if (peek().type == Type::RBracket) {
                take();
            } else {
                while (true) {
                    node->values.push_back(parseValue(QStringLiteral("a value in the list")));
                    checkLexError();
                    if (peek().type == Type::Comma) {
                        take();
                        checkLexError();
                        continue;
                    }
                    if (peek().type == Type::RBracket) {
                        take();
                        break;
                    }
                    fail(peek(),
                         QStringLiteral("expected ',' or ']' in the list opened at column %1, "
                                        "found %2")
                             .arg(open.column)
                             .arg(describe(peek())));
                }
            }
        } else {
            node->values.push_back(
                parseValue(QStringLiteral("a value after '%1'").arg(opCopy.text)));
        }
        check(*node, opCopy);
        return node;
    }

    FilterLiteral parseValue(const QString &what) {
        const Token &t = peek();
        if (t.type == Type::String || (t.type == Type::Word && !isReserved(t))) {
            const Token v = take();
            return FilterLiteral::make(v.text, v.type == Type::String, v.column, v.length);
        }
        fail(t, QStringLiteral("expected %1, found %2").arg(what, describe(t)));
    }

    /** Field/operator/value checks that do not depend on records. */
    void check(Node &node, const Token &opTok) {
        const FilterField &f = node.field;
        const Node::Op op = node.op;
        const bool ordering =
            op == Node::Op::Lt || op == Node::Op::Le || op == Node::Op::Gt || op == Node::Op::Ge;
        switch (f.type()) {
            case FilterField::Type::Number: {
                if (op == Node::Op::Contains || op == Node::Op::Matches) {
                    fail(opTok, QStringLiteral("'%1' compares text, but %2 is a number; use ==, "
                                               "!=, <, <=, >, >= or in")
                                    .arg(opTok.text, f.text));
                }
                for (FilterLiteral &v : node.values) {
                    checkNumber(f, v);
                }
                break;
            }
            case FilterField::Type::Hex:
                if (ordering) {
                    fail(opTok, QStringLiteral("%1 supports ==, !=, in, contains and matches, not "
                                               "'%2'")
                                    .arg(f.text, opTok.text));
                }
                if (op != Node::Op::Matches) {
                    for (const FilterLiteral &v : node.values) {
                        if (!v.hex) {
                            failAt(v.column, v.length,
                                   QStringLiteral("%1 needs hex digits (a prefix such as 9f3a5c), "
                                                  "found %2")
                                       .arg(f.text, shown(v)));
                        }
                    }
                }
                break;
            case FilterField::Type::Text:
            case FilterField::Type::Dynamic:
                break;
        }
        if (op == Node::Op::Matches) {
            const FilterLiteral &v = node.values.front();
            node.regex = QRegularExpression(v.text);
            if (!node.regex.isValid()) {
                const int at = v.column + (v.quoted ? 1 : 0) + int(node.regex.patternErrorOffset());
                failAt(
                    at, 1,
                    QStringLiteral("invalid regular expression: %1").arg(node.regex.errorString()));
            }
            node.regex.optimize();
        }
    }

    static QString shown(const FilterLiteral &v) {
        return v.quoted ? v.toString() : QStringLiteral("'%1'").arg(v.text);
    }

    void checkNumber(const FilterField &f, FilterLiteral &v) {
        const bool time = f.kind == FilterField::Kind::TMono || f.kind == FilterField::Kind::TWall;
        const bool bytes = f.kind == FilterField::Kind::Bytes;
        if (!v.number && f.kind == FilterField::Kind::TWall) {
            if (const auto epoch = parseDateTime(v.text)) {
                FilterLiteral::Number n;
                n.value = *epoch;
                n.unit = FilterLiteral::Unit::Time;
                v.number = n;
                return;
            }
        }
        if (!v.number) {
            QString need;
            if (f.kind == FilterField::Kind::TWall) {
                need = QStringLiteral(
                    "Unix seconds or a date-time such as "
                    "\"2025-10-24 13:25:46\"");
            } else if (time) {
                need = QStringLiteral(
                    "a number of seconds, optionally with a unit (12.5s, "
                    "250ms, 40us, 100ns)");
            } else if (bytes) {
                need = QStringLiteral(
                    "a number of bytes, optionally with a unit (512, 64KiB, "
                    "36MiB, 2GB)");
            } else {
                need = QStringLiteral("a number");
            }
            failAt(v.column, v.length,
                   QStringLiteral("%1 needs %2, found %3").arg(f.text, need, shown(v)));
        }
        const FilterLiteral::Unit u = v.number->unit;
        if (u == FilterLiteral::Unit::Time && !time) {
            failAt(v.column, v.length,
                   QStringLiteral("%1 is not a time; found the duration '%2'").arg(f.text, v.text));
        }
        if (u == FilterLiteral::Unit::Bytes && !bytes) {
            failAt(
                v.column, v.length,
                QStringLiteral("%1 is not a size; found the byte count '%2'").arg(f.text, v.text));
        }
    }

    std::vector<Token> m_tokens;
    size_t m_pos = 0;
};

}  // namespace

QString FilterExpression::Error::toString() const {
    return QStringLiteral("column %1: %2").arg(column).arg(message);
}

FilterExpression FilterExpression::parse(const QString &text) {
    FilterExpression e;
    e.m_text = text;
    Parser p(FilterLexer::tokenize(text));
    try {
        e.m_root = p.parseAll();
    } catch (const ParseError &err) {
        e.m_error = err.error;
        e.m_root.reset();
    }
    return e;
}

}  // namespace lmct
