#include "panes/diagnosticspane.h"

#include "itemmodels/diagnosticsmodel.h"
#include "panes/diagnosticsdelegate.h"
#include "viewstate.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QTableView>
#include <QVBoxLayout>

namespace lmct {

DiagnosticsPane::DiagnosticsPane(QWidget *parent)
    : QWidget(parent),
      m_model(new DiagnosticsModel(this)),
      m_table(new QTableView(this)),
      m_summary(new QLabel(this)) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(2);
    m_summary->setContentsMargins(6, 0, 6, 0);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);

    m_table->setModel(m_model);
    m_table->setItemDelegate(new DiagnosticsDelegate(m_table));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->setFrameShape(QFrame::NoFrame);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    QHeaderView *h = m_table->horizontalHeader();
    h->setHighlightSections(false);
    h->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    h->setStretchLastSection(true);
    const QFontMetrics fm(font());
    m_table->setColumnWidth(DiagnosticsModel::SeverityColumn,
                            fm.horizontalAdvance(QStringLiteral("warning")) + 44);
    m_table->setColumnWidth(DiagnosticsModel::OffsetColumn,
                            fm.horizontalAdvance(QStringLiteral("88888888888")) + 16);
    m_table->setColumnWidth(DiagnosticsModel::KindColumn,
                            fm.horizontalAdvance(QStringLiteral("header-rewritten")) + 16);
    layout->addWidget(m_table, 1);

    auto *copy = new QAction(tr("Copy Message"), m_table);
    copy->setShortcut(QKeySequence::Copy);
    connect(copy, &QAction::triggered, this, &DiagnosticsPane::copyCurrentMessage);
    m_table->addAction(copy);
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_table->installEventFilter(this);  // Ctrl+C: item views take it before any shortcut

    connect(m_table, &QTableView::clicked, this,
            [this](const QModelIndex &i) { activateRow(i.row()); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &i) {
                if (i.isValid()) {
                    activateRow(i.row());
                }
            });
    onDocumentChanged();
}

DiagnosticsPane::~DiagnosticsPane() = default;

void DiagnosticsPane::setViewState(ViewState *state) {
    if (!rebind(m_state, state, this)) {
        return;
    }
    if (m_state) {
        connect(m_state, &ViewState::documentChanged, this, &DiagnosticsPane::onDocumentChanged);
        connect(m_state, &ViewState::documentGrew, this, [this] {
            m_model->refresh();
            updateSummary();
        });
    }
    onDocumentChanged();
}

void DiagnosticsPane::copyCurrentMessage() {
    const QModelIndex i = m_table->currentIndex();
    if (i.isValid()) {
        QApplication::clipboard()->setText(
            m_model->index(i.row(), DiagnosticsModel::MessageColumn).data().toString());
    }
}

bool DiagnosticsPane::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_table && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent *>(event)->matches(QKeySequence::Copy)) {
        copyCurrentMessage();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

QString DiagnosticsPane::summaryText() const {
    return m_summary->text();
}

bool DiagnosticsPane::activateRow(int row) {
    if (!m_state || !m_state->document() || row < 0 || row >= m_model->rowCount()) {
        return false;
    }
    const int record = m_model->index(row, 0).data(DiagnosticsModel::RecordRole).toInt();
    if (record < 0) {
        return false;
    }
    return m_state->revealRecord(record);
}

void DiagnosticsPane::onDocumentChanged() {
    m_model->setDocument(m_state ? m_state->document() : nullptr);
    updateSummary();
}

void DiagnosticsPane::updateSummary() {
    const auto doc = m_state ? m_state->document() : nullptr;
    if (!doc) {
        m_summary->setText(m_state ? tr("Loading…") : tr("No trace"));
        return;
    }
    const int errors = doc->errorCount();
    const int warnings = doc->warningCount();
    const qint64 notes = doc->diagnosticCount() - errors - warnings;
    if (doc->diagnosticCount() == 0) {
        m_summary->setText(tr("No problems found: every frame decoded."));
        return;
    }
    auto count = [](qint64 n, const QString &one, const QString &many) {
        return (n == 1 ? one : many).arg(QLocale().toString(n));
    };
    QString text = count(errors, tr("%1 error"), tr("%1 errors")) + QStringLiteral(", ") +
                   count(warnings, tr("%1 warning"), tr("%1 warnings")) + QStringLiteral(", ") +
                   count(notes, tr("%1 note"), tr("%1 notes"));
    if (doc->diagnosticCount() > doc->diagnostics().size()) {
        text += tr(" (first %1 listed)").arg(QLocale().toString(doc->diagnostics().size()));
    }
    text += tr(" — click one to select the nearest record");
    m_summary->setText(text);
}

}  // namespace lmct
