#include "filter/filterlexer.h"

namespace lmct {

namespace {

using Token = FilterLexer::Token;
using Type = FilterLexer::Token::Type;

bool isWordChar(QChar c) {
    if (c.isLetterOrNumber()) {
        return true;
    }
    switch (c.unicode()) {
        case '_':
        case '.':
        case '-':
        case '/':
        case '+':
        case 0x00b5:  // µ
        case 0x2026:  // …
            return true;
        default:
            return false;
    }
}

/** Length of an index suffix "[digits]" or "[-digits]" at `i`, or 0. */
int indexSuffix(const QString &s, qsizetype i) {
    if (i >= s.size() || s[i] != QLatin1Char('[')) {
        return 0;
    }
    qsizetype j = i + 1;
    if (j < s.size() && s[j] == QLatin1Char('-')) {
        ++j;
    }
    const qsizetype digits = j;
    while (j < s.size() && s[j].isDigit()) {
        ++j;
    }
    if (j == digits || j >= s.size() || s[j] != QLatin1Char(']')) {
        return 0;
    }
    return int(j + 1 - i);
}

}  // namespace

std::vector<Token> FilterLexer::tokenize(const QString &s) {
    std::vector<Token> out;
    qsizetype i = 0;
    const qsizetype n = s.size();
    auto add = [&](Type t, const QString &text, qsizetype start, qsizetype len) {
        out.push_back(Token{t, text, int(start + 1), int(len)});
    };
    while (i < n) {
        const QChar c = s[i];
        if (c.isSpace()) {
            ++i;
            continue;
        }
        const QChar next = i + 1 < n ? s[i + 1] : QChar();
        switch (c.unicode()) {
            case '(':
                add(Type::LParen, QStringLiteral("("), i, 1);
                ++i;
                continue;
            case ')':
                add(Type::RParen, QStringLiteral(")"), i, 1);
                ++i;
                continue;
            case '[':
                add(Type::LBracket, QStringLiteral("["), i, 1);
                ++i;
                continue;
            case ']':
                add(Type::RBracket, QStringLiteral("]"), i, 1);
                ++i;
                continue;
            case ',':
                add(Type::Comma, QStringLiteral(","), i, 1);
                ++i;
                continue;
            case '=':
                if (next == QLatin1Char('=')) {
                    add(Type::Eq, QStringLiteral("=="), i, 2);
                    i += 2;
                } else {
                    add(Type::Eq, QStringLiteral("="), i, 1);
                    ++i;
                }
                continue;
            case '!':
                if (next == QLatin1Char('=')) {
                    add(Type::Ne, QStringLiteral("!="), i, 2);
                    i += 2;
                } else {
                    add(Type::Not, QStringLiteral("!"), i, 1);
                    ++i;
                }
                continue;
            case '<':
            case '>': {
                const bool lt = c == QLatin1Char('<');
                if (next == QLatin1Char('=')) {
                    add(lt ? Type::Le : Type::Ge, lt ? QStringLiteral("<=") : QStringLiteral(">="),
                        i, 2);
                    i += 2;
                } else {
                    add(lt ? Type::Lt : Type::Gt, lt ? QStringLiteral("<") : QStringLiteral(">"), i,
                        1);
                    ++i;
                }
                continue;
            }
            case '&':
            case '|': {
                const bool amp = c == QLatin1Char('&');
                if (next == c) {
                    add(amp ? Type::And : Type::Or,
                        amp ? QStringLiteral("&&") : QStringLiteral("||"), i, 2);
                    i += 2;
                    continue;
                }
                add(Type::Error, QStringLiteral("expected '%1%1', found a single '%1'").arg(c), i,
                    1);
                return out;
            }
            case '"':
            case '\'': {
                const QChar quote = c;
                QString value;
                qsizetype j = i + 1;
                bool closed = false;
                while (j < n) {
                    const QChar d = s[j];
                    if (d == quote) {
                        closed = true;
                        break;
                    }
                    if (d == QLatin1Char('\\') && j + 1 < n) {
                        const QChar e = s[j + 1];
                        switch (e.unicode()) {
                            case '"':
                            case '\'':
                            case '\\':
                                value.append(e);
                                j += 2;
                                continue;
                            case 'n':
                                value.append(QLatin1Char('\n'));
                                j += 2;
                                continue;
                            case 't':
                                value.append(QLatin1Char('\t'));
                                j += 2;
                                continue;
                            case 'r':
                                value.append(QLatin1Char('\r'));
                                j += 2;
                                continue;
                            case 'u': {
                                bool ok = false;
                                const uint code = j + 6 <= n ? s.mid(j + 2, 4).toUInt(&ok, 16) : 0;
                                if (!ok || s.mid(j + 2, 4).size() != 4) {
                                    add(Type::Error,
                                        QStringLiteral("expected four hex digits after '\\u'"), j,
                                        2);
                                    return out;
                                }
                                value.append(QChar(char16_t(code)));
                                j += 6;
                                continue;
                            }
                            default:
                                // Kept as written: regular expressions read \d, \b, \. ...
                                value.append(d);
                                value.append(e);
                                j += 2;
                                continue;
                        }
                    }
                    value.append(d);
                    ++j;
                }
                if (!closed) {
                    add(Type::Error,
                        QStringLiteral("unterminated string: no closing %1 before the end")
                            .arg(quote),
                        i, n - i);
                    return out;
                }
                add(Type::String, value, i, j + 1 - i);
                i = j + 1;
                continue;
            }
            default:
                break;
        }
        if (isWordChar(c)) {
            qsizetype j = i;
            while (j < n) {
                if (isWordChar(s[j])) {
                    ++j;
                } else if (const int k = indexSuffix(s, j);
                           k > 0 && s.mid(i, j - i) != QLatin1String("in")) {
                    j += k;
                } else {
                    break;
                }
            }
            add(Type::Word, s.mid(i, j - i), i, j - i);
            i = j;
            continue;
        }
        add(Type::Error, QStringLiteral("unexpected character '%1'").arg(c), i, 1);
        return out;
    }
    add(Type::End, QString(), n, 0);
    return out;
}

QString FilterLexer::describe(const Token &t) {
    switch (t.type) {
        case Type::End:
            return QStringLiteral("end of input");
        case Type::String:
            return QStringLiteral("the string \"%1\"").arg(t.text);
        case Type::Error:
            return t.text;
        default:
            return QStringLiteral("'%1'").arg(t.text);
    }
}

}  // namespace lmct
