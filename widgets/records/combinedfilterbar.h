#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QProgressBar;

namespace lmct {

/**
 * The filter line above a combined record table: one expression for every trace of a
 * deployment (the `trace` field picks traces by label, instance or number).
 *
 * Parses as the user types (FilterExpression); an invalid text turns the status red with the
 * error and its column; Enter applies a valid text (applyRequested()), and clearing the line
 * applies the empty filter. It does not evaluate: its owner runs the filter over the traces
 * (TraceSetFilter), shows progress with setProgress() and the outcome with setStatus().
 *
 * Ownership: a QWidget. Thread-safety: GUI thread only.
 */
class CombinedFilterBar : public QWidget {
    Q_OBJECT
public:
    explicit CombinedFilterBar(QWidget *parent = nullptr);

    QLineEdit *lineEdit() const { return m_edit; }
    /** The applied (or last applied) text. */
    QString text() const;
    /** Shows `text` as applied (e.g. a filter set from a dock), without asking to apply it. */
    void setText(const QString &text);
    /** Applies the typed text (as Enter does); false when it does not parse. */
    bool apply();
    QString statusText() const;
    void setStatus(const QString &text, bool error = false);
    /** Progress of an evaluation in per mille; negative hides the bar. */
    void setProgress(int perMille);

signals:
    /** A valid text (empty: no filter) is to be applied. */
    void applyRequested(const QString &text);

private:
    void onEdited(const QString &text);

    QLineEdit *m_edit = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
};

}  // namespace lmct
