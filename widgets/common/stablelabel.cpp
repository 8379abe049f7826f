#include "common/stablelabel.h"

#include <QEvent>
#include <QFontMetrics>
#include <algorithm>

namespace lmct {

StableLabel::StableLabel(QWidget *parent) : QLabel(parent) {}

void StableLabel::setWidthTemplate(const QString &text) {
    m_template = text;
    updateWidth();
}

void StableLabel::setText(const QString &text) {
    QLabel::setText(text);
    updateWidth();
}

void StableLabel::resetWidth() {
    m_widest = 0;
    updateWidth();
}

void StableLabel::changeEvent(QEvent *event) {
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        m_widest = 0;  // measured in the old font
        updateWidth();
    }
}

void StableLabel::updateWidth() {
    // What QLabel needs for the text shown (margins, indent and frame included), and the same
    // for the template, measured as plain text.
    const int shown = QLabel::text().isEmpty() ? 0 : QLabel::sizeHint().width();
    m_widest = std::max(m_widest, shown);
    int reserve = 0;
    if (!m_template.isEmpty()) {
        const QMargins m = contentsMargins();
        reserve = fontMetrics().horizontalAdvance(m_template) + m.left() + m.right() +
                  2 * frameWidth() + 2 * std::max(0, margin()) + 2;
    }
    const int want = std::max(m_widest, reserve);
    if (want != minimumWidth()) {
        setMinimumWidth(want);
    }
}

}  // namespace lmct
