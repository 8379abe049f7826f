#include "filter/tmonorange.h"

#include "filter/filterliteral.h"
#include "util/timeformat.h"

#include <QStringList>
#include <cmath>

namespace lmct {

bool TMonoRange::isAll() const {
    return std::isinf(from) && from < 0 && std::isinf(to) && to > 0;
}

std::optional<TMonoRange> TMonoRange::parse(const QString &text, QString *error) {
    const QStringList parts = text.split(QLatin1Char(':'));
    if (parts.size() != 2) {
        *error = QStringLiteral(
                     "expected T0:T1 (t_mono seconds, units allowed, either side may "
                     "be empty), found '%1'")
                     .arg(text);
        return std::nullopt;
    }
    TMonoRange r;
    for (int i = 0; i < 2; ++i) {
        const QString side = parts[i].trimmed();
        if (side.isEmpty()) {
            continue;
        }
        const auto n = FilterLiteral::parseNumber(side);
        // (0x10 is a hex integer, not 16 s; sizes such as 1MiB are no times either)
        if (!n || n->unit == FilterLiteral::Unit::Bytes || n->hex) {
            *error = QStringLiteral(
                         "expected a time such as 12.5, 12.5s, 250ms or 40us for %1, "
                         "found '%2'")
                         .arg(i == 0 ? QStringLiteral("T0") : QStringLiteral("T1"), side);
            return std::nullopt;
        }
        (i == 0 ? r.from : r.to) = n->value;
    }
    if (r.from > r.to) {
        *error =
            QStringLiteral("the range ends (%1 s) before it starts (%2 s)").arg(r.to).arg(r.from);
        return std::nullopt;
    }
    return r;
}

QString TMonoRange::toString() const {
    const QString a = std::isinf(from) ? QString() : TimeFormat::fixed(from, 6);
    const QString b = std::isinf(to) ? QString() : TimeFormat::fixed(to, 6);
    return a + QLatin1Char(':') + b;
}

}  // namespace lmct
