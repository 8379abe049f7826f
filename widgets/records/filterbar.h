#pragma once

#include "common/viewstateobserver.h"

#include <QPointer>
#include <QWidget>
#include <atomic>
#include <memory>

class QLabel;
class QMenu;
class QLineEdit;
class QProgressBar;
class QTimer;
class QToolButton;

namespace lmct {

class ViewState;

/**
 * The filter line above a trace's record table.
 *
 * - Parses as the user types (FilterExpression); an invalid text turns the line red and shows
 *   the error with its column; Enter applies the text only when it is valid. Clearing the text
 *   (and pressing Enter, or the clear button) clears the filter.
 * - Applying sets ViewState::filterText; the bar observes filterTextChanged (so menus elsewhere
 *   may set the filter too), evaluates with FilterEvaluator on Qt's global pool (never on the
 *   compute pool itself), shows progress, and hands the result to ViewState::setFilterResult.
 *   The previous result stays on screen until then; Esc cancels a running evaluation.
 * - When the document grows (progressive loading, live follow), the filter is re-evaluated,
 *   at most twice a second.
 * - Up/Down walk the history of applied filters (QSettings "filter/history"); the bookmark
 *   button's menu saves the current filter, picks a saved one or deletes one
 *   (QSettings "filter/saved").
 *
 * Ownership: does not own the ViewState. Thread-safety: GUI thread only.
 */
class FilterBar : public QWidget, public ViewStateObserver {
    Q_OBJECT
public:
    explicit FilterBar(QWidget *parent = nullptr);
    ~FilterBar() override;

    void setViewState(ViewState *state) override;

    QLineEdit *lineEdit() const { return m_edit; }
    /** The status text: the error, the progress or the match count. */
    QString statusText() const;
    /**
     * Says, beside the match count, that `text` is the filter this file was last viewed with,
     * restored on opening (TraceTab does it), until another filter is set: a table showing a few
     * of its records must not look like the whole file.
     */
    void noteRestored(const QString &text);
    /** Whether the typed text parses. */
    bool isTextValid() const { return m_valid; }
    /** Whether an evaluation is running. */
    bool isBusy() const { return m_busy; }
    /** Applies the typed text (as Enter does); returns false when it does not parse. */
    bool apply();
    /** Cancels a running evaluation (Esc). */
    void cancel();

    /** Saved filters (QSettings). */
    static QStringList savedFilters();
    static void setSavedFilters(const QStringList &filters);
    /** Applied-filter history, newest last (QSettings). */
    static QStringList history();

signals:
    /** An evaluation finished and its result is in the ViewState. */
    void evaluated();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onTextEdited(const QString &text);
    void onFilterTextChanged(const QString &text);
    void evaluate(const QString &text);
    void showStatus(const QString &text, bool error);
    void updateCount();
    void rememberHistory(const QString &text);
    void fillSavedMenu();
    void updateSavedButton();

    QPointer<ViewState> m_state;
    QLineEdit *m_edit = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
    QToolButton *m_saved = nullptr;  // "Saved Filters ▾": its menu saves, applies, deletes
    QMenu *m_savedMenu = nullptr;
    QTimer *m_regrow = nullptr;
    bool m_valid = true;
    QString m_restored;  // the filter restored on opening, while it applies (noteRestored)
    bool m_busy = false;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic_bool> m_cancel;
    int m_historyPos = -1;
};

}  // namespace lmct
