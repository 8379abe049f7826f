#pragma once

#include <QColor>
#include <QPalette>

namespace lmct {

/**
 * Semantic colours for text and markers (ok, error, warning, muted, derived), picked for the
 * given palette: darker tones on light backgrounds, lighter tones on dark ones, so they keep
 * their contrast in light and dark themes. Never used for ordinary text, which keeps the
 * palette's own roles.
 *
 * Thread-safety: reentrant (pure functions of the palette).
 */
class StatusColors {
public:
    /** Whether `palette` is a dark theme (its base is darker than its text). */
    static bool isDark(const QPalette &palette);
    /** Success: a digest that matches. */
    static QColor ok(const QPalette &palette);
    /** Errors: a digest mismatch, error diagnostics. */
    static QColor error(const QPalette &palette);
    /** Warnings: problem rows, warning diagnostics, a lost digest. */
    static QColor warning(const QPalette &palette);
    /** Secondary text: absent values, derived rows (text blended towards the base). */
    static QColor muted(const QPalette &palette);
};

}  // namespace lmct
