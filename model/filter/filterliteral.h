#pragma once

#include <QByteArray>
#include <QString>
#include <QtGlobal>
#include <optional>

namespace lmct {

/**
 * A value written in a filter expression (see docs/filter-language.md), with every reading of
 * it worked out once at parse time so evaluation never parses text:
 *
 * - text: the value as written, quotes removed and escapes resolved; utf8 is the same as UTF-8
 *   (string comparisons run on UTF-8 bytes);
 * - number: when the text is a number, optionally with a unit: a time unit (`ns`, `us`, `µs`,
 *   `ms`, `s`, `min`, `h`; value in seconds) or a byte unit (`B`, `kB`/`KB`, `MB`, `GB`, `TB`
 *   powers of 1000, `KiB`, `MiB`, `GiB`, `TiB` powers of 1024; value in bytes). `0x` hex
 *   integers are numbers too. Quoted text is read as a number as well, so `"12"` compares equal
 *   to the integer 12 where a number is needed;
 * - hex: lowercase hex digits when the text is a hex string, with an optional `0x` prefix and an
 *   optional trailing `...` or `…` (as in `9f3a5c…` copied from the viewer);
 * - keyword: unquoted `true`, `false`, `null` (also `None`, `nil`).
 *
 * Thread-safety: a value type.
 */
struct FilterLiteral {
    enum class Unit : quint8 { None, Time, Bytes };
    enum class Keyword : quint8 { None, True, False, Null };

    /** A number read from text: the value, and whether it was written as an integer. */
    struct Number {
        double value = 0.0;  ///< seconds for times, bytes for sizes
        bool isInteger = false;
        qint64 integer = 0;  ///< valid when isInteger (also for integral sizes such as 36MiB)
        Unit unit = Unit::None;
        bool hex = false;  ///< written as a `0x` hex integer (a count or an id, never a time)
    };

    QString text;
    QByteArray utf8;
    bool quoted = false;
    int column = 0;  ///< 1-based column of the value's first character (its quote, if quoted)
    int length = 0;  ///< characters it spans in the expression, quotes included
    std::optional<Number> number;
    std::optional<QByteArray> hex;
    Keyword keyword = Keyword::None;

    /** Builds a literal and all its readings. */
    static FilterLiteral make(const QString &text, bool quoted, int column, int length);

    /** Reads "12", "-3.5e-2", "0x1f", "12.5s", "250ms", "40µs", "36MiB"; nullopt otherwise. */
    static std::optional<Number> parseNumber(const QString &text);
    /** Reads hex digits with optional `0x` and trailing `...`/`…`, lowercased; else nullopt. */
    static std::optional<QByteArray> parseHex(const QString &text);

    /** The literal as a boolean: the `true`/`false` keywords, the text "true"/"false" (case
     *  ignored) or the integers 1/0; nullopt for anything else. */
    std::optional<bool> asBool() const;

    /** The literal as it would be written back (quoted with escapes when needed). */
    QString toString() const;
};

}  // namespace lmct
