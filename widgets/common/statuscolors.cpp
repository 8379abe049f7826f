#include "common/statuscolors.h"

namespace lmct {

bool StatusColors::isDark(const QPalette &palette) {
    return palette.color(QPalette::Base).lightness() < palette.color(QPalette::Text).lightness();
}

QColor StatusColors::ok(const QPalette &palette) {
    return isDark(palette) ? QColor(0x6c, 0xc6, 0x6f) : QColor(0x1b, 0x7d, 0x2e);
}

QColor StatusColors::error(const QPalette &palette) {
    return isDark(palette) ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc6, 0x28, 0x28);
}

QColor StatusColors::warning(const QPalette &palette) {
    return isDark(palette) ? QColor(0xff, 0xb1, 0x4a) : QColor(0xb3, 0x5c, 0x00);
}

QColor StatusColors::muted(const QPalette &palette) {
    const QColor t = palette.color(QPalette::Text);
    const QColor b = palette.color(QPalette::Base);
    return QColor((t.red() * 3 + b.red() * 2) / 5, (t.green() * 3 + b.green() * 2) / 5,
                  (t.blue() * 3 + b.blue() * 2) / 5);
}

}  // namespace lmct
