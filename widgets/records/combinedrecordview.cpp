#include "records/combinedrecordview.h"

#include "codec/qualname.h"
#include "itemmodels/argumenttree.h"
#include "itemmodels/combinedrecordtablemodel.h"
#include "records/filtercomposer.h"
#include "records/filtermenubuilder.h"
#include "viewstate.h"

#include <QContextMenuEvent>
#include <QHeaderView>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>

namespace lmct {

CombinedRecordView::CombinedRecordView(CombinedRecordTableModel *model, QWidget *parent)
    : QTableView(parent), m_model(model) {
    setObjectName(QStringLiteral("combinedTable"));
    setModel(model);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setAlternatingRowColors(true);
    setWordWrap(false);
    setFrameShape(QFrame::NoFrame);
    verticalHeader()->hide();
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->setHighlightSections(false);
    horizontalHeader()->setSortIndicator(CombinedRecordTableModel::RowColumn, Qt::AscendingOrder);
    setSortingEnabled(true);
    const QFontMetrics fm = fontMetrics();
    const int arrow = 18;  // room for the header's sort indicator
    const auto width = [&](int column, const char *sample) {
        setColumnWidth(column, fm.horizontalAdvance(QString::fromUtf8(sample)) + arrow);
    };
    width(CombinedRecordTableModel::RowColumn, "00000000");
    width(CombinedRecordTableModel::TraceColumn, "worker-00.lct (vllm-00)");
    width(CombinedRecordTableModel::IndexColumn, "0000000");
    width(CombinedRecordTableModel::TWallColumn, "2026-00-00 00:00:00.000  ");
    width(CombinedRecordTableModel::DeltaColumn, "+000.000 ms ");
    width(CombinedRecordTableModel::TMonoColumn, "0000.000000 ");
    width(CombinedRecordTableModel::CallColumn, "read_prefetched_results.__exit__");
    // After a sort, keep the selected record in view.
    connect(model, &QAbstractItemModel::layoutChanged, this, [this] {
        if (currentIndex().isValid()) {
            scrollTo(currentIndex(), QAbstractItemView::PositionAtCenter);
        }
    });
    connect(model, &QAbstractItemModel::modelReset, viewport(), qOverload<>(&QWidget::update));
}

void CombinedRecordView::setStates(const QList<ViewState *> &states) {
    m_states.clear();
    for (ViewState *s : states) {
        m_states.append(s);
    }
}

void CombinedRecordView::showAllRecords() {
    for (const QPointer<ViewState> &s : std::as_const(m_states)) {
        if (s) {
            s->setTimeRange(std::nullopt);
        }
    }
}

void CombinedRecordView::addFilterActions(QMenu *menu, int row) {
    const int t = m_model->traceAt(row);
    const int record = m_model->recordAt(row);
    ViewState *state = m_states.value(t);
    if (t < 0 || record < 0 || !state) {
        return;
    }
    const TraceSet &set = m_model->set();
    const TraceDocument &doc = set.document(t);
    QList<FilterChoice> choices;
    choices.append({QStringLiteral("trace"), {FilterComposer::quote(set.label(t))}});
    choices.append({QStringLiteral("call"), {Qualname::shortName(doc.records().qualname(record))}});
    if (const auto args = doc.args(record)) {
        const auto root = ArgumentTree::build(args->value, 5000);
        choices += FilterComposer::choicesInTree(root.get());
    }
    FilterMenuBuilder::addFilterActions(menu, state, choices, false);
}

void CombinedRecordView::contextMenuEvent(QContextMenuEvent *event) {
    if (m_model->set().isEmpty()) {
        return;
    }
    QMenu menu(this);
    QAction *all =
        menu.addAction(tr("Show All Records"), this, &CombinedRecordView::showAllRecords);
    all->setShortcut(Qt::Key_Escape);
    all->setEnabled(m_model->timeRange().has_value());
    const QModelIndex at = indexAt(event->pos());
    if (at.isValid()) {
        menu.addSeparator();
        addFilterActions(&menu, at.row());
    }
    menu.exec(event->globalPos());
}

void CombinedRecordView::keyPressEvent(QKeyEvent *event) {
    if (event->key() == Qt::Key_Escape && m_model->timeRange()) {
        showAllRecords();
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

QString CombinedRecordView::emptyMessage() const {
    if (m_model->set().isEmpty() || m_model->rowCount() > 0 || !m_model->order() ||
        m_model->order()->isEmpty()) {
        return QString();
    }
    if (m_model->hasRows()) {
        return m_model->timeRange() ? tr("No record matches the filter in this time range.")
                                    : tr("No record matches the filter.");
    }
    return m_model->timeRange()
               ? tr("No record in this time range.\nPress Esc to show all records.")
               : QString();
}

void CombinedRecordView::paintEvent(QPaintEvent *event) {
    QTableView::paintEvent(event);
    const QString text = emptyMessage();
    if (text.isEmpty()) {
        return;
    }
    QPainter p(viewport());
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(viewport()->rect().adjusted(16, 16, -16, -16), Qt::AlignCenter | Qt::TextWordWrap,
               text);
}

}  // namespace lmct
