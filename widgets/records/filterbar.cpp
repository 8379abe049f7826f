#include "records/filterbar.h"

#include "common/jobpool.h"
#include "filter/filterevaluator.h"
#include "filter/filterexpression.h"
#include "viewstate.h"

#include <QAction>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QProgressBar>
#include <QSettings>
#include <QSignalBlocker>
#include <QThreadPool>
#include <QTimer>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>

namespace lmct {

namespace {

constexpr int kHistoryMax = 50;
const char *const kHistoryKey = "filter/history";
const char *const kSavedKey = "filter/saved";

using Records = std::shared_ptr<const std::vector<int>>;

struct Outcome {
    Records records;
    bool cancelled = false;
};

}  // namespace

FilterBar::FilterBar(QWidget *parent) : QWidget(parent) {
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 3, 4, 3);
    layout->setSpacing(6);
    auto *label = new QLabel(tr("Filter:"), this);
    m_edit = new QLineEdit(this);
    m_edit->setObjectName(QStringLiteral("filterEdit"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setPlaceholderText(
        tr("e.g. call == reserve_write && model_name == \"Qwen/Qwen3-8B\" — Enter applies"));
    m_edit->installEventFilter(this);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("filterStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(120);
    m_progress->setTextVisible(false);
    m_progress->hide();
    // A menu button, not a state: "Saved" alone read as "this filter is saved".
    m_saved = new QToolButton(this);
    m_saved->setObjectName(QStringLiteral("savedFilters"));
    m_saved->setText(tr("Saved Filters"));
    m_saved->setIcon(QIcon::fromTheme(QStringLiteral("bookmarks")));
    m_saved->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_saved->setAutoRaise(true);
    m_savedMenu = new QMenu(m_saved);
    m_saved->setMenu(m_savedMenu);
    m_saved->setPopupMode(QToolButton::InstantPopup);
    connect(m_savedMenu, &QMenu::aboutToShow, this, &FilterBar::fillSavedMenu);
    updateSavedButton();
    layout->addWidget(label);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(m_saved);

    connect(m_edit, &QLineEdit::textEdited, this, &FilterBar::onTextEdited);
    connect(m_edit, &QLineEdit::returnPressed, this, &FilterBar::apply);
    connect(m_edit, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (text.isEmpty()) {  // the clear button, or everything deleted
            onTextEdited(text);
        }
    });
    m_regrow = new QTimer(this);
    m_regrow->setSingleShot(true);
    m_regrow->setInterval(500);
    connect(m_regrow, &QTimer::timeout, this, [this] {
        if (m_state && !m_state->filterText().isEmpty()) {
            evaluate(m_state->filterText());
        }
    });
}

FilterBar::~FilterBar() {
    if (m_cancel) {
        m_cancel->store(true);
    }
}

void FilterBar::setViewState(ViewState *state) {
    if (!rebind(m_state, state, this)) {
        return;
    }
    cancel();
    if (m_state) {
        connect(m_state, &ViewState::filterTextChanged, this, &FilterBar::onFilterTextChanged);
        connect(m_state, &ViewState::filterChanged, this, &FilterBar::updateCount);
        connect(m_state, &ViewState::documentChanged, this, &FilterBar::updateCount);
        // Progressive loading / live follow: re-evaluate the filter over the grown document,
        // at most twice a second.
        connect(m_state, &ViewState::documentGrew, this, [this] {
            if (m_state && !m_state->filterText().isEmpty() && !m_regrow->isActive()) {
                m_regrow->start();
            }
        });
        m_edit->setText(m_state->filterText());
    } else {
        m_edit->clear();
    }
    onTextEdited(m_edit->text());
}

QString FilterBar::statusText() const {
    return m_status->text();
}

void FilterBar::showStatus(const QString &text, bool error) {
    m_status->setText(text);
    QPalette pal = palette();
    if (error) {
        pal.setColor(QPalette::Base, QColor(0xff, 0xe0, 0xe0));
        pal.setColor(QPalette::Text, QColor(0x80, 0x00, 0x00));
        m_status->setStyleSheet(QStringLiteral("color: #b00020;"));
    } else {
        m_status->setStyleSheet(QString());
    }
    m_edit->setPalette(pal);
}

void FilterBar::onTextEdited(const QString &text) {
    m_historyPos = -1;
    const FilterExpression expr = FilterExpression::parse(text);
    m_valid = expr.isValid();
    updateSavedButton();
    m_edit->setToolTip(m_valid ? QString() : expr.errorString());
    if (!m_valid) {
        showStatus(expr.errorString(), true);
        return;
    }
    if (text.trimmed().isEmpty() && m_state && !m_state->filterText().isEmpty()) {
        m_state->setFilterText(QString());  // clearing the text clears the filter
    }
    showStatus(QString(), false);
    updateCount();
}

bool FilterBar::apply() {
    const QString text = m_edit->text().trimmed();
    const FilterExpression expr = FilterExpression::parse(text);
    m_valid = expr.isValid();
    updateSavedButton();
    if (!m_valid) {
        showStatus(expr.errorString(), true);
        return false;
    }
    if (!m_state) {
        return true;
    }
    if (!text.isEmpty()) {
        rememberHistory(text);
    }
    if (text == m_state->filterText()) {
        if (m_state->filterPending()) {
            evaluate(text);  // e.g. after a cancel
        }
        return true;
    }
    m_state->setFilterText(text);  // onFilterTextChanged evaluates
    return true;
}

void FilterBar::cancel() {
    ++m_generation;
    if (m_cancel) {
        m_cancel->store(true);
        m_cancel.reset();
    }
    if (m_busy) {
        m_busy = false;
        m_progress->hide();
        showStatus(tr("cancelled"), false);
    }
}

void FilterBar::noteRestored(const QString &text) {
    m_restored = text;
    updateCount();
}

void FilterBar::onFilterTextChanged(const QString &text) {
    if (text != m_restored) {
        m_restored.clear();
    }
    if (m_edit->text().trimmed() != text) {
        const QSignalBlocker block(m_edit);
        m_edit->setText(text);
        const FilterExpression expr = FilterExpression::parse(text);
        m_valid = expr.isValid();
        updateSavedButton();
        if (!m_valid) {
            showStatus(expr.errorString(), true);
        }
    }
    if (text.isEmpty()) {
        cancel();
        showStatus(QString(), false);
        updateCount();
        return;
    }
    evaluate(text);
}

void FilterBar::evaluate(const QString &text) {
    cancel();
    const auto doc = m_state ? m_state->document() : nullptr;
    const FilterExpression expr = FilterExpression::parse(text);
    if (!doc || !expr.isValid()) {
        if (!expr.isValid()) {
            showStatus(expr.errorString(), true);
        }
        return;
    }
    const quint64 generation = ++m_generation;
    auto cancelFlag = std::make_shared<std::atomic_bool>(false);
    m_cancel = cancelFlag;
    m_busy = true;
    m_progress->setValue(0);
    m_progress->show();
    showStatus(tr("filtering… (Esc cancels)"), false);
    QPointer<FilterBar> self(this);
    auto *watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, generation, text] {
        watcher->deleteLater();
        if (generation != m_generation) {
            return;
        }
        m_busy = false;
        m_cancel.reset();
        m_progress->hide();
        const Outcome out = watcher->result();
        if (out.cancelled) {
            showStatus(tr("cancelled"), false);
            return;
        }
        if (m_state) {
            m_state->setFilterResult(text, out.records);
        }
        updateCount();
        emit evaluated();
    });
    watcher->setFuture(JobPool::run([doc, expr, cancelFlag, self, generation] {
        FilterEvaluator ev(doc, expr);
        FilterEvaluator::Options o;
        o.cancel = cancelFlag.get();
        o.progress = [self, generation](qint64 done, qint64 total) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, generation, done, total] {
                    if (self && self->m_generation == generation && total > 0) {
                        self->m_progress->setValue(int(double(done) / double(total) * 1000.0));
                    }
                },
                Qt::QueuedConnection);
        };
        FilterEvaluator::Result r = ev.run(o);
        Outcome out;
        out.cancelled = r.cancelled;
        out.records = std::make_shared<const std::vector<int>>(std::move(r.records));
        return out;
    }));
}

void FilterBar::updateCount() {
    if (!m_valid || m_busy) {
        return;
    }
    const auto doc = m_state ? m_state->document() : nullptr;
    const auto records = m_state ? m_state->filterRecords() : nullptr;
    if (!doc || !records) {
        showStatus(QString(), false);
        return;
    }
    const QLocale loc;
    QString status =
        tr("%1 of %2 records match")
            .arg(loc.toString(qint64(records->size())), loc.toString(doc->records().size()));
    if (!m_restored.isEmpty()) {
        status += tr(" · filter restored: the last one used on this file");
    }
    showStatus(status, false);
}

QStringList FilterBar::history() {
    return QSettings().value(QLatin1String(kHistoryKey)).toStringList();
}

void FilterBar::rememberHistory(const QString &text) {
    QStringList h = history();
    h.removeAll(text);
    h.append(text);
    while (h.size() > kHistoryMax) {
        h.removeFirst();
    }
    QSettings().setValue(QLatin1String(kHistoryKey), h);
    m_historyPos = -1;
}

QStringList FilterBar::savedFilters() {
    return QSettings().value(QLatin1String(kSavedKey)).toStringList();
}

void FilterBar::setSavedFilters(const QStringList &filters) {
    QSettings().setValue(QLatin1String(kSavedKey), filters);
}

void FilterBar::updateSavedButton() {
    // (saved filters are kept for every trace, in the settings, not for this trace only)
    m_saved->setToolTip(
        m_valid ? tr("Filters saved for every trace: save the current filter, apply or delete a "
                     "saved one")
                : tr("Filters saved for every trace: apply or delete a saved one (the current "
                     "filter is not valid, so it cannot be saved)"));
}

void FilterBar::fillSavedMenu() {
    QMenu &menu = *m_savedMenu;
    menu.clear();
    const QString current = m_edit->text().trimmed();
    QAction *save = menu.addAction(tr("Save Current Filter"), this, [current] {
        QStringList s = savedFilters();
        if (!s.contains(current)) {
            s.append(current);
            setSavedFilters(s);
        }
    });
    save->setEnabled(m_valid && !current.isEmpty());
    const QStringList saved = savedFilters();
    if (!saved.isEmpty()) {
        menu.addSeparator();
        for (const QString &f : saved) {
            menu.addAction(f, this, [this, f] {
                m_edit->setText(f);
                onTextEdited(f);
                apply();
            });
        }
        menu.addSeparator();
        QMenu *del = menu.addMenu(tr("Delete"));
        for (const QString &f : saved) {
            del->addAction(f, this, [f] {
                QStringList s = savedFilters();
                s.removeAll(f);
                setSavedFilters(s);
            });
        }
    }
}

bool FilterBar::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_edit && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Escape && m_busy) {
            cancel();
            return true;
        }
        if (key->key() == Qt::Key_Up || key->key() == Qt::Key_Down) {
            const QStringList h = history();
            if (h.isEmpty()) {
                return true;
            }
            if (key->key() == Qt::Key_Up) {
                m_historyPos = m_historyPos < 0 ? int(h.size()) - 1 : std::max(0, m_historyPos - 1);
            } else {
                if (m_historyPos < 0) {
                    return true;
                }
                m_historyPos = m_historyPos + 1;
            }
            const int pos = m_historyPos;
            const QString text = pos < h.size() ? h.at(pos) : QString();
            {
                const QSignalBlocker block(m_edit);
                m_edit->setText(text);
            }
            const FilterExpression expr = FilterExpression::parse(text);
            m_valid = expr.isValid();
            updateSavedButton();
            showStatus(m_valid ? QString() : expr.errorString(), !m_valid);
            m_historyPos = pos < h.size() ? pos : -1;
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace lmct
