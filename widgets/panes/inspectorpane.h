#pragma once

#include "common/viewstateobserver.h"
#include "itemmodels/treenode.h"
#include "trace/tracedocument.h"

#include <QPointer>
#include <QSet>
#include <QWidget>
#include <memory>

class QLabel;
class QMenu;
class QPlainTextEdit;
class QTabWidget;

namespace lmct {

class InspectorTreeModel;
class InspectorTreeView;
class ViewState;

/**
 * The argument inspector: the decoded `args` of the ViewState's selected record as a tree
 * (ArgumentTree over TraceDocument::args()), like a packet-details pane.
 *
 * - A title line names the record (#, call with its colour chip, t_mono, t_wall, frame offset
 *   and length); a warning line shows TraceDocument::Args::error when decoding stopped early.
 * - Columns Name / Type / Value; rows the viewer derived (kv_rank unpacked, bytes per object)
 *   are italic and muted, problem rows use the warning colour.
 * - Top-level arguments are expanded, short `keys` lists too with their first key, so chunk
 *   hashes and ranks are visible at once (a PrefetchHandle's index lists stay closed: their
 *   value lists them). What the user expands or collapses is remembered by
 *   argument path and re-applied to the next record that has the same path.
 * - Context menu and shortcuts: Copy Value (Ctrl+C, InspectorTreeModel::CopyTextRole, full
 *   text), Copy Path (the filter-language path), Copy Name, Expand/Collapse All.
 * - On a chunk hash, model, rank (kv_rank), object group, request id or cache salt row, the
 *   context menu also offers Filter to This / Exclude This (appended with && to the ViewState's
 *   filter) and Follow This Key (ViewState::followedKey); on a row holding several of them (an
 *   ObjectKey, a `keys` list) it offers every distinct value per field. The entries are built
 *   by FilterMenuBuilder, as in the record table's menu.
 * - Copy Record as JSON (RecordJson) in the context menu and as recordJson().
 * - A Frame tab shows the record's frame: offset, length and an annotated hex dump (FrameDump,
 *   bounded to frameDumpBytes()).
 * - Records whose frame is larger than asyncBytes() are decoded and built on a worker thread.
 *
 * The decoded args are kept alive by the model (setTree's keepAlive) as long as they are shown.
 * Ownership: owns its model and views; does not own the ViewState. Thread-safety: GUI thread.
 */
class InspectorPane : public QWidget, public ViewStateObserver {
    Q_OBJECT
public:
    explicit InspectorPane(QWidget *parent = nullptr);
    ~InspectorPane() override;

    void setViewState(ViewState *state) override;

    /** The record shown, or -1. */
    int record() const { return m_record; }
    InspectorTreeModel *model() const { return m_model; }
    InspectorTreeView *treeView() const { return m_tree; }
    /** The title line's text (record, call, times, frame). */
    QString titleText() const;
    /** The decode warning shown, or empty. */
    QString errorText() const;

    /** The Frame tab's text for the shown record. */
    QString frameText() const;
    /** The shown record as compact JSON (RecordJson); empty when none. */
    QString recordJson() const;
    /** Copies recordJson() to the clipboard. */
    void copyRecordJson();
    /**
     * Adds the Filter to This / Exclude This / Follow This Key entries (FilterMenuBuilder) for
     * every key value in the subtree of row `index` to `menu`, then a separator; nothing when
     * the subtree names none.
     */
    void addFilterActions(QMenu *menu, const QModelIndex &index);
    /** The Filter to This / Exclude This condition of inspector row `index`, or empty. */
    QString conditionAt(const QModelIndex &index, bool exclude) const;
    /** Appends the condition of row `index` to the ViewState's filter; false when none. */
    bool filterToRow(const QModelIndex &index, bool exclude);
    /** Follows the key value of row `index`; false when it is not a key field. */
    bool followRow(const QModelIndex &index);

    /**
     * Width (px) the pane needs to show a full hex line of the Frame tab (offset, 16 bytes and
     * the ASCII column) in its monospace font without scrolling; the main window's default
     * dock width.
     */
    int frameDumpWidth() const;

    /** The Frame tab's text view (monospace, not wrapped: it scrolls horizontally). */
    QPlainTextEdit *frameView() const { return m_frame; }

    /** Hex bytes shown in the Frame tab at most. */
    static int frameDumpBytes() { return 16 * 1024; }

    /** Frames larger than this (bytes) are decoded off the GUI thread. */
    static qint64 asyncBytes() { return 256 * 1024; }

signals:
    /** The tree now shows record `record` (-1: nothing). */
    void recordShown(int record);

private:
    void showRecord(int record);
    void setTitle(int record);
    void installTree(int record, std::shared_ptr<const TraceDocument::Args> args,
                     std::unique_ptr<TreeNode> root);
    void applyExpansion();
    QString expansionKey(const QModelIndex &index) const;
    void contextMenu(const QPoint &pos);

    QPointer<ViewState> m_state;
    InspectorTreeModel *m_model = nullptr;
    InspectorTreeView *m_tree = nullptr;
    QLabel *m_chip = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_meta = nullptr;
    QLabel *m_error = nullptr;
    QTabWidget *m_tabs = nullptr;
    QPlainTextEdit *m_frame = nullptr;
    int m_record = -1;
    quint64 m_generation = 0;
    bool m_applyingExpansion = false;
    QSet<QString> m_userExpanded;
    QSet<QString> m_userCollapsed;
};

}  // namespace lmct
