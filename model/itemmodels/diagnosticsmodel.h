#pragma once

#include "trace/tracedocument.h"

#include <QAbstractTableModel>
#include <memory>

namespace lmct {

/**
 * Table of a document's diagnostics: Severity, Offset (bytes), Kind, Message.
 *
 * RecordRole gives the record nearest the diagnostic's offset (the record whose frame starts at
 * or before it), or -1; the diagnostics pane selects it on click.
 * Thread-safety: GUI thread only.
 */
class DiagnosticsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, OffsetColumn, KindColumn, MessageColumn, ColumnCount };
    enum Role { RecordRole = Qt::UserRole + 1, SeverityRole };

    explicit DiagnosticsModel(QObject *parent = nullptr);
    /** Shows the document's diagnostics (a snapshot; see refresh()). */
    void setDocument(std::shared_ptr<const TraceDocument> doc);
    /** Takes a new snapshot when the document found more diagnostics (loading, live follow). */
    void refresh();

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const TraceDocument> m_doc;
    DiagnosticList m_diags;
    quint64 m_revision = 0;  // TraceDocument::diagnosticsRevision() of m_diags
};

}  // namespace lmct
