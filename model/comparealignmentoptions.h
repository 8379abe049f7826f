#pragma once

#include "comparisonlink.h"

#include <QString>
#include <optional>

namespace lmct {

/**
 * How B lines up with A, as the command line says it: `--align start|wall` and `--offset
 * SECONDS` of `lmct-viewer --compare A B`, with or without `--report OUT` (the comparison's
 * tab and its report read them alike).
 *
 * parse() takes the options' texts: `align` "start" (the default: from each trace's start) or
 * "wall" (by `t_wall`), case and surrounding blanks ignored; `offset` B's shift on the common
 * axis in seconds, a number with an optional time unit as `--range` reads it (`-1.5`, `250ms`,
 * `2min`), at most kMaxOffset either way (the tab's Offset of B spans that). An empty text is
 * the default. Whether `t_wall` can align the traces is known once they are read
 * (ComparisonLink::wallReason()).
 *
 * Errors: parse() returns nullopt and sets `why` to the message, in the options' words
 * ("invalid --offset: ..."), the value quoted as given. Thread-safety: a value type.
 */
struct CompareAlignmentOptions {
    /** The largest shift of B either way, seconds (about 115 days). */
    static constexpr double kMaxOffset = 1e7;

    ComparisonLink::Alignment alignment = ComparisonLink::Alignment::Start;
    double offset = 0.0;

    bool byWall() const { return alignment == ComparisonLink::Alignment::Wall; }

    static std::optional<CompareAlignmentOptions> parse(const QString &align, const QString &offset,
                                                        QString *why);
};

}  // namespace lmct
