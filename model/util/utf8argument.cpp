#include "util/utf8argument.h"

#include <algorithm>
#include <cstring>

namespace lmct {

QString Utf8Argument::problem(const char *arg) {
    const QByteArrayView bytes(arg, qsizetype(std::strlen(arg)));
    if (QUtf8StringView(bytes).isValidUtf8()) {
        return QString();
    }
    // The first bad byte ends the longest valid prefix. While the bytes are valid, the next
    // sequence (at most 4 bytes) after a valid prefix is valid on its own.
    qsizetype bad = 0;
    for (qsizetype n = 1; n <= bytes.size() && n - bad <= 4; ++n) {
        if (QUtf8StringView(bytes.sliced(bad, n - bad)).isValidUtf8()) {
            bad = n;
        }
    }
    // (at most kShownBytes of it: a 60 KB argument made a dialog run off the screen)
    static constexpr qsizetype kShownBytes = 200;
    QString shown;
    for (const char c : bytes.first(std::min(bytes.size(), kShownBytes))) {
        const uchar u = uchar(c);
        shown += u >= 0x20 && u < 0x7f && u != '\\' && u != '"'
                     ? QString(QChar(u))
                     : QStringLiteral("\\x%1").arg(u, 2, 16, QLatin1Char('0'));
    }
    if (bytes.size() > kShownBytes) {
        shown += QStringLiteral("… (%1 bytes)").arg(bytes.size());
    }
    return QStringLiteral(
               "argument \"%1\" is not valid UTF-8 (byte 0x%2 at position %3): Qt "
               "reads arguments as UTF-8, so it cannot be used; a file of such a name "
               "cannot be opened: rename the file, or give a symbolic link to it with "
               "a UTF-8 name")
        .arg(shown)
        .arg(uchar(bytes[bad]), 2, 16, QLatin1Char('0'))
        .arg(bad);
}

}  // namespace lmct
