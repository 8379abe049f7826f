#pragma once

#include <QTreeView>

namespace lmct {

class TreeRowDelegate;

/**
 * The tree view of the inspector and header panes, over an InspectorTreeModel.
 *
 * Columns are shown as Name | Value | Type: values (hashes, ids, config) get the room they need
 * first, the type takes what is left. Column widths follow the content whenever the model is
 * reset or the view is resized, until the user drags a column edge. Values elide in the middle
 * (so a hash keeps its start and end), names and types at the right; the full text is the
 * tooltip and Ctrl+C copies it (TreeCopyActions). Rows are drawn by a TreeRowDelegate (derived
 * rows italic and muted, problem rows in the warning colour).
 *
 * Thread-safety: GUI thread only.
 */
class InspectorTreeView : public QTreeView {
    Q_OBJECT
public:
    explicit InspectorTreeView(QWidget *parent = nullptr);

    void setModel(QAbstractItemModel *model) override;
    TreeRowDelegate *rowDelegate() const { return m_delegate; }

    /** Sizes Name and Value to their content within the viewport; Type takes the rest. */
    void fitColumns();

    /**
     * Orders the columns Name | Type | Value with Value stretching to the right edge (false:
     * Name | Value | Type). Facts with short types and long values (the Header pane) read whole.
     */
    void setValueLast(bool last);
    bool valueLast() const { return m_valueLast; }

protected:
    void resizeEvent(QResizeEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    /** A cell whose text is elided shows it whole as its tooltip (unless the model has one). */
    bool viewportEvent(QEvent *event) override;

private:
    TreeRowDelegate *m_delegate = nullptr;
    bool m_fitting = false;
    bool m_userSized = false;
    bool m_valueLast = false;
};

}  // namespace lmct
