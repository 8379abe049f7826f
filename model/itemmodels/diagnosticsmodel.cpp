#include "itemmodels/diagnosticsmodel.h"

#include <algorithm>

namespace lmct {

DiagnosticsModel::DiagnosticsModel(QObject *parent) : QAbstractTableModel(parent) {}

void DiagnosticsModel::setDocument(std::shared_ptr<const TraceDocument> doc) {
    beginResetModel();
    m_doc = std::move(doc);
    m_diags = m_doc ? m_doc->diagnostics() : DiagnosticList();
    m_revision = m_doc ? m_doc->diagnosticsRevision() : 0;
    endResetModel();
}

void DiagnosticsModel::refresh() {
    if (!m_doc) {
        return;
    }
    const quint64 revision = m_doc->diagnosticsRevision();
    const DiagnosticList now = m_doc->diagnostics();
    if (revision != m_revision && !m_diags.isEmpty()) {
        // notes replaced in place (a followed trace's notes on times): the listed rows anew
        m_revision = revision;
        const qsizetype listed = std::min(m_diags.size(), now.size());
        for (qsizetype i = 0; i < listed; ++i) {
            m_diags[i] = now[i];
        }
        emit dataChanged(index(0, 0), index(int(listed) - 1, ColumnCount - 1));
    }
    if (now.size() > m_diags.size()) {
        beginInsertRows(QModelIndex(), int(m_diags.size()), int(now.size()) - 1);
        m_diags = now;
        endInsertRows();
    }
}

int DiagnosticsModel::rowCount(const QModelIndex &parent) const {
    return (parent.isValid() || !m_doc) ? 0 : int(m_diags.size());
}

int DiagnosticsModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiagnosticsModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || !m_doc || index.row() >= rowCount()) {
        return QVariant();
    }
    const Diagnostic &d = m_diags.at(index.row());
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case SeverityColumn:
                    return Diagnostic::severityName(d.severity);
                case OffsetColumn:
                    return d.offset < 0 ? QVariant(QStringLiteral("—")) : QVariant(d.offset);
                case KindColumn:
                    return Diagnostic::kindName(d.kind);
                case MessageColumn:
                    return d.message;
            }
            return QVariant();
        case Qt::ToolTipRole: {
            // On every cell: the table elides the message. Rich text, which QToolTip wraps: a
            // plain-text tooltip is one line as wide as the message, cut at the screen's edge.
            QString where = d.offset < 0 ? tr("whole file") : tr("offset %1").arg(d.offset);
            const int record = d.offset < 0 ? -1 : m_doc->recordNearOffset(d.offset);
            if (record >= 0) {
                where += tr(", record %1").arg(record);
            }
            return QStringLiteral("<p><b>%1</b> · %2 · %3</p><p>%4</p>")
                .arg(Diagnostic::severityName(d.severity), Diagnostic::kindName(d.kind),
                     where.toHtmlEscaped(), d.message.toHtmlEscaped());
        }
        case Qt::TextAlignmentRole:
            return index.column() == OffsetColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                  : QVariant();
        case RecordRole:
            return d.offset < 0 ? -1 : m_doc->recordNearOffset(d.offset);
        case SeverityRole:
            return int(d.severity);
    }
    return QVariant();
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QVariant();
    }
    switch (section) {
        case SeverityColumn:
            return tr("Severity");
        case OffsetColumn:
            return tr("Offset");
        case KindColumn:
            return tr("Kind");
        case MessageColumn:
            return tr("Message");
    }
    return QVariant();
}

}  // namespace lmct
