#include "panes/comparisonrowdelegate.h"

#include <QPalette>

namespace lmct {

ComparisonRowDelegate::ComparisonRowDelegate(Roles roles, QObject *parent)
    : QStyledItemDelegate(parent), m_roles(roles) {}

ComparisonRowDelegate::Highlight ComparisonRowDelegate::highlightOf(
    const QModelIndex &index) const {
    if (!index.isValid()) {
        return Highlight::None;
    }
    const QModelIndex first = index.siblingAtColumn(0);
    if (m_roles.differs >= 0 && first.data(m_roles.differs).toBool()) {
        return Highlight::Differs;
    }
    if (m_roles.isVolatile >= 0 && first.data(m_roles.isVolatile).toBool()) {
        return Highlight::Volatile;
    }
    if (m_roles.reason >= 0 && !first.data(m_roles.reason).toString().isEmpty()) {
        return Highlight::Unavailable;
    }
    if (m_roles.isTotal >= 0 && first.data(m_roles.isTotal).toBool()) {
        return Highlight::Total;
    }
    return Highlight::None;
}

QColor ComparisonRowDelegate::differsColor(const QPalette &palette) {
    const QColor base = palette.color(QPalette::Base);
    const QColor amber(0xff, 0xb3, 0x00);
    const double w = base.lightnessF() > 0.5 ? 0.35 : 0.45;
    return QColor::fromRgbF(float(base.redF() * (1 - w) + amber.redF() * w),
                            float(base.greenF() * (1 - w) + amber.greenF() * w),
                            float(base.blueF() * (1 - w) + amber.blueF() * w));
}

QStyleOptionViewItem ComparisonRowDelegate::styleOption(const QStyleOptionViewItem &base,
                                                        const QModelIndex &index) const {
    QStyleOptionViewItem option = base;
    initStyleOption(&option, index);
    return option;
}

void ComparisonRowDelegate::initStyleOption(QStyleOptionViewItem *option,
                                            const QModelIndex &index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    switch (highlightOf(index)) {
        case Highlight::Differs:
            option->backgroundBrush = differsColor(option->palette);
            option->font.setBold(true);
            break;
        case Highlight::Volatile:
            option->palette.setColor(QPalette::Text,
                                     option->palette.color(QPalette::Disabled, QPalette::Text));
            break;
        case Highlight::Unavailable:
            option->palette.setColor(QPalette::Text,
                                     option->palette.color(QPalette::Disabled, QPalette::Text));
            option->font.setItalic(true);
            break;
        case Highlight::Total:
            option->font.setBold(true);
            break;
        case Highlight::None:
            break;
    }
}

}  // namespace lmct
