#pragma once

#include <QStyledItemDelegate>

namespace lmct {

/**
 * Item delegate for the diagnostics table: the Severity column gets the style's information,
 * warning or error icon and the severity's colour (StatusColors); other columns are drawn as
 * usual. Reads DiagnosticsModel::SeverityRole.
 *
 * Thread-safety: GUI thread only.
 */
class DiagnosticsDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit DiagnosticsDelegate(QObject *parent = nullptr);

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;
};

}  // namespace lmct
