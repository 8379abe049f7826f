#pragma once

#include <QColor>
#include <QHash>
#include <QPersistentModelIndex>
#include <QStyledItemDelegate>

namespace lmct {

/**
 * Item delegate for InspectorTreeModel views (inspector, header pane): rows the viewer derived
 * (InspectorTreeModel::DerivedRole) are drawn in italics in a muted colour; problem rows
 * (ProblemRole) in the palette's warning colour (StatusColors). A row can also be given an
 * accent colour explicitly (the header pane colours the digest check by its status).
 *
 * Thread-safety: GUI thread only.
 */
class TreeRowDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit TreeRowDelegate(QObject *parent = nullptr);

    /** Draws every column of `index`'s row in `color`, bold; an invalid colour removes it. */
    void setRowAccent(const QModelIndex &index, const QColor &color);
    void clearAccents();

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;

private:
    QHash<QPersistentModelIndex, QColor> m_accents;  // keyed by column 0 of the row
};

}  // namespace lmct
