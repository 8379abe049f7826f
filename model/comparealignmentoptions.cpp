#include "comparealignmentoptions.h"

#include "filter/filterliteral.h"

#include <cmath>

namespace lmct {

std::optional<CompareAlignmentOptions> CompareAlignmentOptions::parse(const QString &align,
                                                                      const QString &offset,
                                                                      QString *why) {
    const auto refuse = [why](const QString &message) {
        if (why) {
            *why = message;
        }
        return std::nullopt;
    };
    CompareAlignmentOptions options;
    const QString a = align.trimmed().toLower();
    if (a == QLatin1String("wall")) {
        options.alignment = ComparisonLink::Alignment::Wall;
    } else if (!a.isEmpty() && a != QLatin1String("start")) {
        return refuse(QStringLiteral("invalid --align: expected start (from each trace's start) "
                                     "or wall (by t_wall), found '%1'")
                          .arg(align));
    }
    if (!offset.isEmpty()) {
        const auto n = FilterLiteral::parseNumber(offset.trimmed());
        // (as --range reads its times: 0x10 is no time, nor a size such as 1MiB)
        if (!n || n->unit == FilterLiteral::Unit::Bytes || n->hex || !std::isfinite(n->value)) {
            return refuse(QStringLiteral("invalid --offset: expected B's shift in seconds such "
                                         "as 2.5, -1.5s or 250ms, found '%1'")
                              .arg(offset));
        }
        if (std::abs(n->value) > kMaxOffset) {
            return refuse(QStringLiteral("invalid --offset: B's shift is at most %1 s either "
                                         "way, found '%2'")
                              .arg(kMaxOffset, 0, 'f', 0)
                              .arg(offset));
        }
        options.offset = n->value;
    }
    return options;
}

}  // namespace lmct
