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
 * Thread-safety: pure functions.
 */
class TerminalText {
public:
    /** `text` with every control or bidi character escaped (one line out for one field in). */
    static QString escaped(const QString &text);
    /** Each line of `text` escaped, the line breaks ('\n') kept. */
    static QString escapedLines(const QString &text);
    /** Whether `c` is escaped by escaped(). */
    static bool needsEscape(char16_t c);
};

}  // namespace lmct
