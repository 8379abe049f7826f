#include "panes/cachekeystab.h"

#include "cache/keylifecycle.h"
#include "itemmodels/keytablemodel.h"
#include "util/timeformat.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

namespace lmct {

namespace {

// Rows of the key lifecycle table always shown (a key's reserve, finish, prefetch and read
// fit), and of the key table; at the pane's size hint the lifecycle gets about eight. More as a
// minimum would make the dock (tabbed with the timeline) the tallest, and the window with it.
constexpr int kLifecycleRows = 6;
constexpr int kKeyRows = 2;

}  // namespace

CacheKeysTab::CacheKeysTab(QWidget *parent)
    : CacheTab(parent), m_keyModel(new KeyTableModel(this)) {
    auto *v = new QVBoxLayout(this);
    v->setContentsMargins(0, 2, 0, 0);
    m_prefix = new QLineEdit;
    m_prefix->setPlaceholderText(tr("Filter by chunk hash prefix (hex)…"));
    m_prefix->setClearButtonEnabled(true);
    connect(m_prefix, &QLineEdit::textChanged, m_keyModel, &KeyTableModel::setHashPrefix);
    v->addWidget(m_prefix);
    auto *split = new QSplitter(Qt::Vertical);
    m_keyView = createTable(m_keyModel);
    // No sort at first: keys in order of first appearance (enabling sorting sorts by the
    // indicator, so clear it first).
    m_keyView->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_keyView->setSortingEnabled(true);
    const QFontMetrics fm(font());
    m_keyView->setColumnWidth(KeyTableModel::HashColumn,
                              fm.horizontalAdvance(QStringLiteral("0123456789abcdef01234")));
    m_keyView->setColumnWidth(KeyTableModel::ModelColumn,
                              fm.horizontalAdvance(QStringLiteral("meta-llama/Llama-3.1-8B")));
    for (int c = KeyTableModel::RankColumn; c < KeyTableModel::ColumnCount; ++c) {
        m_keyView->setColumnWidth(c, fm.horizontalAdvance(QStringLiteral("Prefetch")) + 18);
    }
    m_keyView->setColumnWidth(KeyTableModel::FirstColumn,
                              fm.horizontalAdvance(QStringLiteral("00:00.000000")) + 12);
    m_keyView->setColumnWidth(KeyTableModel::LastColumn,
                              fm.horizontalAdvance(QStringLiteral("00:00.000000")) + 12);
    m_keyView->setColumnWidth(KeyTableModel::StateColumn,
                              fm.horizontalAdvance(QStringLiteral("written then read")) + 12);
    m_keyView->setColumnWidth(KeyTableModel::WriteLatencyColumn,
                              fm.horizontalAdvance(QStringLiteral("Write latency")) + 18);
    auto activateKey = [this](const QModelIndex &i) {
        if (!i.isValid()) {
            return;
        }
        const int key = i.data(KeyTableModel::KeyRole).toInt();
        showLifecycle(key);
        emit keyActivated(key);
        emit recordActivated(i.data(KeyTableModel::RecordRole).toInt());
    };
    connect(m_keyView, &QTableView::clicked, this, activateKey);
    connect(m_keyView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            activateKey);
    split->addWidget(m_keyView);

    auto *life = new QWidget;
    auto *lv = new QVBoxLayout(life);
    lv->setContentsMargins(0, 0, 0, 0);
    lv->setSpacing(2);
    m_lifecycleTitle = new QLabel(tr("Select a key to see its lifecycle."));
    m_lifecycleTitle->setContentsMargins(6, 2, 6, 0);
    m_lifecycleTitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lv->addWidget(m_lifecycleTitle);
    m_lifecycle = new QTableWidget(0, 5);
    m_lifecycle->setHorizontalHeaderLabels(
        {tr("Record"), tr("Call"), tr("t_mono"), tr("Since previous"), tr("Write latency")});
    m_lifecycle->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_lifecycle->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_lifecycle->setSelectionMode(QAbstractItemView::SingleSelection);
    m_lifecycle->verticalHeader()->hide();
    m_lifecycle->verticalHeader()->setDefaultSectionSize(fm.height() + 6);
    m_lifecycle->setShowGrid(false);
    m_lifecycle->setFrameShape(QFrame::NoFrame);
    m_lifecycle->horizontalHeader()->setStretchLastSection(true);
    m_lifecycle->setColumnWidth(
        1, fm.horizontalAdvance(QStringLiteral("read_prefetched_results.__enter__")) + 12);
    connect(m_lifecycle, &QTableWidget::cellClicked, this, [this](int row, int) {
        emit recordActivated(m_lifecycle->item(row, 0)->data(Qt::UserRole).toInt());
    });
    // room for several events under its header (it was two rows tall); neither side of the
    // splitter can be collapsed out of sight
    m_lifecycle->setMinimumHeight(m_lifecycle->horizontalHeader()->sizeHint().height() +
                                  kLifecycleRows * (fm.height() + 6) +
                                  2 * m_lifecycle->frameWidth());
    m_keyView->setMinimumHeight(m_keyView->horizontalHeader()->sizeHint().height() +
                                kKeyRows * (fm.height() + 6));
    lv->addWidget(m_lifecycle, 1);
    split->addWidget(life);
    split->setChildrenCollapsible(false);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    v->addWidget(split, 1);
}

void CacheKeysTab::showAnalysis() {
    const CacheAnalysis *a = m_analysis.get();
    m_keyModel->setAnalysis(a ? a->keys : nullptr);
    showLifecycle(-1);
}

void CacheKeysTab::showLifecycle(int key) {
    m_lifecycle->setRowCount(0);
    const KeyAnalysis *ka = m_analysis ? m_analysis->keys.get() : nullptr;
    if (!ka || key < 0 || key >= ka->keyCount()) {
        m_lifecycleTitle->setText(tr("Select a key to see its lifecycle."));
        return;
    }
    const KeyLifecycle lc = KeyLifecycle::build(*ka, key, 10000);
    const ObjectKey o = ka->objectKey(key);
    auto dur = [](double v) { return std::isnan(v) ? tr("–") : TimeFormat::duration(v); };
    m_lifecycleTitle->setText(tr("Key %1 · %2 · %3 — %4 · write latency %5 · first reuse %6%7")
                                  .arg(o.shortHash(16), o.modelName, o.rank().toString(),
                                       KeyAnalysis::stateLabel(ka->key(key).state),
                                       dur(lc.writeLatency()), dur(lc.timeToFirstReuse()),
                                       lc.truncated() ? tr(" (first 10,000 events)") : QString()));
    m_lifecycle->setRowCount(int(lc.events().size()));
    for (int i = 0; i < int(lc.events().size()); ++i) {
        const KeyLifecycle::Event &e = lc.events()[size_t(i)];
        auto *rec = new QTableWidgetItem(QStringLiteral("#%1").arg(e.record));
        rec->setData(Qt::UserRole, e.record);
        m_lifecycle->setItem(i, 0, rec);
        // A finish_read_prefetched that is no read of its own says what it belongs to.
        const QString call =
            e.partOf < 0 ? KeyAnalysis::callName(e.call)
            : ka->callAt(ka->keyRecordOf(e.partOf)) == KeyAnalysis::Call::Release
                ? tr("%1 (of the release #%2)").arg(KeyAnalysis::callName(e.call)).arg(e.partOf)
                : tr("%1 (of the read #%2)").arg(KeyAnalysis::callName(e.call)).arg(e.partOf);
        m_lifecycle->setItem(i, 1, new QTableWidgetItem(call));
        m_lifecycle->setItem(i, 2, new QTableWidgetItem(TimeFormat::mono(e.t)));
        m_lifecycle->setItem(
            i, 3, new QTableWidgetItem(i == 0 ? QString() : TimeFormat::delta(e.sincePrevious)));
        m_lifecycle->setItem(i, 4,
                             new QTableWidgetItem(std::isnan(e.writeLatency)
                                                      ? QString()
                                                      : TimeFormat::duration(e.writeLatency)));
    }
}

}  // namespace lmct
