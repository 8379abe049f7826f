#pragma once

#include <QStyledItemDelegate>

namespace lmct {

/**
 * Draws the rows of the Compare pane's tables so that differences stand out: a row whose field
 * differs between A and B (ConfigComparisonModel::DiffersRole) gets an amber background and a
 * bold font; a volatile row (VolatileRole, e.g. `shm_name`) and a row that cannot be compared
 * (FigureTableModel::ReasonRole not empty) are drawn in the disabled text colour, the latter in
 * italics (its reason is the tool tip); a totals row (IsTotalRole) is bold.
 *
 * The roles are read by number: ConfigComparisonModel's DiffersRole and VolatileRole, and
 * FigureTableModel's ReasonRole and IsTotalRole, given at construction.
 *
 * Ownership: a QObject (parent-owned). Thread-safety: GUI thread only.
 */
class ComparisonRowDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    enum class Highlight { None, Differs, Volatile, Unavailable, Total };

    /** Roles of the model it draws; -1: not offered. */
    struct Roles {
        int differs = -1;
        int isVolatile = -1;
        int reason = -1;
        int isTotal = -1;
    };
    explicit ComparisonRowDelegate(Roles roles, QObject *parent = nullptr);

    /** How the row of `index` is highlighted (the first of Differs, Volatile, Unavailable,
     *  Total that applies). */
    Highlight highlightOf(const QModelIndex &index) const;
    /** The background of a differing row on `palette` (amber, blended with the base colour). */
    static QColor differsColor(const QPalette &palette);
    /** The style option the delegate draws `index` with (public for tests). */
    QStyleOptionViewItem styleOption(const QStyleOptionViewItem &base,
                                     const QModelIndex &index) const;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;

private:
    Roles m_roles;
};

}  // namespace lmct
