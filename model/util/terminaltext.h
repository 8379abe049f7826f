#pragma once

#include <QString>

namespace lmct {

/**
 * Text from a trace or a file name made safe to print on a terminal: control characters (C0
 * including newline and tab, DEL, C1) and Unicode bidirectional controls (U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069) are replaced by visible escapes (`\x1b`, `\u{202e}`), so that a
 * qualname or file name cannot move the cursor, recolour the terminal, cut a line in two or print
 * the rest of the line reversed. Every other character, non-ASCII letters included, is kept.
 *
 * A trace's strings are whatever its writer put there (a hostile qualname such as
 * "lmcache.\u202eevil\0\e[31mred" decodes as text); the CLI's text outputs and messages pass
 * them through here. JSON and CSV outputs are not escaped this way (they quote their data).
 *
 * Columns: a text table pads its cells by the columns a terminal gives them (columns()): East
 * Asian wide and fullwidth characters and emoji take two, combining marks and zero-width
 * characters none, every other character one (after escaping: escapes are ASCII).
 *
 * Thread-safety: pure functions.
 */
class TerminalText {
public:
    /** `text` with every control or bidi character escaped (one line out for one field in). */
    static QString escaped(const QString &text);
    /** Each line of `text` escaped, the line breaks ('\n') kept. */
    static QString escapedLines(const QString &text);
    /** The terminal columns `text` takes (see the class; a surrogate pair is one character). */
    static int columns(const QString &text);
    /** `text` padded with spaces to `width` columns: on the right (left-aligned), or on the left
     *  when `alignRight`; a wider text is kept whole. */
    static QString padded(const QString &text, int width, bool alignRight = false);
    /** Whether `c` is escaped by escaped(). */
    static bool needsEscape(char16_t c);
};

}  // namespace lmct
