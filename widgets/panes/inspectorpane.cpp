#include "panes/inspectorpane.h"
#include "util/terminaltext.h"

#include "codec/qualname.h"
#include "common/callcolors.h"
#include "common/jobpool.h"
#include "common/statuscolors.h"
#include "common/treecopyactions.h"
#include "export/recordjson.h"
#include "itemmodels/argumenttree.h"
#include "itemmodels/inspectortreemodel.h"
#include "msgpack/framedump.h"
#include "panes/inspectortreeview.h"
#include "records/filtercomposer.h"
#include "records/filtermenubuilder.h"
#include "util/timeformat.h"
#include "viewstate.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QStyle>
#include <QTabWidget>
#include <QTextDocument>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace lmct {

namespace {

struct BuiltTree {
    std::shared_ptr<const TraceDocument::Args> args;
    std::unique_ptr<TreeNode> root;
};

std::shared_ptr<BuiltTree> buildTree(const std::shared_ptr<const TraceDocument> &doc, int record) {
    auto built = std::make_shared<BuiltTree>();
    built->args = doc->args(record);
    ArgumentTree::TimeContext time;
    time.tMonoStart = doc->header().tMonoStart();
    time.recordTMono = doc->records().tMono(record);
    built->root = ArgumentTree::build(built->args->value, 200000, time);
    return built;
}

/** A PrefetchHandle's index list: its value shows the indices already (as runs or a list). */
bool isIndexList(const QModelIndex &row) {
    const QString name = row.data().toString();
    return (name == QLatin1String("l1_found_indices") ||
            name == QLatin1String("l2_orig_indices")) &&
           row.parent().isValid() &&
           row.parent().siblingAtColumn(InspectorTreeModel::TypeColumn).data().toString() ==
               QLatin1String("PrefetchHandle");
}

int countNodes(const TreeNode *n, int cap) {
    int total = 0;
    for (const auto &c : n->children) {
        total += 1 + countNodes(c.get(), cap - total);
        if (total >= cap) {
            break;
        }
    }
    return total;
}

}  // namespace

InspectorPane::InspectorPane(QWidget *parent)
    : QWidget(parent),
      m_model(new InspectorTreeModel(this)),
      m_tree(new InspectorTreeView(this)),
      m_chip(new QLabel(this)),
      m_title(new QLabel(this)),
      m_meta(new QLabel(this)),
      m_error(new QLabel(this)) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(2);

    auto *titleRow = new QHBoxLayout;
    titleRow->setContentsMargins(6, 0, 6, 0);
    titleRow->setSpacing(6);
    m_chip->setFixedSize(14, 14);
    titleRow->addWidget(m_chip);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    titleRow->addWidget(m_title, 1);
    layout->addLayout(titleRow);

    m_meta->setContentsMargins(6, 0, 6, 0);
    m_meta->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_meta->setWordWrap(true);
    m_meta->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_meta);

    m_error->setContentsMargins(6, 2, 6, 2);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    {
        QPalette pal = m_error->palette();
        pal.setColor(QPalette::WindowText, StatusColors::warning(pal));
        m_error->setPalette(pal);
    }
    m_error->hide();
    layout->addWidget(m_error);

    m_tree->setModel(m_model);
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_tree, tr("Arguments"));
    m_frame = new QPlainTextEdit(this);
    m_frame->setObjectName(QStringLiteral("frameDump"));
    m_frame->setReadOnly(true);
    m_frame->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_frame->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_tabs->addTab(m_frame, tr("Frame"));
    layout->addWidget(m_tabs, 1);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_tabs->currentWidget() == m_frame && m_frame->toPlainText().isEmpty()) {
            m_frame->setPlainText(frameText());
        }
    });

    connect(m_tree, &QTreeView::customContextMenuRequested, this, &InspectorPane::contextMenu);
    connect(m_tree, &QTreeView::expanded, this, [this](const QModelIndex &idx) {
        if (!m_applyingExpansion) {
            const QString key = expansionKey(idx);
            m_userExpanded.insert(key);
            m_userCollapsed.remove(key);
        }
    });
    connect(m_tree, &QTreeView::collapsed, this, [this](const QModelIndex &idx) {
        if (!m_applyingExpansion) {
            const QString key = expansionKey(idx);
            m_userCollapsed.insert(key);
            m_userExpanded.remove(key);
        }
    });

    setTitle(-1);
}

InspectorPane::~InspectorPane() = default;

void InspectorPane::setViewState(ViewState *state) {
    if (!rebind(m_state, state, this)) {
        return;
    }
    if (m_state) {
        connect(m_state, &ViewState::selectedRecordChanged, this, &InspectorPane::showRecord);
        connect(m_state, &ViewState::documentChanged, this, [this] { showRecord(-1); });
        connect(m_state, &ViewState::wallUtcChanged, this, [this] { setTitle(m_record); });
    }
    showRecord(m_state ? m_state->selectedRecord() : -1);
}

QString InspectorPane::titleText() const {
    return m_title->text() + QLatin1Char('\n') + m_meta->text();
}

QString InspectorPane::errorText() const {
    return m_error->isHidden() ? QString() : m_error->text();
}

void InspectorPane::showRecord(int record) {
    const quint64 generation = ++m_generation;
    const auto doc = m_state ? m_state->document() : nullptr;
    m_frame->clear();
    if (!doc || record < 0 || record >= doc->records().size()) {
        m_record = -1;
        m_model->clear();
        m_error->hide();
        setTitle(-1);
        emit recordShown(-1);
        return;
    }
    m_record = record;
    setTitle(record);
    if (m_tabs->currentWidget() == m_frame) {
        m_frame->setPlainText(frameText());
    }
    if (doc->records().bodyLength(record) <= asyncBytes()) {
        auto built = buildTree(doc, record);
        installTree(record, built->args, std::move(built->root));
        return;
    }
    // Large frame: decode and build off the GUI thread; show a placeholder meanwhile.
    auto placeholder = std::make_unique<TreeNode>();
    placeholder->add(tr("decoding…"), QString(),
                     tr("%1 bytes").arg(QLocale().toString(doc->records().bodyLength(record))));
    m_model->setTree(std::move(placeholder));
    auto *watcher = new QFutureWatcher<std::shared_ptr<BuiltTree>>(this);
    connect(watcher, &QFutureWatcher<std::shared_ptr<BuiltTree>>::finished, this,
            [this, watcher, generation, record] {
                watcher->deleteLater();
                if (generation != m_generation) {
                    return;
                }
                auto built = watcher->result();
                installTree(record, built->args, std::move(built->root));
            });
    watcher->setFuture(JobPool::run([doc, record] { return buildTree(doc, record); }));
}

void InspectorPane::installTree(int record, std::shared_ptr<const TraceDocument::Args> args,
                                std::unique_ptr<TreeNode> root) {
    const QString error = args ? args->error : QString();
    m_model->setTree(std::move(root), args);
    if (error.isEmpty()) {
        m_error->hide();
    } else {
        m_error->setText(QStringLiteral("⚠ ") + tr("Decoding stopped early: %1").arg(error));
        m_error->show();
    }
    applyExpansion();
    m_tree->fitColumns();
    emit recordShown(record);
}

void InspectorPane::setTitle(int record) {
    const auto doc = m_state ? m_state->document() : nullptr;
    if (!doc || record < 0) {
        m_chip->clear();
        m_chip->hide();
        if (doc) {
            m_title->setText(tr("No record selected"));
            m_meta->setText(tr("Select a record in the table to inspect its arguments."));
        } else if (m_state) {
            m_title->setText(tr("Loading…"));
            m_meta->setText(tr("The trace is being read."));
        } else {
            m_title->setText(tr("No trace"));
            m_meta->setText(tr("Open a trace to inspect its records."));
        }
        return;
    }
    const RecordStore &rs = doc->records();
    const QString call = Qualname::shortName(rs.qualname(record));
    m_chip->setPixmap(CallColors::chip(call, 14).pixmap(14, 14));
    m_chip->show();
    m_title->setText(QStringLiteral("#%1  %2").arg(record).arg(Qualname::displayName(call)));
    m_title->setToolTip(Qualname::displayFull(rs.qualname(record)));
    const QLocale loc;
    const bool utc = m_state && m_state->wallUtc();
    m_meta->setText(tr("t_mono %1 s · %2 · frame @%3, %4 B")
                        .arg(TimeFormat::mono(rs.tMono(record)),
                             TimeFormat::wall(rs.tWall(record), utc),
                             loc.toString(rs.frameOffset(record)),
                             loc.toString(qint64(rs.bodyLength(record)) + 4)));
    m_meta->setToolTip(tr("t_mono: seconds since the recorder started\nt_wall: %1\nframe: "
                          "byte offset of the length prefix, and frame length (prefix + body)")
                           .arg(utc ? tr("UTC") : tr("local time")));
}

QString InspectorPane::expansionKey(const QModelIndex &index) const {
    QStringList parts;
    for (QModelIndex i = index.siblingAtColumn(0); i.isValid(); i = i.parent()) {
        parts.prepend(i.data().toString());
    }
    return parts.join(QLatin1Char('/'));
}

void InspectorPane::applyExpansion() {
    m_applyingExpansion = true;
    m_tree->collapseAll();
    constexpr int kShortList = 64;
    // A short keys list: expand it and its first key with its kv_rank (hash, model, rank).
    auto expandKeys = [this](const QModelIndex &keys) {
        m_tree->expand(keys);
        const QModelIndex first = m_model->index(0, 0, keys);
        m_tree->expand(first);
        for (int k = 0; k < m_model->rowCount(first); ++k) {
            const QModelIndex field = m_model->index(k, 0, first);
            if (field.data().toString() == QLatin1String("kv_rank")) {
                m_tree->expand(field);
            }
        }
    };
    // Top-level arguments, and one level below tagged/map arguments (e.g. spec).
    const int top = m_model->rowCount();
    for (int r = 0; r < top; ++r) {
        const QModelIndex a = m_model->index(r, 0);
        const int n = m_model->rowCount(a);
        if (n == 0 || n > kShortList) {
            continue;
        }
        if (a.data().toString() == QLatin1String("keys")) {
            expandKeys(a);
            continue;
        }
        m_tree->expand(a);
        for (int c = 0; c < n; ++c) {
            const QModelIndex b = m_model->index(c, 0, a);
            const int bn = m_model->rowCount(b);
            if (bn == 0) {
                continue;
            }
            if (b.data().toString() == QLatin1String("keys")) {
                if (bn <= kShortList) {
                    expandKeys(b);
                }
            } else if (bn <= 4 && !b.data(InspectorTreeModel::DerivedRole).toBool() &&
                       !isIndexList(b)) {
                m_tree->expand(b);
            }
        }
    }
    // Re-apply what the user opened or closed on earlier records.
    if (!m_userExpanded.isEmpty() || !m_userCollapsed.isEmpty()) {
        const int total = countNodes(m_model->node(QModelIndex()), 20000);
        if (total < 20000) {
            std::function<void(const QModelIndex &)> walk = [&](const QModelIndex &parent) {
                const int n = m_model->rowCount(parent);
                for (int r = 0; r < n; ++r) {
                    const QModelIndex i = m_model->index(r, 0, parent);
                    if (m_model->rowCount(i) == 0) {
                        continue;
                    }
                    const QString key = expansionKey(i);
                    if (m_userExpanded.contains(key)) {
                        m_tree->expand(i);
                    } else if (m_userCollapsed.contains(key)) {
                        m_tree->collapse(i);
                    }
                    walk(i);
                }
            };
            walk(QModelIndex());
        }
    }
    m_applyingExpansion = false;
}

void InspectorPane::contextMenu(const QPoint &pos) {
    const QModelIndex idx = m_tree->indexAt(pos);
    QMenu menu(this);
    if (idx.isValid()) {
        const QModelIndex row = idx.siblingAtColumn(0);
        TreeCopyActions::addToMenu(&menu, row);
        menu.addSeparator();
        addFilterActions(&menu, row);
        if (m_model->rowCount(row) > 0) {
            menu.addAction(tr("Expand Subtree"), this,
                           [this, row] { m_tree->expandRecursively(row); });
        }
    }
    if (m_record >= 0) {
        menu.addAction(tr("Copy Record as JSON"), this, &InspectorPane::copyRecordJson);
        menu.addSeparator();
    }
    const bool small = countNodes(m_model->node(QModelIndex()), 5000) < 5000;
    QAction *all = menu.addAction(tr("Expand All"), m_tree, &QTreeView::expandAll);
    all->setEnabled(small && m_model->rowCount() > 0);
    menu.addAction(tr("Collapse All"), m_tree, &QTreeView::collapseAll)
        ->setEnabled(m_model->rowCount() > 0);
    menu.exec(m_tree->viewport()->mapToGlobal(pos));
}

QString InspectorPane::frameText() const {
    const auto doc = m_state ? m_state->document() : nullptr;
    if (!doc || m_record < 0 || m_record >= doc->records().size()) {
        return {};
    }
    const qint64 offset = doc->records().frameOffset(m_record);
    if (m_record >= doc->readableRecordCount()) {
        // (a dump of the zeros read in its place looked like the file's bytes)
        return tr("The frame at file offset %1 (%2 bytes) is no longer in the file: it shrank to "
                  "%3 bytes while open.")
            .arg(offset)
            .arg(4 + qint64(doc->records().bodyLength(m_record)))
            .arg(doc->shrunkTo());
    }
    return FrameDump::dump(doc->frameBytes(m_record), offset, frameDumpBytes());
}

int InspectorPane::frameDumpWidth() const {
    // a full hex line: what FrameDump writes for 16 bytes
    const QString line = FrameDump::hexLines(QByteArray(16, 'A'), 0, 16);
    const int text = QFontMetrics(m_frame->font()).horizontalAdvance(line);
    const int margins = 2 * int(m_frame->document()->documentMargin()) + 2 * m_frame->frameWidth() +
                        m_frame->verticalScrollBar()->sizeHint().width();
    const QMargins outer = layout() ? layout()->contentsMargins() : QMargins();
    // the tab widget's frame and the dock's own margins
    return text + margins + outer.left() + outer.right() + 16;
}

QString InspectorPane::recordJson() const {
    const auto doc = m_state ? m_state->document() : nullptr;
    if (!doc || m_record < 0) {
        return {};
    }
    return QString::fromUtf8(
        QJsonDocument(RecordJson::toJson(*doc, m_record)).toJson(QJsonDocument::Compact));
}

void InspectorPane::copyRecordJson() {
    const QString json = recordJson();
    if (!json.isEmpty()) {
        QApplication::clipboard()->setText(json);
    }
}

void InspectorPane::addFilterActions(QMenu *menu, const QModelIndex &index) {
    const auto before = menu->actions().size();
    FilterMenuBuilder::addFilterActions(
        menu, m_state, FilterComposer::choicesInTree(m_model->node(index.siblingAtColumn(0))));
    if (menu->actions().size() > before) {
        menu->addSeparator();
    }
}

QString InspectorPane::conditionAt(const QModelIndex &index, bool exclude) const {
    return FilterComposer::conditionForInspectorRow(index, exclude);
}

bool InspectorPane::filterToRow(const QModelIndex &index, bool exclude) {
    const QString cond = conditionAt(index, exclude);
    if (cond.isEmpty() || !m_state) {
        return false;
    }
    m_state->setFilterText(FilterComposer::append(m_state->filterText(), cond));
    return true;
}

bool InspectorPane::followRow(const QModelIndex &index) {
    const QString cond = conditionAt(index, false);
    if (cond.isEmpty() || !m_state) {
        return false;
    }
    m_state->setFollowedKey(cond);
    return true;
}

}  // namespace lmct
