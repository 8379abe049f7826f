#include "records/recordtableview.h"

#include "codec/qualname.h"
#include "common/jobpool.h"
#include "filter/filterevaluator.h"
#include "filter/filterexpression.h"
#include "itemmodels/argumenttree.h"
#include "records/decoratedrecordtablemodel.h"
#include "records/filtercomposer.h"
#include "records/filtermenubuilder.h"
#include "util/timeformat.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QInputDialog>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <QScrollBar>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

namespace lmct {

namespace {

using Subset = std::shared_ptr<const std::vector<int>>;

Subset computeSubset(const std::shared_ptr<const TraceDocument> &doc, ViewState::TimeRange range,
                     Subset filter) {
    auto rows = std::make_shared<std::vector<int>>();
    const RecordStore &rs = doc->records();
    if (filter) {
        for (const int i : *filter) {
            const double t = rs.tMono(i);
            if (t >= range.from && t <= range.to) {
                rows->push_back(i);
            }
        }
        return rows;
    }
    const int n = rs.size();
    for (int i = 0; i < n; ++i) {
        const double t = rs.tMono(i);
        if (t >= range.from && t <= range.to) {
            rows->push_back(i);
        }
    }
    return rows;
}

}  // namespace

RecordTableView::RecordTableView(QWidget *parent)
    : QTableView(parent), m_model(new DecoratedRecordTableModel(this)) {
    setModel(m_model);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setAlternatingRowColors(true);
    setShowGrid(false);
    setWordWrap(false);
    setTextElideMode(Qt::ElideRight);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    setVerticalScrollMode(QAbstractItemView::ScrollPerItem);
    setIconSize(QSize(12, 12));
    setTabKeyNavigation(false);

    // Uniform rows: one fixed height, no per-row size hints (cheap at millions of rows).
    verticalHeader()->hide();
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setMinimumSectionSize(1);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);

    QHeaderView *h = horizontalHeader();
    h->setHighlightSections(false);
    h->setSectionsMovable(true);
    h->setStretchLastSection(true);
    h->setSectionResizeMode(QHeaderView::Interactive);
    h->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    h->setSortIndicator(RecordTableModel::IndexColumn, Qt::AscendingOrder);
    setSortingEnabled(true);
    fitColumns();

    // The current row, once it is also selected, is the user's choice. Focusing the table makes
    // the first row current without selecting it, which must not select a record; a click sets
    // the current row first and selects it right after, hence both signals.
    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &RecordTableView::pushSelectionToState);
    connect(selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RecordTableView::pushSelectionToState);
    // After a sort, keep the selected record in view.
    connect(m_model, &QAbstractItemModel::layoutChanged, this, [this] {
        if (currentIndex().isValid()) {
            scrollTo(currentIndex(), QAbstractItemView::PositionAtCenter);
        }
    });
}

RecordTableView::~RecordTableView() = default;

void RecordTableView::pushSelectionToState() {
    const QModelIndex current = currentIndex();
    if (m_syncing || !m_state || !current.isValid() ||
        !selectionModel()->isRowSelected(current.row(), QModelIndex())) {
        return;
    }
    m_syncing = true;
    m_state->setSelectedRecord(m_model->recordAt(current.row()));
    m_syncing = false;
}

void RecordTableView::setViewState(ViewState *state) {
    if (!rebind(m_state, state, this)) {
        return;
    }
    if (m_state) {
        connect(m_state, &ViewState::documentChanged, this, &RecordTableView::onDocumentChanged);
        connect(m_state, &ViewState::selectedRecordChanged, this,
                &RecordTableView::onSelectedRecordChanged);
        connect(m_state, &ViewState::timeRangeChanged, this, &RecordTableView::onTimeRangeChanged);
        connect(m_state, &ViewState::filterChanged, this, &RecordTableView::onTimeRangeChanged);
        connect(m_state, &ViewState::followedKeyChanged, this,
                &RecordTableView::onFollowedKeyChanged);
        connect(m_state, &ViewState::followedRecordsChanged, this,
                [this] { m_model->setFollowed(m_state->followedRecords()); });
        connect(m_state, &ViewState::wallUtcChanged, m_model, &RecordTableModel::setWallUtc);
        connect(m_state, &ViewState::documentGrew, this, [this] {
            const bool wasEmpty = m_model->rowCount() == 0;
            m_model->refresh();
            if (wasEmpty && m_model->rowCount() > 0) {
                fitColumns();
            }
        });
    }
    onDocumentChanged();
}

void RecordTableView::onDocumentChanged() {
    ++m_subsetGeneration;
    m_model->setWallUtc(m_state && m_state->wallUtc());
    m_model->setDocument(m_state ? m_state->document() : nullptr);
    fitColumns();
    m_model->setFollowed(m_state ? m_state->followedRecords() : nullptr);
    if (m_state && (m_state->timeRange() || m_state->filterRecords())) {
        onTimeRangeChanged();
    } else {
        syncSelectionFromState();
    }
}

void RecordTableView::onSelectedRecordChanged(int) {
    if (!m_syncing) {
        syncSelectionFromState();
    }
}

void RecordTableView::syncSelectionFromState() {
    const int record = m_state ? m_state->selectedRecord() : -1;
    const int row = m_model->rowOf(record);
    m_syncing = true;
    if (row < 0) {
        selectionModel()->clearSelection();
        selectionModel()->setCurrentIndex(QModelIndex(), QItemSelectionModel::NoUpdate);
    } else {
        const QModelIndex idx = m_model->index(row, RecordTableModel::IndexColumn);
        selectionModel()->setCurrentIndex(
            idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        scrollTo(idx, QAbstractItemView::EnsureVisible);
    }
    m_syncing = false;
}

void RecordTableView::onTimeRangeChanged() {
    const quint64 generation = ++m_subsetGeneration;
    const auto doc = m_state ? m_state->document() : nullptr;
    const auto filter = m_state ? m_state->filterRecords() : nullptr;
    const auto range = m_state ? m_state->timeRange() : std::nullopt;
    if (doc && filter && !range) {
        applySubset(filter);
        return;
    }
    if (!doc || !range) {
        if (m_model->hasSubset()) {
            applySubset(nullptr);
        } else {
            emit subsetApplied();
        }
        return;
    }
    if (doc->records().size() <= asyncThreshold()) {
        applySubset(computeSubset(doc, *range, filter));
        return;
    }
    auto *watcher = new QFutureWatcher<Subset>(this);
    connect(watcher, &QFutureWatcher<Subset>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation == m_subsetGeneration) {
            applySubset(watcher->result());
        }
    });
    watcher->setFuture(
        JobPool::run([doc, range = *range, filter] { return computeSubset(doc, range, filter); }));
}

void RecordTableView::applySubset(std::shared_ptr<const std::vector<int>> rows) {
    m_model->setSubset(std::move(rows));
    syncSelectionFromState();
    if (!currentIndex().isValid()) {
        scrollToTop();
    }
    emit subsetApplied();
}

bool RecordTableView::goToRecord(int record) {
    const auto doc = m_state ? m_state->document() : nullptr;
    if (!doc || record < 0 || record >= doc->records().size()) {
        return false;
    }
    if (const auto filter = m_state->filterRecords();
        filter && !std::binary_search(filter->begin(), filter->end(), record)) {
        m_state->setFilterText(QString());  // the filter hides it
    }
    m_state->revealRecord(record);
    syncSelectionFromState();
    if (currentIndex().isValid()) {
        scrollTo(currentIndex(), QAbstractItemView::PositionAtCenter);
    }
    setFocus();
    return true;
}

void RecordTableView::promptGoToRecord() {
    const auto doc = m_state ? m_state->document() : nullptr;
    if (!doc || doc->records().isEmpty()) {
        return;
    }
    const int last = doc->records().size() - 1;
    bool ok = false;
    const int current = std::max(0, m_state->selectedRecord());
    const int record = QInputDialog::getInt(
        this, tr("Go to Record"), tr("Record # (0 – %1):").arg(last), current, 0, last, 1, &ok);
    if (ok) {
        goToRecord(record);
    }
}

void RecordTableView::narrowToSelection() {
    const auto doc = m_state ? m_state->document() : nullptr;
    if (!doc) {
        return;
    }
    const QModelIndexList rows = selectionModel()->selectedRows();
    if (rows.isEmpty()) {
        return;
    }
    double from = 0.0, to = 0.0;
    bool first = true;
    for (const QModelIndex &r : rows) {
        const double t = doc->records().tMono(m_model->recordAt(r.row()));
        from = first ? t : std::min(from, t);
        to = first ? t : std::max(to, t);
        first = false;
    }
    m_state->setTimeRange(ViewState::TimeRange{from, to});
}

void RecordTableView::copySelectedRows() {
    QModelIndexList rows = selectionModel()->selectedRows();
    if (rows.isEmpty()) {
        return;
    }
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    QStringList lines;
    QStringList head;
    for (int c = 0; c < m_model->columnCount(); ++c) {
        head << m_model->headerData(c, Qt::Horizontal).toString();
    }
    lines << head.join(QLatin1Char('\t'));
    for (const QModelIndex &r : rows) {
        QStringList cells;
        for (int c = 0; c < m_model->columnCount(); ++c) {
            cells << m_model->index(r.row(), c).data().toString();
        }
        lines << cells.join(QLatin1Char('\t'));
    }
    QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
}

void RecordTableView::keyPressEvent(QKeyEvent *event) {
    if (event->key() == Qt::Key_Escape && m_state && m_state->timeRange()) {
        m_state->setTimeRange(std::nullopt);
        event->accept();
        return;
    }
    if (event->modifiers() == Qt::NoModifier &&
        (event->key() == Qt::Key_Period || event->key() == Qt::Key_Comma) && m_state &&
        !m_state->followedKey().isEmpty()) {
        stepFollowed(event->key() == Qt::Key_Period ? 1 : -1);
        event->accept();
        return;
    }
    if (event->matches(QKeySequence::Copy)) {
        copySelectedRows();
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

QString RecordTableView::emptyMessage() const {
    if (!m_state || !m_state->document() || m_model->rowCount() > 0) {
        return QString();
    }
    return m_state->filterRecords()
               ? tr("No record matches the filter%1.")
                     .arg(m_state->timeRange() ? tr(" in this time range") : QString())
           : m_state->timeRange()
               ? tr("No record in this time range.\nPress Esc to show all records.")
           : m_state->document()->isLoading()
               ? tr("Waiting for records…")
               : tr("This trace has no records: the server recorded no calls.\nThe Header pane "
                    "shows what the trace says about the server.");
}

void RecordTableView::paintEvent(QPaintEvent *event) {
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

void RecordTableView::contextMenuEvent(QContextMenuEvent *event) {
    if (!m_state || !m_state->document()) {
        return;
    }
    QMenu menu(this);
    const int selected = int(selectionModel()->selectedRows().size());
    QAction *copy = menu.addAction(QIcon::fromTheme(QStringLiteral("edit-copy")),
                                   selected > 1 ? tr("Copy %1 Rows").arg(selected) : tr("Copy Row"),
                                   this, &RecordTableView::copySelectedRows);
    copy->setShortcut(QKeySequence::Copy);
    copy->setEnabled(selected > 0);
    menu.addSeparator();
    QAction *narrow = menu.addAction(tr("Show Only the Time Range of the Selection"), this,
                                     &RecordTableView::narrowToSelection);
    narrow->setEnabled(selected > 1);
    QAction *all = menu.addAction(tr("Show All Records"), this,
                                  [this] { m_state->setTimeRange(std::nullopt); });
    all->setShortcut(Qt::Key_Escape);
    all->setEnabled(m_state->timeRange().has_value());
    menu.addSeparator();
    const QModelIndex at = indexAt(event->pos());
    if (at.isValid()) {
        addFilterActions(&menu, m_model->recordAt(at.row()));
        menu.addSeparator();
    }
    QAction *go = menu.addAction(tr("Go to Record…"), this, &RecordTableView::promptGoToRecord);
    go->setShortcut(Qt::CTRL | Qt::Key_G);
    menu.exec(event->globalPos());
}

void RecordTableView::addFilterActions(QMenu *menu, int record) {
    const auto doc = m_state ? m_state->document() : nullptr;
    if (!doc || record < 0 || record >= doc->records().size()) {
        return;
    }
    QList<FilterChoice> choices;
    choices.append(
        {QStringLiteral("call"), {Qualname::shortName(doc->records().qualname(record))}});
    const auto args = doc->args(record);
    if (args) {
        const auto root = ArgumentTree::build(args->value, 5000);
        choices += FilterComposer::choicesInTree(root.get());
    }
    FilterMenuBuilder::addFilterActions(menu, m_state, choices);
}

void RecordTableView::onFollowedKeyChanged() {
    const quint64 generation = ++m_followGeneration;
    const auto doc = m_state ? m_state->document() : nullptr;
    const QString key = m_state ? m_state->followedKey() : QString();
    m_model->setFollowed(nullptr);
    if (!doc || key.isEmpty()) {
        return;
    }
    const FilterExpression expr = FilterExpression::parse(key);
    if (!expr.isValid() || expr.isEmpty()) {
        return;
    }
    auto *watcher = new QFutureWatcher<Subset>(this);
    connect(watcher, &QFutureWatcher<Subset>::finished, this, [this, watcher, generation, key] {
        watcher->deleteLater();
        if (generation == m_followGeneration && m_state) {
            m_state->setFollowedRecords(key, watcher->result());
        }
    });
    watcher->setFuture(JobPool::run([doc, expr]() -> Subset {
        return std::make_shared<const std::vector<int>>(FilterEvaluator(doc, expr).run().records);
    }));
}

bool RecordTableView::stepFollowed(int direction) {
    const auto followed = m_state ? m_state->followedRecords() : nullptr;
    if (!followed || followed->empty()) {
        return false;
    }
    const int from = m_state->selectedRecord();
    if (direction > 0) {
        auto it = std::upper_bound(followed->begin(), followed->end(), from);
        for (; it != followed->end(); ++it) {
            if (m_model->rowOf(*it) >= 0) {
                return goToRecord(*it);
            }
        }
    } else {
        auto it = std::lower_bound(followed->begin(), followed->end(), from < 0 ? 0 : from);
        while (it != followed->begin()) {
            --it;
            if (m_model->rowOf(*it) >= 0) {
                return goToRecord(*it);
            }
        }
    }
    return false;
}

void RecordTableView::fitColumns() {
    const QFontMetrics fm(font());
    const QFontMetrics hfm(horizontalHeader()->font());
    const int pad = 2 * style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, this) + 14;
    const int sortArrow = 18;  // room for the header's sort indicator
    auto headerWidth = [&](int column) {
        return hfm.horizontalAdvance(m_model->headerData(column, Qt::Horizontal).toString()) + pad +
               sortArrow;
    };
    const auto doc = m_model->document();
    const int records = doc ? doc->records().size() : 0;
    const double maxT = doc ? doc->records().maxTMono() : 0.0;
    const double wall = doc && records ? doc->records().maxTWall() : 1.7e9;

    // #: the largest index, plus room for the resync warning icon.
    const QString maxIndex =
        QString(QString::number(std::max(records - 1, 0)).size(), QLatin1Char('8'));
    const int indexWidth = fm.horizontalAdvance(maxIndex) + iconSize().width() + 6 + pad;
    setColumnWidth(RecordTableModel::IndexColumn,
                   std::max(headerWidth(RecordTableModel::IndexColumn), indexWidth));
    setColumnWidth(RecordTableModel::TMonoColumn,
                   std::max(headerWidth(RecordTableModel::TMonoColumn),
                            fm.horizontalAdvance(TimeFormat::mono(std::max(maxT, 10.0))) + pad));
    setColumnWidth(RecordTableModel::DeltaColumn,
                   std::max(headerWidth(RecordTableModel::DeltaColumn),
                            fm.horizontalAdvance(QStringLiteral("+888.888 ms")) + pad));
    setColumnWidth(RecordTableModel::TWallColumn,
                   std::max(headerWidth(RecordTableModel::TWallColumn),
                            fm.horizontalAdvance(TimeFormat::wall(wall, true)) + pad));
    int callWidth = fm.horizontalAdvance(QStringLiteral("finish_read_prefetched"));
    if (doc) {
        for (const QString &q : doc->records().qualnames()) {
            callWidth = std::max(callWidth, fm.horizontalAdvance(Qualname::displayName(q)));
        }
    }
    callWidth = std::min(callWidth, fm.horizontalAdvance(QLatin1Char('x')) * 48);
    setColumnWidth(RecordTableModel::CallColumn,
                   std::max(headerWidth(RecordTableModel::CallColumn),
                            callWidth + iconSize().width() + 8 + pad));
}

}  // namespace lmct
