#include "panes/diagnosticsdelegate.h"

#include "common/statuscolors.h"
#include "itemmodels/diagnosticsmodel.h"
#include "trace/diagnostic.h"

#include <QApplication>
#include <QStyle>

namespace lmct {

DiagnosticsDelegate::DiagnosticsDelegate(QObject *parent) : QStyledItemDelegate(parent) {}

void DiagnosticsDelegate::initStyleOption(QStyleOptionViewItem *option,
                                          const QModelIndex &index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    if (index.column() != DiagnosticsModel::SeverityColumn) {
        return;
    }
    const auto severity = Diagnostic::Severity(index.data(DiagnosticsModel::SeverityRole).toInt());
    QStyle *style = option->widget ? option->widget->style() : QApplication::style();
    QStyle::StandardPixmap pixmap = QStyle::SP_MessageBoxInformation;
    QColor color;
    switch (severity) {
        case Diagnostic::Severity::Error:
            pixmap = QStyle::SP_MessageBoxCritical;
            color = StatusColors::error(option->palette);
            break;
        case Diagnostic::Severity::Warning:
            pixmap = QStyle::SP_MessageBoxWarning;
            color = StatusColors::warning(option->palette);
            break;
        case Diagnostic::Severity::Info:
            break;
    }
    option->icon = style->standardIcon(pixmap, nullptr, option->widget);
    option->features |= QStyleOptionViewItem::HasDecoration;
    option->decorationSize = QSize(14, 14);
    if (color.isValid()) {
        option->palette.setColor(QPalette::Text, color);
        option->font.setBold(true);
    }
}

}  // namespace lmct
