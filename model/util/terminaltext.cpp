#include "util/terminaltext.h"

#include <QStringList>

namespace lmct {

bool TerminalText::needsEscape(char16_t c) {
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x061c || c == 0x200e || c == 0x200f ||
           (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

QString TerminalText::escaped(const QString &text) {
    bool clean = true;
    for (QChar c : text) {
        if (needsEscape(c.unicode())) {
            clean = false;
            break;
        }
    }
    if (clean) {
        return text;
    }
    QString out;
    out.reserve(text.size() + 16);
    for (QChar c : text) {
        const char16_t u = c.unicode();
        if (!needsEscape(u)) {
            out.append(c);
        } else if (u < 0x100) {
            out.append(QStringLiteral("\\x%1").arg(uint(u), 2, 16, QLatin1Char('0')));
        } else {
            out.append(QStringLiteral("\\u{%1}").arg(uint(u), 4, 16, QLatin1Char('0')));
        }
    }
    return out;
}

namespace {

/** Columns of code point `u` on a terminal: the East Asian Wide/Fullwidth blocks and emoji 2,
 *  combining marks and zero-width characters 0, else 1. */
int codePointColumns(char32_t u) {
    if ((u >= 0x0300 && u <= 0x036f) || (u >= 0x0483 && u <= 0x0489) ||
        (u >= 0x0591 && u <= 0x05bd) || (u >= 0x0610 && u <= 0x061a) ||
        (u >= 0x064b && u <= 0x065f) || (u >= 0x1ab0 && u <= 0x1aff) ||
        (u >= 0x1dc0 && u <= 0x1dff) || (u >= 0x200b && u <= 0x200f) ||
        (u >= 0x20d0 && u <= 0x20ff) || (u >= 0xfe00 && u <= 0xfe0f) ||
        (u >= 0xfe20 && u <= 0xfe2f) || u == 0xfeff || (u >= 0xe0100 && u <= 0xe01ef)) {
        return 0;
    }
    if ((u >= 0x1100 && u <= 0x115f) || (u >= 0x2e80 && u <= 0x303e) ||
        (u >= 0x3041 && u <= 0x33ff) || (u >= 0x3400 && u <= 0x4dbf) ||
        (u >= 0x4e00 && u <= 0x9fff) || (u >= 0xa000 && u <= 0xa4cf) ||
        (u >= 0xa960 && u <= 0xa97f) || (u >= 0xac00 && u <= 0xd7a3) ||
        (u >= 0xf900 && u <= 0xfaff) || (u >= 0xfe30 && u <= 0xfe4f) ||
        (u >= 0xff00 && u <= 0xff60) || (u >= 0xffe0 && u <= 0xffe6) ||
        (u >= 0x1f300 && u <= 0x1f64f) || (u >= 0x1f900 && u <= 0x1f9ff) ||
        (u >= 0x20000 && u <= 0x2fffd) || (u >= 0x30000 && u <= 0x3fffd)) {
        return 2;
    }
    return 1;
}

}  // namespace

int TerminalText::columns(const QString &text) {
    int n = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        char32_t u = text[i].unicode();
        if (text[i].isHighSurrogate() && i + 1 < text.size() && text[i + 1].isLowSurrogate()) {
            u = QChar::surrogateToUcs4(text[i], text[i + 1]);
            ++i;
        }
        n += codePointColumns(u);
    }
    return n;
}

QString TerminalText::padded(const QString &text, int width, bool alignRight) {
    const int pad = width - columns(text);
    if (pad <= 0) {
        return text;
    }
    const QString spaces(pad, QLatin1Char(' '));
    return alignRight ? spaces + text : text + spaces;
}

QString TerminalText::escapedLines(const QString &text) {
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString &l : lines) {
        l = escaped(l);
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace lmct
