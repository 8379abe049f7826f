#pragma once

#include <QString>
#include <QtGlobal>
#include <vector>

namespace lmct {

/**
 * Splits a filter expression into tokens (see docs/filter-language.md).
 *
 * Tokens: words (field names, operators spelled as words, bare values: letters, digits, `_`,
 * `.`, `-`, `/`, `+`, `µ`, `…` and directly attached indices such as `keys[0]`), strings in
 * double or single quotes, `( ) [ ] ,`, and the symbols `== = != < <= > >= && || !`.
 *
 * Strings: `\"`, `\'`, `\\`, `\n`, `\t`, `\r` and `\uXXXX` are escapes; any other backslash is
 * kept as written, so regular expressions such as `"^chatcmpl-\d+"` need no doubling.
 *
 * Columns are 1-based positions in QChar units (what a line edit's cursor counts).
 *
 * Thread-safety: stateless; tokenize() is reentrant.
 */
class FilterLexer {
public:
    struct Token {
        enum class Type : quint8 {
            End,
            Word,
            String,
            LParen,
            RParen,
            LBracket,
            RBracket,
            Comma,
            Eq,
            Ne,
            Lt,
            Le,
            Gt,
            Ge,
            And,
            Or,
            Not,
            Error  ///< text holds the message; the last token of a failed tokenize()
        };
        Type type = Type::End;
        QString text;    ///< word text, string value (escapes resolved), or symbol
        int column = 0;  ///< 1-based
        int length = 0;  ///< characters in the expression
    };

    /**
     * The tokens of `text`, ending with an End token, or with an Error token (message in
     * `text`, position in `column`) at the first character that cannot start a token or at an
     * unterminated string.
     */
    static std::vector<Token> tokenize(const QString &text);

    /** How a token is named in messages: "'&&'", "'model_name'", "end of input", ... */
    static QString describe(const Token &t);
};

}  // namespace lmct
