#include "codec/qualname.h"

#include "util/terminaltext.h"

namespace lmct {

QString Qualname::shortName(const QString &qualname) {
    const QStringList parts = qualname.split(QLatin1Char('.'));
    for (qsizetype i = parts.size() - 2; i >= 0; --i) {
        const QString &p = parts[i];
        if (!p.isEmpty() && p.front().isUpper()) {
            return parts.mid(i + 1).join(QLatin1Char('.'));
        }
    }
    return qualname;
}

const QStringList &Qualname::callFlow() {
    static const QStringList flow = {
        QStringLiteral("submit_prefetch_task"),
        QStringLiteral("read_prefetched_results.__enter__"),
        QStringLiteral("finish_read_prefetched"),
        QStringLiteral("release_prefetch_task"),
        QStringLiteral("cancel_prefetch_task"),
        QStringLiteral("read_prefetched_results.__exit__"),
        QStringLiteral("reserve_write"),
        QStringLiteral("reserve_write_with_status"),
        QStringLiteral("finish_write"),
        QStringLiteral("abort_write"),
    };
    return flow;
}

int Qualname::flowRank(const QString &qualname) {
    const qsizetype i = callFlow().indexOf(shortName(qualname));
    return i < 0 ? int(callFlow().size()) : int(i);
}

bool Qualname::flowLess(const QString &a, const QString &b) {
    const int ra = flowRank(a), rb = flowRank(b);
    if (ra != rb) {
        return ra < rb;
    }
    return a < b;
}

QString Qualname::capped(const QString &name) {
    if (name.size() <= kMaxDisplayChars) {
        return name;
    }
    return name.left(kMaxDisplayChars - 20) + QChar(0x2026) +
           QStringLiteral(" (%1 characters)").arg(name.size());
}

QString Qualname::displayName(const QString &qualname) {
    return TerminalText::escaped(capped(shortName(qualname)));
}

QString Qualname::displayFull(const QString &qualname) {
    return TerminalText::escaped(capped(qualname));
}

}  // namespace lmct
