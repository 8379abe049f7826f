#pragma once

#include "common/viewstateobserver.h"
#include "trace/traceheader.h"

#include <QPointer>
#include <QWidget>

class QLabel;

namespace lmct {

class InspectorTreeModel;
class InspectorTreeView;
class ViewState;

/**
 * The header pane: facts about the open file and its decoded header frame, as one tree.
 *
 * - "File": path, size, records, duration (largest t_mono), first and last t_wall, where the
 *   records start, diagnostics, and whether loading was cancelled (partial).
 * - "Header": every header field (HeaderTree: times as date-times, magic as text,
 *   sm_config_json as a JSON tree, level_meta) and the derived digest check.
 * - A status line above the tree shows the digest status, coloured: match green, mismatch red,
 *   absent grey, lost orange (StatusColors, readable on light and dark palettes). The digest
 *   check row in the tree has the same colour. Its tool tip says why the digest changes with
 *   every server process when the config has `shm_name` (which embeds the server's PID;
 *   StorageManagerConfig::volatileNote).
 * - Below it, the StorageManagerConfig in words (StorageManagerConfig::summary: L1 capacity,
 *   eviction policy, TTLs, L2 adapters, prefetch limits), or that no config is attached; grey
 *   when none is, orange when the text is not a config object or was lost.
 * - Context menu and Ctrl+C copy a row's value, path or name.
 *
 * Ownership: the tree points into the document's header; the model keeps the document alive.
 * Does not own the ViewState. Thread-safety: GUI thread only.
 */
class HeaderPane : public QWidget, public ViewStateObserver {
    Q_OBJECT
public:
    explicit HeaderPane(QWidget *parent = nullptr);
    ~HeaderPane() override;

    void setViewState(ViewState *state) override;

    InspectorTreeModel *model() const { return m_model; }
    InspectorTreeView *treeView() const { return m_tree; }
    /** The digest status line as shown, e.g. "Config digest: ✓ match". */
    QString digestText() const;
    /** The digest status line's tool tip (why it matches, and what shm_name does to it). */
    QString digestToolTip() const;
    /**
     * The config summary line as shown, e.g. "Config: L1 48 GiB (init 20 GiB, lazy) · ...", with
     * plain spaces (the label keeps each part on one line with no-break spaces).
     */
    QString configText() const;
    /** The colour the digest status is drawn in (invalid when no document). */
    QColor digestColor() const { return m_digestColor; }

    /** The colour of a digest status in `palette`: match green, mismatch red, ... */
    static QColor colorFor(TraceHeader::DigestStatus status, const QPalette &palette);

private:
    void rebuild();
    void contextMenu(const QPoint &pos);

    QPointer<ViewState> m_state;
    InspectorTreeModel *m_model = nullptr;
    InspectorTreeView *m_tree = nullptr;
    QLabel *m_digest = nullptr;
    QLabel *m_config = nullptr;
    QString m_configText;
    QColor m_digestColor;
};

}  // namespace lmct
