#include "records/findbar.h"

#include "codec/qualname.h"
#include "codec/recordsummary.h"
#include "common/jobpool.h"
#include "common/stablelabel.h"
#include "filter/filterevaluator.h"
#include "filter/filterexpression.h"
#include "records/decoratedrecordtablemodel.h"
#include "records/recordtableview.h"
#include "viewstate.h"

#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QThreadPool>
#include <QTimer>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

namespace lmct {

namespace {

using Records = std::shared_ptr<const std::vector<int>>;

/** Whether `text` reads as a filter expression rather than words to look for. */
bool looksLikeExpression(const QString &text) {
    static const QRegularExpression op(
        QStringLiteral(R"((==|!=|<=|>=|<|>|=|&&|\|\||\bcontains\b|\bmatches\b|\bin\s*\[))"));
    return op.match(text).hasMatch() && FilterExpression::parse(text).isValid();
}

}  // namespace

FindBar::FindBar(RecordTableView *table, QWidget *parent) : QWidget(parent), m_table(table) {
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 3, 4, 3);
    layout->setSpacing(6);
    m_edit = new QLineEdit(this);
    m_edit->setObjectName(QStringLiteral("findEdit"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setPlaceholderText(
        tr("Find (highlights, does not filter): text in call/summary, or an expression"));
    m_edit->installEventFilter(this);
    // "7 of 120": a stable width, so that the arrows beside it do not move while stepping
    m_counter = new StableLabel(this);
    m_counter->setObjectName(QStringLiteral("findCounter"));
    m_counter->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_counter->setWidthTemplate(tr("%1 of %2").arg(9999).arg(9999));
    auto *prev = new QToolButton(this);
    prev->setArrowType(Qt::UpArrow);
    prev->setAutoRaise(true);
    prev->setToolTip(tr("Previous match (Shift+Enter)"));
    auto *next = new QToolButton(this);
    next->setArrowType(Qt::DownArrow);
    next->setAutoRaise(true);
    next->setToolTip(tr("Next match (Enter)"));
    auto *closeButton = new QToolButton(this);
    closeButton->setText(QStringLiteral("✕"));
    closeButton->setAutoRaise(true);
    closeButton->setToolTip(tr("Close (Esc)"));
    layout->addWidget(new QLabel(tr("Find:"), this));
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_counter);
    layout->addWidget(prev);
    layout->addWidget(next);
    layout->addWidget(closeButton);

    auto *debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(200);
    connect(debounce, &QTimer::timeout, this, &FindBar::search);
    connect(m_edit, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    connect(prev, &QToolButton::clicked, this, [this] { step(-1); });
    connect(next, &QToolButton::clicked, this, [this] { step(1); });
    connect(closeButton, &QToolButton::clicked, this, &FindBar::close);
    if (m_table) {
        // The shown rows or their order changed: recompute the rows of the matches.
        auto *model = m_table->recordModel();
        connect(model, &QAbstractItemModel::modelReset, this, [this] { applyMatches(m_records); });
        connect(model, &QAbstractItemModel::layoutChanged, this,
                [this] { applyMatches(m_records); });
    }
}

FindBar::~FindBar() = default;

QString FindBar::counterText() const {
    return m_counter->text();
}

void FindBar::activate() {
    show();
    m_edit->setFocus();
    m_edit->selectAll();
}

void FindBar::close() {
    hide();
    ++m_generation;
    m_records.reset();
    m_rows.clear();
    m_current = -1;
    if (m_table) {
        m_table->recordModel()->setMatches(nullptr, -1);
        m_table->setFocus();
    }
    updateCounter();
}

void FindBar::search() {
    const quint64 generation = ++m_generation;
    const QString text = m_edit->text().trimmed();
    ViewState *state = m_table ? m_table->viewState() : nullptr;
    const auto doc = state ? state->document() : nullptr;
    if (!doc || text.isEmpty()) {
        applyMatches(nullptr);
        emit searched();
        return;
    }
    // The shown records, ascending: the candidates.
    auto *model = m_table->recordModel();
    auto shown = std::make_shared<std::vector<int>>();
    shown->reserve(size_t(model->rowCount()));
    for (int r = 0; r < model->rowCount(); ++r) {
        shown->push_back(model->recordAt(r));
    }
    std::sort(shown->begin(), shown->end());
    const bool expression = looksLikeExpression(text);
    auto *watcher = new QFutureWatcher<Records>(this);
    connect(watcher, &QFutureWatcher<Records>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation == m_generation) {
            applyMatches(watcher->result());
            if (!m_rows.empty() && m_current < 0) {
                step(1);
            }
            emit searched();
        }
    });
    watcher->setFuture(JobPool::run([doc, text, expression, shown]() -> Records {
        auto out = std::make_shared<std::vector<int>>();
        if (expression) {
            FilterEvaluator::Options o;
            o.subset = shown.get();
            *out = FilterEvaluator(doc, FilterExpression::parse(text)).run(o).records;
            return out;
        }
        const RecordStore &rs = doc->records();
        for (const int rec : *shown) {
            if (Qualname::shortName(rs.qualname(rec)).contains(text, Qt::CaseInsensitive)) {
                out->push_back(rec);
                continue;
            }
            const auto args = doc->args(rec);
            if (args && RecordSummary::summarize(rs.qualname(rec), args->value, 2000)
                            .contains(text, Qt::CaseInsensitive)) {
                out->push_back(rec);
            }
        }
        return out;
    }));
}

void FindBar::applyMatches(std::shared_ptr<const std::vector<int>> records) {
    const int currentRecord = (m_current >= 0 && m_current < int(m_rows.size()) && m_table)
                                  ? m_table->recordModel()->recordAt(m_rows[size_t(m_current)])
                                  : -1;
    m_records = std::move(records);
    m_rows.clear();
    m_current = -1;
    if (m_table && m_records) {
        auto *model = m_table->recordModel();
        for (const int rec : *m_records) {
            const int row = model->rowOf(rec);
            if (row >= 0) {
                m_rows.push_back(row);
            }
        }
        std::sort(m_rows.begin(), m_rows.end());
        for (size_t i = 0; i < m_rows.size(); ++i) {
            if (model->recordAt(m_rows[i]) == currentRecord) {
                m_current = int(i);
            }
        }
    }
    if (m_table) {
        m_table->recordModel()->setMatches(m_records, currentRecord);
    }
    updateCounter();
}

void FindBar::step(int direction) {
    if (m_rows.empty() || !m_table) {
        return;
    }
    const int n = int(m_rows.size());
    if (m_current < 0) {
        // Start from the selected row when there is one.
        const int selRow = m_table->currentIndex().isValid() ? m_table->currentIndex().row() : -1;
        if (direction > 0) {
            auto it = std::upper_bound(m_rows.begin(), m_rows.end(), selRow);
            m_current = it == m_rows.end() ? 0 : int(it - m_rows.begin());
        } else {
            auto it = std::lower_bound(m_rows.begin(), m_rows.end(), selRow < 0 ? 0 : selRow);
            m_current = it == m_rows.begin() ? n - 1 : int(it - m_rows.begin()) - 1;
        }
    } else {
        m_current = ((m_current + (direction > 0 ? 1 : -1)) % n + n) % n;
    }
    auto *model = m_table->recordModel();
    const int record = model->recordAt(m_rows[size_t(m_current)]);
    model->setMatches(m_records, record);
    if (ViewState *state = m_table->viewState()) {
        state->setSelectedRecord(record);
    }
    updateCounter();
}

void FindBar::updateCounter() {
    if (m_edit->text().trimmed().isEmpty() || !m_records) {
        m_counter->clear();
    } else if (m_rows.empty()) {
        m_counter->setText(tr("no match"));
    } else {
        m_counter->setText(tr("%1 of %2").arg(m_current + 1).arg(m_rows.size()));
    }
}

bool FindBar::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_edit && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter ||
            key->key() == Qt::Key_F3) {
            step(key->modifiers() & Qt::ShiftModifier ? -1 : 1);
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            close();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace lmct
