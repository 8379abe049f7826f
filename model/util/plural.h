#pragma once

#include <QLatin1String>
#include <QString>
#include <QtGlobal>

namespace lmct {

/**
 * A count with its noun in the count's number, for the English texts of messages and
 * diagnostics: "1 frame", "0 frames", "2 frames" (Qt's `%n` plurals need a translation file,
 * which the program does not ship).
 *
 * Thread-safety: stateless; every function is reentrant.
 */
class Plural {
public:
    /** `n` in decimal, a space, then `one` when `n` is 1, else `many`. */
    static QString counted(qint64 n, const QString &one, const QString &many) {
        return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
    }
    static QString counted(qint64 n, const char *one, const char *many) {
        return counted(n, QString(QLatin1String(one)), QString(QLatin1String(many)));
    }
};

}  // namespace lmct
