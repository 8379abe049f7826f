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

QString TerminalText::escapedLines(const QString &text) {
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString &l : lines) {
        l = escaped(l);
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace lmct
